# espera: parcial
# error: se_aleja_con_posiciones_grandes
# celdas: robustez=0
# Error (de las pruebas de alumnado): posiciones en float64 pero las frecuencias guardadas en float32
import numpy as np


def positional_encoding(T, d_model):
    omega = (10000.0 ** (-np.arange(0, d_model, 2) / d_model)).astype(np.float32)
    ang = np.arange(T)[:, None] * omega.astype(np.float64)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
