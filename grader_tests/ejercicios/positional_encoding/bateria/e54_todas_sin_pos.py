# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, ataque final A7): sin(pos) en todas las columnas. Ninguna usa d_model ni calcula
# una frecuencia: sólo puede puntuar el contrato.
import numpy as np


def positional_encoding(T, d_model):
    return np.tile(np.sin(np.arange(T, dtype=np.float64))[:, None], (1, d_model))
