"""A memory hog before the def: it hits the address-space limit, the exercise never gets defined."""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "cuestionario"
RAZON = "positional_encoding"

ACAPARAR = '''\
import numpy as np

_bloques = []
while True:
    _bloques.append(np.ones(25_000_000))   # 200 MB each, touched

'''


def preparar(entrega):
    entrega_normal(entrega, ACAPARAR + PE_CORRECTA)
