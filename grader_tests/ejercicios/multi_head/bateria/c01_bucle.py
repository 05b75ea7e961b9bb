# espera: completo
# Correcta: un bucle sobre las cabezas con bloques contiguos de columnas.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        bloque = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, bloque] @ K[:, bloque].T / np.sqrt(d_k)
        E = E - np.max(E, axis=1, keepdims=True)
        A_i = np.exp(E)
        A_i = A_i / A_i.sum(axis=1, keepdims=True)
        cabezas.append(A_i @ V[:, bloque])
        mapas.append(A_i)
    salida = np.concatenate(cabezas, axis=1) @ Wo
    return salida, np.stack(mapas)
