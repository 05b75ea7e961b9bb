"""A resubmission never keeps a stale manual grade (grader_tests/extensiones_nbgrader/revision.py), without kernels.

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

from grader_tests.extensiones_nbgrader import revision

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


# ------------------------------------------------------------------ formgrader's submission page and dialogs

def test_la_pagina_de_la_entrega_dice_que_esta_retenido_con_los_ids_del_formgrader(curso):
    """grader_tests/extensiones_nbgrader/formgrader_avisos.entrega: what the submission page's «⚠ PENDIENTE
    DE REVISIÓN» box shows, with formgrader's grade and comment ids (its «Aceptar la nota automática»
    saves them through nbgrader's API); once the TA resolves it, nothing is held."""
    from nbgrader.api import Gradebook
    from grader_tests.extensiones_nbgrader import formgrader_avisos
    raiz, url, _ = curso
    _autograde(curso, "def f(): return 1")
    _a_mano(curso, 1, "f devuelve 1 y no 2")
    _autograde(curso, "def f(): return 2")
    with Gradebook(url) as gb:
        nb = gb.find_submission_notebook(CUADERNO, TAREA, "ana")
        ids = (nb.id, nb.grades[0].id, nb.comments[0].id)
        datos = formgrader_avisos.entrega(gb, str(raiz), nb.id)
        assert formgrader_avisos.entrega(gb, str(raiz), "no-existe") is None
    assert (datos["tarea"], datos["alumno"], datos["cuaderno"], datos["retraso"]) == (TAREA, "ana", CUADERNO, None)
    r = datos["revision"]
    assert r["notas"] == [{"id": ids[1], "grade_id": "f_prueba", "anterior": 1, "extra_anterior": None,
                           "auto_score": 3, "max_score": 3}]
    assert r["comentarios"] == [{"id": ids[2], "grade_id": "f", "anterior": "f devuelve 1 y no 2"}]
    assert r["desde"] == "sin fecha de entrega"            # this gradebook's submission has no timestamp
    # «Aceptar la nota automática»: PUT grade {manual_score: null} and comment {manual_comment: ""}
    _a_mano(curso, None, "")
    registro = raiz / "revisiones" / TAREA / "ana" / f"{CUADERNO}.json"
    antes = registro.read_bytes()
    with Gradebook(url) as gb:
        assert formgrader_avisos.entrega(gb, str(raiz), ids[0])["revision"] is None
        # formgrader's pages only read (an autograde may be writing the same record meanwhile)
        assert revision.con_pendientes(gb, str(raiz / "revisiones"), guardar=False) == set()
    assert registro.read_bytes() == antes
    _comprobar(curso)


def test_una_nota_distinta_en_la_revision_tambien_la_resuelve(curso):
    """The other way: the TA types another score in the marked cell (formgrader saves it on leaving the
    box) and writes a new comment; it counts, and nothing is held."""
    from nbgrader.api import Gradebook
    from grader_tests.extensiones_nbgrader import formgrader_avisos
    _autograde(curso, "def f(): return 1")
    _a_mano(curso, 1, "f devuelve 1 y no 2")
    _autograde(curso, "def f(): return 2")
    _a_mano(curso, 2, "Mejor, pero falta un caso.")
    with Gradebook(curso[1]) as gb:
        nb = gb.find_submission_notebook(CUADERNO, TAREA, "ana")
        assert (nb.grades[0].score, nb.grades[0].needs_manual_grade) == (2, False)
        assert formgrader_avisos.entrega(gb, str(curso[0]), nb.id)["revision"] is None
    _comprobar(curso)


RUTAS_DE_PLANTILLAS = ("[DEBUG] Template paths:\n\t/curso/plantillas/retroalimentacion\n"
                       "\t/venv/share/jupyter/nbconvert/templates/classic\n")
TRAZA = ("Traceback (most recent call last):\n  File \"/venv/nbgrader/utils.py\", line 1, in capture_log\n"
         "nbgrader.converters.base.NbGraderException: Please see the the above traceback for details")


def _resultado_de_generar(*fallidos: str) -> dict:
    """What formgrader's generate_feedback answers (nbgrader's capture_log) when these students failed."""
    log = "[INFO] Converting notebook /curso/autograded/ana/t/nb.ipynb\n[DEBUG] Student: ana\n" + RUTAS_DE_PLANTILLAS
    for a in fallidos:
        log += (f"[ERROR] No se generan los comentarios de '{a}' en '{TAREA}': pendiente de revisión: …\n"
                f"[ERROR] There was an error processing assignment: /curso/autograded/{a}/{TAREA}\n"
                f"[ERROR] {TRAZA}\n[WARNING] Removing failed assignment: /curso/feedback/{a}/{TAREA}\n")
    for a in fallidos:
        log += f"[ERROR] There was an error processing assignment '{TAREA}' for student '{a}'\n"
    return {"success": False, "log": log + "[ERROR] Please see the the above traceback for details",
            "error": TRAZA}


