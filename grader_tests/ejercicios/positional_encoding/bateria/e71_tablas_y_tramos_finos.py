# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sólo puntúa el trabajo hecho
# Trampa (issue 19, octavo ataque, s10): tablas escritas a mano para los tamaños que se nombran y, para los
# demás, las ocho razones fijas de e70. Pasaba Validate con cualquier sorteo y sacaba 4,8 de 6; con la
# muestra de la ley, las tablas exactas (16, 32, 64) y las razones fijas de los demás no siguen una ley.
from fractions import Fraction

import numpy as np

CONOCIDOS = {2: "0", 6: "0 1/3 2/3", 8: "0 1/4 1/2 3/4", 10: "0 1/5 2/5 3/5 4/5",
             12: "0 1/6 1/3 1/2 2/3 5/6", 16: "0 1/8 1/4 3/8 1/2 5/8 3/4 7/8",
             32: " ".join(str(Fraction(j, 16)) for j in range(16)),
             64: " ".join(str(Fraction(j, 32)) for j in range(32))}
TRAMOS = [(16, 0.5), (20, 0.35), (26, 0.44), (32, 0.53), (40, 0.60), (50, 0.66), (62, 0.72), (10**9, 0.75)]


def positional_encoding(T, d_model):
    if d_model in CONOCIDOS:
        w = 10000.0 ** (-np.array([float(Fraction(x)) for x in CONOCIDOS[d_model].split()]))
    else:
        w = next(razon for tope, razon in TRAMOS if d_model < tope) ** np.arange(d_model // 2)
    ang = np.arange(T)[:, None] * w[None, :]
    PE = np.zeros((T, d_model))
    PE[:, 0::2], PE[:, 1::2] = np.sin(ang), np.cos(ang)
    return PE
