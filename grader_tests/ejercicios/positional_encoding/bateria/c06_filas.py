# espera: completo
# Correcta: una fila por posición con np.array de una lista por comprensión.
import numpy as np


def positional_encoding(T, d_model):
    def fila(pos):
        valores = []
        for j in range(d_model):
            angulo = pos / 10000 ** ((j - j % 2) / d_model)
            valores.append(np.sin(angulo) if j % 2 == 0 else np.cos(angulo))
        return valores
    return np.array([fila(p) for p in range(T)], dtype=float)
