# espera: parcial
# error: eje_de_lote
# celdas: contrato=0
# puntos: 5
# diagnostico: un eje de tamaño 1 que el contrato no tiene
# Error (del probador del juez): devuelve la tabla con un eje de lote delante, (1, T, d_model), lista para
# sumarla a un lote de embeddings. Los valores están bien: sólo lo descuenta el contrato.
import numpy as np


def positional_encoding(T, d_model):
    posiciones = np.arange(T, dtype=np.float64).reshape(-1, 1)
    frecuencias = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    tabla = np.zeros((T, d_model))
    tabla[:, ::2] = np.sin(posiciones * frecuencias)
    tabla[:, 1::2] = np.cos(posiciones * frecuencias)
    return np.expand_dims(tabla, 0)
