# espera: parcial
# error: sin_softmax
# puntos: 4
# celdas: mapas=0, salida=0
# diagnostico: no aplicas la softmax
# Error honrado (issue 19, noveno ataque): olvida la softmax. Cada cabeza usa sus puntuaciones
# Q_i K_iᵀ / √d_k como mapa y con ellas calcula su salida. Es trabajo hecho (los mapas salen de Q y K y la
# salida de esos mapas): pierde los mapas y la salida, con un diagnóstico que lo nombra.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    mapas, cabezas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        A = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        mapas.append(A)
        cabezas.append(A @ V[:, b])
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
