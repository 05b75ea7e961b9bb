# espera: parcial
# error: otra_base
# celdas: valores=0
# diagnostico: que es lo mismo que usar el exponente i/d_model
# Error (de las pruebas de alumnado): exponente i/d_model (falta el 2) con el índice de pareja
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(d_model // 2) / d_model)
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
