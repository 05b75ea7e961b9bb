# espera: parcial
# error: division_entera
# celdas: valores=0
# Error (de las pruebas de alumnado): división entera en el exponente (2*i // d_model = 0: todas las frecuencias 1)
import numpy as np


def positional_encoding(T, d_model):
    i = np.arange(d_model // 2)
    omega = 10000.0 ** (-(2 * i // d_model))
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
