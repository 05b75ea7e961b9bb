# espera: completo
# Correcta (de las pruebas de alumnado): devuelve un array de sólo lectura (setflags(write=False))
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(T)[:, None] * omega
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    PE.setflags(write=False)
    return PE
