# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, ataque final A2): una permutación fija (cada posición atiende a la siguiente) como
# mapa de todas las cabezas y la salida que le corresponde, P·X·W^V·W^O. Como con la identidad, nada
# sale de Q ni de K: sólo puede puntuar el contrato.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T = X.shape[0]
    P = np.roll(np.eye(T), 1, axis=1)
    return P @ X @ Wv @ Wo, np.stack([P] * h)
