# espera: parcial
# error: A_TTh
# celdas: contrato=0
# diagnostico: (T, T, h) en lugar de (h, T, T)
# Error: apila los mapas en el último eje: A tiene forma (T, T, h).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        E = np.exp(E - np.max(E, axis=1, keepdims=True))
        A_i = E / E.sum(axis=1, keepdims=True)
        cabezas.append(A_i @ V[:, b])
        mapas.append(A_i)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas, axis=-1)
