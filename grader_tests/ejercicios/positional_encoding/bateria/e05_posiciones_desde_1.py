# espera: parcial
# error: posiciones_desde_1
# diagnostico: las posiciones empiezan en 1
# Error: posiciones 1..T.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(1, T + 1)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = pos / 10000 ** (2 * i / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo)
    return PE
