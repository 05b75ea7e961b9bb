# espera: cero
# error: dtype_entero
# celdas: contrato=0, valores=0, robustez=0, generalidad=0
# diagnostico: tu tabla es de enteros
# Error (el séptimo informe de un alumno, issue 22 B2-3): la solución de las rebanadas con
# np.zeros(..., dtype=int). Cada seno y coseno se trunca a 0 (sólo cos(0) = 1 queda): la tabla que llega no se
# distingue de unos ceros escritos sin calcular nada, así que no hay trabajo hecho que puntuar (un trabajo
# que sólo se viera en el dtype abriría la puerta a un cero con la forma de la tabla). Se nombra en cada celda.
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model), dtype=int)
    pos = np.arange(T)[:, None]
    ang = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
