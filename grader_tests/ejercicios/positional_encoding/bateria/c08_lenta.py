# espera: completo
# Correcta, pero su primera llamada tarda 32 s: más que los 30 s por celda que nbgrader da sin
# configurar y menos que los 60 s del curso. Validate (con el nbgrader_config.py de la tarea)
# y la calificación la aceptan igual.
import time

import numpy as np

primera_llamada = [True]


def positional_encoding(T, d_model):
    if primera_llamada[0]:
        primera_llamada[0] = False
        time.sleep(32)
    pos = np.arange(T)[:, None]
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE
