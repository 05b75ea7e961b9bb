# espera: parcial
# error: se_aleja_con_posiciones_grandes, float32_por_dentro
# celdas: robustez=0
# Error (de las pruebas de alumnado): calcula los ángulos en float32 (y devuelve float64)
import numpy as np


def positional_encoding(T, d_model):
    omega = np.float32(10000.0) ** (-np.arange(0, d_model, 2, dtype=np.float32) / np.float32(d_model))
    ang = np.arange(T, dtype=np.float32)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
