# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Error (issue 19, quinto ataque): la escalera de la lección con una razón fija, ω_i = 0,5^i, que no sale
# de d_model ni de 10000. Sus frecuencias recorren un factor 4 con d_model = 6 y 2^31 con 64: la regla
# pide entre 3 y 10^6 con cada tamaño, lo que sólo cumple una razón calculada a partir de d_model.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T, dtype=np.float64)[:, None]
    omega = 0.5 ** np.arange(d_model // 2)
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE
