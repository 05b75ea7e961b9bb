"""Hostile and broken submissions graded in one batch (issues 6 and 10).

One temporary course, one student per case of ``tests/hostiles/`` (each built
from the release notebook as a student would, with nbgrader's
``timestamp.txt`` and ``submission_secret.txt``), graded with
``scripts/calificacion/grade.py`` as a TA does, twice, with a secret in the TA's
environment and a private TA file next to the course.  Checks: the batch
completes, every student has a grade row and a score or a Spanish reason in
the table, each case scores what it must, nothing outside the graded folders
changes (contents and modes; the TA's file included), no link or special file
survives in autograded/ or feedback/, nothing of the answer key or the TA's
environment reaches any feedback file, students' scripts are inert in the
feedback, the process limits hold, a flood of printed output is cut as it
arrives (the TA's process memory stays bounded), no process outlives its notebook,
``release_feedback`` skips only the student whose nbgrader files are broken,
and grading again gives the same scores.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
import stat
from html.parser import HTMLParser
from pathlib import Path

import pytest
import hostiles
from hostiles import c26_entorno
from curso_temporal import copiar_curso, ejecutar
from scripts.calificacion import libro_de_notas

pytestmark = pytest.mark.slow

TAREA = hostiles.TAREA
CASOS = hostiles.cargar_casos()
# short limits so the loops, the hog and the budget cost seconds, not minutes
LIMITES = """
# --- tests/test_seguridad.py: short limits for the hostile battery ---
c.Execute.timeout = 20
c.EjecucionAislada.presupuesto_total = 60
c.KernelAislado.memoria_maxima = 2 * 1024 ** 3
c.KernelAislado.memoria_total = 1024 ** 3
c.KernelAislado.procesos_maximos = 64
"""
SECRETO_TA = c26_entorno.SECRETO          # imported even when CURSO_HOSTILES leaves the case out
# graded a second time (``--alumno``): every case that leaves state behind for the next run
SEGUNDA_VEZ = {"c00_control", "c07_pruebas_borradas", "c08_pruebas_pass", "c10_duplicada", "c11_json_corrupto",
               "c12_sin_cuaderno", "c13_renombrado", "c16_escrituras", "c20_enlaces_entrega", "c21_cuaderno_enlace",
               "c22_enlaces_kernel", "c23_inundacion", "c28_archivos_nbgrader", "c29_modulo_editado",
               "c32_celda_calificable_extra", "c33_caracteres_de_control", "c36_duplicada_extra_y_calificada",
               "c41_cells_repetida", "c44_pregunta_borrada", "zz_honesta"}
CONTENIDO_TA = "-----BEGIN PRIVATE KEY----- clave del profesorado\n"


def _huellas(raiz: Path, carpetas) -> dict[str, str]:
    """Content and mode of every regular file under ``carpetas`` (links and special files: their kind)."""
    huellas = {}
    for carpeta in carpetas:
        base = raiz / carpeta
        rutas = [base] if base.is_file() else sorted(base.rglob("*"))
        for ruta in rutas:
            if "__pycache__" in ruta.parts:
                continue
            st = ruta.lstat()
            clave = str(ruta.relative_to(raiz))
            if stat.S_ISLNK(st.st_mode):
                huellas[clave] = f"enlace -> {os.readlink(ruta)}"
            elif stat.S_ISREG(st.st_mode):
                if st.st_size > 64 * 1024 ** 2:      # the sparse GiB of c20: its size says enough
                    huellas[clave] = f"{oct(st.st_mode)} {st.st_size} bytes"
                else:
                    huellas[clave] = f"{oct(st.st_mode)} {hashlib.sha256(ruta.read_bytes()).hexdigest()}"
            elif not stat.S_ISDIR(st.st_mode):
                huellas[clave] = f"especial {stat.S_IFMT(st.st_mode)}"
    return huellas


def _notas(curso: Path) -> dict[str, tuple[float, float]]:
    with libro_de_notas.abrir(curso) as gb:
        return {s.student.id: (s.score, s.max_score) for s in gb.find_assignment(TAREA).submissions}


def _puntos(curso: Path, alumno: str) -> dict[str, float]:
    """Points per grade cell of ``alumno``'s notebook (empty when there is no notebook)."""
    with libro_de_notas.abrir(curso) as gb:
        entrega = gb.find_submission(TAREA, alumno)
        return {g.name: g.score for nb in entrega.notebooks for g in nb.grades}


