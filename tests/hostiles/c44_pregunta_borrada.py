"""Deleted cells: the student deleted the exercise's whole block, the answer cell ``positional_encoding`` and
its four test cells, and answered the quiz correctly.

nbgrader puts deleted test cells back after the cell before them, and failed with ``KeyError`` when that cell
was deleted too, giving the notebook no grade at all (the quiz's points lost).  The course puts them back after
the nearest earlier cell still there: the quiz's points, 0 for the exercise.
"""
from . import PRUEBAS_PE, cargar, guardar, responder

ESPERADO = "cuestionario"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, None)
    borrar = {"positional_encoding", *PRUEBAS_PE}
    nb.cells = [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") not in borrar]
    guardar(entrega, nb)
