# espera: parcial
# error: exponente_2j
# diagnostico: índice de columna j en el exponente (2j/d_model)
# Error: exponente 2j/d_model con j el índice de columna.
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    pos = np.arange(T)
    for j in range(d_model):
        angulo = pos / 10000 ** (2 * j / d_model)
        PE[:, j] = np.sin(angulo) if j % 2 == 0 else np.cos(angulo)
    return PE
