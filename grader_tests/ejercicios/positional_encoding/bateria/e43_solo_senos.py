# espera: parcial
# error: senos_por_columna
# celdas: valores=0
# Error (de las pruebas de alumnado): sólo senos, cada columna con su propia frecuencia (la variante de la pregunta 4)
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(d_model) / d_model)
    return np.sin(np.arange(T)[:, None] * omega)
