# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, sexto ataque): una tabla fija de senos con exponentes 1/p y 2/p (p primo), que no usa
# d_model salvo para recortar. Con d_model = 2m la pareja j = m/p de la referencia tiene exponente 1/p, así
# que siempre hay alguna columna igual, con cualquier tamaño. Una columna no basta: hace falta la cuarta
# parte de las columnas de la referencia fuera de la pareja 0.
import numpy as np


def positional_encoding(T, d_model):
    fr = [1/2, 1/3, 2/3, 1/5, 2/5, 1/7, 2/7, 1/11, 2/11, 1/13, 2/13, 1/17, 2/17, 1/19, 2/19, 1/23, 2/23,
          1/29, 2/29, 1/31, 2/31, 1/37, 2/37, 1/41, 2/41, 1/43, 2/43, 1/47, 2/47, 1/53, 2/53]
    fr = (fr * 10)[:d_model]
    pos = np.arange(T)[:, None]
    return np.sin(pos * 10000.0 ** (-np.array(fr, dtype=float)))[:, :d_model].astype(np.float64)
