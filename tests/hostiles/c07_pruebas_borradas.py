"""The exercise's test cells deleted, with the wrong answer: nbgrader restores them."""
from . import PE_INCORRECTA, PRUEBAS_PE, cargar, guardar, responder

ESPERADO = "control"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_INCORRECTA)
    nb.cells = [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") not in PRUEBAS_PE]
    guardar(entrega, nb)
