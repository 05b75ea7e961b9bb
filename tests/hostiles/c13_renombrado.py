"""The notebook renamed (a correct answer inside): not the assignment's notebook, 0 with a reason."""
from . import PE_CORRECTA, entrega_normal, ruta

ESPERADO = "cero"
RAZON = "falta el cuaderno"


def preparar(entrega):
    entrega_normal(entrega, PE_CORRECTA)
    ruta(entrega).rename(entrega / "codificacion_posicional (copia).ipynb")
