"""Control: quiz right, a wrong positional_encoding (0.5 everywhere), no tricks.

The cheating cases below plant the same wrong answer: each must score exactly this.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "parcial"


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA)
