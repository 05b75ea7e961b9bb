# espera: parcial
# error: exponente_distinto_en_columnas_altas
# celdas: valores=0.6
# Error (de las pruebas de alumnado): a partir de la pareja 4 usa la base 10000 con el exponente i/d_model
import numpy as np


def positional_encoding(T, d_model):
    i = np.arange(d_model // 2)
    exps = np.where(i < 4, 2 * i / d_model, i / d_model)
    ang = np.arange(T)[:, None] / 10000.0 ** exps
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
