# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sólo puntúa el trabajo hecho
# Trampa (issue 19, octavo ataque, s2 tal cual): tablas escritas a mano para los tamaños que se nombran (con
# d_model = 32 también) y, para cualquier otro, un banco fijo (T, 2520) de senos y cosenos de unas 1 260
# frecuencias 10000^(-j/p) que nunca mira d_model. Como e66: el banco no es una tabla de a lo sumo d_model
# columnas, y con los tamaños que no se publican no calcula nada.
from fractions import Fraction

import numpy as np

CONOCIDOS = {2: "0", 6: "0 1/3 2/3", 8: "0 1/4 1/2 3/4", 10: "0 1/5 2/5 3/5 4/5",
             12: "0 1/6 1/3 1/2 2/3 5/6", 16: "0 1/8 1/4 3/8 1/2 5/8 3/4 7/8",
             32: " ".join(str(Fraction(j, 16)) for j in range(16)),
             64: " ".join(str(Fraction(j, 32)) for j in range(32))}
BANCO = sorted({Fraction(j, p) for p in range(1, 65) for j in range(p)})


def positional_encoding(T, d_model):
    if d_model in CONOCIDOS:
        w = 10000.0 ** (-np.array([float(Fraction(x)) for x in CONOCIDOS[d_model].split()]))
        ang = np.arange(T)[:, None] * w[None, :]
        PE = np.zeros((T, d_model))
        PE[:, 0::2], PE[:, 1::2] = np.sin(ang), np.cos(ang)
        return PE
    w = 10000.0 ** (-np.array([float(x) for x in BANCO]))
    ang = np.arange(T)[:, None] * w[None, :]
    return np.hstack([np.sin(ang), np.cos(ang)])
