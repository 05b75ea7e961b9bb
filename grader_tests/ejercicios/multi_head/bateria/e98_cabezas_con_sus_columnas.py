# espera: parcial
# error: cabezas_con_sus_columnas
# celdas: contrato=1, mapas=0, salida=0, no_modifica=1, robustez=1, generalidad=1
# diagnostico: cada cabeza lee sólo sus d_k columnas de X
# Error (el séptimo informe de un alumno, issue 22 B2-1; la opción a de la pregunta 3): el bucle de las cabezas
# con Q, K y V de las d_k columnas de X de cada cabeza (X[:, c] @ Wq[c, c]). La capa entera está escrita: sus
# mapas salen de las puntuaciones de esas columnas y su salida de esos mapas, así que es trabajo hecho (antes,
# «Sin trabajo hecho» y sólo el contrato). Pierde los mapas y la salida, con el error nombrado.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    cabezas, mapas = [], []
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        Q, K, V = X[:, c] @ Wq[c, c], X[:, c] @ Wk[c, c], X[:, c] @ Wv[c, c]
        E = Q @ K.T / np.sqrt(d_k)
        pesos = np.exp(E - np.max(E, axis=-1, keepdims=True))
        A = pesos / pesos.sum(axis=-1, keepdims=True)
        mapas.append(A)
        cabezas.append(A @ V)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
