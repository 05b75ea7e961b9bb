# espera: parcial
# error: float32_por_dentro
# Error: calcula posiciones, frecuencias y ángulos en float32 y guarda el resultado en una tabla float64:
# con muchas posiciones los ángulos pierden precisión.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T, dtype=np.float32)[:, None]
    omega = np.float32(10000.0) ** (-np.arange(0, d_model, 2, dtype=np.float32) / np.float32(d_model))
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE
