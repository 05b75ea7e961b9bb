# espera: parcial
# error: exponente_j
# celdas: valores=0
# Error (de las pruebas de alumnado): usa el índice de columna j en el exponente (10000^(j/d_model)); el coseno de la columna 2i+1 usa (2i+1)/d_model
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    pos = np.arange(T)
    for j in range(d_model):
        ang = pos / 10000.0 ** (j / d_model)
        PE[:, j] = np.sin(ang) if j % 2 == 0 else np.cos(ang)
    return PE