def test_generate_feedback_negado_por_revision_solo_da_el_motivo_en_español(curso):
    from nbgrader.api import Gradebook
    from grader_tests.extensiones_nbgrader import formgrader_avisos
    raiz, url, _ = curso
    _autograde(curso, "def f(): return 1")
    _a_mano(curso, 1, "f devuelve 1 y no 2")
    _autograde(curso, "def f(): return 2")
    with Gradebook(url) as gb:
        nb = gb.find_submission_notebook(CUADERNO, TAREA, "ana").id
        for alumno in (None, "ana"):
            r = formgrader_avisos.negativa_por_revision(_resultado_de_generar("ana"), gb, str(raiz), TAREA,
                                                        alumno, "generar")
            assert r["success"] is False and "error" not in r, r
            for ruido in ("Template paths", "Traceback", "/venv/", "DEBUG", "There was an error"):
                assert ruido not in r["log"], (ruido, r["log"])
            assert "No se generaron los comentarios de este alumno en «t»: ana." in r["log"]
            assert "Aceptar la nota automática" in r["log"] and "Generate Feedback" in r["log"]
            assert ("Los del resto de la clase sí se generaron." in r["log"]) == (alumno is None)
            assert r["curso_revision"]["entregas"] == [{"alumno": "ana", "cuaderno": CUADERNO, "id": nb}]
        # release feedback refused for the same reason (grader_tests.extensiones_nbgrader.intercambio)
        publicar = {"success": False, "log": "[INFO] Releasing feedback for student 'bea'\n[ERROR] ⚠ de 'ana'…\n",
                    "error": "Traceback (most recent call last):\n…\nExchangeError: Comentarios sin publicar, "
                             "pendientes de revisión en formgrader: ana (…)"}
        r = formgrader_avisos.negativa_por_revision(publicar, gb, str(raiz), TAREA, None, "publicar")
        assert "error" not in r and "No se publicaron los comentarios de este alumno en «t»: ana." in r["log"]
        assert "Generate Feedback y después Release Feedback" in r["log"]
        # another failure too (a student not held): nbgrader's log and traceback stay, without DEBUG records
        r = formgrader_avisos.negativa_por_revision(_resultado_de_generar("ana", "bea"), gb, str(raiz), TAREA,
                                                    None, "generar")
        assert r["error"] == TRAZA and "curso_revision" not in r
        assert "for student 'bea'" in r["log"] and "Template paths" not in r["log"] and "/venv/share" not in r["log"]
        assert "[DEBUG]" not in r["log"] and "[INFO] Converting notebook" in r["log"]
        # with another student's damaged folder too: one Spanish dialog, each student with what to do
        publicar["log"] += ("[ERROR] Archivos de la entrega de 'bea' en 't': no se publican los comentarios de nb: su "
                            "entrega no trae submission_secret.txt. Qué hacer: Pídele que vuelva a entregar\n"
                            "[WARNING] Comentarios sin publicar: 1 (ver los motivos arriba); el resto se publicó.\n")
        from grader_tests.extensiones_nbgrader import intercambio
        intercambio.olvidar_publicacion()
        r = formgrader_avisos.negativa_por_revision(publicar, gb, str(raiz), TAREA, None, "publicar")
        assert [d["alumno"] for d in r["curso_revision"]["detalles"]] == ["bea"], r
        assert "Pídele que vuelva a entregar" in r["log"] and "Traceback" not in r["log"]
        # success: only the DEBUG records go
        r = formgrader_avisos.negativa_por_revision({"success": True, "log": "[INFO] a\n" + RUTAS_DE_PLANTILLAS},
                                                    gb, str(raiz), TAREA, None, "generar")
        assert r == {"success": True, "log": "[INFO] a\n"}
    # resolved: nothing held, nbgrader's failure (for another reason) is left as it is
    _a_mano(curso, None, "Bien.")
    with Gradebook(url) as gb:
        r = formgrader_avisos.negativa_por_revision(_resultado_de_generar("ana"), gb, str(raiz), TAREA, None,
                                                    "generar")
        assert "curso_revision" not in r and r["error"] == TRAZA


