# espera: parcial
# error: cabezas_proyectadas_promediadas
# celdas: salida=0
# Error: proyecta cada cabeza con su trozo de W^O y promedia en vez de sumar: la salida sale h veces menor.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    proyectadas, mapas = [], []
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, c] @ K[:, c].T / np.sqrt(d_k)
        desplazadas = E - E.max(axis=-1)[:, np.newaxis]
        P = np.exp(desplazadas)
        A_i = P / P.sum(axis=1, keepdims=True)
        mapas.append(A_i)
        proyectadas.append(A_i @ V[:, c] @ Wo[c])
    return np.mean(proyectadas, axis=0), np.stack(mapas)
