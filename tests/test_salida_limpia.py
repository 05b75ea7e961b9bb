"""No spurious warnings in what a TA sees (grader_tests/extensiones_nbgrader/salida_limpia.py), at their causes.

The course's configuration (nbgrader_config.py) calls ``salida_limpia.aplicar()``
in every nbgrader process: nbgrader's preprocessors accept nbconvert's
``display_data_priority`` without «not recognized», a new student's submission
raises no SQLAlchemy ``SAWarning``, and every image of the feedback has a
Spanish description (no English «No description has been provided»).
"""
from __future__ import annotations

import logging
import warnings

import nbformat
from traitlets.config import Config

from grader_tests.extensiones_nbgrader import salida_limpia

salida_limpia.aplicar()


def test_los_preprocesadores_de_nbgrader_aceptan_display_data_priority(caplog):
    from nbgrader.preprocessors import ClearHiddenTests
    from grader_tests.extensiones_nbgrader.nbgrader_seguro import AvisosEnComentarios
    config = Config({"NbConvertBase": {"display_data_priority": ["text/html", "text/plain"]}})
    registro = logging.getLogger("prueba-salida-limpia")
    with caplog.at_level(logging.WARNING):
        for clase in (ClearHiddenTests, AvisosEnComentarios):
            clase(config=config, log=registro)
    assert not [r for r in caplog.records if "not recognized" in r.getMessage()], caplog.text


def test_un_alumno_nuevo_no_produce_sawarning(tmp_path):
    from nbgrader.api import Gradebook
    from scripts.calificacion.libro_de_notas import herramientas_en_path
    herramientas_en_path()
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as gb:
        gb.add_assignment("t")
        gb.add_notebook("nb", "t")
        gb.add_grade_cell("c", "nb", "t", max_score=1, cell_type="code")
        gb.add_student("ana")
        with warnings.catch_warnings(record=True) as avisos:
            warnings.simplefilter("default")
            salida_limpia.aplicar()                 # catch_warnings reset the filters: as nbgrader_config.py does
            gb.add_submission("t", "ana")
    assert not [a for a in avisos if "not in session" in str(a.message)], [str(a.message) for a in avisos]


def test_cada_imagen_de_los_comentarios_tiene_descripcion_en_español():
    imagen = nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="})
    propia = nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="},
                                    metadata={"image/png": {"alt": "mapa de la cabeza 1"}})
    celda = nbformat.v4.new_code_cell("x", outputs=[imagen, propia])
    salida_limpia.TextoAlternativo().preprocess_cell(celda, {}, 0)
    assert celda.outputs[0].metadata["image/png"]["alt"] == salida_limpia.ALTERNATIVO
    assert celda.outputs[1].metadata["image/png"]["alt"] == "mapa de la cabeza 1"


def test_los_avisos_rutinarios_de_nbgrader_salen_en_español_y_como_info(caplog):
    """Sixth TA report, P4-1: «[WARNING] Late submission penalty: 1.6» (nbgrader's GetGrades and
    AssignLatePenalties) and «[WARNING] Removing existing assignment: …» in formgrader's Log Output."""
    registro = logging.getLogger("prueba-salida-limpia-registro")
    salida_limpia.aplicar()                                   # idempotent: one wrapper only
    with caplog.at_level(logging.INFO, logger=registro.name):
        registro.warning("Late submission penalty: {}".format(1.6))
        registro.warning("Removing existing assignment: {}".format("/curso/feedback/ana/t"))
        registro.warning("Otra cosa: %s", "sigue siendo un aviso")
        # the late-penalty preprocessor formats its line before logging (a hub TA, stop 31)
        registro.warning("{} is {} seconds late".format("SubmittedAssignment<t for ana>", 5400.0))
    [penal, sustituye, otro, tarde] = caplog.records
    assert (penal.levelname, penal.getMessage()) == (
        "INFO", "Penalización por entrega tardía (la política del curso): 1.6 puntos")
    assert (sustituye.levelname, sustituye.getMessage()) == (
        "INFO", "Se sustituye la versión anterior: /curso/feedback/ana/t")
    assert (otro.levelname, otro.getMessage()) == ("WARNING", "Otra cosa: sigue siendo un aviso")
    assert tarde.levelname == "INFO" and tarde.getMessage().startswith("t de ana: llegó 1 h y 30 min después"), \
        tarde.getMessage()
    fabrica = logging.getLogRecordFactory()
    salida_limpia.aplicar()
    assert logging.getLogRecordFactory() is fabrica


def test_la_hora_y_el_retraso_de_autograde_salen_en_español_y_en_la_hora_del_curso(caplog):
    """TA round 8, P4: nbgrader autograde's «SubmittedAssignment<t for ana> submitted at 2026-03-29 10:00:00» (UTC)
    and «… is 5400.0 seconds late» reach the TA in Spanish, the time in Madrid's (summer: +2 h), the delay as a
    duration; a name with control characters is escaped; anything else is left as it was."""
    import datetime as dt

    class Entrega:                                      # nbgrader's SubmittedAssignment.__repr__
        def __init__(self, tarea, alumno):
            self.texto = f"SubmittedAssignment<{tarea} for {alumno}>"

        def __str__(self):
            return self.texto

    registro = logging.getLogger("prueba-salida-limpia-autograde")
    salida_limpia.aplicar()
    with caplog.at_level(logging.INFO, logger=registro.name):
        registro.info("%s submitted at %s", Entrega("t", "ana"), dt.datetime(2026, 3, 29, 10, 0, 5))
        registro.warning("%s is %s seconds late", Entrega("t", "ana\x1b[2J"), 5400.0)
        registro.warning("%s is %s seconds late", Entrega("t", "luis"), "mucho")
    [hora, tarde, raro] = caplog.records
    assert (hora.levelname, hora.getMessage()) == (
        "INFO", "t de ana: entregada el domingo 29/03/2026 12:00:05 (hora de Madrid)")
    assert tarde.levelname == "INFO" and tarde.getMessage().startswith(
        "t de ana\\x1b[2J: llegó 1 h y 30 min después de su plazo"), tarde.getMessage()
    assert (raro.levelname, raro.getMessage()) == ("WARNING", "SubmittedAssignment<t for luis> is mucho seconds late")
