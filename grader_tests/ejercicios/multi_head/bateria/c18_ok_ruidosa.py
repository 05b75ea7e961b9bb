# espera: completo
# Correcta (de las pruebas de alumnado): imprime en stdout, escribe avisos en stderr (warnings y print) y usa auxiliares llamadas corregir, casos y grader_tests
import numpy as np


import sys
import warnings


def corregir(E):
    """Softmax estable por filas (se llama corregir a propósito)."""
    P = np.exp(E - np.max(E, axis=-1, keepdims=True))
    return P / P.sum(axis=-1, keepdims=True)


def casos(M, h):
    T = M.shape[0]
    return M.reshape(T, h, -1).swapaxes(0, 1)


grader_tests = "no es el módulo"


def multi_head(X, Wq, Wk, Wv, Wo, h):
    print("calculando multi_head con h =", h)
    print("aviso de depuración en stderr", file=sys.stderr)
    warnings.warn("esto es un aviso inofensivo")
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = casos(X @ Wq, h), casos(X @ Wk, h), casos(X @ Wv, h)
    A = corregir(Q @ np.swapaxes(K, 1, 2) / np.sqrt(d_k))
    O = np.swapaxes(A @ V, 0, 1).reshape(T, d_model)
    return O @ Wo, A
