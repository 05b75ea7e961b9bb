# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, ataque final A5): ceros salvo la columna 0, sin(pos). Es la columna 0 de PE, pero
# su frecuencia (ω₀ = 1) no depende de d_model: no hace falta calcular nada. Sólo el contrato.
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    PE[:, 0] = np.sin(np.arange(T))
    return PE
