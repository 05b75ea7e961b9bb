# espera: parcial
# error: concatenado
# celdas: valores=0
# Error (de las pruebas de alumnado): disposición [sin | cos] concatenada
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(T)[:, None] * omega
    return np.concatenate([np.sin(ang), np.cos(ang)], axis=1)
