# espera: parcial
# error: sin_maximo
# celdas: robustez=0
# diagnostico: resta un máximo que no es el de su fila
# Error (de las pruebas de alumnado): resta el máximo global de todas las cabezas (no el de cada fila): filas lejanas del máximo se anulan por subdesbordamiento (0/0)
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k).transpose(1, 0, 2)
    K = (X @ Wk).reshape(T, h, d_k).transpose(1, 0, 2)
    V = (X @ Wv).reshape(T, h, d_k).transpose(1, 0, 2)
    S = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
    A = np.exp(S - S.max())
    A = A / A.sum(axis=-1, keepdims=True)
    return (A @ V).transpose(1, 0, 2).reshape(T, d_model) @ Wo, A
