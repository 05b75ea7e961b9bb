# espera: parcial
# error: posicion_entre_T
# celdas: contrato=1, valores=0, robustez=1, generalidad=1
# Error (de las pruebas de alumnado): normaliza la posición (pos / T), lo que la sección 2 desaconseja.
# Sus frecuencias son r^i/T con la razón de la fórmula: la escalera con la pareja 0 a otra frecuencia (1/T)
# hace trabajo (issue 19, octavo ataque).
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = (np.arange(T) / T)[:, None] * omega
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
