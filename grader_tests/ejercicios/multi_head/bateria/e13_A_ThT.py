# espera: parcial
# error: A_ThT
# celdas: contrato=0
# diagnostico: A tiene forma (T, h, T)
# Error: calcula con einsum y deja A con forma (T, h, T).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k)
    K = (X @ Wk).reshape(T, h, d_k)
    V = (X @ Wv).reshape(T, h, d_k)
    E = np.einsum("thk,shk->ths", Q, K) / np.sqrt(d_k)
    E = np.exp(E - np.max(E, axis=-1, keepdims=True))
    A = E / E.sum(axis=-1, keepdims=True)
    cabezas = np.einsum("ths,shk->thk", A, V)
    return cabezas.reshape(T, d_model) @ Wo, A
