# espera: completo
# Correcta (de las pruebas de alumnado): estilo tutorial de TensorFlow (ángulo por columna con 2*(j//2), seno a pares y coseno a impares)
import numpy as np


def get_angles(pos, j, d_model):
    angle_rates = 1 / np.power(10000, (2 * (j // 2)) / np.float64(d_model))
    return pos * angle_rates


def positional_encoding(T, d_model):
    angle_rads = get_angles(np.arange(T)[:, np.newaxis], np.arange(d_model)[np.newaxis, :], d_model)
    angle_rads[:, 0::2] = np.sin(angle_rads[:, 0::2])
    angle_rads[:, 1::2] = np.cos(angle_rads[:, 1::2])
    return angle_rads
