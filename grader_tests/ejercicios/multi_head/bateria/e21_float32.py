# espera: parcial
# error: salida_float32
# celdas: contrato=0
# diagnostico: en float32: los valores son correctos
# puntos: 9
# Error: devuelve float32 (los valores son correctos).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k).transpose(1, 0, 2)
    K = (X @ Wk).reshape(T, h, d_k).transpose(1, 0, 2)
    V = (X @ Wv).reshape(T, h, d_k).transpose(1, 0, 2)
    E = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
    E = np.exp(E - np.max(E, axis=-1, keepdims=True))
    A = E / E.sum(axis=-1, keepdims=True)
    salida = (A @ V).transpose(1, 0, 2).reshape(T, d_model) @ Wo
    return salida.astype(np.float32), A.astype(np.float32)
