# espera: parcial
# error: mascara_causal
# diagnostico: máscara causal
# Error: la capa de la lección con la máscara del decodificador (sección 11): cada posición sólo mira las anteriores.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    futuro = np.triu(np.ones((T, T), dtype=bool), k=1)
    salidas, pesos = [], []
    for cabeza in range(h):
        cols = slice(cabeza * d_k, (cabeza + 1) * d_k)
        q, k, v = X @ Wq[:, cols], X @ Wk[:, cols], X @ Wv[:, cols]
        puntos = q @ k.T / np.sqrt(d_k)
        puntos[futuro] = -1e9
        puntos -= puntos.max(axis=1, keepdims=True)
        w = np.exp(puntos)
        w /= w.sum(axis=1, keepdims=True)
        pesos.append(w)
        salidas.append(w @ v)
    return np.hstack(salidas) @ Wo, np.array(pesos)