def _estructura(curso: Path) -> dict[str, set]:
    """What the gradebook knows besides the grades: students, assignments, notebooks, cells."""
    con = sqlite3.connect(curso / "gradebook.db")
    try:
        return {tabla: set(con.execute(consulta).fetchall()) for tabla, consulta in {
            "student": "SELECT id FROM student",
            "assignment": "SELECT id, name FROM assignment",
            "notebook": "SELECT id, name, assignment_id FROM notebook",
            "cell": "SELECT id, name, notebook_id, type FROM base_cell",
            "grade_cell": "SELECT id, max_score, cell_type FROM grade_cells",
            "solution_cell": "SELECT id FROM solution_cells",
            "source_cell": "SELECT id, name, checksum FROM source_cell",
            "submission": "SELECT id, assignment_id, student_id FROM submitted_assignment",
            "grade": "SELECT id, cell_id, notebook_id FROM grade",
        }.items()}
    finally:
        con.close()


def _dormidos() -> list[str]:
    """Command lines of the sleeps c18 started that are still alive."""
    vivos = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            linea = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue
        if linea.startswith("sleep ") and linea.split()[-1] in CASOS["c18_procesos_hijos"].SUEÑOS:
            vivos.append(f"{proc.name}: {linea}")
    return vivos


@pytest.fixture(scope="module")
def lote(lote_hostil):
    """The session's hostile battery, graded once (tests/conftest.py, ``lote_hostil``)."""
    return lote_hostil


def calificar_lote(tmp_path_factory) -> dict:
    """Build the hostile course, grade it twice with scripts/calificacion/grade.py, release the feedback.

    The session runs it in the background from its start (tests/segundo_plano.py).
    """
    base = tmp_path_factory.mktemp("seguridad")
    curso = copiar_curso(base / "curso")
    privado = base / "ta_privado" / "clave_privada"          # a TA file outside the course
    privado.parent.mkdir()
    privado.write_text(CONTENIDO_TA)
    privado.chmod(0o600)
    intercambio = base / "intercambio"
    intercambio.mkdir()
    with open(curso / "nbgrader_config.py", "a") as f:
        f.write(LIMITES + f"c.Exchange.root = {str(intercambio)!r}\n")
    ejecutar(curso, "nbgrader", "generate_assignment", TAREA, "--force")
    for alumno, caso in CASOS.items():
        entrega = curso / "submitted" / alumno / TAREA
        shutil.copytree(curso / "release" / TAREA, entrega)
        # what `nbgrader submit` leaves next to the notebook
        (entrega / "timestamp.txt").write_text("2026-11-30 10:00:00.000000 UTC")
        (entrega / "submission_secret.txt").write_text(hashlib.sha256(alumno.encode()).hexdigest())
        caso.preparar(entrega)
    # the gradebook as the first run leaves it is the "before" of the second run
    protegidas = ["grader_tests", "source", "release", "submitted", "nbgrader_config.py", "scripts"]
    antes = _huellas(curso, protegidas)
    antes_ta = (privado.stat().st_mode, privado.read_text())
    entorno_ta = {"CURSO_SECRETO_TA": SECRETO_TA}
    primera = ejecutar(curso, "python", "scripts/calificacion/grade.py", timeout=900, env=entorno_ta)
    despues_1 = _huellas(curso, protegidas)
    notas_1 = _notas(curso)
    puntos_1 = {a: _puntos(curso, a) for a in CASOS}
    estructura_1 = _estructura(curso)
    db_1 = (curso / "gradebook.db").stat().st_size
    # the second run regrades the cases that leave state behind (files, links, nbgrader's files, marks,
    # duplicated cells, names) with ``--alumno``; the resource bombs and timeouts are graded once (their second
    # grading cost half of the batch's time and checked nothing the first did not)
    otra_vez = [a for a in CASOS if a in SEGUNDA_VEZ]
    segunda = ejecutar(curso, "python", "scripts/calificacion/grade.py",
                       *[x for a in otra_vez for x in ("--alumno", a)], timeout=900, env=entorno_ta)
    publicar = ejecutar(curso, "nbgrader", "release_feedback", TAREA, check=False, env=entorno_ta)
    return {"curso": curso, "salida": primera.stdout, "salida_2": segunda.stdout, "otra_vez": otra_vez,
            "antes": antes, "despues": despues_1, "despues_2": _huellas(curso, protegidas),
            "notas": notas_1, "notas_2": _notas(curso), "puntos": puntos_1,
            "estructura": estructura_1, "estructura_2": _estructura(curso), "db_1": db_1,
            "privado": privado, "antes_ta": antes_ta, "intercambio": intercambio, "publicar": publicar}


