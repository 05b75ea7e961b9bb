# espera: parcial
# error: dropout_en_la_salida
# celdas: contrato=1, mapas=3, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: aplicas dropout
# Error (del probador del juez): copia la capa de un modelo de entrenamiento y deja el dropout (p = 0.1) sobre
# la salida: los mapas están bien, la salida tiene ceros al azar y el resto escalado por 1/0.9.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k).swapaxes(0, 1)
    K = (X @ Wk).reshape(T, h, d_k).swapaxes(0, 1)
    V = (X @ Wv).reshape(T, h, d_k).swapaxes(0, 1)
    S = Q @ K.swapaxes(1, 2) / d_k ** 0.5
    P = np.exp(S - S.max(axis=2, keepdims=True))
    A = P / P.sum(axis=2, keepdims=True)
    salida = (A @ V).swapaxes(0, 1).reshape(T, d_model) @ Wo
    conservar = np.random.default_rng(7).random(salida.shape) >= 0.1
    return salida * conservar / 0.9, A
