"""nbgrader extension: score hidden test cells from their evidence, outside the kernel.

``JuzgarEvidencias`` runs in the TA's ``nbgrader autograde`` process right
after ``Execute``.  For every graded test cell it reads the evidence that
``cliente.corregir`` published, judges it with ``juez`` and replaces the
cell's outputs with the Spanish verdict and the score (a number, nbgrader's
partial credit).  So:

* the score never depends on anything the student's code can print, patch or
  compare (``np.allclose`` replaced in the kernel changes nothing here);
* a cell that did not run (error, timeout, dead kernel, missing hidden test)
  has no evidence and scores 0 with a reason, never full credit;
* warnings a correct function writes to stderr cost nothing (they were
  captured inside the kernel and are reported, not scored).
"""
from __future__ import annotations

from nbformat.notebooknode import NotebookNode, from_dict
from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor

from ..juez import juez, propiedades
from ..en_el_kernel.casos import especificacion
from ..juez.evidencia import EvidenciaInvalida, comprobar
from ..en_el_kernel.cliente import MIME_EVIDENCIA
from .saneamiento import NOTA_CELDA_EDITADA, celda_editada
from .registro_de_veredictos import CLAVE as CLAVE_VEREDICTOS, CLAVE_ERRORES, nombre_de_excepcion
from ..juez.veredicto import Veredicto

MOTIVOS_ERROR = {
    "CellTimeoutError": "se agotó el tiempo de ejecución de la celda (¿un bucle infinito?)",
    "DeadKernelError": "el proceso de Python del cuaderno murió (¿os._exit, falta de memoria?)",
    "NameError": "falta algo que la celda necesita",
    "AssertionError": "falló una de las pruebas visibles de la celda",
    "PruebaVisibleFallida": "falló la prueba visible de la celda",
}
# how a failed visible test is named in the kernel's error: a plain assert, or the lessons' checker
# modules (pruebas_visibles.PruebaVisibleFallida, an AssertionError whose traceback is its Spanish text)
PRUEBA_VISIBLE = ("AssertionError", "PruebaVisibleFallida")


def _texto_error(salida: NotebookNode) -> str:
    nombre = salida.get("ename", "Error")
    valor = str(salida.get("evalue", "")).strip()
    if nombre == "CellTimeoutError" and valor.startswith("se agotó el tiempo"):
        return valor          # the sandbox's own reason, with the limit: "se agotó el tiempo (60 s)"
    motivo = MOTIVOS_ERROR.get(nombre)
    detalle = f"{nombre}: {valor}" if valor else nombre
    return f"{motivo} ({detalle})" if motivo else detalle


MOTIVO_DE_ERROR = {"CellTimeoutError": "tiempo_agotado", "DeadKernelError": "kernel_muerto",
                   "CeldaNoEjecutada": "celda_no_ejecutada"}


def veredicto_de_celda(celda: NotebookNode, notebook: str | None) -> Veredicto | None:
    """The verdict of one graded test cell, or None if it is not ours to judge.

    Its ``motivo`` says why a cell could not be judged from evidence
    (``veredicto.MOTIVOS``: a timeout, a dead kernel, no evidence…).
    """
    grade_id = celda.metadata.nbgrader.get("grade_id", "")
    try:
        spec = especificacion(grade_id)
    except KeyError:
        return None
    propiedad = spec.propiedad or spec.objetivo
    maximo = float(celda.metadata.nbgrader.get("points", 0) or 0)
    salidas = celda.get("outputs", [])
    evidencias = [s for s in salidas
                  if s.get("output_type") in ("display_data", "execute_result")
                  and MIME_EVIDENCIA in s.get("data", {})]
    errores = [s for s in salidas if s.get("output_type") == "error"]
    if not evidencias:
        if errores:
            motivo = "La celda se detuvo antes de la corrección: " + _texto_error(errores[-1]) + "."
            clave = MOTIVO_DE_ERROR.get(errores[-1].get("ename"), "error_en_celda")
        else:
            motivo = ("La celda no ejecutó la corrección (¿se borró o se editó la celda, "
                      "o no llegó a ejecutarse?).")
            clave = "sin_evidencia"
        return Veredicto(0, maximo, [motivo], grade_id=grade_id, propiedad=propiedad, motivo=clave)
    if len(evidencias) > 1:
        return Veredicto(0, maximo, ["La celda publicó varios resultados de corrección; "
                                     "sólo cuenta uno y no se sabe cuál es el auténtico."],
                         grade_id=grade_id, propiedad=propiedad, motivo="evidencia_duplicada")
    try:
        comprobar(evidencias[0]["data"][MIME_EVIDENCIA])     # bounded before anything is rebuilt
    except EvidenciaInvalida as exc:
        return Veredicto(0, maximo, [f"Evidencia inválida: {exc}. La celda vale 0."],
                         grade_id=grade_id, propiedad=propiedad, motivo="evidencia_invalida")
    veredicto = juez.juzgar(evidencias[0]["data"][MIME_EVIDENCIA], maximo, notebook, grade_id=grade_id)
    if errores:
        error = errores[-1]
        if error.get("ename") in PRUEBA_VISIBLE:
            veredicto.prueba_visible_fallida = True
            if spec.es_funcion and veredicto.completo:
                # the visible test's message may say the grade takes the point too («tampoco al calificar»):
                # next to «✔ Puntos: 1 de 1» it would contradict the verdict (issue 19, tenth attack)
                veredicto.lineas.append(
                    "La prueba visible de esta celda falló con sus propias entradas (las de Validate), pero "
                    "con las de la nota tu función no pierde nada aquí: la celda puntúa entera. Revisa lo "
                    "que dijo Validate.")
            elif spec.es_funcion:   # a quiz cell's visible check says what its verdict already says
                veredicto.lineas.append("Además falló una prueba visible de esta celda (no resta más puntos): "
                                        + str(error.get("evalue", "")).strip())
        else:
            veredicto.lineas.append("Después de la corrección la celda terminó con un error: "
                                    + _texto_error(error) + ".")
    return veredicto