def _maximo(lote) -> float:
    return lote["notas"]["zz_honesta"][1]


def _cuestionario(lote) -> float:
    return sum(p for g, p in lote["puntos"]["zz_honesta"].items() if g.startswith("comprueba_respuesta_"))


def _ejercicio(puntos: dict[str, float]) -> float:
    return sum(p for g, p in puntos.items() if g in hostiles.PRUEBAS_PE)


def test_el_lote_termina_y_todos_tienen_fila_y_nota_o_razon(lote):
    assert set(lote["notas"]) == set(CASOS)
    for alumno in CASOS:
        fila = re.search(rf"^{alumno}\s+.*?(\S+) / (\S+)\s*$", lote["salida"], re.M)
        assert fila and fila.group(1) != "—", (alumno, lote["salida"])


@pytest.mark.parametrize("alumno", sorted(CASOS))
def test_cada_caso_saca_lo_que_debe(lote, alumno):
    caso = CASOS[alumno]
    nota, maximo = lote["notas"][alumno]
    assert maximo == _maximo(lote) > 0
    control = lote["notas"]["c00_control"][0]
    esperado = caso.ESPERADO
    if esperado == "completa":
        assert nota == maximo, (alumno, nota)
    else:
        assert nota < maximo, (alumno, nota)
    if esperado == "parcial":
        assert _cuestionario(lote) <= nota < maximo
    elif esperado == "cuestionario":
        assert nota == _cuestionario(lote) and _ejercicio(lote["puntos"][alumno]) == 0, (alumno, nota)
    elif esperado == "control":
        assert nota == control, (alumno, nota, control)
    elif esperado == "control-ejercicio":
        assert nota == _ejercicio(lote["puntos"]["c00_control"]), (alumno, nota)
    elif esperado == "cero":
        assert nota == 0, (alumno, nota)
    razon = getattr(caso, "RAZON", None)
    lineas = [l for l in lote["salida"].splitlines() if l.strip().startswith(f"{alumno} / {TAREA}:")]
    if razon:
        assert any(razon in l for l in lineas), (alumno, razon, lineas)
    # what the table must not say about that student (a reason that contradicts the grade)
    for texto in getattr(caso, "NO_DEBE_DECIR", ()):
        assert not any(texto in l for l in lineas), (alumno, texto, lineas)


def _salidas(ruta: Path) -> str:
    """The text the notebook's cells printed (not their source, which names the marks)."""
    import json
    nb = json.loads(ruta.read_text())
    return "\n".join("".join(s.get("text", "")) for c in nb["cells"] for s in c.get("outputs", []))


def test_las_trampas_no_consiguieron_nada(lote):
    for alumno in CASOS:
        ruta = lote["curso"] / "autograded" / alumno / TAREA / hostiles.CUADERNO
        if ruta.exists():
            texto = _salidas(ruta)
            for marca in hostiles.MARCAS_PROHIBIDAS:
                assert marca not in texto, (alumno, [l for l in texto.splitlines() if marca in l][:5])
    texto = _salidas(lote["curso"] / "autograded" / "c16_escrituras" / TAREA / hostiles.CUADERNO)
    assert texto.count("ESCRITURA_BLOQUEADA") >= 10
    texto = _salidas(lote["curso"] / "autograded" / "c15_referencia" / TAREA / hostiles.CUADERNO)
    for trusted in ("grader_tests.juez.juez", "grader_tests.juez", "grader_tests.caja.aislamiento",
                    "grader_tests.extensiones_nbgrader.nbgrader_juez"):
        assert f"TRAMPA_FALLIDA import {trusted} " in texto, trusted


