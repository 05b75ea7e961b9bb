# espera: parcial
# error: normaliza_X
# celdas: mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: normalizas X antes de proyectarla
# Error (P3 de un probador, issue 22): normaliza cada fila de X (una normalización de capa, pre-LN) sobre una copia
# y calcula bien la capa con ella. Con las entradas que recibe no calcula nada de la capa: sólo el contrato;
# el fallo se nombra en los mapas y en la salida.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    media = X.mean(axis=-1, keepdims=True)
    Xn = (X - media) / np.sqrt(X.var(axis=-1, keepdims=True) + 1e-6)
    T, d_model = Xn.shape
    d_k = d_model // h
    Q, K, V = Xn @ Wq, Xn @ Wk, Xn @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - E.max(axis=1)[:, None])
        A_i = P / P.sum(axis=1, keepdims=True)
        cabezas.append(A_i @ V[:, b])
        mapas.append(A_i)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
