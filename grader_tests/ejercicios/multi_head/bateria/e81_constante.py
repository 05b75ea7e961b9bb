# espera: parcial
# error: sin_calcular
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: aún no calcula nada
# Error (issue 19): una constante con la forma del contrato (unos en la salida y en los mapas).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    return np.ones((T, d_model)), np.ones((h, T, T))
