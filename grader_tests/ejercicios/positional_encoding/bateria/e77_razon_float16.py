# espera: parcial
# puntos: 1
# error: razon_redondeada
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: con pocas cifras
# Trampa (issue 19, noveno ataque, pe_razon_float16): una escalera exacta con la razón en float16 de
# `frecuencias(d_model)[1]`, del explorable (unas tres cifras). No acierta ninguna columna, pero con la
# tolerancia de 1,5 % su razón cumplía la ley y se llevaba la robustez y la generalidad (3 de 6). Con la
# ley a 1e-5 (los errores honrados la cumplen salvo redondeo) sólo puntúa el contrato. Tampoco la
# diagnostica como ángulos en float32: se aleja de la referencia más de lo que redondea float32.
import numpy as np

from explorable_escalera import frecuencias


def positional_encoding(T, d_model):
    f = frecuencias(d_model).astype(float)
    razon = f[1] if len(f) > 1 else 0.5
    angulos = np.arange(T)[:, None] * razon ** np.arange(d_model // 2)
    PE = np.zeros((T, d_model))
    PE[:, 0::2], PE[:, 1::2] = np.sin(angulos), np.cos(angulos)
    return PE
