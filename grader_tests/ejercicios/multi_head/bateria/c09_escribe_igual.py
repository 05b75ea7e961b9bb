# espera: completo
# Correcta (de las pruebas de alumnado): escribe en X los mismos valores que ya tenía (X[...] = X * 1.0; X += 0.0): el array no cambia de valor, pero se escribe en él
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Xc = X
    Xc[...] = X * 1.0  # 'copia' que no copia: mismo array
    Xc += 0.0
    Q, K, V = Xc @ Wq, Xc @ Wk, Xc @ Wv
    trozos, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E, axis=1, keepdims=True))
        A = P / P.sum(axis=1, keepdims=True)
        trozos.append(A @ V[:, b])
        mapas.append(A)
    return np.concatenate(trozos, axis=1) @ Wo, np.stack(mapas)
