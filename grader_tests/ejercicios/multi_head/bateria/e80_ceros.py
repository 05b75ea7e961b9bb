# espera: parcial
# error: sin_calcular
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: aún no calcula nada
# Error (issue 19): un esqueleto que no calcula nada, con la forma del contrato: salida de ceros y mapas
# uniformes. Sólo puede puntuar el contrato.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = np.shape(X)
    return np.zeros((T, d_model)), np.full((h, T, T), 1.0 / T)
