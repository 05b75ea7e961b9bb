# espera: completo
# Correcta (de las pruebas de alumnado): con memoización: functools.lru_cache devuelve el MISMO array en cada llamada con los mismos (T, d_model)
import functools
import numpy as np


@functools.lru_cache(maxsize=None)
def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
