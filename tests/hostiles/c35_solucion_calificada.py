"""A correct solution whose answer cell the student marked as graded (``grade: true``, 50 points).

Stock nbgrader aborts the notebook on it (``OverwriteCells`` looks for a grade
cell the gradebook does not have: ``MissingEntry``), and the student gets 0
with no reason given.  Here the cell gets the assignment's marks back before
grading, the answer is graded as usual, and the table names the cell and the
mark.
"""
from . import PE_CORRECTA, cargar, celda, guardar, responder

ESPERADO = "completa"
RAZON = "la celda positional_encoding venía con la marca «grade», 50 puntos, que en la tarea no lleva"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_CORRECTA)
    celda(nb, "positional_encoding").metadata["nbgrader"].update(grade=True, points=50)
    guardar(entrega, nb)
