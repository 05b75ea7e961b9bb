# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, tercer ataque): un solo producto matriz-vector. q₀ = X·W^Q[:, 0] (una columna de
# W^Q, sin W^K, W^V ni W^O), la softmax de q₀q₀ᵀ copiada en las h cabezas y la salida a cero. Una cabeza
# compara en d_k columnas (d_k − 1 si se pierde una con d_k impar); una sola columna cuando d_k es 4 o
# más no es un reparto equivocado de las cabezas: no hay trabajo hecho.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    q = X @ Wq[:, 0]
    S = np.outer(q, q)
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    return np.zeros((T, d_model)), np.stack([A] * h).astype(np.float64)
