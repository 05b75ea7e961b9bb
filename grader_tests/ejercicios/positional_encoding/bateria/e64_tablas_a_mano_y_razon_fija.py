# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: Sólo puntúa el trabajo hecho
# Trampa (issue 19, séptimo ataque): los exponentes escritos a mano para los tamaños que se nombran
# (d_model = 2, 6, 8, 10, 12, 16 y 64) y, para cualquier otro, la escalera de la lección con una razón fija,
# 0,8, que no sale de d_model. Con un solo tamaño, una razón fija parece una escalera de otra base; junto a
# los tamaños de la muestra de la ley (todos los d_model pares de 16 a 64) no sigue la ley de d_model:
# |log r|·(d_model + c) crece con d_model en vez de quedarse quieto, así que la escalera no cuenta como
# trabajo en los tamaños que no se publican.
import numpy as np

ESCRITOS = {
    2: [0.0],
    6: [0.0, 1 / 3, 2 / 3],
    8: [0.0, 0.25, 0.5, 0.75],
    10: [0.0, 0.2, 0.4, 0.6, 0.8],
    12: [0.0, 1 / 6, 1 / 3, 0.5, 2 / 3, 5 / 6],
    16: [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875],
    64: [k / 32 for k in range(32)],
}


def positional_encoding(T, d_model):
    exponentes = ESCRITOS.get(d_model)
    pos = np.arange(T, dtype=np.float64)
    PE = np.zeros((T, d_model))
    for c in range(d_model):
        w = 10000.0 ** (-exponentes[c // 2]) if exponentes is not None else 0.8 ** (c // 2)
        PE[:, c] = np.sin(pos * w) if c % 2 == 0 else np.cos(pos * w)
    return PE
