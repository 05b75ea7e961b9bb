# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, ataque final A6): la fila pos = 0 ([0, 1, 0, 1…]) en todas las posiciones y la
# columna 0 cambiada por sin(pos): ni una frecuencia calculada. Sólo el contrato.
import numpy as np


def positional_encoding(T, d_model):
    PE = np.tile([0.0, 1.0], (T, d_model // 2))
    PE[:, 0] = np.sin(np.arange(T))
    return PE
