# espera: parcial
# error: calcula_con_argumentos_cambiados, escribe_en_argumentos
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=1, generalidad=1
# diagnostico: tu función cambia `X` en su sitio antes de calcular
# Error (el séptimo informe de un alumno, issue 22 B2-1): centra X en su sitio (X -= X.mean(axis=0)) y después
# calcula bien la capa con la X cambiada. Es trabajo hecho con sus entradas (leído también con los argumentos
# como los dejó la llamada): pierde los mapas, la salida y no modificar, y la robustez y la generalidad no lo
# cobran otra vez (antes, «Sin trabajo hecho»).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    X -= X.mean(axis=0)
    T, d_model = X.shape
    d_k = d_model // h
    cabezas, mapas = [], []
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        Q, K, V = X @ Wq[:, c], X @ Wk[:, c], X @ Wv[:, c]
        E = Q @ K.T / np.sqrt(d_k)
        pesos = np.exp(E - np.max(E, axis=-1, keepdims=True))
        A = pesos / pesos.sum(axis=-1, keepdims=True)
        mapas.append(A)
        cabezas.append(A @ V)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
