# espera: parcial
# error: pesos_transpuestos
# celdas: mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# Error (de las pruebas de alumnado): proyecta con los pesos traspuestos (X @ Wq.T, X @ Wk.T, X @ Wv.T)
# Nada de lo que calcula coincide (ni un mapa, ni la salida de sus propios mapas): sin trabajo
# correcto, tampoco puntúan no modificar, la robustez ni la generalidad.
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
