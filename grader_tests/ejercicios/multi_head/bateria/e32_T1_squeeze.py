# espera: parcial
# error: sin_ejes_de_tamano_1
# celdas: generalidad=0.5
# Error (de las pruebas de alumnado): sólo en generalidad: usa np.squeeze en los mapas (rompe con T = 1 y h = 1)
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    trozos, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=1, keepdims=True))
        A = P / P.sum(axis=1, keepdims=True)
        trozos.append(A @ V[:, b])
        mapas.append(A)
    return np.concatenate(trozos, axis=1) @ Wo, np.squeeze(np.stack(mapas))
