"""Every mark trick at once, with a correct solution (the final attack's ``h_gradeid_dup``).

A copy of a test cell placed first, worth 100 points and emptied (same
grade_id); a graded cell of the student's own worth 1000 points; the answer
cell marked as graded with 50 points.  nbgrader keeps the last copy of a
grade_id, the extra cell runs without points, the answer cell gets its marks
back: full marks, and every line of the table agrees with that (the
duplicate is named, and nothing says the notebook could not be graded).
"""
import copy

from . import PE_CORRECTA, cargar, celda, guardar, responder

ESPERADO = "completa"
RAZON = "celda calificada duplicada (positional_encoding_valores): se califica la última copia"
NO_DEBE_DECIR = ("no se pudo calificar", "queda con 0 puntos", "celdas calificadas duplicadas (mismo grade_id)")


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_CORRECTA)
    copia = copy.deepcopy(celda(nb, "positional_encoding_valores"))
    copia["id"] = "copia-antes"
    copia.source = "pass"
    copia.metadata["nbgrader"]["points"] = 100
    extra = copy.deepcopy(copia)
    extra["id"] = "extra-despues"
    extra.metadata["nbgrader"].update(grade_id="extra_pts", points=1000)
    celda(nb, "positional_encoding").metadata["nbgrader"].update(grade=True, points=50)
    nb.cells.insert(0, copia)
    nb.cells.append(extra)
    guardar(entrega, nb)
