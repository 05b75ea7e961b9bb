"""Graded cells duplicated (same grade_id): a copied test cell and a copied answer cell, wrong answer.

Stock nbgrader aborts with "exists multiple times"; here the notebook is graded
and the table says why.
"""
import copy

from . import PE_INCORRECTA, cargar, celda, guardar, responder

ESPERADO = "control"
RAZON = "duplicad"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_INCORRECTA)
    for grade_id in ("positional_encoding", "positional_encoding_valores"):
        original = celda(nb, grade_id)
        copia = copy.deepcopy(original)
        copia["id"] = original["id"] + "-copia"
        nb.cells.insert(nb.cells.index(original) + 1, copia)
    guardar(entrega, nb)