def test_la_referencia_y_el_catalogo_de_cada_ejercicio_son_invisibles_en_el_kernel(lote):
    """In the sandboxed kernel each exercise folder holds only its public files: reference,
    properties, known mistakes, battery and quiz answers can be neither imported nor read."""
    from grader_tests.juez import descubrimiento
    from grader_tests.en_el_kernel.casos import ARCHIVOS_PUBLICOS_DEL_EJERCICIO
    texto = _salidas(lote["curso"] / "autograded" / "c15_referencia" / TAREA / hostiles.CUADERNO)
    privados = [m[:-3] for m in descubrimiento.ARCHIVOS_DEL_EJERCICIO if m != "casos.py"]
    assert privados and descubrimiento.nombres_de_ejercicios()
    for funcion in descubrimiento.nombres_de_ejercicios():
        assert f"PUBLICO_VISIBLE {funcion}" in texto, funcion          # the hidden cells need it
        for modulo in privados:
            assert f"TRAMPA_FALLIDA import grader_tests.ejercicios.{funcion}.{modulo} " in texto, (funcion, modulo)
            assert re.search(rf"LECTURA_FALLIDA \S*grader_tests/ejercicios/{funcion}/{modulo}\.py", texto)
        assert f"LECTURA_FALLIDA batería de {funcion} 0" in texto, funcion
        listados = re.findall(rf"^LISTADO {funcion} (.*)$", texto, re.M)
        assert listados and all(l == str(sorted(ARCHIVOS_PUBLICOS_DEL_EJERCICIO)) for l in listados), listados
    for cuestionario in descubrimiento.CARPETA_CUESTIONARIOS.glob("[!_]*.py"):
        assert f"TRAMPA_FALLIDA import grader_tests.cuestionarios.{cuestionario.stem} " in texto


def test_nada_fuera_de_lo_calificado_cambia(lote):
    assert lote["despues"] == lote["antes"]
    assert lote["despues_2"] == lote["antes"]
    curso = lote["curso"]
    assert not (curso / "autograded" / "otro_alumno" / TAREA / "pista.txt").exists()
    assert not (curso / "autograded" / "zz_honesta" / TAREA / "pista.txt").exists()


def test_el_cuaderno_de_la_base_de_notas_solo_gana_notas(lote):
    antes, despues = lote["estructura"], lote["estructura_2"]
    for tabla in ("student", "assignment", "notebook", "grade_cell", "solution_cell", "source_cell"):
        assert antes[tabla] == despues[tabla], tabla
    assert {s[2] for s in antes["submission"]} == set(CASOS)
    assert antes["grade"], "no grades were written"
    # every submission that has its notebook has one grade per grade cell
    notebook = {n[0] for n in antes["notebook"] if n[1] == Path(hostiles.CUADERNO).stem}
    calificadas = {g[0] for g in antes["grade_cell"]}
    celdas = {c[1] for c in antes["cell"] if c[0] in calificadas and c[2] in notebook}
    for alumno in CASOS:
        puntos = lote["puntos"][alumno]
        assert not puntos or set(puntos) == celdas, alumno


def test_ningun_proceso_sobrevive_al_cuaderno(lote):
    assert _dormidos() == []


def _observaciones(lote, alumno: str) -> list[str]:
    return [l for l in lote["salida"].splitlines() if l.strip().startswith(f"{alumno} / {TAREA}:")]


def test_solo_las_celdas_editadas_de_verdad_se_senalan(lote):
    # untouched test cells raise no "checksum has changed" observation
    for alumno in ("zz_honesta", "c00_control", "c29_modulo_editado"):
        assert not any("modificada" in l for l in _observaciones(lote, alumno)), _observaciones(lote, alumno)


def test_la_celda_agotada_conserva_el_codigo_del_alumno(lote):
    import json
    for alumno in ("c02_bucle_infinito", "c03_bucle_sordo"):
        nb = json.loads((lote["curso"] / "autograded" / alumno / TAREA / hostiles.CUADERNO).read_text())
        respuesta = [c for c in nb["cells"]
                     if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "positional_encoding"]
        assert len(respuesta) == 1 and "while True" in "".join(respuesta[0]["source"]), alumno
        with libro_de_notas.abrir(lote["curso"]) as gb:
            for nota in gb.find_submission_notebook(Path(hostiles.CUADERNO).stem, TAREA, alumno).grades:
                if nota.cell.cell_type == "code" and nota.name in hostiles.PRUEBAS_PE:
                    assert nota.auto_score is not None and not nota.needs_manual_grade, (alumno, nota.name)


