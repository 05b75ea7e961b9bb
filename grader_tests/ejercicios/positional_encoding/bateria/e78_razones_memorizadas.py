# espera: parcial
# puntos: 1
# celdas: contrato=1, valores=0, robustez=0, generalidad=0
# diagnostico: que no se publican
# Trampa (issue 19, noveno ataque, pe_razones_memorizadas y pe_memo_reenvio): 31 razones escritas una vez, una
# por cada d_model par de 4 a 64 (d_model = 2 aparte), y ceros con cualquier otro tamaño. Todos los tamaños
# de la nota cabían entre 2 y 64: 6 de 6 desde la primera entrega, sin calcular nada al ejecutarse. La nota
# mira además las primeras columnas de dos tamaños mayores que no se publican (y Validate, las de uno grande
# al azar): ahí no hay trabajo, así que sólo puntúa el contrato.
import numpy as np

RAZONES = {
    4: 0.01, 6: 0.046415888336127795, 8: 0.1, 10: 0.15848931924611134, 12: 0.2154434690031884,
    14: 0.2682695795279726, 16: 0.31622776601683794, 18: 0.35938136638046275, 20: 0.3981071705534972,
    22: 0.43287612810830584, 24: 0.4641588833612779, 26: 0.4923882631706739, 28: 0.5179474679231212,
    30: 0.5411695265464637, 32: 0.5623413251903491, 34: 0.5817091329374359, 36: 0.599484250318941,
    38: 0.6158482110660264, 40: 0.6309573444801932, 42: 0.6449466771037624, 44: 0.657933224657568,
    46: 0.6700187503509588, 48: 0.6812920690579612, 50: 0.6918309709189365, 52: 0.7017038286703828,
    54: 0.7109709432312434, 56: 0.719685673001152, 58: 0.7278953843983151, 60: 0.7356422544596414,
    62: 0.7429639507594948, 64: 0.7498942093324559,
}


def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
    if d_model == 2:
        angulos = np.arange(T)[:, None] * np.ones(1)
    elif d_model in RAZONES:
        angulos = np.arange(T)[:, None] * RAZONES[d_model] ** np.arange(d_model // 2)
    else:
        return PE
    PE[:, 0::2], PE[:, 1::2] = np.sin(angulos), np.cos(angulos)
    return PE
