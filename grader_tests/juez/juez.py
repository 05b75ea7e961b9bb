"""Judge the evidence published by a hidden test cell (trusted side only).

``juzgar`` turns the evidence that ``cliente.corregir`` gathered in the
student's kernel into a ``Veredicto``: points, a Spanish explanation and the
typed facts behind them.  It never raises on malformed evidence: anything it
cannot read scores 0 with a reason.  It names no exercise: the cell's
exercise, its properties and known mistakes come from
``grader_tests/ejercicios/<function>/`` (``descubrimiento``), its quiz
answers from ``grader_tests/cuestionarios/<notebook>.py``.
"""
from __future__ import annotations

import glob
import os

from . import descubrimiento, propiedades
from ..en_el_kernel.casos import especificacion
from .propiedades import Llamada
from .quiz import Pregunta
from ..en_el_kernel.serializacion import deserializar
from .veredicto import Veredicto


def preguntas_de(notebook: str | None) -> dict[str, Pregunta]:
    """The quiz questions of a notebook (by its name without ``.ipynb``)."""
    return descubrimiento.cuestionario(notebook)


def notebook_de_la_carpeta(carpeta: str | None = None) -> str | None:
    """Guess the notebook a kernel runs from its working folder (author mode)."""
    cuadernos = sorted(glob.glob(os.path.join(carpeta or os.getcwd(), "*.ipynb")))
    if len(cuadernos) == 1:
        return os.path.splitext(os.path.basename(cuadernos[0]))[0]
    return None


def puntos_por_defecto(grade_id: str) -> float:
    """The points of a test cell's property (1 for quiz cells and unknown cells)."""
    try:
        return float(descubrimiento.propiedad(grade_id).puntos)
    except KeyError:
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
        return Veredicto(0, maximo or 1.0, ["La evidencia de esta celda está dañada; no se puede calificar."],
                         grade_id=grade_id, motivo="evidencia_dañada")
    gid = grade_id or evidencia["grade_id"]
    maximo = puntos_por_defecto(gid) if maximo is None else float(maximo)
    if evidencia["grade_id"] != gid:
        return Veredicto(0, maximo, [f"La celda {gid} publicó resultados de otra celda "
                                     f"({evidencia['grade_id']}); no cuentan."],
                         grade_id=gid, motivo="evidencia_ajena")
    try:
        spec = especificacion(gid)
    except KeyError:
        return Veredicto(0, maximo, [f"El corrector no conoce la celda {gid}."], grade_id=gid,
                         motivo="celda_desconocida")
    propiedad = spec.propiedad or spec.objetivo
    if evidencia.get("falta") and not spec.es_funcion:
        # a quiz question: said as Validate says it («Pregunta 2 sin contestar…»; a new student's report, issue 22)
        numero = spec.objetivo.rsplit("_", 1)[-1]
        return Veredicto(0, maximo, [f"Pregunta {numero} sin contestar: `{spec.objetivo}` no tiene valor en tu "
                                     "entrega (su celda sigue con `raise NotImplementedError()` o da un error). "
                                     f"Escribe {spec.objetivo} y ejecuta las dos celdas."],
                         grade_id=gid, propiedad=propiedad, motivo="no_definido")
    if evidencia.get("falta"):
        return Veredicto(0, maximo, [f"`{spec.objetivo}` no está definido cuando se ejecuta esta celda: "
                                     "¿has ejecutado la celda donde lo defines, sin errores?"],
                         grade_id=gid, propiedad=propiedad, motivo="no_definido")
    if not spec.es_funcion:
        veredicto = _juzgar_quiz(gid, spec.objetivo, evidencia, maximo, notebook)
        veredicto.grade_id = gid
        return veredicto
    if "no_invocable" in evidencia:
        return Veredicto(0, maximo, [f"`{spec.objetivo}` debería ser una función y es un "
                                     f"{evidencia['no_invocable']}."],
                         grade_id=gid, propiedad=propiedad, motivo="no_invocable")
    registros = evidencia.get("resultados")
    if not isinstance(registros, list) or len(registros) != len(spec.casos):
        return Veredicto(0, maximo, ["Faltan resultados de algún caso; no se puede calificar."],
                         grade_id=gid, propiedad=propiedad, motivo="evidencia_dañada")
    ejercicio = descubrimiento.ejercicio(spec.objetivo)
    try:
        llamadas = [Llamada.desde_evidencia(ejercicio, caso, dict(registro))
                    for caso, registro in zip(spec.casos, registros)]
    except (TypeError, ValueError) as exc:
        return Veredicto(0, maximo, [f"Los resultados de esta celda no se pueden leer ({exc})."],
                         grade_id=gid, propiedad=propiedad, motivo="evidencia_dañada")
    return propiedades.juzgar_llamadas(spec, ejercicio.propiedades[gid], llamadas, maximo)


def _juzgar_quiz(gid: str, variable: str, evidencia: dict, maximo: float,
                 notebook: str | None) -> Veredicto:
    pregunta = preguntas_de(notebook).get(gid)
    if pregunta is None:
        return Veredicto(0, maximo, [f"El corrector no tiene la respuesta de {gid} "
                                     f"en el cuaderno {notebook!r}."],
                         propiedad=variable, motivo="celda_desconocida")
    try:
        valor = deserializar(evidencia.get("valor"))
    except (ValueError, KeyError, TypeError):
        return Veredicto(0, maximo, [f"No se puede leer el valor de `{variable}`."],
                         propiedad=variable, motivo="respuesta_ilegible")
    return pregunta.juzgar(valor, maximo)


def juzgar_en_el_acto(evidencia: dict):
    """Judge evidence in the process that gathered it (an author's run of ``source/``).

    Prints the Spanish verdict and returns the points earned (the cell's value,
    as nbgrader's partial credit expects).  Outside autograde, raises
    ``AssertionError`` when points are missing, so the source notebooks grade
    themselves in JupyterLab, ``nbconvert --execute`` and ``nbgrader validate``.
    """
    veredicto = juzgar(evidencia, maximo=None, notebook=notebook_de_la_carpeta())
    print(veredicto.texto(), end="")
    if not veredicto.completo and os.environ.get("NBGRADER_EXECUTION") != "autograde":
        # an author's run or `nbgrader validate` must see the failure; under
        # autograde the verdict above is replaced by the trusted one anyway
        raise AssertionError(f"pruebas ocultas de {evidencia.get('grade_id')}: "
                             f"{veredicto.puntos:g} de {veredicto.maximo:g} puntos")
    return veredicto.puntos
