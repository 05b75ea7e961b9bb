# espera: cero
# error: dtype_entero
# celdas: contrato=0, valores=0, robustez=0, generalidad=0
# diagnostico: tu tabla es de enteros
# Error: la tabla se crea con dtype=int (los valores se truncan): no queda ni una
# columna ni una fila bien, así que tampoco hay trabajo hecho que puntuar.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = pos / 10000 ** (2 * i / d_model)
    PE = np.zeros((T, d_model), dtype=int)
    PE[:, 0::2] = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo)
    return PE
