# espera: completo
# Correcta (de las pruebas de alumnado): doble bucle con math.sin/math.cos
import math
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(d_model // 2):
            angulo = pos / (10000 ** (2 * i / d_model))
            PE[pos, 2 * i] = math.sin(angulo)
            PE[pos, 2 * i + 1] = math.cos(angulo)
    return PE
