# espera: parcial
# error: cabezas_promediadas
# diagnostico: promedias las cabezas
# Error: promedia las cabezas (cada una sobre V completo) en lugar de concatenarlas.
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
        cabezas.append(A_i @ V)
        mapas.append(A_i)
    return np.mean(cabezas, axis=0) @ Wo, np.stack(mapas)
