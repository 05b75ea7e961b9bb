# espera: completo
# diagnostico: no restan puntos
# Correcta, pero imprime depuración, un warnings.warn y una línea en stderr: no debe costar nada.
import sys
import warnings

import numpy as np


def positional_encoding(T, d_model):
    print("calculando PE", T, d_model)
    warnings.warn("aviso de depuración")
    print("depurando en stderr", file=sys.stderr)
    PE = np.zeros((T, d_model))
    for j in range(d_model):
        i = j // 2
        angulo = np.arange(T) / 10000 ** (2 * i / d_model)
        PE[:, j] = np.sin(angulo) if j % 2 == 0 else np.cos(angulo)
    return PE
