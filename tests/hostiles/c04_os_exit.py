"""A correct answer followed by os._exit(0): the kernel dies, the tests never run (0, not full)."""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "cuestionario"
RAZON = "murió"


def preparar(entrega):
    entrega_normal(entrega, PE_CORRECTA + "\nimport os\nos._exit(0)\n")
