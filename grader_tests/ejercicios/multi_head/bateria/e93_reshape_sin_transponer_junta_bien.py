# espera: parcial
# error: reshape_sin_transponer
# puntos: 4
# celdas: mapas=0, salida=0
# diagnostico: reshape(h, T, d_k) directo
# Error (issue 22, B2-2): separa las cabezas con reshape(h, T, d_k) sin transponer, como en la sección 10,
# pero las junta bien (transpose(1, 0, 2) y reshape(T, d_model)). Trabajo hecho: pierde sólo los mapas y la
# salida.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = ((X @ W).reshape(h, T, d_k) for W in (Wq, Wk, Wv))
    E = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
    P = np.exp(E - np.max(E, axis=-1, keepdims=True))
    A = P / P.sum(axis=-1, keepdims=True)
    return (A @ V).transpose(1, 0, 2).reshape(T, d_model) @ Wo, A
