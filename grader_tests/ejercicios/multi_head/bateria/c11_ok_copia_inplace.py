# espera: completo
# Correcta (de las pruebas de alumnado): copia los argumentos y después opera en el sitio sobre las copias (Wq /= sqrt(d_k) sobre la copia); acepta listas (np.array)
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    X = np.array(X, dtype=float)
    Wq, Wk, Wv, Wo = (np.array(W, dtype=float) for W in (Wq, Wk, Wv, Wo))
    T, d_model = X.shape
    d_k = d_model // h
    Wq /= np.sqrt(d_k)
    Q, K, V = (np.split(X @ W, h, axis=1) for W in (Wq, Wk, Wv))
    mapas, trozos = [], []
    for q, k, v in zip(Q, K, V):
        E = q @ k.T
        E -= E.max(axis=1, keepdims=True)
        np.exp(E, out=E)
        E /= E.sum(axis=1, keepdims=True)
        mapas.append(E)
        trozos.append(E @ v)
    return np.hstack(trozos) @ Wo, np.stack(mapas)
