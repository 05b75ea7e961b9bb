# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, tercer ataque): la escalera de la lección con razón r = 0,999, sin d_model ni
# 10000. Las frecuencias van de 1 a 0,999^(d_model/2 − 1): con d_model = 64, de 1 a 0,97. Cada pareja
# repite casi la pareja 0 (sin(pos), cos(pos)), que no necesita calcular nada; una escalera cuenta como
# trabajo cuando sus frecuencias bajan o suben al menos un factor 3.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    w = (1 - 1e-3) ** np.arange(d_model // 2)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(pos * w)
    PE[:, 1::2] = np.cos(pos * w)
    return PE
