# espera: parcial
# error: escribe_en_argumentos
# celdas: no_modifica=0.6667
# Error (de las pruebas de alumnado): escala Wq en el sitio sólo cuando h es par y > 2
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    if h % 2 == 0 and h > 2:
        Wq /= np.sqrt(d_k)
        escala = 1.0
    else:
        escala = np.sqrt(d_k)
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    trozos, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / escala
        P = np.exp(E - np.max(E, axis=1, keepdims=True))
        A = P / P.sum(axis=1, keepdims=True)
        trozos.append(A @ V[:, b])
        mapas.append(A)
    return np.concatenate(trozos, axis=1) @ Wo, np.stack(mapas)
