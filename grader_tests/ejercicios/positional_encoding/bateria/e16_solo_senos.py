# espera: parcial
# error: solo_senos
# diagnostico: usas el seno en todas las columnas
# Error: seno en todas las columnas.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model)[None, :] // 2
    return np.sin(pos / 10000 ** (2 * i / d_model))
