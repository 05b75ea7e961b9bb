# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: que no se publican
# Trampa (issue 19, décimo ataque, pe_fase): sin la fórmula, la frecuencia de la pareja 1 medida en las
# curvas públicas del explorable (float16): la fase atan2(seno, coseno), desenrollada, es una recta de
# pendiente ω₁, y ω_i = ω₁^i. Con 200 000 posiciones daba ω₁ con 1e-11 y 6 de 6. Ahora las funciones
# públicas del explorable sólo aceptan los tamaños de sus controles (T ≤ 200, d_model ≤ 128, 8 puntos por
# posición como mucho): con lo que dan, la frecuencia no alcanza la tolerancia en la posición 999 (robustez),
# y con el mayor de los tamaños que no se publican el explorable se niega, así que no hay trabajo en él y las
# celdas de valores, robustez y generalidad no puntúan.
import numpy as np

import explorable_escalera as ee


def positional_encoding(T, d_model):
    T, d_model = int(T), int(d_model)
    mitad = d_model // 2
    if mitad > 1:
        c = ee.curvas_de_pareja(ee.T_MAX, d_model, 1, ee.MUESTRAS_POR_POSICION)
        fase = np.unwrap(np.arctan2(c["seno"].astype(float), c["coseno"].astype(float)))
        r = np.polyfit(c["x"], fase, 1)[0]
    else:
        r = 1.0
    omega = r ** np.arange(mitad)
    ang = np.arange(T)[:, None] * omega[None, :]
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
