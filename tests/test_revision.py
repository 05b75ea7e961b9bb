"""A resubmission never keeps a stale manual grade (grader_tests/revision.py), without kernels.

nbgrader's own ``SaveAutoGrades`` work is done by the course's
``GuardarNotasAutomaticas`` on a small notebook whose test cell has no output
(nbgrader gives it full marks); the gradebook is nbgrader's.  The story of
issue 21: the TA grades a cell by hand (1 of 3) with a comment; regrading the
same submission keeps it; a new submission holds it (the automatic 3 of 3
counts, the cell needs manual grading, the comment box says what was held,
feedback is refused and the old feedback removed) until the TA grades the
cell again and replaces the note.
"""
from __future__ import annotations

import json
import shutil

import nbformat
import pytest
from traitlets.config import Config

from grader_tests import revision

TAREA, CUADERNO = "t", "nb"


def _cuaderno(codigo: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    respuesta = nbformat.v4.new_code_cell(codigo, id="respuesta")      # fixed ids: the same code, the same file
    respuesta.metadata["nbgrader"] = {"grade_id": "f", "solution": True, "grade": False, "locked": False,
                                      "schema_version": 3}
    prueba = nbformat.v4.new_code_cell("assert True", id="prueba")
    prueba.metadata["nbgrader"] = {"grade_id": "f_prueba", "solution": False, "grade": True, "points": 3,
                                   "locked": True, "schema_version": 3}
    nb.cells = [respuesta, prueba]
    return nb


@pytest.fixture(scope="module")
def _libro_inicial(tmp_path_factory):
    """The gradebook of a one-notebook assignment with one submission (built once: nbgrader runs alembic)."""
    from nbgrader.api import Gradebook
    from scripts.calificacion.libro_de_notas import herramientas_en_path
    herramientas_en_path()
    ruta = tmp_path_factory.mktemp("libro") / "gradebook.db"
    with Gradebook(f"sqlite:///{ruta}") as gb:
        gb.add_assignment(TAREA)
        gb.add_notebook(CUADERNO, TAREA)
        gb.add_solution_cell("f", CUADERNO, TAREA)
        gb.add_grade_cell("f_prueba", CUADERNO, TAREA, max_score=3, cell_type="code")
        gb.add_student("ana")
        gb.add_submission(TAREA, "ana")
    return ruta


@pytest.fixture
def curso(_libro_inicial, tmp_path):
    shutil.copy(_libro_inicial, tmp_path / "gradebook.db")
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    config = Config({"CourseDirectory": {"root": str(tmp_path), "db_url": url}})
    return tmp_path, url, config


def _autograde(curso, codigo: str) -> None:
    """What autograde does for one notebook: the submitted file, then (our) SaveAutoGrades."""
    raiz, url, config = curso
    enviada = raiz / "submitted" / "ana" / TAREA
    enviada.mkdir(parents=True, exist_ok=True)
    nb = _cuaderno(codigo)
    nbformat.write(nb, enviada / f"{CUADERNO}.ipynb")
    recursos = {"nbgrader": {"assignment": TAREA, "student": "ana", "notebook": CUADERNO, "db_url": url}}
    revision.GuardarNotasAutomaticas(config=config).preprocess(nb, recursos)


def _comprobar(curso) -> None:
    _, url, config = curso
    recursos = {"nbgrader": {"assignment": TAREA, "student": "ana", "notebook": CUADERNO, "db_url": url}}
    revision.ComprobarRevision(config=config).preprocess(_cuaderno(""), recursos)


def _estado(curso):
    from nbgrader.api import Gradebook
    with Gradebook(curso[1]) as gb:
        nb = gb.find_submission_notebook(CUADERNO, TAREA, "ana")
        g, c = nb.grades[0], nb.comments[0]
        lineas = revision.pendientes(gb, str(curso[0] / "revisiones"), TAREA, "ana")
        return (g.auto_score, g.manual_score, g.score, g.needs_manual_grade, c.manual_comment, lineas)


def _a_mano(curso, puntos, comentario) -> None:
    """What formgrader's PUT /api/grade and /api/comment do."""
    from nbgrader.api import Gradebook
    with Gradebook(curso[1]) as gb:
        nb = gb.find_submission_notebook(CUADERNO, TAREA, "ana")
        g = nb.grades[0]
        g.manual_score = puntos
        g.needs_manual_grade = g.manual_score is None and g.auto_score is None
        nb.comments[0].manual_comment = comentario
        gb.db.commit()


def test_una_entrega_nueva_retiene_la_nota_a_mano_hasta_que_se_revisa(curso):
    _autograde(curso, "def f(): return 1")
    _a_mano(curso, 1, "f devuelve 1 y no 2")
    assert _estado(curso)[2] == 1

    # the same submission graded again (make grade twice): the TA's grade stands, nothing pending
    _autograde(curso, "def f(): return 1")
    auto, manual, nota, necesita, comentario, lineas = _estado(curso)
    assert (manual, nota, necesita, comentario, lineas) == (1, 1, False, "f devuelve 1 y no 2", [])
    _comprobar(curso)

    # old feedback of that submission, to be withdrawn
    comentarios_viejos = curso[0] / "feedback" / "ana" / TAREA
    comentarios_viejos.mkdir(parents=True)
    (comentarios_viejos / f"{CUADERNO}.html").write_text("Puntos: 1.0 / 3.0")

    # a new submission: the automatic 3 counts, the old 1 and its comment are held
    _autograde(curso, "def f(): return 2")
    auto, manual, nota, necesita, comentario, lineas = _estado(curso)
    assert (auto, manual, nota, necesita) == (3, None, 3, True)
    assert comentario.startswith(revision.MARCA) and "f_prueba: 1 a mano" in comentario
    assert "f devuelve 1 y no 2" in comentario
    assert lineas and "pendiente de revisión" in lineas[0] and "f_prueba" in lineas[0]
    assert not comentarios_viejos.exists(), "los comentarios de la entrega anterior siguen ahí"
    with pytest.raises(revision.PendienteDeRevision, match="pendiente de revisión"):
        _comprobar(curso)
    registro = json.loads((curso[0] / "revisiones" / TAREA / "ana" / f"{CUADERNO}.json").read_text())
    assert registro["pendientes"]["notas"]["f_prueba"]["manual_score"] == 1

    # regrading the new submission again does not release the hold
    _autograde(curso, "def f(): return 2")
    assert _estado(curso)[3] is True and _estado(curso)[5]

    # the TA grades the cell again (empty box: the automatic score) but leaves the note: still held
    _a_mano(curso, None, _estado(curso)[4])
    assert _estado(curso)[3] is False and _estado(curso)[5], "la nota en el comentario sigue pendiente"
    # ... and replaces the note: resolved; feedback can be generated
    _a_mano(curso, None, "Ahora f está bien.")
    assert _estado(curso)[5] == []
    _comprobar(curso)
    # regrading afterwards keeps it resolved
    _autograde(curso, "def f(): return 2")
    assert _estado(curso)[2:] == (3, False, "Ahora f está bien.", [])


def test_una_entrega_nueva_sin_notas_a_mano_no_retiene_nada(curso):
    _autograde(curso, "def f(): return 1")
    _autograde(curso, "def f(): return 2")
    assert _estado(curso)[3:] == (False, None, [])
    _comprobar(curso)


def test_la_misma_entrega_reenviada_no_se_retiene(curso):
    """Identical content sent again (a new timestamp, same notebook): the manual grade still applies."""
    _autograde(curso, "def f(): return 1")
    _a_mano(curso, 2, "casi")
    _autograde(curso, "def f(): return 1")
    assert _estado(curso)[1:] == (2, 2, False, "casi", [])


def test_sin_registro_anterior_no_se_inventa_una_entrega_nueva(curso):
    """A gradebook from before this policy (no record): nbgrader's behaviour, nothing held."""
    _autograde(curso, "def f(): return 1")
    _a_mano(curso, 1, "x")
    shutil.rmtree(curso[0] / "revisiones")
    _autograde(curso, "def f(): return 2")
    assert _estado(curso)[1] == 1 and _estado(curso)[5] == []
