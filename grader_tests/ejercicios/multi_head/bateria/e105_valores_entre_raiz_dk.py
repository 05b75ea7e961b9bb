# espera: parcial
# error: valores_escalados
# celdas: salida=0
# Error: divide también V entre √d_k (la escala es sólo para las puntuaciones); la salida sale 1/√d_k veces menor.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K = X @ Wq, X @ Wk
    V = X @ Wv / np.sqrt(d_k)
    Qh = Q.reshape(T, h, d_k).transpose(1, 0, 2)
    Kh = K.reshape(T, h, d_k).transpose(1, 0, 2)
    Vh = V.reshape(T, h, d_k).transpose(1, 0, 2)
    E = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(d_k)
    E = E - E.max(axis=-1, keepdims=True)
    A = np.exp(E) / np.exp(E).sum(axis=-1, keepdims=True)
    concat = (A @ Vh).transpose(1, 0, 2).reshape(T, d_model)
    return concat @ Wo, A
