# espera: parcial
# error: otra_precision
# celdas: contrato=0
# Error: calcula en float64 y devuelve np.longdouble, que no es el float64 del contrato.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=-1, keepdims=True))
        A_i = P / P.sum(axis=-1, keepdims=True)
        cabezas.append(A_i @ V[:, b])
        mapas.append(A_i)
    salida = np.concatenate(cabezas, axis=1) @ Wo
    return salida.astype(np.longdouble), np.stack(mapas).astype(np.longdouble)
