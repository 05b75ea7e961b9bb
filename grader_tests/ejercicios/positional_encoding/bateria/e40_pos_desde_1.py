# espera: parcial
# error: posiciones_desde_1
# celdas: valores=0
# Error (de las pruebas de alumnado): posiciones de 1 a T
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(1, T + 1)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
