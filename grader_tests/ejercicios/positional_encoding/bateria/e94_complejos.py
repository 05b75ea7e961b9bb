# espera: parcial
# error: complejos
# celdas: contrato=0
# diagnostico: con números complejos
# Error (del probador del juez): calcula cada pareja como un número complejo e^{iθ} y guarda sus partes en una
# tabla creada con dtype=complex: la parte imaginaria de la tabla es 0 y los valores están bien.
import numpy as np


def positional_encoding(T, d_model):
    theta = np.outer(np.arange(T), 1.0 / 10000.0 ** (np.arange(d_model // 2) * 2 / d_model))
    z = np.exp(1j * theta)
    PE = np.zeros((T, d_model), dtype=np.complex128)
    PE[:, 0::2] = z.imag
    PE[:, 1::2] = z.real
    return PE
