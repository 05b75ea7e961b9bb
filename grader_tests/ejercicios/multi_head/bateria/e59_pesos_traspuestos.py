# espera: parcial
# error: pesos_transpuestos
# celdas: mapas=0, salida=0
# Error (de las pruebas de alumnado): proyecta con los pesos traspuestos (X @ Wq.T, X @ Wk.T, X @ Wv.T).
# Un error honrado: sus mapas salen de Q y K de sus entradas (con los pesos traspuestos) y su salida de
# sus mapas, así que no modificar, la robustez y la generalidad puntúan (antes, 1 de 10: «sin trabajo»).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq.T, X @ Wk.T, X @ Wv.T
    trozos, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=1, keepdims=True))
        A = P / P.sum(axis=1, keepdims=True)
        trozos.append(A @ V[:, b])
        mapas.append(A)
    return np.concatenate(trozos, axis=1) @ Wo, np.stack(mapas)
