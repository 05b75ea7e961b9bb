# espera: parcial
# error: transpuesta
# celdas: contrato=0, valores=0
# Error (de las pruebas de alumnado): devuelve la tabla traspuesta (d_model, T)
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE.T
