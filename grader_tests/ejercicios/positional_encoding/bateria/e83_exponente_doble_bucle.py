# espera: parcial
# error: exponente_doble
# diagnostico: tu exponente es el doble del de la fórmula
# Error (el séptimo informe de un alumno, issue 22 B3-5): el doble bucle de los tutoriales, con `i` que ya
# recorre las columnas pares y `2 * i` en el exponente (queda 4i/d_model). Es la escalera de la lección con
# otra razón que sale de d_model: trabajo hecho; pierde los valores, con el error nombrado.
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(0, d_model, 2):
            PE[pos, i] = np.sin(pos / 10000 ** (2 * i / d_model))
            PE[pos, i + 1] = np.cos(pos / 10000 ** (2 * i / d_model))
    return PE
