# espera: parcial
# error: valores_con_wk
# celdas: salida=0
# Error (copiar y pegar): V = X @ Wk en lugar de X @ Wv; los mapas están bien y la salida usa sus mapas.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = X @ Wq
    K = X @ Wk
    V = X @ Wk
    cabezas, mapas = [], []
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, c] @ K[:, c].T / np.sqrt(d_k)
        E -= E.max(axis=1)[:, None]
        E = np.exp(E)
        A_i = E / E.sum(axis=1, keepdims=True)
        mapas.append(A_i)
        cabezas.append(A_i @ V[:, c])
    return np.hstack(cabezas) @ Wo, np.array(mapas)