def test_la_pagina_del_curso_enlaza_cada_pendiente_con_su_entrega_en_formgrader(curso):
    """«Pendientes de revisión» on the hub's course page: each held submission links to its page in the
    Formgrader, where the TA reviews it (issue 21's TA report: it was plain text); ids and names escaped."""
    from nbgrader.api import Gradebook
    from scripts.calificacion import servicio_del_curso as servicio
    raiz = curso[0]
    assert servicio.pendientes(raiz) == {"entregas": [], "desactualizados": []}
    _autograde(curso, "def f(): return 1")
    _a_mano(curso, 1, "f devuelve 1 y no 2")
    _autograde(curso, "def f(): return 2")
    with Gradebook(curso[1]) as gb:
        id_cuaderno = gb.find_submission_notebook(CUADERNO, TAREA, "ana").id
    assert servicio.pendientes(raiz) == {"entregas": [
        {"alumno": "ana", "tarea": TAREA, "cuadernos": [{"cuaderno": CUADERNO, "id": id_cuaderno}]}],
        "desactualizados": []}
    caja = servicio._pendientes(raiz, "/services/curso/")
    assert f'<li><a href="/services/curso/formgrader/submissions/{id_cuaderno}">ana / {TAREA}</a></li>' in caja, caja
    assert "Cada enlace abre la entrega en el Formgrader" in caja
    # the page's script draws the same links when it refreshes the box
    pagina = servicio.PAGINA
    assert "'{base}formgrader/submissions/' + encodeURIComponent(c.id)" in pagina
    assert "textContent = i === 0 ? e.alumno + ' / ' + e.tarea : c.cuaderno" in pagina


def test_la_negativa_deja_una_sola_linea_en_el_registro_sin_traza(curso, tmp_path):
    """Generate Feedback refused for a held submission, as formgrader runs it (nbgrader's API, capture_log):
    the server's log (the hub's) gets the refusal's Spanish line and no traceback or nbgrader's «error
    processing» lines (issue 21's TA report); the formgrader dialog still names who; another student's
    real failure in the same run keeps nbgrader's lines."""
    import logging
    from nbgrader.api import Gradebook
    from nbgrader.apps.api import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from grader_tests.extensiones_nbgrader import formgrader_avisos
    raiz, url, _ = curso
    _autograde(curso, "def f(): return 1")
    _a_mano(curso, 1, "f devuelve 1 y no 2")
    _autograde(curso, "def f(): return 2")
    calificada = raiz / "autograded" / "ana" / TAREA
    calificada.mkdir(parents=True)
    shutil.copy(raiz / "submitted" / "ana" / TAREA / f"{CUADERNO}.ipynb", calificada)
    config = Config({"CourseDirectory": {"root": str(raiz), "db_url": url},
                     "GenerateFeedback": {"preprocessors": [revision.ComprobarRevision]}})
    registro = logging.getLogger(f"servidor-de-prueba-{tmp_path.name}")
    registro.setLevel(logging.INFO)
    registro.propagate = False
    consola = []

    class Consola(logging.Handler):
        def emit(self, record):
            consola.append(self.format(record))
    registro.addHandler(Consola())
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config, log=registro)
    resultado = api.generate_feedback(TAREA)
    assert resultado["success"] is False
    texto = "\n".join(consola)
    assert "No se generan los comentarios de 'ana' en 't': pendiente de revisión" in texto, texto
    for ruido in ("Traceback", "There was an error processing", "Please see the", "PendienteDeRevision"):
        assert ruido not in texto, (ruido, texto)
    assert len([l for l in consola if "ana" in l and not l.startswith("Converting notebook")]) == 1, consola
    with Gradebook(url) as gb:
        dialogo = formgrader_avisos.negativa_por_revision(resultado, gb, str(raiz), TAREA, None, "generar")
    assert [e["alumno"] for e in dialogo["curso_revision"]["entregas"]] == ["ana"], dialogo
    # a second run in the same server: the same, one line
    consola.clear()
    api.generate_feedback(TAREA)
    assert "Traceback" not in "\n".join(consola) and len(consola) >= 1, consola
    # a student whose notebook breaks feedback for another reason: nbgrader's summary and traceback stay
    with Gradebook(url) as gb:
        gb.add_student("bea")
        gb.add_submission(TAREA, "bea")
    rota = raiz / "autograded" / "bea" / TAREA
    rota.mkdir(parents=True)
    (rota / f"{CUADERNO}.ipynb").write_text("{ no es un cuaderno", encoding="utf-8")
    consola.clear()
    api.generate_feedback(TAREA)
    texto = "\n".join(consola)
    assert "for student 'bea'" in texto and "Please see the" in texto, texto
    assert "for student 'ana'" not in texto, texto


