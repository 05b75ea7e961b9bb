"""A right answer, and the visible test of a test cell commented out (a real edit of a locked cell).

nbgrader restores the cell and grades it; the TA table says the cell was
edited, and only that student's row says so (untouched cells raise no
checksum warning).
"""
from . import PE_CORRECTA, cargar, celda, guardar, responder

ESPERADO = "completa"
RAZON = "la celda de prueba positional_encoding_generalidad estaba modificada en la entrega"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_CORRECTA)
    prueba = celda(nb, "positional_encoding_generalidad")
    editada = prueba.source.replace("__import__(", "# __import__(", 1)
    assert editada != prueba.source, "la celda ya no tiene la prueba visible que esta entrega comenta"
    prueba.source = editada
    guardar(entrega, nb)
