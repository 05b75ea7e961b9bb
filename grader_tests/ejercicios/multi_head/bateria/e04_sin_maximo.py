# espera: parcial
# error: sin_maximo
# celdas: robustez=0
# diagnostico: no resta el máximo de cada fila
# puntos: 9
# Error: softmax sin restar el máximo (nan/inf con puntuaciones grandes).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = np.exp(Q[:, b] @ K[:, b].T / np.sqrt(d_k))
        A_i = E / E.sum(axis=1, keepdims=True)
        cabezas.append(A_i @ V[:, b])
        mapas.append(A_i)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
