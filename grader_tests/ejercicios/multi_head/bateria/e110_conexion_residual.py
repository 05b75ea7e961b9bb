# espera: parcial
# error: conexion_residual
# celdas: salida=0
# Error: la capa bien, pero suma X a la salida (la conexión residual, que en el artículo va fuera de la atención).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    mapas, cabezas = [], []
    for i in range(h):
        bloque = slice(d_k * i, d_k * (i + 1))
        consultas = X @ Wq[:, bloque]
        claves = X @ Wk[:, bloque]
        v = X @ Wv[:, bloque]
        s = consultas @ claves.T / np.sqrt(d_k)
        s = np.exp(s - s.max(axis=-1)[:, None])
        a = s / s.sum(axis=-1)[:, None]
        mapas.append(a)
        cabezas.append(a @ v)
    return X + np.concatenate(cabezas, axis=-1) @ Wo, np.asarray(mapas)
