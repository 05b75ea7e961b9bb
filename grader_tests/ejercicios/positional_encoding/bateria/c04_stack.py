# espera: completo
# Correcta: np.outer y apilar (sin, cos) en un eje nuevo y aplanar (intercala las columnas).
import numpy as np


def positional_encoding(T, d_model):
    omega = 1.0 / np.power(10000.0, np.arange(0, d_model, 2) / d_model)
    angulos = np.outer(np.arange(T), omega)                      # (T, d_model/2)
    return np.stack([np.sin(angulos), np.cos(angulos)], axis=-1).reshape(T, d_model)
