"""An honest student graded last, after all the cases: full marks."""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "completa"


def preparar(entrega):
    entrega_normal(entrega, PE_CORRECTA)
