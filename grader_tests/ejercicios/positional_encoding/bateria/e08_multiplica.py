# espera: parcial
# error: multiplica
# diagnostico: multiplicas pos por 10000^(2i/d_model)
# Error: multiplica por 10000^(2i/d) en lugar de dividir.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = pos * 10000 ** (2 * i / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo)
    return PE
