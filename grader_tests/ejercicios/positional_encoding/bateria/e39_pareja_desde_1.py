# espera: parcial
# error: pareja_desde_1
# celdas: valores=0
# Error (de las pruebas de alumnado): parejas contadas desde 1 (i = 1..d_model/2)
import numpy as np


def positional_encoding(T, d_model):
    i = np.arange(1, d_model // 2 + 1)
    omega = 10000.0 ** (-2 * i / d_model)
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
