"""Infinite loop (interruptible) in the exercise cell before the def: the cell times out."""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "cuestionario"
RAZON = "positional_encoding"


def preparar(entrega):
    entrega_normal(entrega, "while True:\n    pass\n\n" + PE_CORRECTA)
