# espera: parcial
# error: exponente_j
# diagnostico: tus cosenos tienen otra frecuencia
# Error: exponente j/d_model en cada columna (los cosenos van desplazados).
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    j = np.arange(d_model)[None, :]
    angulo = pos / 10000 ** (j / d_model)
    PE = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo[:, 1::2])
    return PE
