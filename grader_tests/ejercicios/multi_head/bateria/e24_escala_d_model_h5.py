# espera: parcial
# error: escala_d_model
# celdas: generalidad=0.75
# diagnostico: divides las puntuaciones entre √d_model
# puntos: 9.75
# Error: divide entre √d_model sólo cuando h == 5. Sólo la celda de generalidad tiene un caso con
# h = 5 (9, 10, 5): pierde ese caso (1/4 del punto); el caso de control está bien, así que no se excusa.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    divisor = np.sqrt(d_model) if h == 5 else np.sqrt(d_k)
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / divisor
        P = np.exp(E - np.max(E, axis=-1, keepdims=True))
        A_i = P / np.sum(P, axis=-1, keepdims=True)
        cabezas.append(A_i @ V[:, b])
        mapas.append(A_i)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
