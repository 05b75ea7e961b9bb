# espera: parcial
# puntos: 9
# error: intercambiados
# celdas: contrato=0, mapas=3, salida=3, no_modifica=1, robustez=1, generalidad=1
# diagnostico: devuelves (A, salida) en lugar de (salida, A)
# Error: devuelve (A, salida). Un error se descuenta una vez (issue 19, décimo ataque, mh_tupla_al_reves): el
# contrato lo cobra y lo nombra, y los mapas y la salida se juzgan con la pareja leída en su orden, porque sus
# formas lo dicen sin dudas. Antes, 3 de 10: el mismo error cobrado en el contrato, los mapas y la salida.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k).transpose(1, 0, 2)
    K = (X @ Wk).reshape(T, h, d_k).transpose(1, 0, 2)
    V = (X @ Wv).reshape(T, h, d_k).transpose(1, 0, 2)
    E = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
    E = np.exp(E - np.max(E, axis=-1, keepdims=True))
    A = E / E.sum(axis=-1, keepdims=True)
    salida = (A @ V).transpose(1, 0, 2).reshape(T, d_model) @ Wo
    return A, salida
