# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: le falta usar W^K, W^V y W^O: cambiarlas no cambia nada
# Trampa (issue 19, décimo ataque, mh_qqt_sin_v): cinco líneas que sólo usan W^Q. softmax(Q·Qᵀ/(100·√d_k))
# con todas las columnas copiada en las h cabezas, y la salida h·A·X con la mitad de las columnas a cero.
# Cada permiso de la regla del trabajo hecho viene de un error honrado (K = X·W^Q, la escala mínima, todas
# las columnas, V = X, sin W^O, columnas a cero), pero juntos no calculan atención: ni W^K, ni W^V, ni W^O
# cambian nada de lo que devuelve. Sacaba 4 de 10; ahora el trabajo hecho deja olvidar una sola de las
# cuatro matrices.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    Q = X @ Wq
    S = Q @ Q.T / (100 * np.sqrt(X.shape[1] // h))
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    Y = np.zeros(X.shape)
    m = X.shape[1] // 2 + X.shape[1] % 2
    Y[:, :m] = (h * A) @ X[:, :m]
    return Y, np.repeat(A[None], h, axis=0)
