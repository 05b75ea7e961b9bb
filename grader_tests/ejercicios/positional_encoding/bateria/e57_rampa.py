# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, cuarto ataque): una rampa pos/1000 en la primera columna y ceros en las demás, sin
# ningún seno. Con pocas posiciones sin(pos/1000) ≈ pos/1000 cabe en la tolerancia, y 1/1000 es la
# frecuencia de una pareja de la referencia con d_model = 8, 16 o 64 (no con 6).
import numpy as np


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    PE[:, 0] = np.arange(T) / 1000
    return PE
