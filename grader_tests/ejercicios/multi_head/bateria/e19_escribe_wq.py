# espera: parcial
# error: escribe_en_argumentos
# celdas: no_modifica=0
# diagnostico: tu función escribe en `Wq`
# puntos: 9
# Error: escala Wq en el sitio (Wq /= √d_k): los valores son correctos pero modifica el argumento.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Wq /= np.sqrt(d_k)
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T
        E = np.exp(E - np.max(E, axis=1, keepdims=True))
        A_i = E / E.sum(axis=1, keepdims=True)
        cabezas.append(A_i @ V[:, b])
        mapas.append(A_i)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
