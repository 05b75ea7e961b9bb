# espera: cero
# error: otra_precision
# celdas: contrato=0, valores=0, robustez=0, generalidad=0
# diagnostico: que guarda unas tres cifras
# puntos: 0
# Error: la tabla se crea en float16 («para ahorrar memoria»): los valores son los de la fórmula redondeados a
# unas tres cifras y se comparan con la precisión de float64, como los de todos; sin nada bien calculado a esa
# precisión, tampoco hay trabajo hecho que puntuar. Cada celda lo nombra (issue 22).
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    omega = 1.0 / 10000 ** (np.arange(0, d_model, 2) / d_model)
    PE = np.zeros((T, d_model), dtype=np.float16)
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE
