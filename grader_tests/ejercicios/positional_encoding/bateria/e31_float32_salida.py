# espera: parcial
# error: salida_float32
# celdas: contrato=0
# Error (de las pruebas de alumnado): ángulos en float64 pero devuelve float32
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model), dtype=np.float32)
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
