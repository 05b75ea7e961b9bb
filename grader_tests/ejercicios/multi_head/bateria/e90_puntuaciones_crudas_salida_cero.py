# espera: parcial
# error: mapas_con_negativos
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: le falta una salida calculada con tus mapas
# Trampa (issue 19, noveno ataque): Q·Kᵀ de todas las columnas, sin softmax, sin escala y sin repartir,
# copiada en las h cabezas, y la salida a cero. Los mapas salen de Q y K, pero la salida no se calcula con
# ellos: no hay trabajo hecho (antes sacaba 4 de 10).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d = X.shape
    S = (X @ Wq) @ (X @ Wk).T
    return np.zeros((T, d)), np.repeat(S[None], h, axis=0).astype(np.float64)