def test_el_archivo_editado_se_nombra_en_el_cuaderno_y_en_los_comentarios(lote):
    curso = lote["curso"]
    texto = (curso / "autograded" / "c29_modulo_editado" / TAREA / hostiles.CUADERNO).read_text()
    assert "Aviso de la corrección" in texto and "explorable_escalera.py" in texto
    html = (curso / "feedback" / "c29_modulo_editado" / TAREA / hostiles.CUADERNO.replace(".ipynb", ".html"))
    assert "Aviso de la corrección" in html.read_text()
    # the course's copy was used, not the student's
    original = (curso / "release" / TAREA / "explorable_escalera.py").read_bytes()
    assert (curso / "autograded" / "c29_modulo_editado" / TAREA / "explorable_escalera.py").read_bytes() == original
    assert "Aviso de la corrección" not in (curso / "autograded" / "zz_honesta" / TAREA / hostiles.CUADERNO).read_text()


def test_calificar_otra_vez_da_lo_mismo(lote):
    assert lote["notas_2"] == lote["notas"]
    # the second run graded only its cases (``grade.py --alumno``), and its table lists only them
    otra_vez = lote["otra_vez"]
    assert f"Se califica sólo a {len(otra_vez)} de {len(CASOS)} alumnos (--alumno)" in lote["salida_2"]
    lineas = lote["salida_2"].splitlines()
    inicio = next(i for i, l in enumerate(lineas) if l.startswith("alumno "))
    fin = next(i for i, l in enumerate(lineas) if l.startswith("Notas:"))
    filas = {l.split()[0] for l in lineas[inicio + 2:fin] if l and not l.startswith(("  ", "Obs"))}
    assert filas == set(otra_vez), filas ^ set(otra_vez)


def _recorrer(carpeta: Path):
    for raiz, carpetas, archivos in os.walk(carpeta):
        for nombre in carpetas + archivos:
            yield Path(raiz) / nombre


def test_ningun_archivo_del_ta_cambia_ni_de_modo(lote):
    privado = lote["privado"]
    assert not privado.is_symlink()
    assert (privado.stat().st_mode, privado.read_text()) == lote["antes_ta"]
    # the course's own files: same content AND mode (the huellas hold both)
    assert lote["despues_2"] == lote["antes"]
    db = lote["curso"] / "gradebook.db"
    assert stat.S_ISREG(db.lstat().st_mode) and db.lstat().st_nlink == 1
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        con.close()


def test_en_autograded_y_feedback_solo_hay_archivos_y_carpetas(lote):
    for carpeta in ("autograded", "feedback"):
        for ruta in _recorrer(lote["curso"] / carpeta):
            st = ruta.lstat()
            assert stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode), (ruta, stat.filemode(st.st_mode))
            assert stat.S_ISDIR(st.st_mode) or st.st_nlink == 1, ruta


def test_nada_de_la_clave_ni_del_ta_llega_a_los_comentarios(lote):
    curso = lote["curso"]
    marcas = [SECRETO_TA, CONTENIDO_TA.strip(), "SQLite format 3", "### BEGIN SOLUTION",
              "### BEGIN HIDDEN TESTS", "root:"]
    # distinctive lines of every reference implementation (the quiz's explanations are
    # feedback by design, so the quiz module is not a mark)
    for referencia in sorted((curso / "grader_tests" / "ejercicios").glob("*/referencia.py")):
        marcas += [l.strip() for l in referencia.read_text().splitlines()
                   if len(l.strip()) > 45 and ("=" in l or "return" in l) and '"""' not in l][:40]
    for ruta in _recorrer(curso / "feedback"):
        if ruta.is_file():
            texto = ruta.read_bytes().decode("utf-8", errors="replace")
            for marca in marcas:
                assert marca not in texto, (ruta, marca[:60])
    # nor in what the kernels printed (the TA's environment)
    for ruta in (curso / "autograded").rglob("*.ipynb"):
        assert SECRETO_TA not in ruta.read_text(errors="replace"), ruta


def test_las_cargas_se_quedan_en_la_inundacion(lote):
    carpeta = lote["curso"] / "feedback" / "c23_inundacion" / TAREA
    assert carpeta.is_dir()
    assert sum(1 for _ in _recorrer(carpeta)) <= 30
    autograded = lote["curso"] / "autograded" / "c23_inundacion" / TAREA
    assert sum(1 for _ in _recorrer(autograded)) <= 200


