# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, noveno ataque, pe_longitud_maxima sin `tabla_de_razon`): la escalera montada a mano con la
# razón que sale de `longitud_maxima` del explorable, r = (2π/λ_max)^(1/(d_model/2 − 1)). Con el número
# exacto era la tabla entera; ahora `longitud_maxima` sale con unas tres cifras (float16), como los demás
# números públicos del explorable: la tabla no acierta ninguna columna y su razón no sigue la ley con la
# precisión pedida (1e-5), así que sólo puntúa el contrato.
import numpy as np

from explorable_escalera import longitud_maxima


def positional_encoding(T, d_model):
    m = d_model // 2
    razon = (2 * np.pi / longitud_maxima(d_model)) ** (1 / (m - 1)) if m > 1 else 0.5
    angulos = np.arange(T)[:, None] * razon ** np.arange(m)
    PE = np.zeros((T, d_model))
    PE[:, 0::2], PE[:, 1::2] = np.sin(angulos), np.cos(angulos)
    return PE
