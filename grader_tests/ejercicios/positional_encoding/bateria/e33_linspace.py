# espera: parcial
# error: linspace
# celdas: valores=0, generalidad=0.6667
# Error (de las pruebas de alumnado): exponentes np.linspace(0, 1, d_model//2), la última frecuencia es 1/10000 exacta; divide por cero con d_model = 2
import numpy as np


def positional_encoding(T, d_model):
    n = d_model // 2
    incremento = np.log(10000.0) / (n - 1)
    omega = np.exp(-incremento * np.arange(n))
    ang = np.arange(T)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
