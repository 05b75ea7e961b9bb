# espera: parcial
# error: puntuaciones_recortadas
# celdas: robustez=0
# Error (de las pruebas de alumnado): en vez de restar el máximo recorta las puntuaciones a [-50, 50] con np.clip
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    trozos, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = np.clip(Q[:, b] @ K[:, b].T / np.sqrt(d_k), -50, 50)
        P = np.exp(E)
        A = P / P.sum(axis=1, keepdims=True)
        trozos.append(A @ V[:, b])
        mapas.append(A)
    return np.concatenate(trozos, axis=1) @ Wo, np.stack(mapas)