# the TA's process grading the flood (600 MB) alone: before the output budgets it took ~5x the
# flood (~3 GB, README); with them, a baseline nbgrader (~150 MiB) plus a few of the flood's messages
# in flight: 189 MiB measured alone (scripts/mediciones/bench_salida.py), once 927 MiB during a full make test
# (a 200 MB flood; not reproduced since, alone, beside three busy loops or in the whole hostile batch,
# all under 512 MiB; cause not found).  The bound tells the two apart even then.
PICO_MAXIMO = 2 * 1024 ** 3


def test_la_salida_torrencial_se_recorta_al_llegar(lote):
    from scripts.mediciones.bench_salida import MEDIR, pico
    from grader_tests.caja.salida_acotada import MARCA
    caso = CASOS["c31_salida_torrencial"]
    alumno, curso = "c31_salida_torrencial", lote["curso"]
    # graded once more alone, in nbgrader's own process, to read that process's peak memory
    proceso = ejecutar(curso, "python", "-c", MEDIR, "autograde", TAREA, "--student", alumno, "--force")
    ta, _ = pico(proceso.stdout)
    assert ta < PICO_MAXIMO, f"{ta / 1024 ** 2:.0f} MiB"
    ruta = curso / "autograded" / alumno / TAREA / hostiles.CUADERNO
    assert ruta.stat().st_size < 8 * 1024 ** 2       # the flood was 600 MB
    # the answer written after the flood is graded, and so is everything else
    puntos = _puntos(curso, alumno)
    assert puntos["comprueba_" + caso.CELDA] == 1 and sum(puntos.values()) == lote["notas"]["zz_honesta"][1]
    import json
    celda = next(c for c in json.loads(ruta.read_text())["cells"]
                 if c["metadata"].get("nbgrader", {}).get("grade_id") == caso.CELDA)
    notas = [s for s in celda["outputs"] if MARCA in s.get("metadata", {})]
    assert len(notas) == 1 and notas[0]["metadata"][MARCA]["descartado"] > 100 * 1024 ** 2
    # the student reads it in the feedback
    html = (curso / "feedback" / alumno / TAREA / hostiles.CUADERNO.replace(".ipynb", ".html")).read_text()
    assert "La salida de esta celda se recortó" in html
    assert "Puntos" in html


class _Activo(HTMLParser):
    """Anything in an HTML page that would run: scripts with content, on* handlers, javascript: URLs."""

    def __init__(self):
        super().__init__()
        self.activo: list[str] = []
        self._en_script = False

    def handle_starttag(self, tag, attrs):
        self._en_script = tag == "script"
        for nombre, valor in attrs:
            if nombre.lower().startswith("on"):
                self.activo.append(f"<{tag} {nombre}>")
            if nombre.lower() in ("href", "src", "action") and (valor or "").strip().lower().startswith(
                    ("javascript:", "data:text")):
                self.activo.append(f"<{tag} {nombre}={valor[:40]}>")
            if tag in ("iframe", "object", "embed", "svg"):
                self.activo.append(f"<{tag}>")

    def handle_endtag(self, tag):
        self._en_script = False

    def handle_data(self, data):
        if self._en_script and "__inyectado" in data:
            self.activo.append(f"<script>{data[:60]}")


def test_los_guiones_del_alumno_no_se_activan_en_los_comentarios(lote):
    html = (lote["curso"] / "feedback" / "c25_html" / TAREA /
            hostiles.CUADERNO.replace(".ipynb", ".html")).read_text()
    assert CASOS["c25_html"].TEXTO_VISIBLE in html
    assert "negrita" in html                        # the harmless part of display(HTML(...)) stays
    analizador = _Activo()
    analizador.feed(html)
    assert analizador.activo == []
    assert "Puntos" in html                         # still the Spanish template


def _salida_de(lote, alumno: str) -> str:
    return _salidas(lote["curso"] / "autograded" / alumno / TAREA / hostiles.CUADERNO)


def test_limites_de_procesos_y_memoria_del_arbol(lote):
    texto = _salida_de(lote, "c27_procesos")
    limitados = re.search(r"PROCESOS_LIMITADOS\s+(\d+)", texto)
    assert limitados and int(limitados[1]) < 64, texto[-500:]
    # the memory of the tree: a cgroup, or without one the sandbox's watchdog (docs/seguridad.md, «Seguridad»)
    matados = re.search(r"HIJOS_MATADOS\s+(\d+)", texto)
    assert matados and int(matados[1]) >= 1, texto[-500:]


