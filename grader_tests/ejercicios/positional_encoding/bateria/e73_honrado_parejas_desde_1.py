# espera: parcial
# error: pareja_desde_1
# celdas: contrato=1, valores=0, robustez=1, generalidad=1
# diagnostico: el índice de pareja i empieza en 1
# Error honrado (issue 19, octavo ataque, s4): parejas contadas desde 1, con un doble bucle. Hace trabajo
# (las columnas de la referencia desplazadas una pareja, y la escalera de la lección con la pareja 0 a
# otra frecuencia): la celda de los valores lo cobra y la robustez y la generalidad no.
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(1, d_model // 2 + 1):
            ang = pos / 10000 ** (2 * i / d_model)
            PE[pos, 2 * (i - 1)] = np.sin(ang)
            PE[pos, 2 * (i - 1) + 1] = np.cos(ang)
    return PE
