# espera: completo
# Correcta: np.array de los mapas y la proyección como suma de bloques (concat @ Wo = Σ cabeza_i @ Wo_i).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    d_model = X.shape[1]
    d_k = d_model // h
    mapas = []
    salida = 0
    for i in range(h):
        q = X @ Wq[:, i * d_k:(i + 1) * d_k]
        k = X @ Wk[:, i * d_k:(i + 1) * d_k]
        v = X @ Wv[:, i * d_k:(i + 1) * d_k]
        p = q @ k.T / d_k ** 0.5
        p = np.exp(p - np.max(p, axis=-1, keepdims=True))
        p = p / np.sum(p, axis=-1, keepdims=True)
        mapas.append(p)
        salida = salida + (p @ v) @ Wo[i * d_k:(i + 1) * d_k, :]
    return salida, np.array(mapas)
