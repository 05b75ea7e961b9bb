# espera: parcial
# error: precedencia_en_el_exponente
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# Error: el exponente sin paréntesis, pos / 10000 ** 2 * i / d_model. Cada ángulo vale pos·i/(10⁸·d_model):
# la tabla es [0, 1, 0, 1, …] en todas las filas, nada calculado que se vea, y sólo puntúa el contrato.
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(d_model // 2):
            angulo = pos / 10000 ** 2 * i / d_model
            PE[pos, 2 * i] = np.sin(angulo)
            PE[pos, 2 * i + 1] = np.cos(angulo)
    return PE
