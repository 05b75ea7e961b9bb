"""A quiz answer cell prints 600 MB (60 writes of 10 MB) before answering; the answer is right.

The TA's process keeps at most the cell's output budget of it
(``grader_tests/caja/salida_acotada.py``): the autograded notebook stays small, the
answer written after the flood and everything else is graded (full marks),
the cell ends with a Spanish note saying its output was cut and the TA table
says so too.  ``test_seguridad`` grades this student once more alone and
bounds the peak memory of that ``nbgrader autograde``.
"""
from . import PE_CORRECTA, cargar, celda, guardar, responder

ESPERADO = "completa"
RAZON = "salida recortada al llegar"
CELDA = "respuesta_1"
MEGAS = 600

INUNDAR = f'''import sys
_b = "x" * 10**7
for _ in range({MEGAS // 10}):
    sys.stdout.write(_b)
    sys.stdout.flush()
del _b
'''


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_CORRECTA)
    respuesta = celda(nb, CELDA)
    respuesta.source = INUNDAR + respuesta.source
    guardar(entrega, nb)
