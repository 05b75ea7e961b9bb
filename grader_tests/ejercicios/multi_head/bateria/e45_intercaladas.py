# espera: parcial
# error: cabezas_intercaladas
# celdas: mapas=0, salida=0
# Error (de las pruebas de alumnado): cabezas con columnas intercaladas Q[:, i::h]
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    trozos, mapas = [], []
    for i in range(h):
        E = Q[:, i::h] @ K[:, i::h].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=1, keepdims=True))
        A = P / P.sum(axis=1, keepdims=True)
        trozos.append(A @ V[:, i::h])
        mapas.append(A)
    return np.concatenate(trozos, axis=1) @ Wo, np.stack(mapas)
