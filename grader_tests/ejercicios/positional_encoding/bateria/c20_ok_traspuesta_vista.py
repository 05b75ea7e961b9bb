# espera: completo
# Correcta (de las pruebas de alumnado): construye (d_model, T) y devuelve la vista .T (no contigua)
import numpy as np


def positional_encoding(T, d_model):
    P = np.empty((d_model, T))
    pos = np.arange(T)
    for j in range(d_model):
        w = 10000.0 ** (-(j - j % 2) / d_model)
        P[j] = np.sin(pos * w) if j % 2 == 0 else np.cos(pos * w)
    return P.T
