# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Error (issue 19): repite en todas las filas la de pos = 0 ([0, 1, 0, 1…], la que sale sin calcular
# ningún ángulo). Acierta la fila 0 y la tabla con T = 1, pero no ha calculado nada.
import numpy as np


def positional_encoding(T, d_model):
    return np.tile([0.0, 1.0], (T, d_model // 2))
