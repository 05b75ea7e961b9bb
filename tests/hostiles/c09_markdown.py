"""The exercise's answer cell (a correct answer) turned into a markdown cell.

nbgrader's OverwriteCells restores the cell type from the gradebook, so the
answer is graded as code (nothing is lost) and the table says what happened.
"""
from . import PE_CORRECTA, cargar, celda, guardar, responder

ESPERADO = "completa"
RAZON = "markdown"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_CORRECTA)
    c = celda(nb, "positional_encoding")
    c.cell_type = "markdown"
    for clave in ("outputs", "execution_count"):
        c.pop(clave, None)
    guardar(entrega, nb)
