# espera: parcial
# error: division_entera
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: división entera
# Error: exponente con // (todos 0). Todas las parejas salen con la frecuencia 1 de la pareja 0: la
# tabla es sin(pos) y cos(pos) repetidos, sin ninguna frecuencia calculada, y no es trabajo hecho
# (issue 19): sólo puntúa el contrato.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = pos / 10000 ** (2 * i // d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo)
    return PE
