# espera: parcial
# error: cabezas_desplazadas_recortadas
# celdas: contrato=1, mapas=0, salida=0
# diagnostico: están desplazados una columna
# Error: slice(i*d_k + 1, (i+1)*d_k + 1): la última cabeza se queda con una columna menos y la
# concatenación (reservada con ceros) deja la columna 0 a cero. Sus mapas salen de Q y K (bloques
# desplazados): es trabajo hecho, y puntúan no modificar, la robustez y la generalidad (issue 19).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    concat = np.zeros((T, d_model))
    mapas = []
    for i in range(h):
        b = slice(i * d_k + 1, (i + 1) * d_k + 1)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=-1, keepdims=True))
        A_i = P / np.sum(P, axis=-1, keepdims=True)
        concat[:, b] = A_i @ V[:, b]
        mapas.append(A_i)
    return concat @ Wo, np.stack(mapas)
