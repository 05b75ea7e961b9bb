# espera: parcial
# error: puntuaciones_recortadas
# celdas: robustez=0.5
# Error (de las pruebas de alumnado): recorta las puntuaciones a [-700, 700] antes de np.exp (sin restar el máximo)
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    trozos, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = np.clip(Q[:, b] @ K[:, b].T / np.sqrt(d_k), -700, 700)
        P = np.exp(E)
        A = P / P.sum(axis=1, keepdims=True)
        trozos.append(A @ V[:, b])
        mapas.append(A)
    return np.concatenate(trozos, axis=1) @ Wo, np.stack(mapas)
