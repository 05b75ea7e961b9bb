# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, octavo ataque, s6): sólo la escalera, con una razón fija por tramos de tamaño (0,5 /
# 0,35 / 0,44 / 0,75) y los cortes entre los tamaños que se juzgaban. Con la muestra de la ley, la razón
# no sigue ninguna ley de d_model: dentro de un tramo, |log r|·(d_model + c) crece con d_model.
import numpy as np


def positional_encoding(T, d_model):
    r = 0.5 if d_model < 16 else 0.35 if d_model < 20 else 0.44 if d_model < 40 else 0.75
    ang = np.arange(T)[:, None] * r ** np.arange(d_model // 2)[None, :]
    PE = np.zeros((T, d_model))
    PE[:, 0::2], PE[:, 1::2] = np.sin(ang), np.cos(ang)
    return PE
