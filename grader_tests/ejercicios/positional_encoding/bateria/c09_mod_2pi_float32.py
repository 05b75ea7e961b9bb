# espera: completo
# Correcta (de las pruebas de alumnado): reduce el ángulo módulo 2π en float32 'para ganar precisión'
import numpy as np


def positional_encoding(T, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = np.mod(np.arange(T)[:, None] * omega, 2 * np.pi).astype(np.float32)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
