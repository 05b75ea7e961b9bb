"""A correct solution plus a cell of the student's own marked as graded (100 points, unknown grade_id).

Stock nbgrader aborts the notebook on it (the student would get 0); here the
cell runs as an ordinary cell, is worth nothing, and the table and the
feedback say so.
"""
from nbformat.v4 import new_code_cell

from . import PE_CORRECTA, cargar, guardar, responder

ESPERADO = "completa"
RAZON = "una celda marcada para calificar que la tarea no tiene (extra_bonus)"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_CORRECTA)
    extra = new_code_cell("puntos_extra = 100")
    extra.metadata["nbgrader"] = {"grade": True, "grade_id": "extra_bonus", "locked": True, "points": 100,
                                  "schema_version": 3, "solution": False, "task": False}
    nb.cells.append(extra)
    guardar(entrega, nb)
