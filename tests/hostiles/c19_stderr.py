"""A correct answer that writes warnings to stderr (print to sys.stderr, warnings.warn): full marks."""
from . import entrega_normal

ESPERADO = "completa"

PE_RUIDOSA = '''\
import sys
import warnings

import numpy as np


def positional_encoding(T, d_model):
    print("aviso: calculando la codificación", file=sys.stderr)
    warnings.warn("esto es sólo un aviso", RuntimeWarning)
    pos = np.arange(T)[:, None]
    omega = 1.0 / 10000 ** (np.arange(0, d_model, 2) / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE


print("celda ejecutada", file=sys.stderr)
warnings.warn("aviso al definir la función")
'''


def preparar(entrega):
    entrega_normal(entrega, PE_RUIDOSA)
