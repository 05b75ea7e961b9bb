# espera: parcial
# error: salida_float32
# celdas: contrato=0
# diagnostico: en float32: los valores son correctos
# Error: devuelve float32 (valores correctos).
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = pos / 10000 ** (2 * i / d_model)
    PE = np.zeros((T, d_model), dtype=np.float32)
    PE[:, 0::2] = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo)
    return PE
