# espera: parcial
# error: pareja_desde_1
# diagnostico: el índice de pareja i empieza en 1
# Error: índice de pareja i = 1..d_model/2.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(1, d_model // 2 + 1)[None, :]
    angulo = pos / 10000 ** (2 * i / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo)
    return PE
