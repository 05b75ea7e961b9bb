# espera: parcial
# error: otra_precision
# celdas: contrato=0
# Error (de las pruebas de alumnado): calcula y devuelve np.longdouble (float128)
import numpy as np


def positional_encoding(T, d_model):
    omega = np.longdouble(10000.0) ** (-np.arange(0, d_model, 2, dtype=np.longdouble) / d_model)
    ang = np.arange(T, dtype=np.longdouble)[:, None] * omega
    PE = np.zeros((T, d_model), dtype=np.longdouble)
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
