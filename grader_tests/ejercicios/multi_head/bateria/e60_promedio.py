# espera: parcial
# error: cabezas_promediadas
# celdas: salida=0
# Error (de las pruebas de alumnado): promedia las cabezas (cada una con su bloque, repetido para cubrir d_model) en vez de concatenar
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    suma, mapas = np.zeros((T, d_model)), []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=1, keepdims=True))
        A = P / P.sum(axis=1, keepdims=True)
        suma += A @ V
        mapas.append(A)
    return (suma / h) @ Wo, np.stack(mapas)
