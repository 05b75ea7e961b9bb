# espera: completo
# Correcta (de las pruebas de alumnado): imprime, avisa por stderr y warnings, usa auxiliares llamadas corregir y casos; admite d_model impar recortando
import sys
import warnings
import numpy as np


def corregir(d_model):
    return 10000.0 ** (-np.arange(0, d_model, 2) / d_model)


def casos(T, omega):
    return np.arange(T)[:, None] * omega


def positional_encoding(T, d_model):
    print(f"positional_encoding({T}, {d_model})")
    if d_model % 2:
        warnings.warn("d_model impar: añado una columna y la quito al final")
        print("d_model impar", file=sys.stderr)
        return positional_encoding(T, d_model + 1)[:, :d_model]
    ang = casos(T, corregir(d_model))
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
