"""The part of the hidden tests that runs inside the student's kernel.

A hidden test cell holds one expression, which binds no name in the
student's namespace::

    __import__("grader_tests").corregir("multi_head_mapas", globals())

``corregir`` calls the student's function on the inputs of that cell (the
exercise's ``grader_tests/ejercicios/<function>/casos.py``, found through
``casos``), captures everything it prints or warns, and publishes the results
as *evidence*: a display output with the MIME type ``MIME_EVIDENCIA``.  It never
compares anything.  Under ``nbgrader autograde`` the trusted preprocessor
``grader_tests.extensiones_nbgrader.nbgrader_juez.JuzgarEvidencias`` reads that evidence outside
the student's process, computes the reference, and replaces the cell's output
with the Spanish verdict and the score.

This module imports nothing of the judge: when the trusted judge is
importable (an author running ``source/`` in the course's venv), the package's
``grader_tests.corregir`` also judges on the spot (``juez.juez.juzgar_en_el_acto``).
"""
from __future__ import annotations

import contextlib
import io
import os
import time
import traceback
import warnings

import numpy as np

from .casos import argumentos, especificacion
from .serializacion import serializar

MIME_EVIDENCIA = "application/vnd.curso-atencion.evidencia+json"
VERSION = 1
MAX_TEXTO = 2000  # characters of captured stdout/stderr kept per call


def _recortar(texto: str) -> str:
    return texto if len(texto) <= MAX_TEXTO else texto[:MAX_TEXTO] + f"\n... ({len(texto) - MAX_TEXTO} caracteres más)"


def _describir_excepcion(exc: BaseException) -> dict:
    try:
        marco = traceback.extract_tb(exc.__traceback__)
        linea = marco[-1].line if marco else ""
    except Exception:  # noqa: BLE001 - a traceback that cannot be read
        linea = ""
    try:
        mensaje = str(exc)
    except Exception:  # noqa: BLE001 - an exception whose __str__ raises (a grader tester): its class still says it
        mensaje = "(su mensaje no se puede leer)"
    return {"clase": type(exc).__name__, "mensaje": _recortar(mensaje)[:500], "linea": linea or ""}


_copiar = np.ndarray.copy      # bound at import time: C methods of ndarray
_bytes = np.ndarray.tobytes


def _llamar(funcion, argumentos: tuple) -> dict:
    """Call ``funcion(*argumentos)`` capturing output, warnings and exceptions."""
    # copies and comparisons through ndarray's own C methods: replacing copy.deepcopy,
    # np.array_equal or other Python-level functions cannot hide a written argument
    originales = tuple(_copiar(a) if type(a) is np.ndarray else a for a in argumentos)
    salida, errores = io.StringIO(), io.StringIO()
    registro: dict = {}
    inicio = time.perf_counter()
    with warnings.catch_warnings(record=True) as avisos, \
            contextlib.redirect_stdout(salida), contextlib.redirect_stderr(errores), \
            np.errstate(all="ignore"):
        warnings.simplefilter("always")
        try:
            resultado = funcion(*argumentos)
        except (Exception, SystemExit, GeneratorExit) as exc:  # the student's exception (sys.exit() too) is evidence
            # KeyboardInterrupt is not caught: it is how nbgrader's time limit stops a cell
            registro["excepcion"] = _describir_excepcion(exc)
        else:
            registro["resultado"] = serializar(resultado)
    registro["segundos"] = time.perf_counter() - inicio
    registro["stdout"] = _recortar(salida.getvalue())
    registro["stderr"] = _recortar(errores.getvalue())
    registro["avisos"] = [f"{a.category.__name__}: {a.message}" for a in avisos][:10]
    modificados = {}
    for posicion, (antes, despues) in enumerate(zip(originales, argumentos)):
        if type(antes) is np.ndarray:
            # the dtype too: X.dtype = np.int64 after computing keeps shape and bytes and garbles the caller's X
            if not (type(despues) is np.ndarray and despues.shape == antes.shape and despues.dtype == antes.dtype
                    and _bytes(antes) == _bytes(despues)):
                modificados[str(posicion)] = serializar(despues)
    registro["modificados"] = modificados
    return registro


def recoger_evidencia(grade_id: str, espacio: dict) -> dict:
    """Run the student's code for the cell ``grade_id`` and describe what happened.

    Args:
        grade_id: the test cell's nbgrader grade_id (see ``casos``).
        espacio: the notebook's global namespace (``globals()``).

    Returns:
        A JSON-safe dict: ``grade_id``, ``version``, ``objetivo`` and either
        ``falta`` (the name is not defined), ``valor`` (a quiz answer) or
        ``resultados`` (one record per input case).
    """
    spec = especificacion(grade_id)
    evidencia: dict = {"grade_id": grade_id, "version": VERSION, "objetivo": spec.objetivo,
                       "carpeta": os.path.basename(os.getcwd())}
    if spec.objetivo not in espacio:
        evidencia["falta"] = True
        return evidencia
    objeto = espacio[spec.objetivo]
    if not spec.es_funcion:
        evidencia["valor"] = serializar(objeto)
        return evidencia
    if not callable(objeto):
        evidencia["no_invocable"] = type(objeto).__name__
        return evidencia
    evidencia["resultados"] = [_llamar(objeto, argumentos(spec.objetivo, caso)) for caso in spec.casos]
    return evidencia


def _publicar(evidencia: dict) -> None:
    try:
        from IPython.display import display
    except ImportError:  # plain Python: nothing to publish to
        return
    resumen = f"[evidencia para la corrección: {evidencia['grade_id']}]"
    display({MIME_EVIDENCIA: evidencia, "text/plain": resumen}, raw=True)


def publicar_evidencia(grade_id: str, espacio: dict) -> dict:
    """Gather the evidence of the cell ``grade_id`` and publish it (a display output).

    Returns the evidence, so that a trusted judge running in the same process
    (an author's run: ``grader_tests.corregir``) can judge it on the spot.
    """
    evidencia = recoger_evidencia(grade_id, espacio)
    _publicar(evidencia)
    return evidencia
