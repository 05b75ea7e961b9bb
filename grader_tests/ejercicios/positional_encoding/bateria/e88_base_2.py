# espera: parcial
# error: otra_base
# celdas: contrato=1, valores=0, robustez=1, generalidad=1
# diagnostico: base distinta de 10000 (tu resultado es el de base 2)
# Error honrado (issue 22, octavo alumno, la misma familia que la base e): la base 2. Su escalera recorre
# 2^(1 − 2/d_model), √2 con d_model = 4: la escalera más corta que se acepta (un factor 1,4).
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T, dtype=float)[:, None]
    PE = np.zeros((T, d_model))
    for i in range(d_model // 2):
        PE[:, 2 * i] = np.sin(pos[:, 0] / 2 ** (2 * i / d_model))
        PE[:, 2 * i + 1] = np.cos(pos[:, 0] / 2 ** (2 * i / d_model))
    return PE
