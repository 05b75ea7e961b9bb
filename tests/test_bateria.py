"""The battery of student implementations, autograded by the real nbgrader pipeline.

Every exercise found in ``grader_tests/ejercicios/`` brings its battery
(``grader_tests/ejercicios/<function>/bateria/``): files that hold only what
a student would type in the exercise cell (imports and the function) and a
header (``grader_tests.juez.descubrimiento.ArchivoDeBateria``: ``# espera:``,
``# error:``, ``# diagnostico:``, ``# puntos:``, ``# celdas:``).

Each file becomes one student: it is planted into a copy of the release
notebook of the lesson that grades the function, in the solution cell (the
quiz answered correctly, the rest of the notebook untouched), all students
of one assignment are autograded by ONE ``nbgrader autograde`` in a temporary
course, and the scores are read back from the gradebook (the exercise's test
cells only; quiz cells are ignored).  The grades of the files recorded before
issue 14 must not change (``tests/notas_de_referencia.json``).

A sample of the files (``muestra``: every full-marks and zero file, every trick only the grade sees,
a third of the rest; all with ``CURSO_BATERIA_COMPLETA=1``) goes through the real pipeline: autograde, and
Validate as the student would (issue 11), in a copy of the release folder, with its
``nbgrader_config.py``, through the code path of JupyterLab's Validate button (``validar_lote.py``, one
process per assignment).  The whole battery is judged in-process (``test_diagnostico.py``, the visible
tests in ``test_pruebas_visibles.py``) against the same per-cell record autograde made of every file
(``notas_de_referencia.json``: ``tests/registrar_notas.py`` autogrades them all, and
``test_en_proceso_y_autocalificada_dan_lo_mismo`` keeps both records equal), so the sample checks that the
kernel, its time limits and nbgrader change nothing.  Validate's verdict is recorded next to autograde's
(``test-artifacts/bateria-validate.txt``) and must agree: «Success» for every
implementation that autograde gives full marks, a failure of an exercise cell
for every one that loses points outside the cells whose property is checked
``solo_al_calificar`` (unusual shapes, as the lessons say); and a failing
Validate shows a Spanish diagnosis («✘ …») within the first 15 lines of its
dialog (issue 22.3).

The assignments run in parallel, in one temporary course each, each with its
autograde and its validation running at the same time; the whole of it
(``autocalificar``) in the background from the session's start
(tests/segundo_plano.py), and this module runs last.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

import pytest

from grader_tests.juez import bateria, descubrimiento
from scripts.calificacion import samples

RAIZ = Path(__file__).resolve().parent.parent
INFORME = RAIZ / "test-artifacts" / "bateria-validate.txt"
NOTAS_DE_REFERENCIA = json.loads((RAIZ / "tests" / "notas_de_referencia.json").read_text(encoding="utf-8"))
EJERCICIOS = descubrimiento.ejercicios()
# function -> (assignment folder, notebook name): the lesson whose exercise cell is that function
ASIGNACIONES = {f: (l.tarea, l.cuaderno.stem) for l in descubrimiento.lecciones(RAIZ) for f in l.funciones
                if f in EJERCICIOS}


def archivos(funcion: str) -> list[descubrimiento.ArchivoDeBateria]:
    return EJERCICIOS[funcion].bateria()


def plantar(nb, funcion: str, codigo: str):
    """Put ``codigo`` where the student types, in the cell with grade_id ``funcion``."""
    samples.plant(nb, funcion, codigo)
    assert "raise NotImplementedError()" not in next(
        c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == funcion)
    return nb


def _entorno() -> dict:
    entorno = dict(os.environ)
    binarios = str(Path(sys.executable).parent)
    entorno["PATH"] = binarios + os.pathsep + entorno.get("PATH", "")
    entorno.pop("JUPYTER_CONFIG_DIR", None)
    return entorno


def _nbgrader(curso: Path, *argumentos: str) -> subprocess.Popen:
    registro = open(curso / f"nbgrader_{argumentos[0]}.log", "w")
    return subprocess.Popen([sys.executable, "-m", "nbgrader", *argumentos], cwd=curso,
                            env=_entorno(), stdout=registro, stderr=subprocess.STDOUT)


def _esperar(proceso: subprocess.Popen, curso: Path, que: str, limite: float = 420) -> None:
    codigo = proceso.wait(timeout=limite)
    assert codigo == 0, f"nbgrader {que} falló:\n" + (curso / f"nbgrader_{que}.log").read_text()[-4000:]


def preparar_curso(base: Path, funcion: str, todos: bool = False) -> tuple[Path, list[tuple[str, Path]]]:
    """A temporary course with one assignment and one student per battery file of the sample
    (``muestra``; every file with ``todos``).

    Next to it, ``<funcion>-alumnos/<alumno>/<carpeta>/`` holds each student's
    own copy (the same files), for Validate.
    """
    carpeta, cuaderno = ASIGNACIONES[funcion]
    curso = base / funcion
    curso.mkdir()
    shutil.copy(RAIZ / "nbgrader_config.py", curso)
    ignorar = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")
    shutil.copytree(RAIZ / "grader_tests", curso / "grader_tests", ignore=ignorar)
    shutil.copytree(RAIZ / "source" / carpeta, curso / "source" / carpeta, ignore=ignorar)
    # the gradebook (and, without a release in the repo, the release itself)
    _esperar(_nbgrader(curso, "generate_assignment", carpeta, "--force"), curso, "generate_assignment")
    release = RAIZ / "release" / carpeta
    if not (release / f"{cuaderno}.ipynb").exists():
        release = curso / "release" / carpeta
    alumnos = []
    for alumno, archivo in (list if todos else muestra)([(a.nombre, a) for a in archivos(funcion)]):
        destino = curso / "submitted" / alumno / carpeta
        shutil.copytree(release, destino, ignore=ignorar)
        nb = nbformat.read(release / f"{cuaderno}.ipynb", as_version=4)
        for grade_id, linea in samples.correct_quiz_answers(cuaderno).items():
            samples.plant(nb, grade_id, linea)
        nbformat.write(plantar(nb, funcion, archivo.codigo), destino / f"{cuaderno}.ipynb")
        shutil.copytree(destino, base / f"{funcion}-alumnos" / alumno / carpeta)
        alumnos.append((alumno, archivo))
    return curso, alumnos


def muestra(alumnos) -> list:
    """The students ``(name, file)`` the real pipeline grades and validates: every full-marks and zero file,
    every trick only the grade sees and every ``PASO_DE_LA_MUESTRA``-th of the rest (by name); all of them
    with ``CURSO_BATERIA_COMPLETA=1``.

    The in-process tests judge every file against the per-cell record of its autograde
    (``test_diagnostico.py``) and run the visible tests of every file (``test_pruebas_visibles.py``); a
    real kernel (the lesson's ``nbgrader_config.py``, its time limits, ``nbgrader autograde`` and the
    Validate path) is checked on this sample, to keep ``make test`` within its time (tests/README.md).
    """
    if os.environ.get("CURSO_BATERIA_COMPLETA") == "1":
        return list(alumnos)
    resto = [(a, f) for a, f in sorted(alumnos, key=lambda x: x[0])
             if f.espera == "parcial" and not f.solo_al_calificar]
    elegidos = {a for a, _ in resto[::PASO_DE_LA_MUESTRA]}
    return [(a, f) for a, f in alumnos
            if f.espera != "parcial" or f.solo_al_calificar or a in elegidos]


PASO_DE_LA_MUESTRA = 3


def validar(base: Path, funcion: str, alumnos) -> subprocess.Popen:
    """Start validating every student's copy (one process, in a student's assignment folder)."""
    carpeta, cuaderno = ASIGNACIONES[funcion]
    copias = base / f"{funcion}-alumnos"
    cuadernos = [str(copias / alumno / carpeta / f"{cuaderno}.ipynb") for alumno, _ in alumnos]
    registro = open(base / f"validate-{funcion}.log", "w")
    return subprocess.Popen([sys.executable, str(Path(__file__).with_name("validar_lote.py")),
                             str(base / f"validate-{funcion}.json"), *cuadernos],
                            cwd=copias / alumnos[0][0] / carpeta, env=_entorno(),
                            stdout=registro, stderr=subprocess.STDOUT)


def veredictos_de_validate(base: Path, funcion: str, alumnos) -> dict:
    """Per student: (passed, grade_ids of the failed cells, text of the failures)."""
    carpeta, cuaderno = ASIGNACIONES[funcion]
    crudos = json.loads((base / f"validate-{funcion}.json").read_text(encoding="utf-8"))
    salida = {}
    for alumno, _ in alumnos:
        ruta = base / f"{funcion}-alumnos" / alumno / carpeta / f"{cuaderno}.ipynb"
        resultado = crudos.get(str(ruta), {"error": "no se validó"})
        ids = {c.source.strip(): c.metadata.get("nbgrader", {}).get("grade_id", "?")
               for c in nbformat.read(ruta, as_version=4).cells}
        fallidas = [ids.get(f.get("source", ""), "?") for f in resultado.get("failed", [])]
        problemas = [k for k in ("failed", "changed", "type_changed", "error") if resultado.get(k)]
        salida[alumno] = (not problemas, fallidas, dialogo(resultado) + str(resultado.get("error", "")))
    return salida


ANSI = re.compile(r"\x1b\[[0-9;]*m")
PRIMERAS_LINEAS = 15      # issue 22: the Spanish diagnosis within the first lines of a failing Validate


def dialogo(resultado: dict) -> str:
    """The text of Validate's dialog for a failing result, as nbgrader's lab extension lays it out.

    Per failed cell: «The following cell failed:», the cell's source and its
    error (``raw_error`` without colours), in notebook order.
    """
    return "\n".join(f"The following cell failed:\n{f.get('source', '')}\n{ANSI.sub('', str(f.get('raw_error', '')))}"
                     for f in resultado.get("failed", []))


def _texto_de_salidas(celda) -> str:
    partes = []
    for salida in celda.get("outputs", []):
        if "text" in salida:
            partes.append(str(salida["text"]))
        for valor in salida.get("data", {}).values():
            partes.append(valor if isinstance(valor, str) else json.dumps(valor, ensure_ascii=False))
        if salida.get("output_type") == "error":
            partes.append(f"{salida.get('ename')}: {salida.get('evalue')}")
    return "\n".join(partes)


def resultados(curso: Path, funcion: str, alumnos) -> dict:
    """Per student: (total auto score of the exercise's cells, feedback text, per-cell scores)."""
    from nbgrader.api import Gradebook

    carpeta, cuaderno = ASIGNACIONES[funcion]
    salida = {}
    with Gradebook(f"sqlite:///{curso / 'gradebook.db'}") as gb:
        for alumno, _ in alumnos:
            envio = gb.find_submission_notebook(cuaderno, carpeta, alumno)
            celdas = {g.name: float(g.auto_score or 0) for g in envio.grades
                      if g.name in EJERCICIOS[funcion].propiedades}
            nb = nbformat.read(curso / "autograded" / alumno / carpeta / f"{cuaderno}.ipynb", as_version=4)
            texto = "\n".join(_texto_de_salidas(c) for c in nb.cells
                              if c.cell_type == "code"
                              and c.metadata.get("nbgrader", {}).get("grade_id", "") in EJERCICIOS[funcion].propiedades)
            salida[alumno] = (sum(celdas.values()), texto, celdas)
    return salida


def autocalificar(tmp_path_factory) -> dict:
    """Autograde and validate both batteries (per assignment one autograde and one
    validation process, all four at the same time).

    Per function: (students, their grades, Validate's verdicts, the temporary course).  The session
    runs it in the background from its start (``bateria_autocalificada`` in tests/conftest.py,
    tests/segundo_plano.py).
    """
    base = tmp_path_factory.mktemp("cursos")
    cursos = {f: preparar_curso(base, f) for f in ASIGNACIONES}
    procesos = {f: _nbgrader(curso, "autograde", ASIGNACIONES[f][0]) for f, (curso, _) in cursos.items()}
    validaciones = {f: validar(base, f, alumnos) for f, (_, alumnos) in cursos.items()}
    for funcion, proceso in procesos.items():
        # a hang guard, not a timing check: a few seconds per student on a 2-core machine, many more while
        # make test's two sessions and other work share it (12 s each ran out under a load of 18)
        _esperar(proceso, cursos[funcion][0], "autograde", limite=max(420, 30 * len(cursos[funcion][1])))
    for funcion, proceso in validaciones.items():
        assert proceso.wait(timeout=2400) == 0, (base / f"validate-{funcion}.log").read_text()[-4000:]
    return {f: (alumnos, resultados(curso, f, alumnos), veredictos_de_validate(base, f, alumnos),
                curso)
            for f, (curso, alumnos) in cursos.items()}


@pytest.mark.slow
@pytest.mark.parametrize("funcion", list(ASIGNACIONES))
def test_bateria_autocalificada(bateria_autocalificada, funcion):
    """nbgrader autograde gives every battery file what its header says."""
    alumnos, notas, _, _ = bateria_autocalificada[funcion]
    fallos = []
    for alumno, archivo in alumnos:
        _, texto, celdas = notas[alumno]
        fallos += bateria.incumplimientos(EJERCICIOS[funcion], archivo, celdas, texto)
    assert not fallos, "\n".join(fallos)


@pytest.mark.slow
@pytest.mark.parametrize("funcion", list(ASIGNACIONES))
def test_las_notas_autocalificadas_no_cambian(bateria_autocalificada, funcion):
    """Every battery file of the sample gets, under autograde, the points its record says in every cell."""
    alumnos, notas, _, _ = bateria_autocalificada[funcion]
    registradas = {k.split("/", 1)[1]: v for k, v in NOTAS_DE_REFERENCIA["bateria_autocalificada"].items()
                   if k.startswith(funcion + "/")}
    sin_registro = sorted(set(notas) - set(registradas))
    assert not sin_registro, f"sin registro en tests/notas_de_referencia.json (tests/registrar_notas.py): {sin_registro}"
    distintas = {a: (registradas[a], notas[a][2]) for a in notas if notas[a][2] != registradas[a]}
    assert not distintas, distintas


def test_en_proceso_y_autocalificada_dan_lo_mismo():
    """The record of the in-process judge and that of ``nbgrader autograde`` hold every battery file, with
    the same points in every cell: what lets the in-process tests stand for the files that the real
    pipeline does not grade in ``make test`` (``muestra``)."""
    en_proceso = NOTAS_DE_REFERENCIA["bateria_en_proceso"]
    autocalificada = NOTAS_DE_REFERENCIA["bateria_autocalificada"]
    todos = {f"{funcion}/{a.nombre}" for funcion in EJERCICIOS for a in archivos(funcion)}
    assert set(autocalificada) == todos, sorted(set(autocalificada) ^ todos)
    assert set(en_proceso) == todos, sorted(set(en_proceso) ^ todos)
    distintas = {k: (v, autocalificada[k]) for k, v in en_proceso.items() if v != autocalificada[k]}
    assert not distintas, distintas


def _linea_del_informe(alumno: str, total: float, maximo: float, perdidas: dict, veredicto) -> str:
    exito, fallidas, _ = veredicto
    pierde = ", ".join(f"{g} -{p:g}" for g, p in perdidas.items()) or "nada"
    validate = "Success" if exito else "falla: " + (", ".join(fallidas) or "sin celdas (error)")
    return f"{alumno:40s} autograde {total:g}/{maximo:g} (pierde: {pierde})  |  Validate: {validate}"


@pytest.mark.slow
@pytest.mark.parametrize("funcion", list(ASIGNACIONES))
def test_validate_dice_lo_mismo_que_la_nota(bateria_autocalificada, funcion):
    """Validate never says «Success» to what loses points, nor fails what gets full marks.

    And when it fails, its dialog shows the Spanish diagnosis within its first 15 lines.
    """
    propiedades = EJERCICIOS[funcion].propiedades
    alumnos, notas, veredictos, _ = bateria_autocalificada[funcion]
    maximo = EJERCICIOS[funcion].puntos
    informe, fallos = [], []
    for alumno, archivo in alumnos:
        total, _, celdas = notas[alumno]
        perdidas = {g: propiedades[g].puntos - p for g, p in celdas.items() if p < propiedades[g].puntos}
        exito, fallidas, texto = veredictos[alumno]
        informe.append(_linea_del_informe(alumno, total, maximo, perdidas, veredictos[alumno]))
        visibles = [g for g in perdidas if not propiedades[g].solo_al_calificar]
        if not perdidas and not exito:
            fallos.append(f"{archivo.ruta.name}: nota completa y Validate falla en {fallidas}:\n{texto[:3000]}")
        elif visibles and (exito or not any(g in propiedades for g in fallidas)):
            fallos.append(f"{archivo.ruta.name}: pierde puntos en {visibles} y Validate no falla en ninguna "
                          f"celda del ejercicio ({fallidas})")
        # Spanish first (issue 22.3): a failing Validate shows the diagnosis («✘ …») in its first lines
        if not exito and fallidas and not any(l.startswith("✘ ") for l in texto.splitlines()[:PRIMERAS_LINEAS]):
            fallos.append(f"{archivo.ruta.name}: Validate falla y no hay diagnóstico en español («✘ …») en sus "
                          f"primeras {PRIMERAS_LINEAS} líneas:\n" + "\n".join(texto.splitlines()[:PRIMERAS_LINEAS]))
    INFORME.parent.mkdir(parents=True, exist_ok=True)
    with open(INFORME, "a", encoding="utf-8") as f:
        f.write(f"# {funcion}\n" + "\n".join(informe) + "\n")
    assert not fallos, "\n".join(fallos) + "\n\n" + "\n".join(informe)


@pytest.mark.slow
@pytest.mark.parametrize("funcion", list(ASIGNACIONES))
def test_ninguna_celda_intacta_se_da_por_modificada(bateria_autocalificada, funcion):
    """Untouched test cells raise no "checksum has changed" warning in autograde's log."""
    curso = bateria_autocalificada[funcion][3]
    log = (curso / "nbgrader_autograde.log").read_text()
    assert "has changed" not in log, [l for l in log.splitlines() if "has changed" in l][:5]
    assert "was edited" not in log


@pytest.mark.parametrize("funcion", list(EJERCICIOS))
def test_la_bateria_usa_como_ayudantes_los_nombres_publicos_del_corrector(funcion):
    """A correct battery solution defines every name a hidden cell could bring into the kernel."""
    import ast

    nombres = descubrimiento.nombres_que_ve_el_kernel(funcion)
    archivo = next((a for a in archivos(funcion) if a.nombre.endswith("_nombres_del_corrector")), None)
    carpeta = EJERCICIOS[funcion].carpeta.relative_to(RAIZ) / "bateria"
    assert archivo is not None, f"falta {carpeta}/cNN_nombres_del_corrector.py"
    assert archivo.espera == "completo"
    definidos = set()
    for nodo in ast.walk(ast.parse(archivo.codigo)):
        if isinstance(nodo, (ast.FunctionDef, ast.ClassDef)):
            definidos.add(nodo.name)
        elif isinstance(nodo, ast.Name) and isinstance(nodo.ctx, ast.Store):
            definidos.add(nodo.id)
    assert nombres <= definidos, (f"{archivo.ruta.relative_to(RAIZ)}: define también (p. ej. con `= trampa`) "
                                  f"estos nombres de grader_tests: {sorted(nombres - definidos)}")
