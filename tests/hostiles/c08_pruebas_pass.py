"""The exercise's test cells edited to `pass` (and their metadata's points raised), wrong answer."""
from . import PE_INCORRECTA, PRUEBAS_PE, cargar, celda, guardar, responder

ESPERADO = "control"
RAZON = "la celda de prueba positional_encoding_valores estaba modificada en la entrega"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_INCORRECTA)
    for grade_id in PRUEBAS_PE:
        c = celda(nb, grade_id)
        c.source = "pass"
        c.metadata.nbgrader["points"] = 100
    guardar(entrega, nb)
