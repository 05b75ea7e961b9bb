# espera: parcial
# error: softmax_entre_cabezas
# celdas: mapas=0, salida=0
# Error (de las pruebas de alumnado): vectorizada, softmax sobre el eje de las cabezas (axis=0) de (h, T, T)
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k).transpose(1, 0, 2)
    K = (X @ Wk).reshape(T, h, d_k).transpose(1, 0, 2)
    V = (X @ Wv).reshape(T, h, d_k).transpose(1, 0, 2)
    S = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
    A = np.exp(S - S.max(axis=0, keepdims=True))
    A = A / A.sum(axis=0, keepdims=True)
    return (A @ V).transpose(1, 0, 2).reshape(T, d_model) @ Wo, A
