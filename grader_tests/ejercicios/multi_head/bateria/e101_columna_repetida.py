# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: le falta una salida calculada con tus mapas
# Trampa (issue 19, undécimo ataque, a11_stack_columna): un solo mapa, del primer bloque diagonal de W^Q y W^K
# a la escala mínima, copiado en las h cabezas; la salida, la mitad de las columnas a cero y la otra mitad una
# misma columna de X repetida (A·x₀), por W^O. Cada permiso de un error honrado se sumaba: sacaba 4 de 10.
import numpy as np


def _softmax(S):
    E = np.exp(S - S.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    c = slice(0, d_k)
    A = _softmax((X[:, c] @ Wq[c, c]) @ (X[:, c] @ Wk[c, c]).T / (100 * np.sqrt(d_k)))
    C = np.zeros((T, d_model))
    C[:, :d_model - d_model // 2] = A @ X[:, :1]
    return C @ Wo, np.repeat(A[None], h, axis=0)
