# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, quinto ataque): la escalera de la lección con razón r = 1e-9. Todas las parejas salvo
# la 0 quedan en (0, 1), constantes: es la pareja 0 con relleno, sin ninguna frecuencia calculada. Una
# escalera cuenta cuando el seno de la pareja 1 cambia con la posición y sus frecuencias recorren entre
# un factor 3 y un factor 10^6.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T, dtype=np.float64)[:, None]
    omega = 1e-9 ** np.arange(d_model // 2)
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE
