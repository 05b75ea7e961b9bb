# espera: completo
# Límite documentado (issue 19, noveno ataque, pe_frecuencias_del_explorable): las frecuencias exactas que el
# explorable usa por dentro (`_frecuencias_exactas`, privada) con senos y cosenos intercalados a mano. Quien
# la usa escribe igualmente la tabla entera (ángulos, seno, coseno y disposición), y su código, como la
# lección, enseña la fórmula de las frecuencias (docs/como_se_califica.md, «Lo que viaja con la tarea»).
import numpy as np

from explorable_escalera import _frecuencias_exactas


def positional_encoding(T, d_model):
    angulos = np.arange(T)[:, None] * _frecuencias_exactas(d_model)[None, :]
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(angulos)
    PE[:, 1::2] = np.cos(angulos)
    return PE
