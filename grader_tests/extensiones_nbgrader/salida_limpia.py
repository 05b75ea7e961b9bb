"""What a TA sees from nbgrader, without noise that says nothing about the class.

``aplicar()`` (called from ``nbgrader_config.py``, so every nbgrader process
of the course, formgrader's included) removes three kinds of spurious output,
each at its cause:

* ``Config option `display_data_priority` not recognized by `ClearHiddenTests``` (and
  every other nbgrader preprocessor), on every ``generate_feedback``: nbconvert's
  HTML exporter configures ``NbConvertBase.display_data_priority`` and
  nbgrader's ``NbGraderPreprocessor`` redeclares that trait without
  ``config=True``.  The trait is marked configurable again (nbgrader's
  preprocessors never read it).
* SQLAlchemy's ``SAWarning: Object of type <SubmittedAssignment> not in
  session, add operation along … will not proceed`` for every new student:
  nbgrader's ``Gradebook.add_submission`` builds the rows before adding them to
  the session (they are added right after; nothing is lost).  Only that
  message is silenced.
* nbconvert's ``Alternative text is missing on N image(s).``, on feedback with
  an image (the explorables' still pictures, a student's plot), which also puts
  an English «No description has been provided for this image» in the
  student's Spanish feedback: :class:`TextoAlternativo` gives every image
  output a Spanish description first.

And two of nbgrader's own log lines that a TA reads in formgrader's «Log Output» and in
``make grade`` as warnings, though they report the ordinary course of things, are given
in Spanish at INFO level (sixth TA report, P4-1; :func:`registro_en_español`): «Late
submission penalty: 1.6» (the course's late policy at work) and «Removing existing
assignment: …» (feedback or an autograded copy generated again).  So are autograde's
«<submission> submitted at <UTC time>» and «<submission> is N seconds late»: the time in the
course's zone (Europe/Madrid, ``plazos.ZONA_DEL_CURSO``) and the delay as a duration (TA round 8, P4).
"""
from __future__ import annotations

import logging
import re
import warnings

from nbgrader.preprocessors import NbGraderPreprocessor

ALTERNATIVO = "Imagen de la salida de esta celda"
_IMAGENES = ("image/png", "image/jpeg", "image/gif", "image/svg+xml")


# nbgrader's routine warnings → (Spanish text, from the match); nbgrader formats them before logging
_REGISTRO = [
    (re.compile(r"^Late submission penalty: (.+)$"),
     lambda m: f"Penalización por entrega tardía (la política del curso): {m[1]} puntos"),
    (re.compile(r"^Removing existing assignment: (.+)$", re.S),
     lambda m: f"Se sustituye la versión anterior: {m[1]}"),
    # the late-penalty preprocessor's own line, formatted before logging (a hub TA's autograde, stop 31)
    (re.compile(r"^(SubmittedAssignment<.*>) is ([0-9.eE+-]+) seconds late$", re.S),
     lambda m: _tarde(m[1], m[2])),
]


def _tarde(entrega: str, segundos: str) -> str:
    """«<entrega>: llegó 1 h 2 min después de su plazo…» (``segundos`` as nbgrader wrote them)."""
    from . import plazos
    try:
        tarde = plazos.duracion(float(segundos))
    except (TypeError, ValueError, OverflowError):
        tarde = f"{segundos} s"
    return (f"{_entrega(entrega)}: llegó {tarde} después de su plazo (con su prórroga, si la tiene; la "
            "penalización la dicen la tabla de make grade y los comentarios)")


_ENTREGA = re.compile(r"^SubmittedAssignment<(.*) for (.*)>$", re.S)


def _entrega(objeto) -> str:
    """``SubmittedAssignment<tarea for alumno>`` (nbgrader's repr) → ``tarea de alumno``; control characters escaped."""
    from ..comun.legible import nombre_legible
    m = _ENTREGA.match(str(objeto))
    return f"{nombre_legible(m[1])} de {nombre_legible(m[2])}" if m else nombre_legible(str(objeto))


def _con_argumentos(registro) -> tuple[str, int] | None:
    """nbgrader autograde's two lines about a submission's time (message with ``%s`` arguments) in Spanish,
    in the course's zone: «submitted at <UTC>» and «is N seconds late» (TA round 8, P4); None for any other."""
    from . import plazos
    args = registro.args if isinstance(registro.args, tuple) else ()
    if registro.msg == "%s submitted at %s" and len(args) == 2:
        marca = args[1]
        cuando = plazos.mostrar(marca) if hasattr(marca, "astimezone") else str(marca)
        return f"{_entrega(args[0])}: entregada el {cuando}", logging.INFO
    if registro.msg == "%s is %s seconds late" and len(args) == 2:
        try:
            tarde = plazos.duracion(float(args[1]))
        except (TypeError, ValueError):
            return None
        return (f"{_entrega(args[0])}: llegó {tarde} después de su plazo (con su prórroga, si la tiene; la "
                "penalización la dicen la tabla de make grade y los comentarios)"), logging.INFO
    return None


def registro_en_español(fabrica):
    """A ``logging`` record factory around ``fabrica``: nbgrader's routine warnings in Spanish, at INFO."""
    def crear(*args, **kwargs):
        registro = fabrica(*args, **kwargs)
        if registro.levelno == logging.WARNING and isinstance(registro.msg, str) and not registro.args:
            for patron, texto in _REGISTRO:
                m = patron.match(registro.msg)
                if m:
                    registro.msg, registro.levelno, registro.levelname = texto(m), logging.INFO, "INFO"
                    break
        elif registro.levelno in (logging.INFO, logging.WARNING) and registro.args and registro.msg in (
                "%s submitted at %s", "%s is %s seconds late"):
            try:
                traducido = _con_argumentos(registro)
            except Exception:  # noqa: BLE001 - a log line is never worth a failed autograde
                traducido = None
            if traducido:
                registro.msg, registro.args = traducido[0], ()
                registro.levelno, registro.levelname = traducido[1], logging.getLevelName(traducido[1])
        return registro
    crear._curso_en_español = True
    return crear


def aplicar() -> None:
    """Install the corrections (idempotent)."""
    if not getattr(logging.getLogRecordFactory(), "_curso_en_español", False):
        logging.setLogRecordFactory(registro_en_español(logging.getLogRecordFactory()))
    rasgo = NbGraderPreprocessor.class_traits().get("display_data_priority")
    if rasgo is not None:
        rasgo.metadata["config"] = True
    try:
        from sqlalchemy.exc import SAWarning
    except ImportError:  # pragma: no cover - nbgrader always brings SQLAlchemy
        return
    warnings.filterwarnings("ignore", message=r"Object of type <\w+> not in session, add operation along",
                            category=SAWarning)


class TextoAlternativo(NbGraderPreprocessor):
    """generate_feedback: every image output without a description gets :data:`ALTERNATIVO` (Spanish)."""

    def preprocess_cell(self, cell, resources, index):
        for salida in cell.get("outputs") or []:
            datos = salida.get("data") or {}
            for mime in _IMAGENES:
                if mime in datos:
                    if not isinstance(salida.get("metadata"), dict):
                        salida["metadata"] = {}
                    if not isinstance(salida["metadata"].get(mime), dict):
                        salida["metadata"][mime] = {}
                    propios = salida["metadata"][mime]      # re-read: a NotebookNode stores a copy of a dict
                    if not isinstance(propios.get("alt"), str) or not propios["alt"].strip():
                        propios["alt"] = ALTERNATIVO
        return cell, resources
