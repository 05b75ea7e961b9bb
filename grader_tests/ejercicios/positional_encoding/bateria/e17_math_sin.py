# espera: cero
# error: math_sin
# diagnostico: usas math.sin / math.cos con un array
# Error: math.sin con arrays (TypeError).
import numpy as np


def positional_encoding(T, d_model):
    import math
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = pos / 10000 ** (2 * i / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = math.sin(angulo)
    PE[:, 1::2] = math.cos(angulo)
    return PE
