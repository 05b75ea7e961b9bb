"""The exercise's answer cell (a correct answer) turned into a markdown cell: it never runs."""
from . import PE_CORRECTA, cargar, celda, guardar, responder

ESPERADO = "cuestionario"
RAZON = "positional_encoding"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_CORRECTA)
    c = celda(nb, "positional_encoding")
    c.cell_type = "markdown"
    for clave in ("outputs", "execution_count"):
        c.pop(clave, None)
    guardar(entrega, nb)
