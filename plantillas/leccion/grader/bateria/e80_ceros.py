# espera: parcial
# error: sin_calcular
# puntos: 1
# celdas: contrato=1, valores=0, generalidad=0
# diagnostico: aún no calcula nada
# Error: un esqueleto que no calcula nada, una matriz de ceros con la forma del contrato. Sólo puede
# puntuar el contrato (sólo puntúa el trabajo hecho).
import numpy as np


def @@FUNCION@@(Q, K):
    return np.zeros((len(Q), len(K)))
