# espera: cero
# error: formas_incompatibles
# Error: concatena las cabezas por filas (axis=0) en lugar de por columnas: (h·T, d_k) @ Wo no encaja
# y la llamada lanza ValueError (con h = 1 no se nota). Sin ninguna llamada que termine con las entradas
# de las celdas de valores no hay trabajo hecho: tampoco puntúa el caso h = 1 de la generalidad.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    cabezas, mapas = [], []
    for i in range(h):
        bloque = slice(i * d_k, (i + 1) * d_k)
        puntuaciones = Q[:, bloque] @ K[:, bloque].T / np.sqrt(d_k)
        pesos = np.exp(puntuaciones - puntuaciones.max(axis=-1, keepdims=True))
        A_i = pesos / pesos.sum(axis=-1, keepdims=True)
        cabezas.append(A_i @ V[:, bloque])
        mapas.append(A_i)
    return np.concatenate(cabezas) @ Wo, np.stack(mapas)
