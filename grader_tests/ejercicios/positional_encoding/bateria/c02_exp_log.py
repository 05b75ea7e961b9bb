# espera: completo
# Correcta: frecuencias con exp(-2i·ln(10000)/d_model).
import math

import numpy as np


def positional_encoding(T, d_model):
    posicion = np.arange(T, dtype=np.float64).reshape(-1, 1)
    frecuencia = np.exp(np.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(posicion * frecuencia)
    PE[:, 1::2] = np.cos(posicion * frecuencia)
    return PE