def salidas_del_veredicto(veredicto: Veredicto, contador: int | None) -> list[NotebookNode]:
    """Cell outputs nbgrader scores as ``veredicto.puntos`` (text, then the number)."""
    return [
        from_dict({"output_type": "stream", "name": "stdout", "text": veredicto.texto()}),
        from_dict({"output_type": "execute_result", "execution_count": contador, "metadata": {},
                   "data": {"text/plain": f"{veredicto.puntos:g}"}}),
    ]


def celdas_con_error(nb: NotebookNode) -> dict[str, str]:
    """Solution cells (exercise, quiz answers) whose run stopped with an exception: grade_id → class name.

    Only the exception's class name is kept, and only if it looks like one
    (``registro_de_veredictos.nombre_de_excepcion``); its message, printed by
    the student's code, is never kept.  A name that does not pass is recorded as
    ``"Exception"`` (the cell did stop with an error).
    """
    resultado = {}
    for celda in nb.cells:
        if celda.cell_type != "code" or not utils.is_solution(celda):
            continue
        grade_id = celda.metadata.nbgrader.get("grade_id")
        errores = [s for s in celda.get("outputs", []) if s.get("output_type") == "error"]
        if isinstance(grade_id, str) and errores:
            resultado[grade_id] = nombre_de_excepcion(errores[-1].get("ename")) or "Exception"
    return resultado


class JuzgarEvidencias(NbGraderPreprocessor):
    """Replace each graded test cell's outputs with its verdict (see module doc)."""

    def preprocess(self, nb, resources):
        notebook = (resources.get("nbgrader") or {}).get("notebook") or resources.get("unique_key")
        veredictos = resources.setdefault(CLAVE_VEREDICTOS, {})     # for GuardarVeredictos (class report)
        resources[CLAVE_ERRORES] = celdas_con_error(nb)
        propiedades.empezar_cuaderno()      # the control rule compares cells of this notebook only
        for celda in nb.cells:
            if celda.cell_type != "code" or not utils.is_grade(celda) or utils.is_solution(celda):
                continue
            try:
                veredicto = veredicto_de_celda(celda, notebook)
            except Exception:  # a grader bug must not lose the rest of the notebook
                self.log.exception("Error interno del corrector en %s", celda.metadata.nbgrader.get("grade_id"))
                veredicto = Veredicto(0, float(celda.metadata.nbgrader.get("points", 0) or 0), [
                    "Error interno del corrector al calificar esta celda: avisa al profesorado "
                    "(tu entrega no tiene la culpa y se puede volver a calificar)."],
                    grade_id=celda.metadata.nbgrader.get("grade_id"), motivo="error_interno")
            if veredicto is None:
                continue
            if celda_editada(celda):
                veredicto.lineas.append(NOTA_CELDA_EDITADA)
            celda.outputs = salidas_del_veredicto(veredicto, celda.get("execution_count"))
            veredictos[celda.metadata.nbgrader["grade_id"]] = veredicto.a_dict()
            self.log.info("%s: %s de %s", celda.metadata.nbgrader["grade_id"],
                          veredicto.puntos, veredicto.maximo)
        return nb, resources


class QuitarDuplicados(NbGraderPreprocessor):
    """nbgrader's ``DeduplicateIds`` without its crash (sanitize step of autograde).

    Keeps the last cell of each grade_id, like nbgrader, but removes the
    ``nbgrader`` metadata of the earlier copies altogether: nbgrader leaves it
    as ``{}`` and ``OverwriteCells.add_missing_cells`` then aborts the whole
    notebook with ``KeyError: 'grade_id'``.  The warning names the cell, so
    ``make grade`` can give the reason.
    """

    def preprocess(self, nb, resources):
        vistos: set[str] = set()
        for celda in reversed(nb.cells):
            meta = celda.get("metadata", {}).get("nbgrader")
            if not isinstance(meta, dict) or not (meta.get("grade") or meta.get("solution") or meta.get("locked")):
                continue
            grade_id = meta.get("grade_id")
            if grade_id in vistos or not grade_id:
                self.log.warning("Cell with id '%s' exists multiple times!", grade_id)
                del celda.metadata["nbgrader"]
            else:
                vistos.add(grade_id)
        return nb, resources
