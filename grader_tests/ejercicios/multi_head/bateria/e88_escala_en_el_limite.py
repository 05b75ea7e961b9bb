# espera: parcial
# puntos: 4
# celdas: contrato=1, mapas=0, salida=0, no_modifica=1, robustez=1, generalidad=1
# diagnostico: no coincide
# Límite de la regla del trabajo hecho (issue 19, cuarto ataque): la capa entera bien hecha salvo la
# escala, justo 1/(100·√d_k), la menor que cuenta. Los mapas salen de Q y K con una escala equivocada: es
# trabajo hecho, en la nota y en las pruebas visibles (las dos comparan con un margen de 0,1 %).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    mapas, cabezas = [], []
    for i in range(h):
        bloque = slice(i * d_k, (i + 1) * d_k)
        S = Q[:, bloque] @ K[:, bloque].T / (100 * np.sqrt(d_k))
        E = np.exp(S - S.max(axis=1, keepdims=True))
        A = E / E.sum(axis=1, keepdims=True)
        mapas.append(A)
        cabezas.append(A @ V[:, bloque])
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
