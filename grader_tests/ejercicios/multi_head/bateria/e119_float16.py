# espera: cero
# error: otra_precision
# diagnostico: que guarda unas tres cifras
# puntos: 0
# Error: calcula bien y devuelve la salida y los mapas en float16 («para ahorrar memoria»): los valores son los
# de la referencia redondeados a unas tres cifras y se comparan con la precisión de float64, como los de todos;
# sin nada bien calculado a esa precisión, tampoco hay trabajo hecho que puntuar. Cada celda lo nombra (issue 22).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    mapas, cabezas = [], []
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, c] @ K[:, c].T / np.sqrt(d_k)
        E = E - E.max(axis=-1, keepdims=True)
        A = np.exp(E) / np.exp(E).sum(axis=-1, keepdims=True)
        mapas.append(A)
        cabezas.append(A @ V[:, c])
    salida = np.concatenate(cabezas, axis=1) @ Wo
    return salida.astype(np.float16), np.stack(mapas).astype(np.float16)
