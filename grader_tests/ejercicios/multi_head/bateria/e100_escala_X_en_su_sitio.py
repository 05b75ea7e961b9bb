# espera: parcial
# error: calcula_con_argumentos_cambiados, escribe_en_argumentos
# celdas: contrato=1, mapas=3, salida=0, no_modifica=0, robustez=1, generalidad=1
# diagnostico: tu función cambia `X` en su sitio antes de calcular
# Error (el séptimo informe de un alumno, issue 22 B2-1): escala X en su sitio para no dividir las
# puntuaciones (X /= d_k ** 0.25). Los mapas salen bien; V sale de la X escalada, así que la salida no. La causa
# nombrada en la celda de la salida es la X cambiada (antes, un problema de transponer), y la robustez y la
# generalidad no lo cobran otra vez (antes, «Sin trabajo hecho»).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    X /= np.sqrt(np.sqrt(d_k))
    cabezas, mapas = [], []
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        Q, K, V = X @ Wq[:, c], X @ Wk[:, c], X @ Wv[:, c]
        E = Q @ K.T
        pesos = np.exp(E - np.max(E, axis=-1, keepdims=True))
        A = pesos / pesos.sum(axis=-1, keepdims=True)
        mapas.append(A)
        cabezas.append(A @ V)
    return np.concatenate(cabezas, axis=1) @ Wo, np.stack(mapas)
