# espera: parcial
# error: cabezas_intercaladas
# diagnostico: intercaladas (Q[:, i::h])
# Error: cada cabeza toma columnas intercaladas i::h en lugar de un bloque contiguo.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        E = Q[:, i::h] @ K[:, i::h].T / np.sqrt(d_k)
        E = np.exp(E - np.max(E, axis=1, keepdims=True))
        A_i = E / E.sum(axis=1, keepdims=True)
        cabezas.append(A_i @ V[:, i::h])
        mapas.append(A_i)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
