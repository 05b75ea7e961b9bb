"""Judge the evidence published by a hidden test cell (trusted side only).

``juzgar`` turns the evidence that ``cliente.corregir`` gathered in the
student's kernel into a ``Veredicto``: points and a Spanish explanation.  It
never raises on malformed evidence: anything it cannot read scores 0 with a
reason.
"""
from __future__ import annotations

import glob
import importlib
import os

from . import propiedades
from .casos import especificacion
from .propiedades import Llamada
from .quiz import Pregunta
from .serializacion import deserializar
from .veredicto import Veredicto

# quiz modules, one per notebook: grader_tests/quiz_<notebook name>.py
PREFIJO_QUIZ = "quiz_"


def preguntas_de(notebook: str | None) -> dict[str, Pregunta]:
    """The quiz questions of a notebook (by its name without ``.ipynb``)."""
    if not notebook:
        return {}
    try:
        modulo = importlib.import_module(f"{__package__}.{PREFIJO_QUIZ}{notebook}")
    except ModuleNotFoundError:
        return {}
    return dict(getattr(modulo, "PREGUNTAS", {}))


def notebook_de_la_carpeta(carpeta: str | None = None) -> str | None:
    """Guess the notebook a kernel runs from its working folder (author mode)."""
    cuadernos = sorted(glob.glob(os.path.join(carpeta or os.getcwd(), "*.ipynb")))
    if len(cuadernos) == 1:
        return os.path.splitext(os.path.basename(cuadernos[0]))[0]
    return None


def puntos_por_defecto(grade_id: str) -> float:
    if grade_id in propiedades.PROPIEDADES:
        return float(propiedades.PROPIEDADES[grade_id].puntos)
    return 1.0


def juzgar(evidencia: object, maximo: float | None, notebook: str | None,
           grade_id: str | None = None) -> Veredicto:
    """Score one test cell from its evidence.

    Args:
        evidencia: the JSON the kernel published (untrusted: any shape).
        maximo: the cell's points (None: the property's default).
        notebook: the notebook's name, to find its quiz answers.
        grade_id: the cell's grade_id as the gradebook knows it; when given,
            evidence for another cell is rejected.
    """
    if not isinstance(evidencia, dict) or not isinstance(evidencia.get("grade_id"), str):
        return Veredicto(0, maximo or 1.0, ["La evidencia de esta celda está dañada; no se puede calificar."])
    gid = grade_id or evidencia["grade_id"]
    maximo = puntos_por_defecto(gid) if maximo is None else float(maximo)
    if evidencia["grade_id"] != gid:
        return Veredicto(0, maximo, [f"La celda {gid} publicó resultados de otra celda "
                                     f"({evidencia['grade_id']}); no cuentan."])
    try:
        spec = especificacion(gid)
    except KeyError:
        return Veredicto(0, maximo, [f"El corrector no conoce la celda {gid}."])
    if evidencia.get("falta"):
        return Veredicto(0, maximo, [f"`{spec.objetivo}` no está definido cuando se ejecuta esta celda: "
                                     "¿has ejecutado la celda donde lo defines, sin errores?"])
    if not spec.es_funcion:
        return _juzgar_quiz(gid, spec.objetivo, evidencia, maximo, notebook)
    if "no_invocable" in evidencia:
        return Veredicto(0, maximo, [f"`{spec.objetivo}` debería ser una función y es un "
                                     f"{evidencia['no_invocable']}."])
    registros = evidencia.get("resultados")
    if not isinstance(registros, list) or len(registros) != len(spec.casos):
        return Veredicto(0, maximo, ["Faltan resultados de algún caso; no se puede calificar."])
    try:
        llamadas = [Llamada.desde_evidencia(spec.objetivo, caso, dict(registro))
                    for caso, registro in zip(spec.casos, registros)]
    except (TypeError, ValueError) as exc:
        return Veredicto(0, maximo, [f"Los resultados de esta celda no se pueden leer ({exc})."])
    puntos, lineas = propiedades.juzgar_llamadas(gid, spec.objetivo, llamadas, maximo)
    return Veredicto(round(puntos, 4), maximo, lineas)


def _juzgar_quiz(gid: str, variable: str, evidencia: dict, maximo: float,
                 notebook: str | None) -> Veredicto:
    pregunta = preguntas_de(notebook).get(gid)
    if pregunta is None:
        return Veredicto(0, maximo, [f"El corrector no tiene la respuesta de {gid} "
                                     f"en el cuaderno {notebook!r}."])
    try:
        valor = deserializar(evidencia.get("valor"))
    except (ValueError, KeyError, TypeError):
        return Veredicto(0, maximo, [f"No se puede leer el valor de `{variable}`."])
    return pregunta.juzgar(valor, maximo)
