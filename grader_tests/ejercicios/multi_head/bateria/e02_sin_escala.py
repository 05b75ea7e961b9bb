# espera: parcial
# error: sin_escala
# diagnostico: no divides las puntuaciones Q_i K_iᵀ entre √d_k
# Error: olvida dividir entre √d_k.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k).transpose(1, 0, 2)
    K = (X @ Wk).reshape(T, h, d_k).transpose(1, 0, 2)
    V = (X @ Wv).reshape(T, h, d_k).transpose(1, 0, 2)
    E = Q @ K.transpose(0, 2, 1)
    E = np.exp(E - np.max(E, axis=-1, keepdims=True))
    A = E / E.sum(axis=-1, keepdims=True)
    return (A @ V).transpose(1, 0, 2).reshape(T, d_model) @ Wo, A
