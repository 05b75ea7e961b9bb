# espera: parcial
# error: pos_e_i_intercambiados
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# puntos: 1
# diagnostico: cambias de sitio la posición y la pareja
# Error (un alumno de la issue 22): cambia de sitio pos e i en el ángulo, i / 10000^(2·pos/d_model). No queda
# nada de la tabla bien calculado (cada pareja gira con la frecuencia de una fila): sin trabajo hecho, sólo el
# contrato, como dice la lección; la nota y Validate lo nombran en cada celda.
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(d_model // 2):
            angulo = i / 10000 ** (2 * pos / d_model)
            PE[pos, 2 * i] = np.sin(angulo)
            PE[pos, 2 * i + 1] = np.cos(angulo)
    return PE
