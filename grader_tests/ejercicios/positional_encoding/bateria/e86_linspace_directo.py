# espera: parcial
# error: linspace
# diagnostico: np.linspace(0, 1, d_model // 2)
# Error (el séptimo informe de un alumno, issue 22 B3): los exponentes con np.linspace(0, 1, d_model // 2),
# escrito tal cual. Es la escalera con otra razón que sale de d_model (trabajo hecho); pierde los valores, con
# el error nombrado.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    ang = pos / 10000 ** np.linspace(0, 1, d_model // 2)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
