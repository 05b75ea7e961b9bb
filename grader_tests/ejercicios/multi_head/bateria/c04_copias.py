# espera: completo
# Correcta: trabaja "en el sitio" pero sólo sobre copias privadas de los argumentos.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    X = X.copy()
    Wq = Wq.copy()
    T, d_model = X.shape
    d_k = d_model // h
    Wq /= np.sqrt(d_k)            # la escala va en la copia de Wq
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    A = np.zeros((h, T, T))
    concat = np.zeros((T, d_model))
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, c] @ K[:, c].T
        E -= E.max(axis=1, keepdims=True)
        np.exp(E, out=E)
        E /= E.sum(axis=1, keepdims=True)
        A[i] = E
        concat[:, c] = E @ V[:, c]
    return concat @ Wo, A
