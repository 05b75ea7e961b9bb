# espera: parcial
# error: grados
# celdas: contrato=1, valores=0, robustez=1, generalidad=1
# diagnostico: como si estuviera en grados
# Error: convierte el ángulo con np.radians. Sus frecuencias son (π/180)·r^i con la razón de la fórmula:
# la escalera con la pareja 0 a otra frecuencia hace trabajo (issue 19, octavo ataque).
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = np.radians(pos / 10000 ** (2 * i / d_model))
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo)
    return PE
