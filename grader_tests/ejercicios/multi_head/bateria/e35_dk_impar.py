# espera: parcial
# error: columna_perdida_con_d_k_impar
# celdas: mapas=2, salida=2
# Error (de las pruebas de alumnado): sólo con d_k impar: parte cada cabeza en mitades (d_k // 2) para 'ahorrar' y pierde una columna si d_k es impar
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    mitad = d_k // 2
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    trozos, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        q, k = Q[:, b], K[:, b]
        if mitad:
            E = (q[:, :mitad] @ k[:, :mitad].T + q[:, mitad:2 * mitad] @ k[:, mitad:2 * mitad].T) / np.sqrt(d_k)
        else:
            E = q @ k.T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=1, keepdims=True))
        A = P / P.sum(axis=1, keepdims=True)
        trozos.append(A @ V[:, b])
        mapas.append(A)
    return np.concatenate(trozos, axis=1) @ Wo, np.stack(mapas)
