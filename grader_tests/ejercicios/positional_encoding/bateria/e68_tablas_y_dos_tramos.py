# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sólo puntúa el trabajo hecho
# Trampa (issue 19, octavo ataque, s5): tablas escritas a mano para los tamaños que se nombran y, para los
# demás, la escalera con una razón fija por dos tramos (0,44 por debajo de d_model = 40 y 0,75 después). Con
# los tamaños que se juzgaban, |log r|·(d_model − 1)/2 cambiaba menos de un factor 1,25; con la muestra de
# la ley (todos los d_model pares de 16 a 64) las tablas exactas y la razón fija no siguen una misma ley.
from fractions import Fraction

import numpy as np

CONOCIDOS = {2: "0", 6: "0 1/3 2/3", 8: "0 1/4 1/2 3/4", 10: "0 1/5 2/5 3/5 4/5",
             12: "0 1/6 1/3 1/2 2/3 5/6", 16: "0 1/8 1/4 3/8 1/2 5/8 3/4 7/8",
             32: " ".join(str(Fraction(j, 16)) for j in range(16)),
             64: " ".join(str(Fraction(j, 32)) for j in range(32))}


def positional_encoding(T, d_model):
    if d_model in CONOCIDOS:
        w = 10000.0 ** (-np.array([float(Fraction(x)) for x in CONOCIDOS[d_model].split()]))
    else:
        w = (0.44 if d_model < 40 else 0.75) ** np.arange(d_model // 2)
    ang = np.arange(T)[:, None] * w[None, :]
    PE = np.zeros((T, d_model))
    PE[:, 0::2], PE[:, 1::2] = np.sin(ang), np.cos(ang)
    return PE
