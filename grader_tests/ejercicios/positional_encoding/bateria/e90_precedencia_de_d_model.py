# espera: parcial
# error: precedencia_de_d_model
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# Error: d_model fuera del exponente, pos / 10000 ** (2 * i) / d_model. Sólo la pareja 0 cambia con la posición
# (con frecuencia 1/d_model); las demás quedan en [0, 1]. Nada de PE bien, y sólo puntúa el contrato.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulos = pos / 10000 ** (2 * i) / d_model
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(angulos)
    PE[:, 1::2] = np.cos(angulos)
    return PE
