# espera: completo
# Correcta (de las pruebas de alumnado): np.exp(1j*ang) visto como float64 ([cos, sin]) y reordenado a [sin, cos]; devuelve un array no contiguo
import numpy as np


def positional_encoding(T, d_model):
    omega = 1.0 / 10000.0 ** (np.arange(d_model // 2) * 2.0 / d_model)
    z = np.exp(1j * np.outer(np.arange(T), omega))          # cos + i sin
    pares = z.view(np.float64).reshape(T, d_model // 2, 2)    # [..., 0] = cos, [..., 1] = sin
    return pares[..., ::-1].reshape(T, d_model)