def test_lo_que_escribe_el_kernel_no_llega_al_ta(lote):
    """c34 fills every writable place and c22 leaves links: both stay in the sandbox's memory."""
    texto = _salida_de(lote, "c34_disco")
    escritos = re.search(r"MIB_ESCRITOS (\{.*\})", texto)
    assert escritos and max(int(v) for v in re.findall(r": (\d+)", escritos[1])) <= 256, texto[-500:]
    assert int(re.search(r"ARCHIVOS_CREADOS (\d+)", texto)[1]) < 4096
    for alumno in ("c34_disco", "c22_enlaces_kernel"):
        entregado = {p.name for p in (lote["curso"] / "submitted" / alumno / TAREA).iterdir()}
        calificado = {p.name for p in (lote["curso"] / "autograded" / alumno / TAREA).iterdir()}
        assert calificado == entregado, (alumno, calificado ^ entregado)


def test_el_kernel_no_es_root_ni_ve_el_entorno_del_ta(lote):
    texto = _salida_de(lote, "c26_entorno")
    assert re.search(r"uid (\d+) euid (\d+)", texto) and "uid 0 " not in texto, texto[-500:]
    assert "LECTURA_BLOQUEADA /etc/shadow" in texto or "shadow" not in texto
    # it looked everywhere (its own /proc, descriptors, every reachable file) and found nothing
    assert re.search(r"^ENTORNO_LEIDO \d+$", texto, re.M) and int(re.search(r"ARCHIVOS_LEIDOS (\d+)", texto)[1]) > 50


def test_release_feedback_publica_a_todos_menos_al_roto(lote):
    from nbgrader.utils import notebook_hash
    proceso = lote["publicar"]
    salida = proceso.stdout + proceso.stderr
    # the step ends with an error whenever someone is left out (never a silent «Success», issue 21), and
    # says who, why and what to do; everybody else's feedback is released all the same
    assert proceso.returncode != 0, salida[-2000:]
    assert "Comentarios sin publicar: c28_archivos_nbgrader (los motivos y qué hacer, arriba); el resto se publicó." \
        in salida, salida[-2000:]
    assert "Pídele que vuelva a entregar con el botón Entregar" in salida and "Traceback" not in salida, salida[-2000:]
    curso = lote["curso"]
    publicados = {p.name for p in (lote["intercambio"] / "atencion-y-posicion" / "feedback").glob("*.html")}
    cuaderno = Path(hostiles.CUADERNO).stem
    for alumno in CASOS:
        html = curso / "feedback" / alumno / TAREA / f"{cuaderno}.html"
        if not html.exists():
            continue
        secreto = hashlib.sha256(alumno.encode()).hexdigest()
        nombre = notebook_hash(secret=secreto, notebook_id=cuaderno) + ".html"
        if alumno == "c28_archivos_nbgrader":
            assert nombre not in publicados
            assert re.search(r"c28_archivos_nbgrader.*submission_secret", salida), salida[-2000:]
        else:
            assert nombre in publicados, alumno


def test_la_tabla_no_lleva_caracteres_de_control_ni_lineas_forjadas(lote):
    """c33: escape sequences and newlines from a submission are shown escaped, on the student's own line."""
    for salida in (lote["salida"], lote["salida_2"]):
        assert not [c for c in salida if not c.isprintable() and c != "\n"], repr(salida[-3000:])
        assert not [l for l in salida.splitlines() if "COPIA DETECTADA" in l
                    and not l.strip().startswith("c33_caracteres_de_control /")]
    for carpeta in ("autograded", "feedback"):
        nombres = [p.name for p in (lote["curso"] / carpeta / "c33_caracteres_de_control").rglob("*")]
        assert not [n for n in nombres if not n.isprintable()], nombres


def test_la_celda_calificable_ajena_no_da_puntos_y_los_comentarios_lo_dicen(lote):
    """c32: full marks (not more), and its feedback names the extra cell."""
    assert lote["notas"]["c32_celda_calificable_extra"] == lote["notas"]["zz_honesta"]
    html = next((lote["curso"] / "feedback" / "c32_celda_calificable_extra" / TAREA).glob("*.html"))
    assert "extra_bonus" in html.read_text(encoding="utf-8")
