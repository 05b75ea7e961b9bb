# espera: parcial
# error: se_aleja_con_posiciones_grandes
# celdas: robustez=0
# Error (de las pruebas de alumnado): por 'eficiencia' repite la tabla con periodo 100 posiciones
import numpy as np


def positional_encoding(T, d_model):
    Tc = min(T, 100)
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.arange(Tc)[:, None] * omega
    PE = np.zeros((Tc, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return np.resize(PE, (T, d_model))
