# espera: parcial
# error: subclase_de_ndarray
# celdas: contrato=0
# diagnostico: debería ser un np.ndarray y es np.matrix
# puntos: 5
# Error: devuelve np.asmatrix(PE) (valores correctos): sólo pierde el contrato.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = pos / 10000 ** (2 * i / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo)
    return np.asmatrix(PE)
