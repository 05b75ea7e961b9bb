# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: le falta una salida calculada con tus mapas
# Trampa (issue 19, noveno ataque): sólo el mapa de la cabeza 0, bien calculado, copiado en las h cabezas,
# y la salida a cero. Un mapa bien sin una salida calculada con él no es trabajo hecho.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d = X.shape
    d_k = d // h
    S = (X @ Wq[:, :d_k]) @ (X @ Wk[:, :d_k]).T / np.sqrt(d_k)
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    return np.zeros((T, d)), np.repeat(A[None], h, axis=0)
