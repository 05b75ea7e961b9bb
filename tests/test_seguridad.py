"""Hostile and broken submissions graded in one batch (issue 6).

One temporary course, one student per case of ``tests/hostiles/`` (each built
from the release notebook as a student would), graded with
``scripts/grade.py`` as a TA does, twice.  Checks: the batch completes, every
student has a grade row and a score or a Spanish reason in the table, each
case scores what it must, nothing outside the graded folders changes, no
process outlives its notebook, and grading again gives the same scores.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

import hostiles
from curso_temporal import copiar_curso, ejecutar

pytestmark = pytest.mark.slow

TAREA = hostiles.TAREA
CASOS = hostiles.cargar_casos()
# short limits so the loops, the hog and the budget cost seconds, not minutes
LIMITES = """
# --- tests/test_seguridad.py: short limits for the hostile battery ---
c.Execute.timeout = 20
c.EjecucionAislada.presupuesto_total = 60
c.KernelAislado.memoria_maxima = 2 * 1024 ** 3
"""


def _huellas(raiz: Path, carpetas) -> dict[str, str]:
    huellas = {}
    for carpeta in carpetas:
        base = raiz / carpeta
        rutas = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        for ruta in rutas:
            if "__pycache__" in ruta.parts:
                continue
            huellas[str(ruta.relative_to(raiz))] = hashlib.sha256(ruta.read_bytes()).hexdigest()
    return huellas


def _notas(curso: Path) -> dict[str, tuple[float, float]]:
    with Gradebook(f"sqlite:///{curso / 'gradebook.db'}") as gb:
        return {s.student.id: (s.score, s.max_score) for s in gb.find_assignment(TAREA).submissions}


def _puntos(curso: Path, alumno: str) -> dict[str, float]:
    """Points per grade cell of ``alumno``'s notebook (empty when there is no notebook)."""
    with Gradebook(f"sqlite:///{curso / 'gradebook.db'}") as gb:
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
def lote(tmp_path_factory):
    curso = copiar_curso(tmp_path_factory.mktemp("seguridad"))
    with open(curso / "nbgrader_config.py", "a") as f:
        f.write(LIMITES)
    ejecutar(curso, "nbgrader", "generate_assignment", TAREA, "--force")
    for alumno, caso in CASOS.items():
        entrega = curso / "submitted" / alumno / TAREA
        shutil.copytree(curso / "release" / TAREA, entrega)
        caso.preparar(entrega)
    # the gradebook as the first run leaves it is the "before" of the second run
    protegidas = ["grader_tests", "source", "release", "submitted", "nbgrader_config.py", "scripts"]
    antes = _huellas(curso, protegidas)
    primera = ejecutar(curso, "python", "scripts/grade.py", timeout=600)
    despues_1 = _huellas(curso, protegidas)
    notas_1 = _notas(curso)
    puntos_1 = {a: _puntos(curso, a) for a in CASOS}
    estructura_1 = _estructura(curso)
    db_1 = (curso / "gradebook.db").stat().st_size
    segunda = ejecutar(curso, "python", "scripts/grade.py", timeout=600)
    return {"curso": curso, "salida": primera.stdout, "salida_2": segunda.stdout,
            "antes": antes, "despues": despues_1, "despues_2": _huellas(curso, protegidas),
            "notas": notas_1, "notas_2": _notas(curso), "puntos": puntos_1,
            "estructura": estructura_1, "estructura_2": _estructura(curso), "db_1": db_1}


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
    if razon:
        lineas = [l for l in lote["salida"].splitlines() if l.strip().startswith(f"{alumno} / {TAREA}:")]
        assert any(razon in l for l in lineas), (alumno, razon, lineas)


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
    assert "TRAMPA_FALLIDA import grader_tests.referencia" in texto


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
    for alumno in ("zz_honesta", "c00_control", "c20_modulo_editado"):
        assert not any("modificada" in l for l in _observaciones(lote, alumno)), _observaciones(lote, alumno)


def test_la_celda_agotada_conserva_el_codigo_del_alumno(lote):
    import json
    for alumno in ("c02_bucle_infinito", "c03_bucle_sordo"):
        nb = json.loads((lote["curso"] / "autograded" / alumno / TAREA / hostiles.CUADERNO).read_text())
        respuesta = [c for c in nb["cells"]
                     if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "positional_encoding"]
        assert len(respuesta) == 1 and "while True" in "".join(respuesta[0]["source"]), alumno
        with Gradebook(f"sqlite:///{lote['curso'] / 'gradebook.db'}") as gb:
            for nota in gb.find_submission_notebook(Path(hostiles.CUADERNO).stem, TAREA, alumno).grades:
                if nota.cell.cell_type == "code" and nota.name in hostiles.PRUEBAS_PE:
                    assert nota.auto_score is not None and not nota.needs_manual_grade, (alumno, nota.name)


def test_el_archivo_editado_se_nombra_en_el_cuaderno_y_en_los_comentarios(lote):
    curso = lote["curso"]
    texto = (curso / "autograded" / "c20_modulo_editado" / TAREA / hostiles.CUADERNO).read_text()
    assert "Aviso de la corrección" in texto and "explorable_escalera.py" in texto
    html = (curso / "feedback" / "c20_modulo_editado" / TAREA / hostiles.CUADERNO.replace(".ipynb", ".html"))
    assert "Aviso de la corrección" in html.read_text()
    # the course's copy was used, not the student's
    original = (curso / "release" / TAREA / "explorable_escalera.py").read_bytes()
    assert (curso / "autograded" / "c20_modulo_editado" / TAREA / "explorable_escalera.py").read_bytes() == original
    assert "Aviso de la corrección" not in (curso / "autograded" / "zz_honesta" / TAREA / hostiles.CUADERNO).read_text()


def test_calificar_otra_vez_da_lo_mismo(lote):
    assert lote["notas_2"] == lote["notas"]
