"""The notebook was deleted (only the explorable's .py is left): 0 with a reason."""
from . import ruta

ESPERADO = "cero"
RAZON = "falta el cuaderno"


def preparar(entrega):
    ruta(entrega).unlink()
