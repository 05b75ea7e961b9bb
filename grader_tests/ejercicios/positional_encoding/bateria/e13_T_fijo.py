# espera: cero
# error: T_ignorado
# diagnostico: no usas el argumento T: devuelves 50 filas
# Error: ignora T y devuelve siempre 50 filas.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(50)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = pos / 10000 ** (2 * i / d_model)
    PE = np.zeros((50, d_model))
    PE[:, 0::2] = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo)
    return PE
