# espera: parcial
# error: multiplica
# celdas: valores=0
# Error (de las pruebas de alumnado): multiplica por 10000^(2i/d) en vez de dividir
import numpy as np


def positional_encoding(T, d_model):
    div = 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    ang = np.arange(T)[:, None] * div
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
