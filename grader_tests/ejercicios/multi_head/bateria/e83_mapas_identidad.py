# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, ataque final A1): mapas fijos, la identidad en cada cabeza, sin Q, sin K y sin
# softmax, y la salida que corresponde a esos mapas (X·W^V·W^O). Los mapas no dependen de las
# puntuaciones: no es trabajo hecho, sólo puede puntuar el contrato.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T = X.shape[0]
    return X @ Wv @ Wo, np.stack([np.eye(T)] * h)
