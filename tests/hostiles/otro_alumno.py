"""An honest student graded after the attackers (c16 targets this folder): full marks."""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "completa"


def preparar(entrega):
    entrega_normal(entrega, PE_CORRECTA)
