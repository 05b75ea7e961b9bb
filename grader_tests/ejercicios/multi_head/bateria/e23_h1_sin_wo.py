# espera: parcial
# error: sin_wo
# celdas: generalidad=0.75
# diagnostico: sin multiplicarla por Wo
# puntos: 9.75
# Error: una rama `if h == 1:` que olvida `@ Wo` (el resto es correcto). Sólo la celda de generalidad
# tiene un caso con h = 1: pierde ese caso (1/4 del punto); no se excusa porque el caso de control no
# tiene el error.
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
        A_i = P / np.sum(P, axis=-1, keepdims=True)
        cabezas.append(A_i @ V[:, b])
        mapas.append(A_i)
    if h == 1:
        return cabezas[0], np.stack(mapas)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
