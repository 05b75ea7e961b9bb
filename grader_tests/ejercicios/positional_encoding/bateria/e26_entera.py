# espera: parcial
# error: dtype_entero
# celdas: contrato=0, valores=0
# Error (de las pruebas de alumnado): tabla de enteros (np.zeros(..., dtype=int)) que trunca senos y cosenos
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model), dtype=int)
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
