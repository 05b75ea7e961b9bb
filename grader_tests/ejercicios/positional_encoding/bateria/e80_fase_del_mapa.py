# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: que no se publican
# Trampa (issue 19, décimo ataque, pe_fase_mapa): la matriz pública del mapa (float16) con el mayor T que
# ofrece el explorable y una recta por pareja ajustada a su fase, sin suponer ninguna escalera. Con
# T = 20 000 daba cada frecuencia con 4e-7 y 6 de 6; ahora el explorable sólo acepta los tamaños de sus
# controles (T ≤ 200, d_model ≤ 128) y se niega con el mayor de los que no se publican: no hay trabajo en él.
import numpy as np

import explorable_escalera as ee


def positional_encoding(T, d_model):
    T, d_model = int(T), int(d_model)
    M = ee.matriz_para_mapa(ee.T_MAX, d_model, "intercalada")["matriz"].astype(float)
    pos = np.arange(ee.T_MAX)
    omega = np.array([np.polyfit(pos, np.unwrap(np.arctan2(M[:, 2 * i], M[:, 2 * i + 1])), 1)[0]
                      for i in range(d_model // 2)])
    ang = np.arange(T)[:, None] * omega[None, :]
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
