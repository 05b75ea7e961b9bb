# espera: parcial
# error: fusion_sin_transponer
# celdas: salida=0
# diagnostico: sin transponer antes
# puntos: 7
# Error: separa bien, pero junta las cabezas con reshape(T, d_model) sin transponer.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k).transpose(1, 0, 2)
    K = (X @ Wk).reshape(T, h, d_k).transpose(1, 0, 2)
    V = (X @ Wv).reshape(T, h, d_k).transpose(1, 0, 2)
    E = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
    E = np.exp(E - np.max(E, axis=-1, keepdims=True))
    A = E / E.sum(axis=-1, keepdims=True)
    concat = (A @ V).reshape(T, d_model)
    return concat @ Wo, A
