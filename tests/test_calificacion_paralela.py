"""End to end: the same grades with 1 worker, 2 workers and a PostgreSQL gradebook; the sandbox check.

One small course (lesson 1 only, to keep it short): three sample students (one
of them in a folder whose name has a comma, which nbgrader's own exclusion
list could not hold; a full mark, a partial one and a planted mistake) and a broken submission (its notebook is not JSON), graded by ``scripts/calificacion/grade.py``
with ``CURSO_TRABAJADORES=1`` on SQLite and with ``=2`` writing straight into a
private PostgreSQL cluster (started here on loopback; given as
a plain ``postgresql://`` URL, which the course rewrites), or, where there is no
PostgreSQL, into SQLite copies merged at the end (with PostgreSQL, that merge
is checked by ``make grade``'s own run in ``test_calificacion.py``, one worker
per core, and its second pass with one).  Every grade, comment
and manual-grade flag, the TA table with its observations, ``grades.csv`` and
the feedback files must be identical, and so must the class report (issue 15:
two battery submissions repeat the samples' planted mistakes, so each is
counted twice across both workers).  And the Kubernetes Job's entry point: the
assignment released into a second, empty PostgreSQL gradebook, two
``--fragmento I/2`` processes at once on it, and ``make informe``: the same
grades, comments and report, written by the shards alone.  The three gradings
(1 worker, 2 workers, shards) are independent and run at once.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

import postgresql_temporal
from curso_temporal import copiar_curso, ejecutar, entorno
from scripts.calificacion import libro_de_notas
from scripts.calificacion import samples

TAREA, OTRA = "01_atencion_multicabeza", "02_codificacion_posicional"
MUESTRAS = ["escala_d_model", "perfecta", "sin,wo"]
ROTA = "rota"
# battery submissions with the samples' planted mistakes (and the same wrong quiz answer as escala_d_model)
BATERIA = {"bateria_escala": ("e01_escala_d_model.py", "respuesta_2 = 4 * 512 * 512 + 1"),
           "bateria_sin_wo": ("e08_sin_wo.py", "")}


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """The course with its submissions, before grading (copied for each way of grading)."""
    curso = copiar_curso(tmp_path_factory.mktemp("paralela") / "base")
    for alumno in MUESTRAS:
        samples.build_student(alumno.replace(",", "_"), samples.RESPUESTAS / f"{alumno.replace(',', '_')}.py",
                              curso / "release", curso / "submitted")
        if "," in alumno:
            (curso / "submitted" / alumno.replace(",", "_")).rename(curso / "submitted" / alumno)
    from grader_tests.juez.descubrimiento import ejercicio
    for alumno, (archivo, pregunta) in BATERIA.items():
        codigo = (ejercicio("multi_head").carpeta / "bateria" / archivo).read_text(encoding="utf-8")
        respuestas = curso.parent / f"{alumno}.py"
        respuestas.write_text(f"# %% {TAREA} / multi_head\n{codigo}\n# %% {TAREA} / quiz = correcto\n"
                              + (f"# %% {TAREA} / respuesta_2\n{pregunta}\n" if pregunta else ""), encoding="utf-8")
        samples.build_student(alumno, respuestas, curso / "release", curso / "submitted")
    for carpeta in [curso / "source" / OTRA, curso / "release" / OTRA, *curso.glob(f"submitted/*/{OTRA}")]:
        shutil.rmtree(carpeta)
    rota = curso / "submitted" / ROTA / TAREA
    shutil.copytree(curso / "release" / TAREA, rota)
    (rota / "atencion_multicabeza.ipynb").write_text('{"cells": [{"cell_type": "code", "sour')
    return curso


def _volcado(url: str) -> dict:
    """Every grade, comment and flag of the gradebook, by names."""
    libro_de_notas.herramientas_en_path()
    datos = {}
    with Gradebook(url) as gb:
        for asignacion in gb.assignments:
            for entrega in asignacion.submissions:
                clave = (asignacion.name, entrega.student.id)
                datos[clave] = (entrega.score, entrega.max_score, entrega.needs_manual_grade, str(entrega.timestamp))
                for nb in entrega.notebooks:
                    for g in nb.grades:
                        datos[(*clave, nb.name, g.name)] = (g.auto_score, g.manual_score, g.extra_credit,
                                                            g.needs_manual_grade)
                    for c in nb.comments:
                        datos[(*clave, nb.name, c.name, "comentario")] = (c.auto_comment, c.manual_comment)
    return datos


def _tabla(salida: str) -> list[str]:
    """The TA table and its observations, as printed."""
    lineas = salida.splitlines()
    inicio = next(i for i, l in enumerate(lineas) if l.startswith("alumno "))
    fin = next((i for i, l in enumerate(lineas) if l.startswith("Notas:")), len(lineas))
    return lineas[inicio:fin]


def _comentarios(curso: Path) -> dict[str, str]:
    return {str(p.relative_to(curso)): p.read_text() for p in sorted((curso / "feedback").rglob("*.html"))}


def _informe(curso: Path) -> dict[str, str]:
    """The class report's CSVs, and its HTML without the date line."""
    import re
    textos = {str(p.relative_to(curso)): p.read_text(encoding="utf-8") for p in sorted((curso / "informe").rglob("*.csv"))}
    textos["informe.html"] = re.sub(r"Generado el [^<]*", "", (curso / "informe" / "informe.html").read_text(encoding="utf-8"))
    return textos


