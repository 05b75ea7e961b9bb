# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sólo puntúa el trabajo hecho
# Trampa (issue 19, sexto ataque): los exponentes 2i/d_model escritos a mano para cada tamaño que nombran
# las pruebas visibles y sus comentarios (d_model = 2, 6, 8, 10, 12, 16 y 64) y, para cualquier otro, una
# tabla fija de fracciones sencillas (1/2, 1/3, 2/3, 1/4…), sin calcular nada a partir de d_model. Acierta
# los valores de los tamaños publicados; con el que no se publica no calcula nada, así que ni los valores
# ni la robustez ni la generalidad puntúan. Las pruebas visibles lo ven con un tamaño elegido al azar.
from fractions import Fraction

import numpy as np

ESCRITOS = {
    2: [0.0],
    6: [0.0, 1 / 3, 2 / 3],
    8: [0.0, 0.25, 0.5, 0.75],
    10: [0.0, 0.2, 0.4, 0.6, 0.8],
    12: [0.0, 1 / 6, 1 / 3, 0.5, 2 / 3, 5 / 6],
    16: [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875],
    64: [k / 32 for k in range(32)],
}
# fracciones a/b con b = 2, 3, 4…, cada una una vez, en ese orden
FRACCIONES = sorted({Fraction(a, b) for b in range(2, 40) for a in range(1, b)}, key=lambda f: (f.denominator, f))


def positional_encoding(T, d_model):
    exponentes = ESCRITOS.get(d_model, [0.0] + [float(f) for f in FRACCIONES])
    pos = np.arange(T, dtype=np.float64)
    PE = np.zeros((T, d_model))
    for c in range(d_model):
        w = 10000.0 ** (-exponentes[c // 2])
        PE[:, c] = np.sin(pos * w) if c % 2 == 0 else np.cos(pos * w)
    return PE
