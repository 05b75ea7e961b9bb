# espera: parcial
# error: reshape_sin_transponer
# puntos: 4
# celdas: mapas=0, salida=0
# diagnostico: reshape(h, T, d_k) directo
# Error: separa las cabezas con reshape(h, T, d_k) sin transponer (el error de la sección 10 y de la
# pregunta 7). Sus mapas salen de Q y K, repartidos mal, y su salida de esos mapas: es trabajo hecho, y con
# h = 1 o T = 1 acierta. Pierde los mapas y la salida, como los demás errores de reparto (antes sacaba sólo
# el contrato: issue 22, B2-2).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(h, T, d_k)
    K = (X @ Wk).reshape(h, T, d_k)
    V = (X @ Wv).reshape(h, T, d_k)
    E = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
    E = np.exp(E - np.max(E, axis=-1, keepdims=True))
    A = E / E.sum(axis=-1, keepdims=True)
    concat = (A @ V).reshape(T, d_model)
    return concat @ Wo, A
