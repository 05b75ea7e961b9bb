# espera: parcial
# puntos: 9
# celdas: contrato=1, mapas=3, salida=3, no_modifica=0, robustez=1, generalidad=1
# diagnostico: escribe en
# Trampa (issue 19, undécimo ataque, a11_dtype): calcula bien y después cambia el dtype de sus argumentos
# (X.dtype = np.int64): la forma y los bytes siguen iguales, pero la X de quien llama pasa a ser basura. La
# celda de no modificar sólo comparaba forma y bytes: sacaba 10 de 10.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    A = np.empty((h, T, T))
    C = np.empty((T, d_model))
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        S = Q[:, c] @ K[:, c].T / np.sqrt(d_k)
        E = np.exp(S - S.max(axis=1, keepdims=True))
        A[i] = E / E.sum(axis=1, keepdims=True)
        C[:, c] = A[i] @ V[:, c]
    salida = C @ Wo
    for M in (X, Wq, Wk, Wv, Wo):
        M.dtype = np.int64
    return salida, A
