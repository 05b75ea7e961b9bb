# espera: parcial
# error: a_grados
# celdas: valores=0, robustez=0, generalidad=0
# Error (dos probadores de la nota, issue 22): pasa el ángulo a grados (np.degrees, ·180/π), la dirección contraria a
# la de e* grados (·π/180). Con 57,3 radianes por posición las primeras parejas se solapan y la escalera no se
# reconoce: sin trabajo hecho, sólo el contrato; ahora se nombra en la nota y en Validate (antes, sin diagnóstico).
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angulo = np.degrees(pos / 10000 ** (2 * i / d_model))
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(angulo)
    PE[:, 1::2] = np.cos(angulo)
    return PE
