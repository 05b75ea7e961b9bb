"""Release Feedback never publishes a stale grade (issue 21, fifth TA's report, P1).

``grader_tests/extensiones_nbgrader/huella_de_comentarios.py``: each feedback page carries the
fingerprint of what it states; ``nbgrader release_feedback`` (the course's ``PublicarComentariosSeguro``)
compares it with the gradebook and withholds a student whose page no longer says what the gradebook
says.  The story, with the plain nbgrader commands in a copy of the course (no kernel runs: the
gradebook and ``autograded/`` are written as autograde leaves them, for a one-notebook assignment):

* ``nbgrader generate_feedback``; then luis, 1 min late (−10 %), gets an extension in
  ``nbgrader_config.py`` and ana a manual grade with a comment (formgrader's API does the same);
* ``nbgrader release_feedback``: marta's feedback is published, luis's and ana's are not, with the
  Spanish reason in the log and an error at the end;
* ``nbgrader generate_feedback`` again and ``release_feedback``: everybody's, with the true grade.

The unit tests check the fingerprint itself and where the page may hold it.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import nbformat
import pytest
from curso_temporal import copiar_curso, ejecutar

from grader_tests.extensiones_nbgrader import huella_de_comentarios as hc

pytestmark = pytest.mark.slow

TAREA, CUADERNO, CURSO_ID = "t", "nb", "atencion-y-posicion"
# Madrid wall time, winter (UTC+1): the due date 12:00 is 11:00 UTC
PLAZO = "2026-03-20 12:00"
ENTREGAS = {"ana": "2026-03-20 10:30:00.000000 UTC",        # on time
            "luis": "2026-03-20 11:01:04.000000 UTC",       # 1 min 4 s late: −10 %
            "marta": "2026-03-20 10:59:00.000000 UTC"}      # on time


def _cuaderno() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    respuesta = nbformat.v4.new_code_cell("def f():\n    return 1", id="respuesta")
    respuesta.metadata["nbgrader"] = {"grade_id": "f", "solution": True, "grade": False, "locked": False,
                                      "schema_version": 3}
    prueba = nbformat.v4.new_code_cell("assert f() == 1", id="prueba")
    prueba.metadata["nbgrader"] = {"grade_id": "f_prueba", "solution": False, "grade": True, "points": 10,
                                   "locked": True, "schema_version": 3}
    nb.cells = [respuesta, prueba]
    return nb


def _libro(url: str):
    from nbgrader.api import Gradebook
    from scripts.calificacion.libro_de_notas import herramientas_en_path
    herramientas_en_path()          # nbgrader runs alembic on a new gradebook
    return Gradebook(url)


@pytest.fixture(scope="module")
def curso(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("desactualizados")
    raiz = copiar_curso(base / "curso")
    intercambio = base / "intercambio"
    intercambio.mkdir()
    with open(raiz / "nbgrader_config.py", "a", encoding="utf-8") as f:
        f.write(f"\nc.Exchange.root = {str(intercambio)!r}\n")
    # the TA's file of due dates (plazos.toml), as docs/profesorado.md says to write it
    (raiz / "plazos.toml").write_text(f'[fechas]\n{TAREA} = "{PLAZO}"\n', encoding="utf-8")
    url = f"sqlite:///{raiz / 'gradebook.db'}"
    with _libro(url) as gb:
        gb.add_assignment(TAREA)
        gb.add_notebook(CUADERNO, TAREA)
        gb.add_solution_cell("f", CUADERNO, TAREA)
        gb.add_grade_cell("f_prueba", CUADERNO, TAREA, max_score=10, cell_type="code")
        for alumno, marca in ENTREGAS.items():
            gb.add_student(alumno)
            entrega = gb.add_submission(TAREA, alumno, timestamp=marca)
            for g in entrega.notebooks[0].grades:
                g.auto_score, g.needs_manual_grade = 10.0, False
            carpeta = raiz / "autograded" / alumno / TAREA
            carpeta.mkdir(parents=True)
            nbformat.write(_cuaderno(), carpeta / f"{CUADERNO}.ipynb")
            (carpeta / "timestamp.txt").write_text(marca)
            (carpeta / "submission_secret.txt").write_text(hashlib.sha256(alumno.encode()).hexdigest())
        gb.db.commit()
    return {"raiz": raiz, "url": url, "salida": intercambio / CURSO_ID / "feedback"}


def _publicados(curso) -> dict[str, str]:
    """Released feedback, by student (the file's name is the hash of the student's secret and the notebook)."""
    from nbgrader.utils import notebook_hash
    resultado = {}
    for alumno in ENTREGAS:
        secreto = hashlib.sha256(alumno.encode()).hexdigest()
        ruta = curso["salida"] / f"{notebook_hash(secret=secreto, notebook_id=CUADERNO)}.html"
        if ruta.exists():
            resultado[alumno] = ruta.read_text(encoding="utf-8")
    return resultado


def _cabecera(html: str) -> str:
    m = re.search(r"<h4>.*?</h4>", html, re.S)
    return m.group(0) if m else ""


def test_release_feedback_retiene_lo_desactualizado_y_publica_al_resto(curso):
    raiz, url = curso["raiz"], curso["url"]
    ejecutar(raiz, "nbgrader", "generate_feedback", TAREA)
    pagina = (raiz / "feedback" / "luis" / TAREA / f"{CUADERNO}.html").read_text(encoding="utf-8")
    assert "Puntos: 9.0 / 10.0" in _cabecera(pagina) and "Penalización por entrega tardía" in pagina
    with _libro(url) as gb:
        assert hc.leer_de_html(str(raiz / "feedback" / "luis" / TAREA / f"{CUADERNO}.html")) == \
            hc.huella(gb, TAREA, "luis", CUADERNO)

    # after Generate Feedback: an extension for luis (the config), a manual grade and comment for ana
    with open(raiz / "plazos.toml", "a", encoding="utf-8") as f:
        f.write(f'[prorrogas.{TAREA}]\nluis = "10 min"\n')
    with _libro(url) as gb:
        gb.find_grade("f_prueba", CUADERNO, TAREA, "ana").manual_score = 7.0
        gb.find_comment("f", CUADERNO, TAREA, "ana").manual_comment = "Falta un caso."
        gb.db.commit()

    publicar = ejecutar(raiz, "nbgrader", "release_feedback", TAREA, check=False)
    salida = publicar.stdout + publicar.stderr
    assert publicar.returncode != 0, salida
    assert set(_publicados(curso)) == {"marta"}, salida
    for alumno in ("ana", "luis"):
        assert f"No se publican los comentarios de '{alumno}' en '{TAREA}' ({CUADERNO}): comentarios " \
               "desactualizados: la nota cambió después de Generate Feedback; vuelve a pulsar Generate Feedback" \
               in salida, salida
    assert re.search(r"Comentarios sin publicar, comentarios desactualizados: ana, luis \(", salida), salida
    assert "Traceback" not in publicar.stdout

    # what the course page of the hub lists (scripts/calificacion/servicio_del_curso.py) ...
    from scripts.calificacion import servicio_del_curso as servicio
    with _libro(url) as gb:
        assert set(hc.desactualizados(gb, str(raiz / "feedback"))) == {("ana", TAREA), ("luis", TAREA)}
    datos = servicio.pendientes(raiz)
    assert [(e["alumno"], e["tarea"]) for e in datos["desactualizados"]] == [("ana", TAREA), ("luis", TAREA)]
    assert all(e["motivo"].startswith(f"{CUADERNO}: comentarios desactualizados") for e in datos["desactualizados"])
    caja = servicio._desactualizados(datos, "/services/curso/")
    assert f'<a href="/services/curso/formgrader/manage_submissions/{TAREA}">luis / {TAREA}</a>' in caja, caja
    assert "Release Feedback no los publica" in caja
    # ... and what formgrader's Release Feedback says (grader_tests/extensiones_nbgrader/formgrader_avisos.py)
    from grader_tests.extensiones_nbgrader import formgrader_avisos
    resultado = {"success": False, "log": publicar.stdout + publicar.stderr,
                 "error": "Traceback (most recent call last):\n…\nExchangeError: " + salida.strip().splitlines()[-2]}
    with _libro(url) as gb:
        r = formgrader_avisos.negativa_por_revision(resultado, gb, str(raiz), TAREA, None, "publicar")
    assert "error" not in r and "Traceback" not in r["log"], r
    assert "No se publicaron los comentarios de estos 2 alumnos en «t»: ana, luis." in r["log"], r["log"]
    assert "Los del resto de la clase sí se publicaron." in r["log"]
    assert "pulsa Generate Feedback" in r["log"] and "después Release Feedback" in r["log"]
    assert r["curso_revision"]["titulo"] == "Comentarios sin publicar: desactualizados"
    assert [e["alumno"] for e in r["curso_revision"]["entregas"]] == ["ana", "luis"]

    # Generate Feedback again: the pages are right; what marta got is still right, nobody else got any
    ejecutar(raiz, "nbgrader", "generate_feedback", TAREA, "--force")
    with _libro(url) as gb:
        assert hc.desactualizados(gb, str(raiz / "feedback"), carpeta_publicada=str(curso["salida"])) == {}
    # ... and everybody's is released, with the grade that is true now
    publicar = ejecutar(raiz, "nbgrader", "release_feedback", TAREA, check=False)
    assert publicar.returncode == 0, publicar.stdout + publicar.stderr
    publicados = _publicados(curso)
    assert set(publicados) == set(ENTREGAS)
    assert "Puntos: 10.0 / 10.0" in _cabecera(publicados["luis"])
    assert "Penalización por entrega tardía" not in publicados["luis"]
    assert "Puntos: 7.0 / 10.0" in _cabecera(publicados["ana"]) and "Falta un caso." in publicados["ana"]
    with _libro(url) as gb:
        assert hc.desactualizados(gb, str(raiz / "feedback")) == {}
        # a manual grade after the release, then Generate Feedback but no Release: the student still has the
        # old page in the exchange, and the course page says to press Release Feedback
        gb.find_grade("f_prueba", CUADERNO, TAREA, "marta").manual_score = 8.0
        gb.db.commit()
    ejecutar(raiz, "nbgrader", "generate_feedback", TAREA, "--force", "--student", "marta")
    with _libro(url) as gb:
        assert hc.desactualizados(gb, str(raiz / "feedback")) == {}
        assert hc.desactualizados(gb, str(raiz / "feedback"), carpeta_publicada=str(curso["salida"])) == {
            ("marta", TAREA): f"{CUADERNO}: {hc.MOTIVO_PUBLICADOS}"}
    ejecutar(raiz, "nbgrader", "release_feedback", TAREA)
    assert "Puntos: 8.0 / 10.0" in _cabecera(_publicados(curso)["marta"])
    with _libro(url) as gb:
        assert hc.desactualizados(gb, str(raiz / "feedback"), carpeta_publicada=str(curso["salida"])) == {}


def test_release_feedback_sin_secreto_nunca_dice_success_y_dice_que_hacer_en_español(curso):
    """TA round 7, P2-4 and P3-5: a student left without feedback because the submission has no
    submission_secret.txt (an entry made by hand) ends Release Feedback with an error that names them, with
    what to do; with a stale page of another student too, formgrader's dialog is the Spanish one, each
    student with the reason and what to do (never nbgrader's English dialog, never «Success»)."""
    from nbgrader.api import Gradebook
    from nbgrader.apps.api import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    from grader_tests.extensiones_nbgrader import formgrader_avisos, intercambio
    raiz, url = curso["raiz"], curso["url"]
    ejecutar(raiz, "nbgrader", "generate_feedback", TAREA, "--force")
    (raiz / "feedback" / "marta" / TAREA / "submission_secret.txt").unlink()
    publicar = ejecutar(raiz, "nbgrader", "release_feedback", TAREA, check=False)
    salida = publicar.stdout + publicar.stderr
    assert publicar.returncode != 0, salida
    assert "Comentarios sin publicar: marta (los motivos y qué hacer, arriba); el resto se publicó." in salida, salida
    assert "su entrega no trae submission_secret.txt" in salida and "vuelva a entregar con el botón Entregar" in salida

    # the hub's course page lists her, with what to do
    from scripts.calificacion import servicio_del_curso as servicio
    assert [(e["alumno"], e["tarea"]) for e in servicio.sin_secreto(raiz)] == [("marta", TAREA)]
    [linea] = [e for e in servicio.pendientes(raiz)["desactualizados"] if e["alumno"] == "marta"]
    assert "no trae submission_secret.txt" in linea["motivo"] and "vuelva a entregar con el botón Entregar" in linea["motivo"]

    # formgrader: nbgrader's API in this thread, then the course's answer to its result
    with _libro(url) as gb:
        gb.find_grade("f_prueba", CUADERNO, TAREA, "luis").manual_score = 6.0      # luis's page is stale now
        gb.db.commit()
    config = Config({"CourseDirectory": {"root": str(raiz), "db_url": url, "course_id": CURSO_ID},
                     "Exchange": {"root": str(curso["salida"].parent.parent)},
                     "ExchangeFactory": {"release_feedback": f"{intercambio.__name__}.PublicarComentariosSeguro"}})
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    intercambio.olvidar_publicacion()
    resultado = api.release_feedback(TAREA)
    assert resultado["success"] is False
    with Gradebook(url) as gb:
        r = formgrader_avisos.negativa_por_revision(resultado, gb, str(raiz), TAREA, None, "publicar")
    assert "error" not in r and "Traceback" not in r["log"], r
    assert "No se publicaron los comentarios de estos 2 alumnos en «t»: luis, marta." in r["log"], r["log"]
    detalles = {d["alumno"]: d for d in r["curso_revision"]["detalles"]}
    assert "submission_secret.txt" in detalles["marta"]["motivo"]
    assert "vuelva a entregar con el botón Entregar" in detalles["marta"]["que_hacer"]
    assert "comentarios desactualizados" in detalles["luis"]["motivo"]
    assert "Generate Feedback" in detalles["luis"]["que_hacer"]
    assert r["curso_revision"]["titulo"] == "Comentarios sin publicar"
    assert {e["alumno"] for e in r["curso_revision"]["entregas"]} == {"luis", "marta"}
    # the same from the log alone (a release that ran elsewhere), as formgrader captures it («[ERROR] …»)
    intercambio.olvidar_publicacion()
    capturado = re.sub(r"^\[\w+ \| (\w+)\]", r"[\1]", salida, flags=re.M)
    with Gradebook(url) as gb:
        r = formgrader_avisos.negativa_por_revision({"success": False, "log": capturado, "error": "x"}, gb,
                                                    str(raiz), TAREA, None, "publicar")
    assert [d["alumno"] for d in r["curso_revision"]["detalles"]] == ["marta"], r
    assert "vuelva a entregar con el botón Entregar" in r["curso_revision"]["detalles"][0]["que_hacer"]


# ------------------------------------------------------------------------------ the fingerprint itself

@pytest.fixture
def libro(tmp_path):
    gb = _libro(f"sqlite:///{tmp_path / 'gradebook.db'}")
    gb.add_assignment(TAREA, duedate="2026-03-20 11:00:00")
    gb.add_notebook(CUADERNO, TAREA)
    gb.add_solution_cell("f", CUADERNO, TAREA)
    gb.add_grade_cell("f_prueba", CUADERNO, TAREA, max_score=10, cell_type="code")
    gb.add_student("luis")
    entrega = gb.add_submission(TAREA, "luis", timestamp=ENTREGAS["luis"])
    entrega.notebooks[0].grades[0].auto_score = 10.0
    gb.db.commit()
    yield gb
    gb.close()


def test_la_huella_cambia_con_cada_cosa_que_dicen_los_comentarios(libro):
    nb = libro.find_submission_notebook(CUADERNO, TAREA, "luis")
    antes = hc.huella(libro, TAREA, "luis", CUADERNO)
    assert re.fullmatch(r"[0-9a-f]{64}", antes)
    assert hc.huella(libro, TAREA, "luis", CUADERNO) == antes, "la misma nota, la misma huella"
    assert hc.huellas(libro, TAREA) == {("luis", CUADERNO): antes}
    assert hc.huella(libro, TAREA, "nadie", CUADERNO) is None
    vistas = {antes}
    grade = libro.find_grade("f_prueba", CUADERNO, TAREA, "luis")
    comentario = libro.find_comment("f", CUADERNO, TAREA, "luis")
    for cambio in (lambda: setattr(grade, "manual_score", 7.0),            # a manual grade
                   lambda: setattr(grade, "extra_credit", 1.0),            # extra credit
                   lambda: setattr(comentario, "manual_comment", "Bien"),  # a comment
                   lambda: setattr(nb, "late_submission_penalty", 0.8),    # a late penalty
                   lambda: setattr(nb.assignment, "extension", __import__("datetime").timedelta(seconds=30))):
        cambio()
        libro.db.commit()
        nueva = hc.huella(libro, TAREA, "luis", CUADERNO)
        assert nueva not in vistas, cambio
        vistas.add(nueva)


def _pagina(cabeza: str, cuerpo: str = "") -> str:
    return (f'<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8" />\n{cabeza}<title>nb</title>\n'
            f"<style>x</style></head><body>{cuerpo}</body></html>")


def test_solo_cuenta_la_huella_que_escribe_la_plantilla(tmp_path):
    h, otra = "a" * 64, "b" * 64
    meta = f'<meta name="curso-huella" content="{h}" />\n'
    casos = {
        "buena": (_pagina(meta), h),
        "buena_al_reves": (_pagina(f'<meta content="{h}" name="curso-huella"/>'), h),    # as the page is saved
        "sin_huella": (_pagina(""), None),
        # the body holds the student's text: a tag there is never read
        "en_el_cuerpo": (_pagina("", f'<meta name="curso-huella" content="{otra}" />'), None),
        "dos": (_pagina(meta + meta.replace(h, otra)), None),
        "mal_formada": (_pagina(meta.replace(h, "z" * 64)), None),
        "sin_titulo": (_pagina(meta).replace("<title>", "<x>"), None),
    }
    for nombre, (texto, esperado) in casos.items():
        ruta = tmp_path / f"{nombre}.html"
        ruta.write_text(texto, encoding="utf-8")
        assert hc.leer_de_html(str(ruta)) == esperado, nombre
    (tmp_path / "enlace.html").symlink_to(tmp_path / "buena.html")
    assert hc.leer_de_html(str(tmp_path / "enlace.html")) is None, "no se sigue un enlace"
    assert hc.motivo(h, h) is None
    assert hc.motivo(otra, h) == hc.MOTIVO
    assert hc.motivo(None, h) == hc.MOTIVO_SIN_HUELLA
    assert hc.motivo(h, None) == hc.MOTIVO_SIN_ENTREGA


def test_la_huella_solo_se_escribe_si_la_pagina_dice_lo_del_libro(libro):
    """HuellaEnComentarios (generate_feedback, after GetGrades): the fingerprint goes into the page only
    when what GetGrades wrote is what the gradebook holds now; a grade saved in between leaves the page
    without one (Release Feedback withholds it).  A student's nbgrader metadata on a cell GetGrades does
    not read changes nothing."""
    url = str(libro.db.bind.url)
    nb = _cuaderno()
    nb.cells[1].metadata.nbgrader["score"] = 10.0                       # what GetGrades wrote
    nb.cells[0].metadata.nbgrader["comment"] = None
    intruso = nbformat.v4.new_markdown_cell("texto del alumno")
    intruso.metadata["nbgrader"] = {"grade_id": "f_prueba", "score": 999, "grade": False, "solution": False}
    nb.cells.append(intruso)

    def escrita(nb) -> str | None:
        recursos = {"nbgrader": {"assignment": TAREA, "student": "luis", "notebook": CUADERNO, "db_url": url,
                                 "score": 10.0, "max_score": 10.0, "late_penalty": 0}}
        hc.HuellaEnComentarios().preprocess(nb, recursos)
        return recursos["nbgrader"].get(hc.CLAVE_RECURSOS)

    assert escrita(nb) == hc.huella(libro, TAREA, "luis", CUADERNO) is not None
    libro.find_grade("f_prueba", CUADERNO, TAREA, "luis").manual_score = 7.0    # saved in formgrader meanwhile
    libro.db.commit()
    assert escrita(nb) is None


def test_con_una_reentrega_pendiente_la_caja_dice_que_aun_tiene_los_comentarios_viejos():
    """Sixth TA report, P4-5: «Comentarios desactualizados: Ninguno» beside a held resubmission whose student
    still holds the older feedback.  The box says so, empty or not (the page's script draws the same)."""
    from scripts.calificacion import servicio_del_curso as servicio
    pendiente = {"alumno": "luis", "tarea": TAREA, "cuadernos": []}
    assert servicio._desactualizados({"entregas": [], "desactualizados": []}, "/") == "<p>Ninguno.</p>"
    caja = servicio._desactualizados({"entregas": [pendiente], "desactualizados": []}, "/")
    assert caja.startswith("<p>Ninguno fuera de «Pendientes de revisión».") and "entrega anterior" in caja
    otro = {"alumno": "ana", "tarea": TAREA, "motivo": "la nota cambió"}
    caja = servicio._desactualizados({"entregas": [pendiente], "desactualizados": [otro]}, "/")
    assert "ana / " + TAREA in caja and caja.endswith(f"<p>{servicio.NOTA_PENDIENTES}</p>")
    pagina = servicio.PAGINA.format(nonce="n", base="/", curso="c", plazos="", pendientes="", desactualizados="",
                                    intro_pendientes="''", intro_desactualizados="''",
                                    nota_pendientes=servicio._en_guion(servicio.NOTA_PENDIENTES),
                                    ninguno_salvo_pendientes=servicio._en_guion(servicio.NINGUNO_SALVO_PENDIENTES),
                                    intervalo_s=10, intervalo_ms=10000, zona_js='"Europe/Madrid"',
                                    lugar_js="hora de Madrid")
    assert "pintarDesactualizados(p.desactualizados || [], (p.entregas || []).length)" in pagina
    assert "pendientes ? " + servicio._en_guion(servicio.NINGUNO_SALVO_PENDIENTES) in pagina
