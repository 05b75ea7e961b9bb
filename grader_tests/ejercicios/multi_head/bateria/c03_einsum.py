# espera: completo
# Correcta: einsum para las puntuaciones y para combinar las cabezas.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k)
    K = (X @ Wk).reshape(T, h, d_k)
    V = (X @ Wv).reshape(T, h, d_k)
    E = np.einsum("thk,shk->hts", Q, K) / np.sqrt(d_k)
    E -= E.max(axis=2, keepdims=True)
    A = np.exp(E)
    A /= A.sum(axis=2, keepdims=True)
    cabezas = np.einsum("hts,shk->thk", A, V)
    return cabezas.reshape(T, d_model) @ Wo, A
