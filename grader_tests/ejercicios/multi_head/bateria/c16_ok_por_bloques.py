# espera: completo
# Correcta (de las pruebas de alumnado): proyecta cada cabeza con su bloque de W (X @ Wq[:, b]), (A @ X) @ Wv_b, log-sum-exp, y suma por bloques de filas de Wo en vez de concatenar
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    d_k = X.shape[1] // h
    salida = np.zeros((X.shape[0], Wo.shape[1]))
    mapas = []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = (X @ Wq[:, b]) @ (X @ Wk[:, b]).T / d_k ** 0.5
        m = E.max(axis=-1, keepdims=True)
        lse = m + np.log(np.exp(E - m).sum(axis=-1, keepdims=True))
        A = np.exp(E - lse)
        salida = salida + ((A @ X) @ Wv[:, b]) @ Wo[b, :]
        mapas.append(A)
    return salida, np.array(mapas)
