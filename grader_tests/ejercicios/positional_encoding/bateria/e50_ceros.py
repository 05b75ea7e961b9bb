# espera: parcial
# error: sin_calcular
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: aún no calcula nada
# Error (issue 19): un esqueleto que no calcula nada: una tabla de ceros con la forma del contrato. Sólo
# puede puntuar el contrato.
import numpy as np


def positional_encoding(T, d_model):
    return np.zeros((T, d_model))
