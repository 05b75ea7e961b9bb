# espera: completo
# Correcta (de las pruebas de alumnado): frecuencias con exp(-2i ln(10000)/d_model)
import numpy as np


def positional_encoding(T, d_model):
    i = np.arange(d_model // 2)
    omega = np.exp(-2 * i * np.log(10000.0) / d_model)
    ang = np.outer(np.arange(T), omega)
    PE = np.empty((T, d_model))
    PE[:, ::2], PE[:, 1::2] = np.sin(ang), np.cos(ang)
    return PE
