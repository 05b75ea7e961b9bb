# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Error (issue 19): devuelve su entrada y mapas uniformes; la salida cambia con X, pero nada de lo que
# calcula está bien (ni un mapa, ni unos mapas que salgan de Q y K).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T = len(X)
    return np.array(X, dtype=np.float64), np.full((h, T, T), 1.0 / T)
