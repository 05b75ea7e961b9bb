# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, sexto ataque): senos de una tabla fija de fracciones sencillas como exponentes
# (1/2, 1/3, 2/3, 1/4, 3/4, 1/5…), que sólo usa d_model para recortar. Con d_model = 2m, la pareja j de la
# referencia tiene exponente j/m: si m es pequeño, la tabla tiene varias columnas de la referencia. Con
# cada tamaño de control hace falta la cuarta parte de las columnas de la referencia fuera de la pareja 0,
# y con el que no se publica la tabla no tiene ninguna.
from fractions import Fraction

import numpy as np

FRACCIONES = sorted({Fraction(a, b) for b in range(2, 40) for a in range(1, b)}, key=lambda f: (f.denominator, f))


def positional_encoding(T, d_model):
    exponentes = np.array([float(f) for f in FRACCIONES[:d_model]])
    pos = np.arange(T, dtype=np.float64)[:, None]
    return np.sin(pos * 10000.0 ** (-exponentes))
