"""input() at the top of the exercise cell: no stdin under autograde, the cell fails, no hang."""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "cuestionario"
RAZON = "positional_encoding"


def preparar(entrega):
    entrega_normal(entrega, 'nombre = input("¿Cómo te llamas? ")\n\n' + PE_CORRECTA)
