"""Quiz questions («Comprueba tu intuición») and how answers are read and scored.

Each question knows its correct answer, how to read what a student typed and
the explanation of why.  Reading lives in ``grader_tests/pruebas_visibles.py``,
the module that also travels with every assignment (a copy in each
``source/<tarea>/``) and checks each answer in the notebook at once: the
classes here are those classes plus ``juzgar`` (a ``Veredicto`` for the
grade), so the instant check and the grade read an answer with the same code
and never disagree.  Each notebook's questions live in
``grader_tests/cuestionarios/<notebook>.py`` (the one source of truth of
keys and explanations); ``exportar`` writes them as the assignment's
``cuestionario.json`` (``scripts/autores/publicar_comprobaciones.py``, run by
``make release``).  At grading, the answer's final value is judged on the
trusted side.

Accepted forms: a letter in any case, with spaces, a closing parenthesis or
a period, or as «opción b» / «respuesta b», or a one-letter list or tuple
(``"b"``, ``" B "``, ``"b)"``, ``["b"]``); for multi-select a set, list or
tuple of letters or a string such as ``"a, c"``, ``"a y c"``, ``"{a, b, d}"``
or ``"abd"``; for integers an ``int`` or a NumPy integer, a float (also a
NumPy float) equal to an integer, or a string of digits (spaces, dots and
underscores as thousands separators are ignored) or in scientific notation
(``"2.56e2"``); for true / false a ``bool`` (also ``np.True_``) or
``"verdadero"`` / ``"falso"`` / ``"v"`` / ``"f"``.  Anything else earns 0
with a message, never an exception.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import pruebas_visibles as _pv
from .veredicto import Veredicto

RespuestaMalFormada = _pv.RespuestaMalFormada

_MOTIVOS = {"sin_contestar": "sin_contestar", "ilegible": "respuesta_ilegible"}


@dataclass(frozen=True)
class Pregunta(_pv.Pregunta):
    """Base class of an autograded question (``variable``, ``correcta``, ``explicacion``)."""

    def juzgar(self, valor: object, maximo: float) -> Veredicto:
        """Score ``valor`` (what the student assigned) out of ``maximo`` points.

        The verdict keeps the answer as read (``respuesta``, canonical form), or
        why it could not be read (``motivo``).  Its lines are the instant
        check's (``pruebas_visibles.Pregunta.corregir``).
        """
        correccion = self.corregir(valor)
        leida = correccion.estado in ("correcta", "incorrecta")
        return Veredicto(maximo if correccion.acierta else 0, maximo, list(correccion.lineas),
                         propiedad=self.variable, motivo=_MOTIVOS.get(correccion.estado),
                         respuesta=correccion.leida if leida else None)


@dataclass(frozen=True)
class Opcion(Pregunta, _pv.Opcion):
    """Single choice: the student writes one letter."""


@dataclass(frozen=True)
class Varias(Pregunta, _pv.Varias):
    """Multi-select, all-or-nothing: every correct letter and no other."""


@dataclass(frozen=True)
class Entero(Pregunta, _pv.Entero):
    """An exact integer (e.g. a number of parameters)."""


@dataclass(frozen=True)
class VerdaderoFalso(Pregunta, _pv.VerdaderoFalso):
    """True / false."""


def exportar(preguntas: dict) -> dict:
    """A notebook's questions as the JSON of its assignment's ``cuestionario.json``.

    ``{"preguntas": [...]}``, one ``Pregunta.a_dict()`` per question, in the
    order of ``preguntas`` (``{grade_id: Pregunta}``); ``pruebas_visibles``
    reads it back.
    """
    return {"preguntas": [dict(p.a_dict(), grade_id=gid) for gid, p in preguntas.items()]}
