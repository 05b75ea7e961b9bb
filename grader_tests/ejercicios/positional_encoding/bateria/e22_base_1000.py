# espera: parcial
# error: otra_base
# celdas: valores=0
# Error (de las pruebas de alumnado): base 1000
import numpy as np


def positional_encoding(T, d_model):
    omega = 1000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
