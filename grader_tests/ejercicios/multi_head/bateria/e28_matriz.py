# espera: parcial
# error: subclase_de_ndarray
# celdas: contrato=0
# diagnostico: debería ser un np.ndarray y es np.matrix
# puntos: 9
# Error: devuelve la salida como np.matrix (valores correctos): sólo pierde el contrato.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=-1, keepdims=True))
        A_i = P / np.sum(P, axis=-1, keepdims=True)
        cabezas.append(A_i @ V[:, b])
        mapas.append(A_i)
    return np.asmatrix(np.concatenate(cabezas, axis=1)) @ Wo, np.stack(mapas)
