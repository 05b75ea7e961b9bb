# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: le falta usar W^V y W^O: cambiarlas no cambia nada
# Trampa (issue 19, décimo ataque; la misma clase que mh_qqt_sin_v con W^K): softmax(Q·Kᵀ/(100·√d_k)) con
# todas las columnas copiada en las h cabezas y la salida h·A·X con la mitad de las columnas a cero. Usa
# W^Q y W^K, pero ni W^V ni W^O cambian nada de lo que devuelve: dos matrices olvidadas ya no son un
# error honrado, así que no hay trabajo hecho.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    S = (X @ Wq) @ (X @ Wk).T / (100 * np.sqrt(X.shape[1] // h))
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    Y = np.zeros(X.shape)
    m = X.shape[1] // 2 + X.shape[1] % 2
    Y[:, :m] = (h * A) @ X[:, :m]
    return Y, np.repeat(A[None], h, axis=0)
