# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: le falta usar W^K, W^V y W^O: cambiarlas no cambia nada
# Trampa (issue 19, décimo ataque, mh_solo_wq): softmax(Q·Qᵀ) sin escala, copiada en las h cabezas, y la
# salida A·X: no usa W^K, W^V ni W^O. Sacaba 4 de 10.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    Q = X @ Wq
    S = Q @ Q.T
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    return A @ X, np.repeat(A[None], h, axis=0)
