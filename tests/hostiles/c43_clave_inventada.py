"""nbgrader's metadata: the student adds a key of their own (``grade_id_extra``) to the nbgrader metadata of the
exercise's answer cell; nbformat's schema forbids unknown keys there, so nbgrader refuses the notebook.

0 (the file is not a notebook nbgrader accepts), and the table names the key and the cell instead of a bare
«no es un cuaderno válido».
"""
from . import PE_INCORRECTA, cargar, celda, guardar, responder

ESPERADO = "cero"
RAZON = "grade_id_extra"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_INCORRECTA)
    celda(nb, "positional_encoding").metadata.nbgrader["grade_id_extra"] = "mio"
    guardar(entrega, nb)
