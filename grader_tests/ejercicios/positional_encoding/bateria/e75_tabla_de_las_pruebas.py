# espera: cero
# celdas: contrato=0, valores=0, robustez=0, generalidad=0
# diagnostico: AttributeError
# Trampa (issue 19, noveno ataque, pe_tabla_de_las_pruebas y pe_longitud_maxima): montaba la tabla entera con
# `tabla_de_razon`, del módulo de pruebas visibles que viaja con la tarea, y la razón exacta del explorable
# (`longitud_maxima`, pública y con todas sus cifras): 6 de 6 sin escribir ninguna fórmula. Ese módulo ya no
# trae ninguna función que monte una tabla, así que la llamada lanza y la celda no puntúa.
import numpy as np

import pruebas_positional_encoding
from explorable_escalera import longitud_maxima


def positional_encoding(T, d_model):
    m = d_model // 2
    razon = (2 * np.pi / longitud_maxima(d_model)) ** (1 / (m - 1)) if m > 1 else 0.5
    return pruebas_positional_encoding.tabla_de_razon(T, d_model, razon)
