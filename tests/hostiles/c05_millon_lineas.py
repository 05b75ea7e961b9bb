"""A correct answer that prints a million lines: output is cut, grading goes on (full marks)."""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "completa"


def preparar(entrega):
    entrega_normal(entrega, PE_CORRECTA + "\nfor _i in range(1_000_000):\n    print(_i)\n")
