"""Infinite loop (interruptible) in the exercise cell before the def: the cell times out."""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "cuestionario"
RAZON = "la celda de respuesta positional_encoding: se agotó el tiempo (20 s)"


def preparar(entrega):
    entrega_normal(entrega, "while True:\n    pass\n\n" + PE_CORRECTA)
