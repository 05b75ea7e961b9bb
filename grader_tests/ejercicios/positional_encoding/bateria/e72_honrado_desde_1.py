# espera: parcial
# error: posiciones_desde_1
# celdas: contrato=1, valores=0, robustez=1, generalidad=1
# diagnostico: las posiciones empiezan en 1
# Error honrado (issue 19, octavo ataque, s3): posiciones contadas desde 1. Hace trabajo (una fila entera
# de la referencia en cada tamaño): la celda de los valores lo cobra y la robustez y la generalidad no.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(1, T + 1)[:, None]
    i = np.arange(d_model // 2)[None, :]
    ang = pos / 10000.0 ** (2 * i / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
