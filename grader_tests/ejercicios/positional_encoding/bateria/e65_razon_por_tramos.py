# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, séptimo ataque): la escalera con una razón fija por tramos de tamaño (0,5 hasta
# d_model = 10 y 0,8 después), ninguna calculada a partir de d_model. Cada tamaño por separado parece una
# escalera de otra base; con la muestra de la ley, |log r|·(d_model + c) no se queda quieto de un tamaño a otro.
import numpy as np


def positional_encoding(T, d_model):
    r = 0.5 if d_model <= 10 else 0.8
    pos = np.arange(T, dtype=np.float64)[:, None]
    angulos = pos * r ** np.arange(d_model // 2)[None, :]
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(angulos)
    PE[:, 1::2] = np.cos(angulos)
    return PE
