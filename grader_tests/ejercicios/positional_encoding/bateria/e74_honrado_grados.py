# espera: parcial
# error: grados
# celdas: contrato=1, valores=0, robustez=1, generalidad=1
# diagnostico: como si estuviera en grados
# Error honrado (issue 19, octavo ataque, s9): np.radians antes de sin y cos. Sus frecuencias son
# (π/180)·r^i con la razón de la fórmula: la escalera de la lección con la pareja 0 a otra frecuencia. Hace
# trabajo, como los errores de base: la celda de los valores lo cobra y la robustez y la generalidad no
# (antes sacaba sólo el contrato, lo mismo que un esqueleto de ceros).
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    ang = np.radians(pos / 10000 ** (2 * i / d_model))
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
