# espera: completo
# Correcta: separar con reshape + transpose, todo vectorizado.
import numpy as np


def softmax(E):
    pesos = np.exp(E - np.max(E, axis=-1, keepdims=True))
    return pesos / np.sum(pesos, axis=-1, keepdims=True)


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h

    def separar(M):
        return M.reshape(T, h, d_k).transpose(1, 0, 2)

    Q, K, V = separar(X @ Wq), separar(X @ Wk), separar(X @ Wv)
    A = softmax(Q @ K.transpose(0, 2, 1) / np.sqrt(d_k))
    concat = (A @ V).transpose(1, 0, 2).reshape(T, d_model)
    return concat @ Wo, A
