# espera: parcial
# error: softmax_columnas
# diagnostico: aplicas la softmax por columnas
# Error: la softmax normaliza por columnas (axis=0) en vez de por filas.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        E = np.exp(E - np.max(E, axis=0))
        A_i = E / E.sum(axis=0)
        cabezas.append(A_i @ V[:, b])
        mapas.append(A_i)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
