# espera: parcial
# error: salida_con_mapas_traspuestos
# celdas: salida=0
# Error: devuelve los mapas bien, pero cada cabeza multiplica V por el mapa traspuesto (A_i.T @ V_i).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, c] @ K[:, c].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=-1, keepdims=True))
        A_i = P / P.sum(axis=-1, keepdims=True)
        mapas.append(A_i)
        cabezas.append(A_i.T @ V[:, c])
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
