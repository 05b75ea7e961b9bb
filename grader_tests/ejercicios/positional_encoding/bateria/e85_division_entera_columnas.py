# espera: parcial
# error: division_entera
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: división entera
# Error (el séptimo informe de un alumno, issue 22 B3-1): `i` recorre las columnas pares y el exponente se
# escribe `i // d_model`: vale 0 en todas las parejas, que se quedan con la frecuencia 1 (sin(pos) y cos(pos)
# repetidos, lo mismo que escribirlos sin calcular nada). Sólo el contrato; la división entera, nombrada.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(0, d_model, 2)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(pos / 10000 ** (i // d_model))
    PE[:, 1::2] = np.cos(pos / 10000 ** (i // d_model))
    return PE
