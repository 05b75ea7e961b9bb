# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, cuarto ataque): la pareja sin(pos/10), cos(pos/10) repetida en todas las parejas. La
# frecuencia 1/10 no sale de d_model, pero es la de una pareja de la referencia cuando d_model es múltiplo
# de 4 (la pareja 1 con d_model = 8, la 2 con 16, la 8 con 64). Con d_model = 6 ninguna pareja tiene esa
# frecuencia: el trabajo tiene que verse con cada tamaño de los casos de control.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T, dtype=np.float64)[:, None]
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(pos / 10)
    PE[:, 1::2] = np.cos(pos / 10)
    return PE