def test_una_entrega_calificada_sin_comentarios_se_lista_si_otros_de_la_tarea_ya_los_tienen(tmp_path):
    """A resubmission reviewed after Generate Feedback (or a student graded later) has no feedback while the
    rest of the assignment has: the course page lists it with what to do (TA round 8, P3), not before the
    first Generate Feedback of that assignment, not when held for review, never through a link."""
    from nbgrader.api import Gradebook
    from scripts.calificacion import libro_de_notas, servicio_del_curso as sc
    libro_de_notas.herramientas_en_path()
    for alumno in ("ana", "bea", "eva"):
        (tmp_path / "autograded" / alumno / "t").mkdir(parents=True)
        (tmp_path / "autograded" / alumno / "t" / "nb.ipynb").write_text("{}")
    with Gradebook(f"sqlite:///{tmp_path / 'gb.db'}") as gb:
        gb.add_assignment("t")
        for alumno in ("ana", "bea", "eva"):
            gb.add_student(alumno)
            gb.add_submission("t", alumno)
        assert sc.sin_comentarios(tmp_path, gb) == []                       # nobody has feedback yet: normal
        (tmp_path / "feedback" / "ana" / "t").mkdir(parents=True)
        (tmp_path / "feedback" / "ana" / "t" / "nb.html").write_text("<html></html>")
        (tmp_path / "otro").mkdir()
        (tmp_path / "otro" / "nb.html").write_text("<html></html>")
        (tmp_path / "feedback" / "eva").mkdir()
        (tmp_path / "feedback" / "eva" / "t").symlink_to(tmp_path / "otro")     # a link is not feedback
        lista = sc.sin_comentarios(tmp_path, gb)
        assert [(e["alumno"], e["tarea"]) for e in lista] == [("bea", "t"), ("eva", "t")]
        assert "pulsa Generate Feedback y después Release Feedback" in lista[0]["motivo"]
        assert sc.sin_comentarios(tmp_path, gb, {("bea", "t")}) == [lista[1]]   # held: listed there instead
        (tmp_path / "feedback" / "bea" / "t").mkdir(parents=True)
        (tmp_path / "feedback" / "bea" / "t" / "nb.html").write_text("<html></html>")
        assert [e["alumno"] for e in sc.sin_comentarios(tmp_path, gb)] == ["eva"]


def test_los_comentarios_de_una_celda_puesta_a_mano_no_dan_dos_notas(tmp_path):
    """A hub TA: a cell graded 0.5 by hand showed, below its «Puntos: 0.5 / 1.0 (puestos a mano…)» header, the
    judge's «✘ Puntos: 0 de 1». The verdict's line now says it is the automatic score and which one counts."""
    from nbformat.v4 import new_code_cell, new_notebook, new_output
    from nbgrader.api import Gradebook

    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(url) as gb:
        gb.add_assignment("t")
        gb.add_notebook("nb", "t")
        for celda in ("c1", "c2"):
            gb.add_grade_cell(celda, "nb", "t", max_score=1, cell_type="code")
        gb.add_student("ana")
        entrega = gb.add_submission("t", "ana")
        for nota in entrega.notebooks[0].grades:
            nota.auto_score = 0.0
            if nota.name == "c1":
                nota.manual_score = 0.5
        gb.db.commit()
    celdas = []
    for gid in ("c1", "c2"):
        celda = new_code_cell("pass", metadata={"nbgrader": {"grade": True, "grade_id": gid, "points": 1}})
        celda.outputs = [new_output("stream", name="stdout", text="Algo falla.\n✘ Puntos: 0 de 1\n")]
        celdas.append(celda)
    nb, _ = revision.NotaAManoEnComentarios().preprocess(
        new_notebook(cells=celdas), {"nbgrader": {"db_url": url, "notebook": "nb", "assignment": "t", "student": "ana"}})
    a_mano, automatica = nb.cells
    assert a_mano.metadata.nbgrader["curso_nota_automatica"] == 0.0
    assert a_mano.outputs[0].text.endswith("✘ Puntos de la corrección automática: 0 de 1 (cuenta la nota puesta a "
                                           "mano, arriba)\n"), a_mano.outputs[0].text
    assert automatica.outputs[0].text == "Algo falla.\n✘ Puntos: 0 de 1\n"       # not graded by hand: as it was
