# espera: parcial
# error: concatenado
# celdas: valores=0
# diagnostico: todos los senos a la izquierda
# Error: [sin | cos] concatenados en lugar de intercalados.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = pos / 10000 ** (2 * i / d_model)
    return np.concatenate([np.sin(angulo), np.cos(angulo)], axis=1)
