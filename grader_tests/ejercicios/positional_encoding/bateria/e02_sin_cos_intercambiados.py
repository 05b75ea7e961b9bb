# espera: parcial
# error: sin_cos_intercambiados
# diagnostico: intercambias seno y coseno
# Error: coseno en las columnas pares y seno en las impares.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = pos / 10000 ** (2 * i / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.cos(angulo)
    PE[:, 1::2] = np.sin(angulo)
    return PE
