# espera: parcial
# puntos: 4
# celdas: contrato=1, mapas=3, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: le falta una salida calculada con tus mapas
# A medias (issue 19, noveno ataque): todos los mapas bien y la salida a cero, sin calcular. Los mapas
# puntúan en su celda; no modificar, la robustez y la generalidad piden además una salida calculada con
# ellos (una salida a cero nunca puntúa).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K = X @ Wq, X @ Wk
    mapas = []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=-1, keepdims=True))
        mapas.append(P / P.sum(axis=1, keepdims=True))
    return np.zeros((T, d_model)), np.stack(mapas)
