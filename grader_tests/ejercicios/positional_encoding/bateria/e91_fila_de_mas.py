# espera: parcial
# error: T_ignorado
# celdas: contrato=0, valores=0
# diagnostico: devuelves una fila de más
# Error: range(T + 1) como posiciones: la tabla de la lección con una fila de más (la posición T).
import numpy as np


def positional_encoding(T, d_model):
    tabla = []
    for pos in range(T + 1):
        fila = []
        for i in range(d_model // 2):
            theta = pos / 10000 ** (2 * i / d_model)
            fila += [np.sin(theta), np.cos(theta)]
        tabla.append(fila)
    return np.array(tabla, dtype=np.float64)
