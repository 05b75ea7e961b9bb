# espera: parcial
# error: reshape_sin_transponer
# celdas: mapas=0, salida=0
# Error (de las pruebas de alumnado): reshape(h, T, d_k) directo, sin transponer (y reshape(T, d_model) al juntar)
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(h, T, d_k)
    K = (X @ Wk).reshape(h, T, d_k)
    V = (X @ Wv).reshape(h, T, d_k)
    S = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
    A = np.exp(S - S.max(axis=-1, keepdims=True))
    A = A / A.sum(axis=-1, keepdims=True)
    return (A @ V).reshape(T, d_model) @ Wo, A
