# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: que no se publican
# Trampa (issue 19, décimo ataque, pe_texto): la base y el exponente leídos con una expresión regular del
# texto que acompaña a la pareja elegida («λ = 2π·10000^(2/314) ≈ …»), para cualquier tamaño. Daba 6 de 6.
# Ahora el texto sólo se escribe para lo que enseñan los controles del explorable (d_model ≤ 128): con el
# mayor de los tamaños que no se publican se niega, y sin trabajo en él las celdas de valores, robustez y
# generalidad no puntúan.
import re

import numpy as np

import explorable_escalera as ee


def positional_encoding(T, d_model):
    T, d_model = int(T), int(d_model)
    mitad = d_model // 2
    if mitad > 1:
        texto = ee.texto_longitud(1, d_model, "intercalada")
        base, arriba, abajo = re.search(r"(\d+)\^\((\d+)/(\d+)\)", texto).groups()
        r = float(base) ** (-int(arriba) / int(abajo))
    else:
        r = 1.0
    ang = np.arange(T)[:, None] * (r ** np.arange(mitad))[None, :]
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
