# espera: parcial
# error: softmax_global
# diagnostico: aplicas la softmax sobre todo el mapa
# Error: la softmax normaliza el mapa (T, T) entero (máximo y suma sin axis) en vez de cada fila.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E))
        A_i = P / np.sum(P)
        cabezas.append(A_i @ V[:, b])
        mapas.append(A_i)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
