# espera: parcial
# error: sin_cos_intercambiados
# celdas: valores=0
# Error (de las pruebas de alumnado): coseno en las columnas pares y seno en las impares
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.cos(ang)
    PE[:, 1::2] = np.sin(ang)
    return PE
