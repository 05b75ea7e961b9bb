# espera: parcial
# error: sin_escala
# celdas: valores=0
# Error: olvida dividir entre √d_k.
import numpy as np


def @@FUNCION@@(Q, K):
    return Q @ K.T
