# espera: parcial
# error: otra_base
# celdas: contrato=1, valores=0, robustez=1, generalidad=1
# diagnostico: usas la base e (np.exp) en lugar de 10000
# Error honrado (issue 22, octavo alumno): la base e en lugar de 10000, con np.exp. Su escalera recorre
# e^(1 − 2/d_model), menos de un factor 3 (1,65 con d_model = 4): antes sacaba sólo el contrato, con «sin
# trabajo hecho», aunque la lección cuenta la otra base entre los errores que hacen trabajo. Ahora, como la
# base 1000: la celda de los valores lo cobra y la robustez y la generalidad no.
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulos = pos * np.exp(-2 * i / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(angulos)
    PE[:, 1::2] = np.cos(angulos)
    return PE
