# espera: parcial
# error: sin_ejes_de_tamano_1
# celdas: generalidad=0.6667
# Error (de las pruebas de alumnado): sólo en generalidad: np.squeeze al final (rompe con T = 1)
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return np.squeeze(PE)
