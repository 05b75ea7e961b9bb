# espera: parcial
# error: T_ignorado
# celdas: contrato=0, valores=0
# diagnostico: devuelves una fila de menos
# Error (de las pruebas de alumnado): np.arange(1, T) como posiciones: devuelve T-1 filas
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(1, T)[:, None] * omega
    PE = np.zeros((T - 1, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