def _calificar(base: Path, destino: Path, url: str | None = None, **variables: str) -> dict:
    curso = destino / "curso"
    shutil.copytree(base, curso, symlinks=True)
    proceso = ejecutar(curso, "python", "scripts/calificacion/grade.py", env=variables, timeout=900)
    return {"curso": curso, "salida": proceso.stdout,
            "notas": _volcado(url or libro_de_notas.url_sqlite(curso)),
            "csv": sorted((curso / "grades.csv").read_text().splitlines()),
            "comentarios": _comentarios(curso), "informe": _informe(curso)}


def _fragmentos(base: Path, destino: Path, url: str) -> dict:
    """The Kubernetes Indexed Job on its own copy: ``nbgrader generate_assignment`` into the empty
    PostgreSQL gradebook ``url``, then two ``--fragmento I/2`` processes at once (one worker each) and
    ``make informe`` (``python -m scripts.informe``) from the shards' verdicts and that gradebook."""
    curso = destino / "curso"
    shutil.copytree(base, curso, symlinks=True)
    ejecutar(curso, "nbgrader", "generate_assignment", TAREA, "--force", env={"CURSO_DB_URL": url})
    variables = {**entorno(), "CURSO_DB_URL": url, "CURSO_TRABAJADORES": "1"}
    procesos = [subprocess.Popen([sys.executable, "scripts/calificacion/grade.py", "--fragmento", f"{i}/2"], cwd=curso,
                                 env=variables, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                for i in range(2)]
    salidas = [p.communicate(timeout=900)[0] for p in procesos]
    resultado = {"curso": curso, "salidas": salidas, "codigos": [p.returncode for p in procesos]}
    if resultado["codigos"] == [0, 0]:
        ejecutar(curso, "python", "-m", "scripts.informe", env={"CURSO_DB_URL": url})
        resultado.update(notas=_volcado(url), comentarios=_comentarios(curso), informe=_informe(curso))
    return resultado


def _se_usa(request, prueba: str) -> bool:
    """Whether the session runs (and does not skip) the test of this module called ``prueba``."""
    return any(item.name == prueba and item.module.__name__ == __name__ and not item.get_closest_marker("skip")
               for item in request.session.items)


@pytest.fixture(scope="module")
def calificaciones(base, tmp_path_factory, request):
    """The gradings of the same submissions, started at once, each in its own copy.

    With 1 worker on SQLite, with 2 (writing into PostgreSQL when its test runs and PostgreSQL is there,
    else on SQLite) and the two shards of a Kubernetes Job on a second PostgreSQL gradebook: independent runs
    of ``grade.py``, so they share the machine instead of waiting for each other (the one-worker run alone
    leaves a core idle).  A failure of the shards' run is kept for its own test
    (``calificaciones["fragmentos"]`` holds the exception), never raised here; ``calificaciones["pg"]`` is the
    2-worker run when it wrote into PostgreSQL.
    """
    destinos = {clave: tmp_path_factory.mktemp(clave) for clave in ("k1", "k2", "fragmentos")}
    url = url_fragmentos = None
    if _se_usa(request, "test_con_postgresql_los_trabajadores_escriben_directamente_y_dan_lo_mismo") \
            and postgresql_temporal.que_falta() is None:
        cluster = request.getfixturevalue("postgresql")
        url = cluster.crear_base("gradebook_atencion")
        url_fragmentos = cluster.crear_base("gradebook_fragmentos")
    with ThreadPoolExecutor(max_workers=3) as hilos:
        futuros = {"k1": hilos.submit(_calificar, base, destinos["k1"], CURSO_TRABAJADORES="1")}
        if url:
            # the 2 workers write into PostgreSQL (the documented rewrite: a plain postgresql:// URL becomes
            # postgresql+psycopg2://); the merge of SQLite copies with 2 workers is make grade's own run
            # (test_calificacion.py, one worker per core) and, without PostgreSQL, this one
            futuros["k2"] = hilos.submit(_calificar, base, destinos["k2"], url=url, CURSO_TRABAJADORES="2",
                                         CURSO_DB_URL=url.replace("postgresql+psycopg2://", "postgresql://"))
            futuros["fragmentos"] = hilos.submit(_fragmentos, base, destinos["fragmentos"], url_fragmentos)
        else:
            futuros["k2"] = hilos.submit(_calificar, base, destinos["k2"], CURSO_TRABAJADORES="2")
        resultados = {clave: futuro.exception() or futuro.result() for clave, futuro in futuros.items()}
    for clave in ("k1", "k2"):
        if isinstance(resultados[clave], BaseException):
            raise resultados[clave]
    if url:
        resultados["url"], resultados["pg"] = url, resultados["k2"]
    return resultados


@pytest.fixture(scope="module")
def un_trabajador(calificaciones):
    return calificaciones["k1"]


@pytest.fixture(scope="module")
def dos_trabajadores(calificaciones):
    return calificaciones["k2"]


@pytest.mark.slow
def test_uno_y_dos_trabajadores_dan_lo_mismo(un_trabajador, dos_trabajadores):
    assert "Se califica con 1 trabajador " in un_trabajador["salida"]
    assert "Se califica con 2 trabajadores a la vez" in dos_trabajadores["salida"]
    assert dos_trabajadores["notas"] == un_trabajador["notas"]
    assert _tabla(dos_trabajadores["salida"]) == _tabla(un_trabajador["salida"])
    assert dos_trabajadores["csv"] == un_trabajador["csv"]
    assert dos_trabajadores["comentarios"] == un_trabajador["comentarios"]
    assert len(dos_trabajadores["comentarios"]) == len(MUESTRAS) + len(BATERIA)
    assert dos_trabajadores["informe"] == un_trabajador["informe"]
    # nothing of the workers' copies is left behind (on SQLite; with PostgreSQL, no file at all)
    assert sorted(p.name for p in dos_trabajadores["curso"].glob("*.db")) == \
        ([] if "postgresql" in dos_trabajadores["salida"] else ["gradebook.db"])


@pytest.mark.slow
def test_la_entrega_rota_tiene_su_fila_y_su_motivo_y_no_toca_a_nadie(un_trabajador, dos_trabajadores):
    notas = dos_trabajadores["notas"]
    assert notas[(TAREA, ROTA)][0] == 0
    tabla = _tabla(dos_trabajadores["salida"])
    assert any(l.startswith(f"  {ROTA} / {TAREA}: el cuaderno no es un JSON válido") for l in tabla), tabla
    # its worker's other student is graded as usual (sorted: rota shares worker 1 with escala_d_model)
    assert 0 < notas[(TAREA, "escala_d_model")][0] < notas[(TAREA, "escala_d_model")][1]
    assert notas[(TAREA, "perfecta")][0] == notas[(TAREA, "perfecta")][1]


@pytest.mark.slow
def test_el_informe_cuenta_los_errores_sembrados_de_los_dos_trabajadores(dos_trabajadores):
    import csv
    carpeta = dos_trabajadores["curso"] / "informe" / TAREA
    leer = lambda n: list(csv.DictReader(open(carpeta / f"{n}.csv", encoding="utf-8")))  # noqa: E731
    assert [(f["id"], f["alumnos"]) for f in leer("errores")] == [("escala_d_model", "2"), ("sin_wo", "2")]
    pregunta = {f["variable"]: f for f in leer("cuestionario")}["respuesta_2"]
    assert (pregunta["respuesta_incorrecta_mas_elegida"], pregunta["veces"]) == (str(4 * 512 * 512 + 1), "2")
    assert any(f["alumno"] == ROTA and "nbgrader no pudo calificar" in f["motivo"] for f in leer("incidencias"))


@pytest.fixture(scope="module")
def postgresql():
    postgresql_temporal.omitir_o_fallar()
    cluster = postgresql_temporal.ClusterTemporal()
    try:
        cluster.arrancar()
        yield cluster
    finally:
        cluster.parar()


@pytest.mark.slow
def test_con_postgresql_los_trabajadores_escriben_directamente_y_dan_lo_mismo(
        postgresql, calificaciones, un_trabajador):
    # graded with the others (``calificaciones``): 2 workers, CURSO_DB_URL a plain postgresql:// URL
    assert "pg" in calificaciones, "la calificación con PostgreSQL no se lanzó"
    resultado, url = calificaciones["pg"], calificaciones["url"]
    if isinstance(resultado, BaseException):
        raise resultado
    curso = resultado["curso"]
    assert "Se califica con 2 trabajadores a la vez (libro de notas: postgresql+psycopg2://nbgrader:***@" \
        in resultado["salida"]
    assert postgresql.clave not in resultado["salida"]
    assert not (curso / "gradebook.db").exists()
    assert resultado["notas"] == un_trabajador["notas"]
    assert _tabla(resultado["salida"]) == _tabla(un_trabajador["salida"])
    assert resultado["csv"] == un_trabajador["csv"]
    assert resultado["comentarios"] == un_trabajador["comentarios"]
    assert resultado["informe"] == un_trabajador["informe"]

    # the Kubernetes Indexed Job: two shards at once, each writing its students into a gradebook that only
    # held the released assignment (graded with the others: ``_fragmentos``)
    fragmentos = calificaciones["fragmentos"]
    if isinstance(fragmentos, BaseException):
        raise fragmentos
    salidas = fragmentos["salidas"]
    assert fragmentos["codigos"] == [0, 0], salidas
    assert f"Fragmento 1/2: 3 alumnos de {len(MUESTRAS) + len(BATERIA) + 1}." in salidas[1]
    filas = [l.split()[0] for s in salidas for l in _tabla(s)[2:] if l and not l.startswith(("  ", "Obs"))]
    assert sorted(filas) == sorted([*MUESTRAS, *BATERIA, ROTA])
    observaciones = sorted(l for s in salidas for l in _tabla(s) if l.startswith("  "))
    assert observaciones == sorted(l for l in _tabla(un_trabajador["salida"]) if l.startswith("  "))
    assert fragmentos["notas"] == un_trabajador["notas"]
    assert fragmentos["comentarios"] == un_trabajador["comentarios"]
    # the report from the shards' verdicts and the PostgreSQL gradebook (make informe)
    assert fragmentos["informe"] == un_trabajador["informe"]


def test_sin_aislamiento_no_se_califica_a_nadie(tmp_path):
    """bubblewrap that cannot create its namespaces (a container's default profile): exit 1, Spanish reason."""
    curso = copiar_curso(tmp_path / "curso")
    falso = tmp_path / "bin"
    falso.mkdir()
    (falso / "bwrap").write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    (falso / "bwrap").chmod(0o755)
    proceso = ejecutar(curso, "python", "scripts/calificacion/grade.py", check=False, timeout=300,
                       env={"PATH": f"{falso}{os.pathsep}{entorno()['PATH']}", "CURSO_SIN_AISLAMIENTO": ""})
    assert proceso.returncode != 0
    assert "el aislamiento (bubblewrap) no arranca" in proceso.stderr
    assert "No permissions to create new namespace" in proceso.stderr
    assert "CURSO_SIN_AISLAMIENTO=1" in proceso.stderr and "seccomp=unconfined" in proceso.stderr
    assert "No se ha calificado a nadie." in proceso.stderr
    assert not (curso / "gradebook.db").exists() and not (curso / "grades.csv").exists()
    assert not (curso / "submitted").exists()
    assert [p.name for p in (curso / "autograded").iterdir() if p.is_dir()] == []


def test_alumno_y_fragmento_no_van_juntos_y_un_alumno_sin_entrega_se_nombra(tmp_path):
    """``grade.py --alumno`` (regrade some students; used by test_seguridad's second run): with ``--fragmento``,
    a usage error; a student with no folder in submitted/ stops before grading anyone, naming them."""
    proceso = subprocess.run([sys.executable, "scripts/calificacion/grade.py", "--alumno", "ana", "--fragmento", "0/2"],
                             cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=120)
    assert proceso.returncode == 2 and "--alumno y --fragmento no van juntos" in proceso.stderr
    curso = copiar_curso(tmp_path / "curso")
    (curso / "submitted" / "luis" / TAREA).mkdir(parents=True)
    proceso = ejecutar(curso, "python", "scripts/calificacion/grade.py", "--alumno", "ana\x1b[2J", check=False,
                       timeout=300, env={"CURSO_SIN_AISLAMIENTO": "1"})
    assert proceso.returncode != 0
    assert "no hay carpeta en submitted/ de ana\\x1b[2J (¿falta recoger su entrega?)" in proceso.stderr, proceso.stderr
    assert not (curso / "autograded" / "luis").exists()
