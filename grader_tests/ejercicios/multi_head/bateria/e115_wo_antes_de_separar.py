# espera: parcial
# error: wo_antes_de_separar
# celdas: salida=0
# diagnostico: multiplicas por Wo antes de tiempo
# Error (del probador del juez): proyecta los valores con Wv y Wo juntos, V = X @ Wv @ Wo, y cada cabeza lee
# su bloque de ese V; los mapas están bien, la salida no.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    V = X @ Wv @ Wo
    mapas, trozos = [], []
    for c in range(h):
        cols = slice(c * d_k, (c + 1) * d_k)
        S = (X @ Wq)[:, cols] @ (X @ Wk)[:, cols].T / np.sqrt(d_k)
        P = np.exp(S - S.max(axis=1, keepdims=True))
        P /= P.sum(axis=1, keepdims=True)
        mapas.append(P)
        trozos.append(P @ V[:, cols])
    return np.hstack(trozos), np.array(mapas)
