# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, quinto ataque): una frecuencia elegida según los tamaños publicados, 1/10 cuando
# d_model es múltiplo de 4 (una pareja de la referencia con 8, 16 y 64) y 10^(-4/3) si no (la pareja 1
# con 6), en todas las parejas. No calcula ninguna frecuencia a partir de d_model: con un tamaño que no se
# publica, ninguna columna coincide. Las pruebas visibles lo ven con su tamaño elegido al azar.
import numpy as np


def positional_encoding(T, d_model):
    f = 10 ** (-4 / 3) if d_model % 4 else 0.1
    pos = np.arange(T, dtype=np.float64)[:, None]
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(pos * f)
    PE[:, 1::2] = np.cos(pos * f)
    return PE
