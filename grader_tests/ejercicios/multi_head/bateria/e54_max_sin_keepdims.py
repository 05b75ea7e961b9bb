# espera: parcial
# error: maximo_sin_keepdims
# celdas: mapas=0, salida=0, robustez=0.5
# Error (de las pruebas de alumnado): resta E.max(axis=1) sin keepdims (resta el máximo de la fila t a la columna t) y luego normaliza bien por filas
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    trozos, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - E.max(axis=1))
        A = P / P.sum(axis=1, keepdims=True)
        trozos.append(A @ V[:, b])
        mapas.append(A)
    return np.concatenate(trozos, axis=1) @ Wo, np.stack(mapas)
