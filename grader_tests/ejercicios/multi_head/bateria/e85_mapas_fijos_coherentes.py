# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19): mapas positivos que suman 1 por filas pero sólo dependen de la distancia entre
# posiciones (ni de Q ni de K), y la salida exacta de esos mapas: Concat(A_i·V_i)·W^O con sus bloques.
# La mitad final de la capa está bien hecha, pero sin mapas que salgan de las puntuaciones no es
# trabajo hecho.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    t = np.arange(T)
    P = np.exp(-np.abs(t[:, None] - t[None, :]))
    A = P / P.sum(axis=1, keepdims=True)
    V = X @ Wv
    cabezas = [A @ V[:, i * d_k:(i + 1) * d_k] for i in range(h)]
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack([A] * h)
