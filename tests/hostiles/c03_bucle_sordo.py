"""Infinite loop that swallows KeyboardInterrupt (the timeout's interrupt does not stop it)."""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "cuestionario"
RAZON = "la celda de respuesta positional_encoding: se agotó el tiempo (20 s)"

BUCLE = '''\
while True:
    try:
        while True:
            pass
    except KeyboardInterrupt:
        pass

'''


def preparar(entrega):
    entrega_normal(entrega, BUCLE + PE_CORRECTA)
