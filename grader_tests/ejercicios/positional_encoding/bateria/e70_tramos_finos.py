# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, octavo ataque, s7): sólo la escalera, con ocho razones fijas por tramos finos, sin 10000
# ni exponentes. Con tramos de anchura menor que el factor 1,25 de la ley anterior pasaba; la muestra de la
# ley tiene dos tamaños vecinos en cada tramo, y entre ellos |log r|·(d_model + c) cambia más de un 10 %.
import numpy as np

TRAMOS = [(16, 0.5), (20, 0.35), (26, 0.44), (32, 0.53), (40, 0.60), (50, 0.66), (62, 0.72), (10**9, 0.75)]


def positional_encoding(T, d_model):
    r = next(razon for tope, razon in TRAMOS if d_model < tope)
    ang = np.arange(T)[:, None] * r ** np.arange(d_model // 2)[None, :]
    PE = np.zeros((T, d_model))
    PE[:, 0::2], PE[:, 1::2] = np.sin(ang), np.cos(ang)
    return PE
