# espera: completo
# Correcta (de las pruebas de alumnado): pero lenta: listas de Python y np.array al final; ángulo con math.pow y división
import math
import numpy as np


def positional_encoding(T, d_model):
    filas = []
    for pos in range(T):
        fila = []
        for j in range(d_model):
            i = j // 2
            a = pos / math.pow(10000, 2 * i / d_model)
            fila.append(math.sin(a) if j % 2 == 0 else math.cos(a))
        filas.append(fila)
    return np.array(filas, dtype=float)
