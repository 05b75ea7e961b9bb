# espera: parcial
# error: mismo_bloque_de_wo
# celdas: salida=0
# Error: proyecta cada cabeza con su trozo de W^O y suma, pero siempre con las filas del bloque 0 (Wo[:d_k]).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    salida = np.zeros((T, d_model))
    A = np.zeros((h, T, T))
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, c] @ K[:, c].T / np.sqrt(d_k)
        P = np.exp(E - np.amax(E, axis=1)[:, None])
        A[i] = P / P.sum(axis=1, keepdims=True)
        salida += A[i] @ V[:, c] @ Wo[:d_k]
    return salida, A
