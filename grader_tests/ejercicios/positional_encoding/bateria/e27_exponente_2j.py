# espera: parcial
# error: exponente_2j
# celdas: valores=0
# Error (de las pruebas de alumnado): usa 2j/d_model con j la columna (dobla el índice)
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    pos = np.arange(T)
    for j in range(d_model):
        ang = pos / 10000.0 ** (2 * j / d_model)
        PE[:, j] = np.sin(ang) if j % 2 == 0 else np.cos(ang)
    return PE
