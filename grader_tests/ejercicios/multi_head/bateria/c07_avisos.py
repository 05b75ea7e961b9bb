# espera: completo
# diagnostico: no restan puntos
# Correcta, pero imprime una línea de depuración y escribe avisos en stderr: no debe costar nada.
import sys
import warnings

import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    print("depuración: T =", T, "d_k =", d_k)
    warnings.warn("esto es un aviso de prueba")
    print("mensaje en stderr", file=sys.stderr)
    Q, K, V = (np.stack(np.split(X @ W, h, axis=1)) for W in (Wq, Wk, Wv))
    E = Q @ np.swapaxes(K, 1, 2) / np.sqrt(d_k)
    A = np.exp(E - np.max(E, axis=-1, keepdims=True))
    A = A / A.sum(axis=-1, keepdims=True)
    salida = np.hstack(list(A @ V)) @ Wo
    return salida, A
