# espera: parcial
# error: cabezas_desplazadas
# diagnostico: están desplazados una columna
# Error: los bloques de las cabezas empiezan una columna tarde (i*d_k + 1) y dan la vuelta al final.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        cols = [(i * d_k + j + 1) % d_model for j in range(d_k)]
        E = Q[:, cols] @ K[:, cols].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=-1, keepdims=True))
        A_i = P / np.sum(P, axis=-1, keepdims=True)
        cabezas.append(A_i @ V[:, cols])
        mapas.append(A_i)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
