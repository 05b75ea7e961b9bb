"""Pruebas visibles de `positional_encoding` (lección 2): lo que ejecuta cada celda de comprobación.

Cada celda de comprobación termina con una línea que llama a una función de
este módulo con el espacio de nombres del cuaderno, por ejemplo::

    __import__("pruebas_positional_encoding").valores(globals())

``contrato``, ``valores``, ``robustez`` y ``generalidad`` comprueban
`positional_encoding` con el caso visible (T = 5, d_model = 8, la tabla
completa) y, según la celda, con otros tamaños. Si algo falla, lanzan
``PruebaVisibleFallida``: en sus primeras líneas, qué no coincide y la causa
más probable; después, los valores esperados y los tuyos. Los valores
esperados son los que da la celda que construye PE en la sección 4 con esos
tamaños.

Si tu función ya falla con el caso visible, la robustez y la generalidad no
vuelven a cobrarlo (sólo miran que no haya excepciones, ``nan`` ni ``inf`` y
que la forma sea la del contrato), salvo que no calcule bien nada: sin
trabajo hecho (ni la cuarta parte de las coordenadas fuera de la pareja 0,
ni la codificación entera de una posición, ni la escalera de frecuencias con
otra razón), esas celdas no puntúan. El trabajo tiene que verse también con
un tamaño elegido al azar en cada ejecución (``caso_al_azar``), y sin él
tampoco puntúan los valores: al calificar se usa un tamaño que no se
publica. Lo mismo con un d_model grande elegido al azar (``tamano_grande_al_azar``,
con T = 4), del que sólo se miran las primeras columnas: al calificar se usan
otros, que no se publican. Una escalera con otra razón sólo cuenta si su razón sigue una
misma ley de d_model con una muestra fija de tamaños (``MUESTRA_DE_LA_LEY``),
la misma que llama la nota. Es la misma regla que aplica la nota (README del
curso, «Cómo se califica»).

Al calificar se usan otros tamaños (la tabla del ejercicio dice cuáles) y la
copia del curso de este archivo: editar la tuya no cambia la nota.
"""
from __future__ import annotations

import os

import numpy as np

from pruebas_visibles import (aprobado, causa, causa_de_poca_precision, como_array, fallo, funcion_del_cuaderno, llamar,
                              matriz, salida_del_alumno, sin_complejos)

CARPETA = os.path.dirname(os.path.abspath(__file__))     # la de la tarea: su diagnosticos.json
TOLERANCIA = {"rtol": 1e-6, "atol": 1e-6}      # la del ejercicio: np.allclose(..., rtol=1e-6, atol=1e-6)

# La tabla con T = 5 y d_model = 8 (frecuencias 1, 1/10, 1/100 y 1/1000): el caso visible.
TABLA = np.array([
    [0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000],
    [0.8414709848, 0.5403023059, 0.0998334166, 0.9950041653, 0.0099998333, 0.9999500004, 0.0009999998, 0.9999995000],
    [0.9092974268, -0.4161468365, 0.1986693308, 0.9800665778, 0.0199986667, 0.9998000067, 0.0019999987, 0.9999980000],
    [0.1411200081, -0.9899924966, 0.2955202067, 0.9553364891, 0.0299955002, 0.9995500337, 0.0029999955, 0.9999955000],
    [-0.7568024953, -0.6536436209, 0.3894183423, 0.9210609940, 0.0399893342, 0.9992001067, 0.0039999893, 0.9999920000]])

# La fila pos = 9 de la tabla con T = 10 y d_model = 16.
FILA_9_DE_16 = np.array([0.4121184852, -0.9111302619, 0.2912591207, -0.9566441996,
                         0.7833269096, 0.6216099683, 0.2807783529, 0.9597726380,
                         0.0898785492, 0.9959527330, 0.0284566569, 0.9995950273,
                         0.0089998785, 0.9999595003, 0.0028460461, 0.9999959500])

# La fila pos = 999 de la tabla con T = 1000 y d_model = 12.
FILA_999_DE_12 = np.array([-0.0264607527, 0.9996498530, 0.9995815925, -0.0289247285,
                           0.6848642294, -0.7286706988, -0.5356033346, -0.8444696963,
                           0.8356485009, -0.5492645838, 0.4472557364, 0.8944061193])

VARIACION_MINIMA = 1e-3    # una columna que varía menos que esto no enseña ningún cálculo (la de la nota)


def _tabla(funcion, T: int, d_model: int) -> np.ndarray:
    """``positional_encoding(T, d_model)`` como array float64 (o un fallo que dice qué ha llegado).

    Una tabla con ejes de tamaño 1 de más delante, (1, T, d_model) (un eje de
    lote), se lee sin ellos: como en la nota, esa forma la descuenta sólo la
    celda del contrato.
    """
    return _sin_eje_de_lote(como_array(llamar(funcion, T, d_model), f"Con T = {T} y d_model = {d_model}, la tabla"))


def _sin_eje_de_lote(pe: np.ndarray) -> np.ndarray:
    """``pe`` sin los ejes de tamaño 1 de más que lleve delante de los dos del contrato."""
    if pe.ndim > 2 and all(n == 1 for n in pe.shape[:pe.ndim - 2]):
        return pe.reshape(pe.shape[pe.ndim - 2:])
    return pe


AVISO_EJE_DE_LOTE = ("Tu tabla llega con un eje de tamaño 1 de más delante (un eje de lote): aquí se lee sin él. "
                     "La forma la descuenta la celda del contrato.")


def _en_su_forma(pe: np.ndarray, T: int, d_model: int) -> np.ndarray:
    """La tabla como (T, d_model): si llegó traspuesta, (d_model, T) con T ≠ d_model, se lee traspuesta.

    Como en la nota: la forma la descuenta sólo la celda del contrato, y los
    valores se juzgan en el orden del contrato (un error se descuenta una vez).
    """
    return pe.T if T != d_model and pe.shape == (d_model, T) else pe


def _causa_de_las_filas(pe) -> str:
    """Por qué la tabla del caso visible (T = 5, d_model = 8) no tiene 5 filas, si se ve; si no, ''.

    Una fila de más (posiciones 0 … T), una de menos (0 … T-2 o 1 … T-1) o
    una tabla bien calculada con otro número de filas (T ignorado). Como el
    diagnóstico de la nota.
    """
    pe = np.asarray(pe)
    if pe.ndim != 2 or pe.shape[1] != 8 or pe.shape[0] in (0, 5) or pe.shape[0] > 10_000:
        return ""
    n = pe.shape[0]
    with np.errstate(all="ignore"):
        # las filas esperadas de las posiciones 0 … max(n, 5), calculadas aquí mismo
        angulos = np.arange(max(n, 5) + 1)[:, None] / 10000.0 ** (np.arange(4) / 4)
        larga = np.empty((len(angulos), 8))
        larga[:, 0::2], larga[:, 1::2] = np.sin(angulos), np.cos(angulos)
        if n == 6 and np.allclose(pe, larga[:6], **TOLERANCIA):
            return ("Causa probable: devuelves una fila de más (6 en lugar de T = 5): las posiciones van de 0 a T. "
                    "Deben ser las T posiciones 0, 1, …, T-1: np.arange(T) (o range(T)), no np.arange(T + 1) ni "
                    "range(T + 1).")
        for inicio in (0, 1):
            if n == 4 and np.allclose(pe, larga[inicio:inicio + 4], **TOLERANCIA):
                return (f"Causa probable: devuelves una fila de menos (4 en lugar de T = 5): las posiciones van de "
                        f"{inicio} a {inicio + 3}. Deben ser las T posiciones 0, 1, …, T-1: np.arange(T), no "
                        "np.arange(1, T) ni range(T - 1).")
        if np.allclose(pe, larga[:n], **TOLERANCIA):
            return (f"Causa probable: no usas el argumento T: devuelves {n} filas y se pidieron T = 5. La tabla "
                    "debe tener exactamente T filas, una por posición 0, 1, …, T-1.")
    return ""


AVISO_TRASPUESTA = ("Tu tabla llega traspuesta, (d_model, T): aquí se lee con una fila por posición. La forma "
                    "la descuenta la celda del contrato.")


def _lineas_iguales(lineas: np.ndarray, referencias: np.ndarray) -> tuple[int, int]:
    """``(iguales, total)``: cuántas filas de ``referencias`` que varían están, donde sea, entre las de ``lineas``."""
    referencias = referencias[np.ptp(referencias, axis=1) > VARIACION_MINIMA]
    if lineas.ndim != 2 or lineas.shape[1] != referencias.shape[1] or not len(referencias):
        return 0, len(referencias)
    cerca = np.abs(lineas[:, None, :] - referencias[None]) <= TOLERANCIA["atol"] + TOLERANCIA["rtol"] * np.abs(
        referencias[None])
    return int(np.sum(np.any(np.all(cerca, axis=-1), axis=0))), len(referencias)


def _alguna_linea(lineas: np.ndarray, referencias: np.ndarray) -> bool:
    """Alguna fila de ``lineas`` es igual a alguna fila de ``referencias`` que varía."""
    return _lineas_iguales(lineas, referencias)[0] > 0


def _cuarta_parte_de_las_columnas(columnas: np.ndarray, referencias: np.ndarray) -> bool:
    """Al menos la cuarta parte de las filas de ``referencias`` que varían están, donde sea, entre las de ``columnas``.

    Con una sola columna bien no basta: una tabla fija de exponentes 1/p (p
    primo) tiene una columna de la tabla esperada con cualquier d_model par,
    sin calcular nada a partir de d_model.
    """
    iguales, total = _lineas_iguales(columnas, referencias)
    return total > 0 and iguales >= max(1, -(-total // 4))


def _escalera(t: np.ndarray, recorrido: bool = True) -> tuple[float, float] | None:
    """``(omega_0, r)`` si la tabla es la escalera de la lección con otra razón r ≠ 1 (otra base, multiplicar, linspace…).

    Cada pareja i con su frecuencia omega_0·r^i: la pareja 0 con frecuencia
    omega_0 (1 en la fórmula; π/180 si el ángulo se toma en grados, 1/T si
    la posición se divide entre T), una sola constante en toda la tabla. La
    fila pos = 1 da omega_0 y el ángulo de la pareja 1 salvo vueltas
    enteras: se prueban todas hasta 200. Las frecuencias tienen que bajar (o
    subir) al menos un factor 1,4 y como mucho 10^6 de la primera pareja a la
    última, y el seno de las parejas 0 y 1 tiene que cambiar con la
    posición: con r = 0,999 cada pareja repite casi la pareja 0, y con
    r = 1e-9 todas menos la primera son constantes; ninguna de las dos es
    calcular una escalera. None si no lo es (o si T < 3 o d_model < 4). Con
    ``recorrido=False`` no se mira el factor (las primeras columnas de una
    tabla más ancha, ``_trabajo_en_las_primeras_columnas``).
    """
    T, d_model = t.shape
    if (T < 3 or d_model < 4 or d_model % 2 or np.ptp(t[:, 0]) <= VARIACION_MINIMA
            or np.ptp(t[:, 2] - t[:, 0]) <= VARIACION_MINIMA or np.ptp(t[:, 2]) <= VARIACION_MINIMA):
        return None
    omega_0 = float(np.arctan2(t[1, 0], t[1, 1])) % (2 * np.pi)
    if omega_0 <= 0:
        return None
    angulo = float(np.arctan2(t[1, 2], t[1, 3])) % (2 * np.pi)
    for vueltas in range(200):
        razon = (angulo + 2 * np.pi * vueltas) / omega_0
        if razon <= 0:
            continue
        alcance = abs(np.log(razon)) * (d_model // 2 - 1)
        if recorrido and not np.log(1.4) * (1 - 1e-3) <= alcance <= np.log(1e6) * (1 + 1e-3):
            continue
        # la escalera con esa razón, comparada aquí mismo: este módulo no trae ninguna función que monte una
        # tabla (sería media solución importada; README del curso, «Cómo se califica»)
        angulos = np.arange(T)[:, None] * (omega_0 * razon ** np.arange(d_model // 2))
        if (np.allclose(np.sin(angulos), t[:, 0::2], **TOLERANCIA)
                and np.allclose(np.cos(angulos), t[:, 1::2], **TOLERANCIA)):
            return omega_0, razon
    return None


def _razon_de(tabla, T: int, d_model: int) -> float | None:
    """La razón de la escalera que es ``tabla`` (tal cual o traspuesta) con esos tamaños, o None."""
    if tabla is None or tabla.ndim != 2 or not np.all(np.isfinite(tabla)):
        return None
    for t in (tabla, tabla.T):
        if t.shape == (T, d_model):
            leida = _escalera(t)
            if leida is not None:
                return leida[1]
    return None


def sigue_la_ley(puntos) -> bool:
    """Las razones ``puntos`` = [(d_model, r), …] siguen una ley |log r|·(d_model + c) = K.

    Todas a un mismo lado de 1 (todas dividen o todas multiplican) y algún c
    de ``C_DE_LA_LEY`` con el que K cambia menos de ``TOLERANCIA_DE_LA_LEY``
    de un punto a otro. Un punto solo siempre la sigue.
    """
    d = np.array([float(p[0]) for p in puntos])
    r = np.array([float(p[1]) for p in puntos])
    if not len(r) or np.any(r <= 0) or not (np.all(r < 1) or np.all(r > 1)):
        return False
    a = np.abs(np.log(r))
    K = a[None, :] * (d[None, :] + C_DE_LA_LEY[:, None])
    return bool(np.any((K.min(axis=1) > 0) & (K.max(axis=1) <= (1 + TOLERANCIA_DE_LA_LEY) * K.min(axis=1))))


def _trabajo_en(tabla: np.ndarray, esperada: np.ndarray) -> bool:
    """Si ``tabla`` tiene algo de ``esperada`` bien calculado: la cuarta parte de las columnas o una fila.

    (La escalera, la tercera pieza de ``sin_trabajo``, se juzga con todos los tamaños a la vez.)
    """
    if tabla.ndim != 2 or not np.all(np.isfinite(tabla)):
        return False
    for t in (tabla, tabla.T):
        # como mucho d_model columnas: un banco fijo de frecuencias más ancho que la tabla no cuenta
        if (t.shape[0] == esperada.shape[0] and t.shape[1] <= esperada.shape[1]
                and _cuarta_parte_de_las_columnas(t.T, esperada.T[2:])):
            return True
        if t.shape[1] == esperada.shape[1] and _alguna_linea(t, esperada[1:]):
            return True
    return False


# Errores conocidos que se reconocen en el caso visible: su tabla con T = 5 y d_model = 8, escrita tal cual (como
# TABLA): este módulo no trae ninguna función que monte una tabla a partir de unas frecuencias o de una razón.
# La explicación es la de la nota (diagnosticos.json, que make release escribe desde el catálogo de errores
# del ejercicio).
_PAREJA_CAMBIADA = [j ^ 1 for j in range(8)]           # columnas 1, 0, 3, 2…: seno y coseno cambiados
ERRORES_CONOCIDOS = (
    ("concatenado", np.hstack([TABLA[:, 0::2], TABLA[:, 1::2]])),
    ("sin_cos_intercambiados", TABLA[:, _PAREJA_CAMBIADA]),
    # exponente i/d_model: falta el 2 (la tabla de base 100)
    ("otra_base:base_100", np.array([
        [0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000],
        [0.8414709848, 0.5403023059, 0.3109835929, 0.9504152803, 0.0998334166, 0.9950041653, 0.0316175064, 0.9995000417],
        [0.9092974268, -0.4161468365, 0.5911271172, 0.8065784099, 0.1986693308, 0.9800665778, 0.0632033979, 0.9980006666],
        [0.1411200081, -0.9899924966, 0.8126488966, 0.5827536107, 0.2955202067, 0.9553364891, 0.0947260913, 0.9955033740],
        [-0.7568024953, -0.6536436209, 0.9535807405, 0.3011374626, 0.3894183423, 0.9210609940, 0.1261540665, 0.9920106610],
    ])),
    ("posiciones_desde_1", np.array([
        [0.8414709848, 0.5403023059, 0.0998334166, 0.9950041653, 0.0099998333, 0.9999500004, 0.0009999998, 0.9999995000],
        [0.9092974268, -0.4161468365, 0.1986693308, 0.9800665778, 0.0199986667, 0.9998000067, 0.0019999987, 0.9999980000],
        [0.1411200081, -0.9899924966, 0.2955202067, 0.9553364891, 0.0299955002, 0.9995500337, 0.0029999955, 0.9999955000],
        [-0.7568024953, -0.6536436209, 0.3894183423, 0.9210609940, 0.0399893342, 0.9992001067, 0.0039999893, 0.9999920000],
        [-0.9589242747, 0.2836621855, 0.4794255386, 0.8775825619, 0.0499791693, 0.9987502604, 0.0049999792, 0.9999875000],
    ])),
    # i = 1…d_model/2
    ("pareja_desde_1", np.array([
        [0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000],
        [0.0998334166, 0.9950041653, 0.0099998333, 0.9999500004, 0.0009999998, 0.9999995000, 0.0001000000, 0.9999999950],
        [0.1986693308, 0.9800665778, 0.0199986667, 0.9998000067, 0.0019999987, 0.9999980000, 0.0002000000, 0.9999999800],
        [0.2955202067, 0.9553364891, 0.0299955002, 0.9995500337, 0.0029999955, 0.9999955000, 0.0003000000, 0.9999999550],
        [0.3894183423, 0.9210609940, 0.0399893342, 0.9992001067, 0.0039999893, 0.9999920000, 0.0004000000, 0.9999999200],
    ])),
    # el signo del exponente: pos · 10000^(2i/d_model)
    ("multiplica", np.array([
        [0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000],
        [0.8414709848, 0.5403023059, -0.5440211109, -0.8390715291, -0.5063656411, 0.8623188723, 0.8268795405, 0.5623790763],
        [0.9092974268, -0.4161468365, 0.9129452507, 0.4080820618, -0.8732972972, 0.4871876750, 0.9300395044, -0.3674595491],
        [0.1411200081, -0.9899924966, -0.9880316241, 0.1542514499, -0.9997558399, -0.0220966193, 0.2191899743, -0.9756821999],
        [-0.7568024953, -0.6536436209, 0.7451131605, -0.6669380617, -0.8509193596, -0.5252963386, -0.6835037939, -0.7299469595],
    ])),
    # np.deg2rad, np.radians o ·π/180
    ("grados", np.array([
        [0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000],
        [0.0174524064, 0.9998476952, 0.0017453284, 0.9999984769, 0.0001745329, 0.9999999848, 0.0000174533, 0.9999999998],
        [0.0348994967, 0.9993908270, 0.0034906514, 0.9999939077, 0.0003490658, 0.9999999391, 0.0000349066, 0.9999999994],
        [0.0523359562, 0.9986295348, 0.0052359638, 0.9999862922, 0.0005235988, 0.9999998629, 0.0000523599, 0.9999999986],
        [0.0697564737, 0.9975640503, 0.0069812603, 0.9999756307, 0.0006981316, 0.9999997563, 0.0000698132, 0.9999999976],
    ])),
    # la otra dirección: np.degrees, np.rad2deg o ·180/π
    ("a_grados", np.array([
        [0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000, 0.0000000000, 1.0000000000],
        [0.6795226184, 0.7336545585, -0.5257591807, 0.8506334604, 0.5421198552, 0.8403011737, 0.0572644362, 0.9983590458],
        [0.9970697331, 0.0764980223, -0.8944567024, 0.4471545677, 0.9110879013, 0.4122121252, 0.1143409357, 0.9934415687],
        [0.7834868912, -0.6214083129, -0.9959504191, -0.0899041858, 0.9890566104, -0.1475365085, 0.1710421788, 0.9852637074],
        [0.1525477253, -0.9882961052, -0.7999208003, -0.6001055851, 0.7511229600, -0.6601623277, 0.2271820771, 0.9738523008],
    ])),
    # pos e i cambiados de sitio: i / 10000^(2·pos/d_model)
    ("pos_e_i_intercambiados", np.array([
        [0.0000000000, 1.0000000000, 0.8414709848, 0.5403023059, 0.9092974268, -0.4161468365, 0.1411200081, -0.9899924966],
        [0.0000000000, 1.0000000000, 0.0998334166, 0.9950041653, 0.1986693308, 0.9800665778, 0.2955202067, 0.9553364891],
        [0.0000000000, 1.0000000000, 0.0099998333, 0.9999500004, 0.0199986667, 0.9998000067, 0.0299955002, 0.9995500337],
        [0.0000000000, 1.0000000000, 0.0009999998, 0.9999995000, 0.0019999987, 0.9999980000, 0.0029999955, 0.9999955000],
        [0.0000000000, 1.0000000000, 0.0001000000, 0.9999999950, 0.0002000000, 0.9999999800, 0.0003000000, 0.9999999550],
    ])),
    # el exponente sin paréntesis: pos / 10000 ** 2 * i / d_model (cada ángulo, casi 0: [0, 1, 0, 1, …] en cada fila)
    ("precedencia_en_el_exponente", np.tile([0.0, 1.0], (5, 4))),
    # d_model fuera del exponente: pos / 10000 ** (2 * i) / d_model (sólo la pareja 0 gira, con 1/8)
    ("precedencia_de_d_model", np.hstack([np.column_stack([np.sin(np.arange(5) / 8), np.cos(np.arange(5) / 8)]),
                                          np.tile([0.0, 1.0], (5, 3))])),
)


# Otros tres tamaños, como casos de la nota: con d_model = 8 (el caso visible) las frecuencias son 1, 1/10,
# 1/100 y 1/1000, y una frecuencia fija como 1/10 coincidiría con una columna sin calcular nada; con
# d_model = 6 son 1, 10^(-4/3) y 10^(-8/3). Con d_model = 64 una escalera de razón fija (0,5, que no sale
# de d_model) recorre un factor 2^31, demasiado; y una razón fija no sigue la ley de d_model con la muestra
# (MUESTRA_DE_LA_LEY).
OTROS_CASOS = ((13, 6), (10, 16), (16, 64))

# Un tamaño elegido al azar en cada ejecución, como los dos que la nota no publica (que quedan a uno y otro
# lado): d_model = 2p con p primo. Las parejas tienen exponentes j/p, así que ninguna tabla escrita a mano
# para los tamaños que se nombran aquí, ni una tabla fija de fracciones sencillas, calcula nada con él; la
# fórmula sí, con cualquier tamaño.
PRIMOS_AL_AZAR = (13, 17, 19, 23, 29)

# Una escalera con otra razón cuenta si la razón sale de d_model: la ley de la razón. Se mira con una muestra
# fija de tamaños, los mismos que usa la nota (todos los d_model pares de 16 a 64, con T = 4; sólo se lee la
# razón, no se comparan valores), más el tamaño que se juzga. Con la fórmula y con los errores honrados,
# |log r|·(d_model + c) vale siempre lo mismo, K, para un c entre −2 y 2: c = 0 con otra base, al
# multiplicar o con el exponente i/d_model; c = ±1 con 2i/(d_model ± 1); c = −2 con np.linspace. Una razón
# fija no la sigue, ni una elegida por tramos de tamaño, ni unas tablas a mano para unos tamaños con otra
# razón para los demás: entre dos tamaños vecinos de la muestra, K cambia más de un 10 %. La ley se cumple
# con una precisión de 1e-5 (TOLERANCIA_DE_LA_LEY): con la fórmula o un error honrado, K sale igual salvo
# redondeo (1e-15 en float64, 4e-7 en float32); una razón sacada de números con tres cifras (los float16 del
# explorable) lo cambia entre 8e-5 y 6e-3.
T_DE_LA_LEY = 4
MUESTRA_DE_LA_LEY = tuple(range(16, 65, 2))
C_DE_LA_LEY = np.linspace(-2.0, 2.0, 401)
TOLERANCIA_DE_LA_LEY = 1e-5


def caso_al_azar(generador: np.random.Generator | None = None) -> tuple[int, int]:
    """``(T, d_model)`` al azar: T entre 7 y 15 y d_model = 2p con p de ``PRIMOS_AL_AZAR``."""
    generador = np.random.default_rng() if generador is None else generador
    return int(generador.integers(7, 16)), 2 * int(generador.choice(PRIMOS_AL_AZAR))


def sin_trabajo(tablas: dict, ley: dict | None = None) -> tuple[int, int] | None:
    """El primer tamaño ``(T, d_model)`` de ``tablas`` en el que la función no calcula nada bien, o None.

    ``tablas``: ``{(T, d_model): tabla o None}`` (None: la llamada lanzó o no
    devolvió un array). ``ley``: lo mismo con la muestra de la ley
    (``T_DE_LA_LEY`` y cada d_model de ``MUESTRA_DE_LA_LEY``). Trabajo es una
    frecuencia que sale de d_model: la cuarta parte de las coordenadas fuera
    de la pareja 0, enteras (columnas de la tabla esperada distintas de
    sin(pos) y cos(pos), estén donde estén), la codificación entera de una
    posición pos >= 1 (una fila, esté donde esté) o la escalera de la lección
    con otra razón (otra base, multiplicar en vez de dividir, la pareja 0 con
    otra frecuencia…, con frecuencias que bajen o suban entre un factor 1,4 y
    un factor 10^6), si todas las tablas de la muestra son escaleras y sus
    razones, con la de ese tamaño, siguen una misma ley (``sigue_la_ley``);
    también si la tabla viene traspuesta. La pareja 0 sola (en una columna o
    en todas) no cuenta: no hace falta calcular nada para escribirla; tampoco
    una frecuencia o una razón fijas. Es la regla de la nota con sus casos de
    control y la misma muestra.
    """
    puntos = [(d_model, _razon_de(tabla, T, d_model)) for (T, d_model), tabla in (ley or {}).items()]
    ley_leida = None if any(r is None for _, r in puntos) else puntos
    for (T, d_model), tabla in tablas.items():
        if tabla is not None:
            # la tabla esperada, calculada aquí mismo (ninguna función de este módulo la devuelve)
            angulos = np.arange(T)[:, None] / 10000.0 ** (2 * np.arange(d_model // 2) / d_model)
            esperada = np.empty((T, d_model))
            esperada[:, 0::2], esperada[:, 1::2] = np.sin(angulos), np.cos(angulos)
            if _trabajo_en(tabla, esperada):
                continue
        razon = _razon_de(tabla, T, d_model)
        if razon is not None and ley_leida is not None and sigue_la_ley(ley_leida + [(d_model, razon)]):
            continue
        return T, d_model
    return None


def _tabla_o_nada(funcion, T: int, d_model: int):
    """``positional_encoding(T, d_model)`` como array float64, o None si lanza o no es un array de números."""
    try:
        with salida_del_alumno():
            tabla = funcion(T, d_model)
    except Exception:  # noqa: BLE001 - una excepción aquí no es trabajo hecho
        return None
    try:
        tabla = np.asarray(sin_complejos(tabla), dtype=np.float64)
    except Exception:  # noqa: BLE001 - lo que no es un array de números no es trabajo hecho
        return None
    return _sin_eje_de_lote(tabla)


# Y un tamaño grande elegido al azar en cada ejecución, con T = 4: d_model = 2p con p primo entre 67 y 151, más
# ancho que cualquiera de los que enseña el explorable (128), que con él se niega: lo que el explorable da no
# calcula nada con ese tamaño, igual que en la nota (issue 19, décimo ataque). Una
# tabla de razones escritas para cada d_model par hasta 64 no calcula nada con él; la fórmula, con cualquiera.
# Sólo se leen sus primeras COLUMNAS_LEIDAS columnas (una lista de listas es un error honrado, y en la nota sólo
# llegan enteras sus filas de hasta 64 elementos). Al calificar se usan otros tamaños grandes, que no se publican
# y que ningún mensaje nombra.
PRIMOS_GRANDES_AL_AZAR = (67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151)
COLUMNAS_LEIDAS = 64


def tamano_grande_al_azar(generador: np.random.Generator | None = None) -> int:
    """Un d_model grande al azar: 2p con p de ``PRIMOS_GRANDES_AL_AZAR`` (se llama con T = ``T_DE_LA_LEY``)."""
    generador = np.random.default_rng() if generador is None else generador
    return 2 * int(generador.choice(PRIMOS_GRANDES_AL_AZAR))


def trabajo_en_las_primeras_columnas(tabla, T: int, d_model: int, ley: dict) -> bool:
    """Si las primeras ``COLUMNAS_LEIDAS`` columnas de ``tabla`` (T, d_model) tienen algo bien calculado.

    La cuarta parte de sus coordenadas fuera de la pareja 0 o una fila de
    la tabla esperada (estén donde estén), o la escalera de la lección con
    una razón que sigue la misma ley que en ``ley`` (las tablas de la
    muestra de la ley, ``tablas_de_la_ley``; aquí no se pide el factor entre
    la primera pareja y la última). La tabla puede tener una fila de más o de
    menos (la forma la descuenta el contrato). La regla de la nota con sus tamaños grandes.
    """
    if tabla is None or tabla.ndim != 2 or not np.all(np.isfinite(tabla)):
        return False
    n = min(d_model, COLUMNAS_LEIDAS)
    for t in (tabla, tabla.T):
        # T filas, o una más o una menos (range(T + 1), np.arange(1, T)): la forma la descuenta el contrato
        filas = t.shape[0]
        if t.shape[1] != d_model or abs(filas - T) > 1 or filas < 1:
            continue
        t = t[:, :n]
        # la tabla esperada con una posición más, calculada aquí mismo: las filas pueden empezar en 0 o en 1
        angulos = np.arange(filas + 1)[:, None] / 10000.0 ** (2 * np.arange(d_model // 2) / d_model)
        esperada = np.empty((filas + 1, d_model))
        esperada[:, 0::2], esperada[:, 1::2] = np.sin(angulos), np.cos(angulos)
        esperada = esperada[:, :n]
        if (any(_cuarta_parte_de_las_columnas(t.T, esperada[desde:desde + filas].T[2:]) for desde in (0, 1))
                or _alguna_linea(t, esperada[1:])):
            return True
        leida = _escalera(t, recorrido=False)
        puntos = [(d, _razon_de(tabla_ley, T_ley, d)) for (T_ley, d), tabla_ley in ley.items()]
        if leida is not None and puntos and all(r is not None for _, r in puntos):
            return sigue_la_ley(puntos + [(d_model, leida[1])])
    return False


def tablas_de_la_ley(funcion) -> dict:
    """``{(T_DE_LA_LEY, d_model): tabla o None}`` con cada d_model de ``MUESTRA_DE_LA_LEY`` (los de la nota)."""
    return {(T_DE_LA_LEY, d_model): _tabla_o_nada(funcion, T_DE_LA_LEY, d_model) for d_model in MUESTRA_DE_LA_LEY}


def _error_conocido_de(tabla_visible) -> str | None:
    """La explicación de la nota del error conocido (``ERRORES_CONOCIDOS``) que es la tabla visible, o None."""
    if np.shape(tabla_visible) != (5, 8):
        return None
    for error, tabla in ERRORES_CONOCIDOS:
        explicacion = causa("positional_encoding", error, CARPETA)
        if explicacion and np.allclose(tabla_visible, tabla, **TOLERANCIA):
            return explicacion.removeprefix("Causa probable: ")
    return None


def comprobar_trabajo(funcion, tabla_visible: np.ndarray, celda: str, al_azar: tuple[int, int] | None = None,
                      grande: int | None = None) -> None:
    """Falla (``SIN_TRABAJO``) si no calcula nada bien con el caso visible, ``OTROS_CASOS``, un tamaño al azar o uno grande.

    ``tabla_visible``: lo que devolvió con T = 5 y d_model = 8. ``al_azar``:
    el tamaño al azar (``caso_al_azar()`` si no se da). Si la llamada con él
    lanza, el fallo lo dice. El mensaje nombra el primer tamaño sin trabajo y,
    si allí la tabla es una escalera cuya razón no sigue la ley, lo dice.
    ``grande``: el d_model grande (``tamano_grande_al_azar()`` si no se da),
    del que sólo se miran las primeras columnas (``SIN_TRABAJO_GRANDE``).
    """
    al_azar = caso_al_azar() if al_azar is None else al_azar
    tablas = {(5, 8): tabla_visible}
    tablas.update({(T, d_model): _tabla_o_nada(funcion, T, d_model) for T, d_model in OTROS_CASOS})
    tablas[al_azar] = _tabla(funcion, *al_azar)
    ley = tablas_de_la_ley(funcion)
    falta = sin_trabajo(tablas, ley)
    if falta is None:
        grande = tamano_grande_al_azar() if grande is None else grande
        if not trabajo_en_las_primeras_columnas(_tabla_o_nada(funcion, T_DE_LA_LEY, grande), T_DE_LA_LEY, grande,
                                                ley):
            fallo(SIN_TRABAJO_GRANDE.format(celda=celda, T=T_DE_LA_LEY, d_model=grande))
        return
    ley = SIN_LEY if _razon_de(tablas[falta], *falta) is not None else ""
    # un solo error que borra todo lo calculado (una tabla de enteros, la división entera): se nombra primero
    nombrada = _causa_del_tipo(funcion) or (
        _causa_de_las_frecuencias(tabla_visible) if np.shape(tabla_visible) == (5, 8) else None)
    conocida = _error_conocido_de(tabla_visible)
    if conocida:
        # un error de la lista de la nota que borra todo lo calculado (los grados con np.degrees, pos e i
        # cambiados, el exponente sin paréntesis…): se nombra, no «no calcula bien nada» (el alumno 22b)
        nombrada = conocida
    if nombrada and (conocida or nombrada.startswith("Tu tabla es de enteros") or "división entera" in nombrada):
        nombrada = nombrada.removeprefix("Causa probable: ")
        # sin la regla entera debajo: la causa basta, y Validate enseña esta celda y la siguiente (issue 22)
        fallo(SIN_TRABAJO_NOMBRADO.format(celda=celda, causa=nombrada[0].lower() + nombrada[1:]))
    if falta == al_azar:
        fallo(SIN_TRABAJO_AL_AZAR.format(celda=celda, T=falta[0], d_model=falta[1], ley=ley))
    cual = " (el caso visible)" if falta == (5, 8) else ""
    fallo(SIN_TRABAJO.format(celda=celda, T=falta[0], d_model=falta[1], cual=cual, ley=ley))


SIN_LEY = ("Tu tabla es una escalera con otra razón, pero esa razón no sigue una misma ley de d_model con los "
           "tamaños de la muestra (todos los d_model pares de 16 a 64, con T = 4, los mismos que usa la nota): "
           "una razón fija, una elegida por tramos de tamaño o unas tablas para unos tamaños con otra razón para "
           "los demás no salen de la fórmula. ")

SIN_TRABAJO_NOMBRADO = (
    "Sin trabajo hecho, {celda} no puntúa (tampoco al calificar), por un solo error que borra lo que "
    "calculas: {causa}\nTal como sale, tu tabla no se distingue de una escrita sin calcular nada, así que "
    "estas celdas no pueden darte su punto; corrígelo y vuelven a puntuar (la regla completa está en la "
    "lección, en «Qué cuenta como trabajo hecho»).")

SIN_TRABAJO_AL_AZAR = (
    "Sin trabajo hecho, {celda} no puntúa: con T = {T} y d_model = {d_model}, un tamaño elegido al azar en "
    "cada ejecución (al calificar se usan otros que no se publican), tu función no calcula bien nada: ni la "
    "cuarta parte de las coordenadas de PE fuera de la pareja 0, ni la codificación entera de ninguna "
    "posición pos >= 1, ni la escalera de frecuencias de la lección con una razón que salga de d_model (la "
    "misma ley con todos los tamaños). {ley}Con los tamaños que nombran estas pruebas sí: unas tablas escritas "
    "para unos tamaños, o una razón fija, no son la fórmula, que funciona con cualquiera. La nota aplica esta "
    "misma regla con sus tamaños.")

SIN_TRABAJO_GRANDE = (
    "Sin trabajo hecho, {celda} no puntúa: con T = {T} y d_model = {d_model}, un tamaño grande elegido al azar en "
    "cada ejecución (al calificar se usan otros que no se publican), las primeras columnas de tu tabla no tienen "
    "nada bien calculado: ni la cuarta parte de las coordenadas de PE fuera de la pareja 0, ni la codificación "
    "de ninguna posición pos >= 1, ni la escalera de frecuencias de la lección con una razón que siga la misma ley "
    "de d_model que con los tamaños de la muestra. Con los tamaños hasta 64 sí: unas razones o unas tablas "
    "escritas para esos tamaños no son la fórmula, que funciona con cualquiera. La nota aplica esta misma regla "
    "con sus tamaños.")

SIN_TRABAJO = ("Sin trabajo hecho, {celda} no puntúa: con T = {T} y d_model = {d_model}{cual}, tu función no "
               "calcula bien nada: ni la cuarta parte de las coordenadas de PE fuera de la pareja 0 (sin(pos) y "
               "cos(pos) salen sin calcular ninguna frecuencia), ni la codificación entera de ninguna posición "
               "pos >= 1 (una fila), ni la escalera de frecuencias de la lección con otra razón que salga de "
               "d_model (con frecuencias que bajen o suban entre un factor 1,4 y un factor 10^6 de la primera "
               "pareja a la última, y la misma ley con todos los tamaños). {ley}Una frecuencia o una razón "
               "fijas, que no salen de d_model, no cuentan. La nota aplica esta misma regla con sus tamaños. "
               "Empieza por la celda de los valores.")


# ------------------------------------------------- la causa, leída de las frecuencias

def _frecuencias_de_cada_pareja(pe: np.ndarray) -> list[float] | None:
    """La frecuencia ω_i de cada pareja de la tabla visible (5, 8), si cada pareja es sin/cos(pos·ω_i); si no, None.

    ω_i se lee de la fila pos = 1 (entre 0 y π) y se comprueba con las cinco
    filas. Sólo dice qué frecuencias tiene la tabla del alumno: no monta
    ninguna tabla.
    """
    pos = np.arange(5.0)
    frecuencias = []
    for i in range(4):
        omega = float(np.arctan2(pe[1, 2 * i], pe[1, 2 * i + 1]))
        if not 0 < omega < np.pi or not (np.allclose(pe[:, 2 * i], np.sin(pos * omega), **TOLERANCIA)
                                         and np.allclose(pe[:, 2 * i + 1], np.cos(pos * omega), **TOLERANCIA)):
            return None
        frecuencias.append(omega)
    return frecuencias


def _causa_de_las_frecuencias(pe: np.ndarray) -> str | None:
    """La causa que delatan las frecuencias de la tabla visible, en una frase, o None si no se reconoce.

    Cada pareja con su seno y su coseno, pero otra frecuencia: con todas a 1,
    la división entera (``2 * i // d_model`` vale 0); con el exponente doble,
    ``2 * i`` cuando ``i`` ya recorre las columnas pares; con otra base, cuál;
    con exponentes que llegan a 1 en la última pareja, ``np.linspace``.
    """
    frecuencias = _frecuencias_de_cada_pareja(pe)
    if frecuencias is None or abs(frecuencias[0] - 1) > 1e-6:
        return None
    exponentes = [-np.log(w) / np.log(10000.0) for w in frecuencias]       # el de la fórmula: 2i/8
    if all(abs(e) < 1e-6 for e in exponentes):
        return ("Causa probable: todas las parejas tienen la frecuencia 1 (sus columnas repiten sin(pos) y "
                "cos(pos)): el exponente vale 0 en todas. ¿Usas la división entera, `2 * i // d_model`? Con "
                "2i < d_model da 0; el exponente usa la división real, `2 * i / d_model`.")
    if np.allclose(exponentes, [i / 3 for i in range(4)], atol=1e-6):
        return ("Causa probable: tus exponentes son 0, 1/3, 2/3 y 1 (la última pareja llega a 1): es el reparto "
                "de tensor2tensor que cuenta la lección, i/(d_model/2 − 1) o np.linspace(0, 1, d_model // 2). El "
                "ejercicio pide la fórmula del artículo, 2i/d_model = 0, 2/8, 4/8 y 6/8, que no llegan a 1: "
                "np.arange(0, d_model, 2) / d_model.")
    razon = exponentes[1] / (2 / 8)
    if not (razon > 0 and np.allclose(exponentes, [razon * 2 * i / 8 for i in range(4)], atol=1e-6)):
        return None
    if abs(razon - 2) < 1e-6:
        return ("Causa probable: el exponente de tu pareja 1 (columnas 2 y 3) es 4/8 y debería ser 2/8: el doble "
                "en todas. Si `i` ya recorre las columnas pares (range(0, d_model, 2) o np.arange(0, d_model, 2)), "
                "el exponente es `i / d_model`, no `2 * i / d_model`; con `i` la pareja (0, 1, 2…), `2 * i / d_model`.")
    if abs(razon - 1) > 1e-6:
        base = 10000.0 ** razon
        return (f"Causa probable: tus frecuencias son las de otra base, {base:.4g} en lugar de 10000 "
                f"(1/{base:.4g}^(2i/d_model)): el ángulo es pos / 10000^(2i/d_model).")
    return None


def _causa_del_tipo(funcion) -> str | None:
    """Si la tabla visible llega en enteros: la causa, que explica también sus valores."""
    try:
        with salida_del_alumno():
            crudo = funcion(5, 8)
    except Exception:  # noqa: BLE001 - la celda ya cuenta la excepción con su propia llamada
        return None
    if isinstance(crudo, np.ndarray) and crudo.dtype.kind in "iub":
        return (f"Tu tabla es de enteros ({crudo.dtype}): al guardar un seno o un coseno en un array de enteros "
                "se trunca hacia 0, y casi todo se queda en 0 (sólo cos(0) = 1 sobrevive). Se arregla con un "
                "solo cambio: crea la tabla con np.zeros((T, d_model)), sin dtype=int (float64).")
    return None


# --------------------------------------------------------------- celdas

def _fallo_si_poca_precision(funcion) -> None:
    """Falla aquí si la tabla visible llega en float16 con los valores redondeados (``causa_de_poca_precision``)."""
    with salida_del_alumno():
        try:
            crudo = funcion(5, 8)
        except Exception:  # noqa: BLE001 - la celda ya cuenta la excepción con su propia llamada
            return
    causa_16 = causa_de_poca_precision([crudo], [TABLA], ["PE"], "los valores, la robustez y la generalidad")
    if causa_16:
        fallo("Con T = 5 y d_model = 8, tu tabla no coincide con la esperada.\n" + causa_16,
              f"Fila pos = 1 esperada:\n{matriz(TABLA[1])}\nLa tuya:\n{matriz(np.asarray(crudo, dtype=np.float64)[1])}")


def contrato(espacio: dict) -> None:
    """Un ``np.ndarray`` de forma (T, d_model) = (5, 8) y dtype float64."""
    funcion = funcion_del_cuaderno(espacio, "positional_encoding")
    pe = llamar(funcion, 5, 8)
    if type(pe) is not np.ndarray:
        fallo(f"Se esperaba un np.ndarray y ha llegado {type(pe).__module__}.{type(pe).__name__}: devuelve el "
              "array tal cual (sin .tolist() ni np.matrix).")
    if pe.shape != (5, 8):
        fallo(f"Con T = 5 y d_model = 8 se esperaba la forma (5, 8) y ha llegado {pe.shape}."
              + ("\nEs la tabla traspuesta: una fila por posición." if pe.shape == (8, 5) else "")
              + ("\nSobra el eje de tamaño 1 de delante (¿un eje de lote, x[None] o np.expand_dims?): el contrato "
                 "no lleva eje de lote. Si los valores están bien, sólo lo cobra esta celda: las demás leen tu "
                 "tabla sin ese eje." if pe.ndim > 2 and _sin_eje_de_lote(pe).shape == (5, 8) else "")
              + ("\n" + _causa_de_las_filas(pe) if _causa_de_las_filas(pe) else ""))
    if pe.dtype != np.float64:
        fallo(f"Se esperaba dtype float64 y ha llegado {pe.dtype}.\n"
              + ("Una tabla de enteros trunca los senos y cosenos: créala con np.zeros((T, d_model))."
                 if pe.dtype.kind in "iu" else
                 "Son números complejos: quédate con la parte real, np.real(...), o calcula con np.sin y np.cos."
                 if pe.dtype.kind == "c" else "Convierte con .astype(np.float64) o crea la tabla en float64."))
    aprobado("Contrato correcto en el caso visible.")


def valores(espacio: dict) -> None:
    """La tabla completa con T = 5 y d_model = 8, columna a columna, y la fila 9 con d_model = 16."""
    funcion = funcion_del_cuaderno(espacio, "positional_encoding")
    crudo = _tabla(funcion, 5, 8)
    pe = _en_su_forma(crudo, 5, 8)
    traspuesta = crudo.shape != pe.shape
    if pe.shape != (5, 8):
        fallo(f"Con T = 5 y d_model = 8 se esperaba la forma (5, 8) y ha llegado {pe.shape}."
              + ("\n" + _causa_de_las_filas(pe) if _causa_de_las_filas(pe) else ""),
              "Mira la celda del contrato.")
    _fallo_si_poca_precision(funcion)
    entera = _causa_del_tipo(funcion)
    if entera and not np.allclose(pe, TABLA, **TOLERANCIA):
        fallo("Con T = 5 y d_model = 8, tu tabla no coincide con la esperada.\n" + entera,
              f"Fila pos = 1 esperada:\n{matriz(TABLA[1])}\nLa tuya:\n{matriz(pe[1])}")
    if np.ptp(pe) < 1e-12:
        fallo(f"Tu tabla es constante (todo {pe.flat[0]:g}): aún no calculas los senos y cosenos.",
              "La fila pos debería ser [sin(pos·ω_0), cos(pos·ω_0), sin(pos·ω_1), ...] con "
              "ω_i = 1 / 10000^(2i/d_model).")
    for error, tabla in ERRORES_CONOCIDOS:
        explicacion = causa("positional_encoding", error, CARPETA)
        if explicacion and np.allclose(pe, tabla, **TOLERANCIA):
            fallo("Con T = 5 y d_model = 8, tu tabla no coincide con la esperada.\n" + explicacion,
                  f"Fila pos = 1 esperada:\n{matriz(TABLA[1])}\nLa tuya:\n{matriz(pe[1])}")
    if not np.allclose(pe[0], [0, 1] * 4, **TOLERANCIA):
        fallo("La fila pos = 0 debería ser [0, 1, 0, 1, 0, 1, 0, 1] (todos los ángulos valen 0).\n"
              "Causas probables: las posiciones empiezan en 0 (np.arange(T)); el seno va en las columnas "
              "pares y el coseno en las impares; sin y cos, no sólo senos.",
              f"Tu fila 0: {matriz(pe[0])}")
    por_frecuencias = _causa_de_las_frecuencias(pe)
    if por_frecuencias:
        fallo("Con T = 5 y d_model = 8, tu tabla no coincide con la esperada.\n" + por_frecuencias,
              f"Fila pos = 1 esperada:\n{matriz(TABLA[1])}\nLa tuya:\n{matriz(pe[1])}")
    for j in range(8):
        if np.allclose(pe[:, j], TABLA[:, j], **TOLERANCIA):
            continue
        fallo(f"La columna {j} debería ser {'sin' if j % 2 == 0 else 'cos'}(pos / 10000^({2 * (j // 2)}/8)) y "
              "no lo es.\n"
              "Causas probables: la columna j usa la pareja i = j // 2 (empezando en 0) y el ángulo "
              "pos / 10000^(2i/d_model) en radianes (se divide, la base es 10000 y el exponente usa la "
              "división real).",
              f"esperada: {matriz(TABLA[:, j], 6)}\nobtenida: {matriz(pe[:, j], 6)}")
    pe = _en_su_forma(_tabla(funcion, 10, 16), 10, 16)
    if pe.shape != (10, 16):
        fallo(f"Con T = 10 y d_model = 16 se esperaba la forma (10, 16) y ha llegado {pe.shape}.")
    if not np.allclose(pe[9], FILA_9_DE_16, **TOLERANCIA):
        j = int(np.argmax(np.abs(pe[9] - FILA_9_DE_16)))
        fallo("Con T = 10 y d_model = 16, la fila 9 no coincide.\n"
              "Causa probable: algo depende de d_model o del número de parejas; todas las columnas usan "
              "la misma fórmula, pos / 10000^(2i/d_model).",
              f"La mayor diferencia está en la columna {j} (pareja i = {j // 2}): se esperaba "
              f"{FILA_9_DE_16[j]:.6f} y es {pe[9, j]:.6f}.")
    comprobar_trabajo(funcion, _tabla(funcion, 5, 8), "la celda de los valores")
    aprobado("Valores correctos en el caso visible y con d_model = 16 (al corregir se comprueban también otros "
             "tamaños, uno de ellos sin publicar)." + ("\n" + AVISO_TRASPUESTA if traspuesta else "")
             + ("\n" + AVISO_EJE_DE_LOTE if np.ndim(llamar(funcion, 5, 8)) > 2 else ""))


def _regla_de_control(funcion, celda: str) -> tuple[bool, tuple]:
    """La regla de la nota con el caso visible: ``(caso visible bien, forma que llegó en el caso visible)``.

    Si la función no hace ningún trabajo con alguno de los tamaños de
    ``comprobar_trabajo``, la celda falla aquí mismo (sin trabajo hecho no
    puntúa).
    """
    pe = _tabla(funcion, 5, 8)
    _fallo_si_poca_precision(funcion)
    leida = _en_su_forma(pe, 5, 8)
    # como en la nota, cuyos casos de control son los de la celda de los valores: también la fila 9 con
    # d_model = 16 (una fórmula que cambia en las parejas altas acierta (5, 8) y la falla: eso ya lo
    # descuentan los valores, y aquí sólo se juzga lo propio)
    fila_16 = _tabla_o_nada(funcion, 10, 16)
    fila_16 = None if fila_16 is None else _en_su_forma(fila_16, 10, 16)
    bien = (leida.shape == (5, 8) and bool(np.allclose(leida, TABLA, **TOLERANCIA)) and fila_16 is not None
            and np.shape(fila_16) == (10, 16) and bool(np.allclose(fila_16[9], FILA_9_DE_16, **TOLERANCIA)))
    comprobar_trabajo(funcion, pe, celda)
    return bien, pe.shape


def _sin_nan_ni_inf(pe: np.ndarray, forma: tuple, forma_visible: tuple) -> None:
    """La forma del contrato (T, d_model) y todo finito, como en la nota.

    ``forma_visible``: la que llegó con el caso visible (T = 5, d_model = 8).
    Si llegó traspuesta, (8, 5), aquí se acepta la tabla traspuesta, y si
    llegó con una fila de más o de menos, (6, 8) o (4, 8), una tabla con una
    fila de más o de menos (la forma ya la cobra el contrato); con cualquier
    otra forma, la del contrato.
    """
    permitida = forma[::-1] if forma_visible == (8, 5) else forma
    if len(forma_visible) == 2 and forma_visible[1] == 8 and abs(forma_visible[0] - 5) == 1:
        # una fila de más o de menos, como en el caso visible: la descuentan el contrato y los valores
        permitida = (forma[0] + forma_visible[0] - 5, forma[1])
    if pe.shape not in (permitida, forma):      # the contract's form is always right (max(T - 1, 1) rows: T = 1)
        fallo(f"Con T = {forma[0]} y d_model = {forma[1]} se esperaba la forma {permitida} y ha llegado "
              f"{pe.shape}.")
    if not np.all(np.isfinite(pe)):
        fallo(f"Con T = {forma[0]} y d_model = {forma[1]} hay valores no finitos (nan o inf).")


def robustez(espacio: dict) -> None:
    """Con 1000 posiciones todo es finito, está en [-1, 1] y la fila 999 conserva la precisión."""
    funcion = funcion_del_cuaderno(espacio, "positional_encoding")
    bien, forma_visible = _regla_de_control(funcion, "la robustez")
    pe = _tabla(funcion, 1000, 12)
    _sin_nan_ni_inf(pe, (1000, 12), forma_visible)
    pe = _en_su_forma(pe, 1000, 12)
    if not bien:
        aprobado("Nada que restar aquí: sin nan ni inf con 1000 posiciones. Tu función ya falla con el caso "
                 "visible, y eso lo descuenta la celda de los valores.")
        return
    if np.abs(pe).max() > 1 + 1e-5:
        fallo(f"Senos y cosenos están en [-1, 1], pero el mayor valor absoluto es {np.abs(pe).max():.4g}.")
    diferencia = np.abs(pe[999] - FILA_999_DE_12).max()
    if not np.allclose(pe[999], FILA_999_DE_12, **TOLERANCIA):
        fallo(f"La fila 999 se aleja de la esperada hasta {diferencia:.1e}, más que la tolerancia de 1e-6.\n"
              + ("Causa probable: calculas los ángulos (o las frecuencias) en float32; con posiciones "
                 "grandes hace falta float64." if diferencia < 1e-2 else
                 "Causa probable: algo cambia con posiciones grandes (¿una tabla que se repite o un límite "
                 "fijo de posiciones?)."),
              f"esperada: {matriz(FILA_999_DE_12, 6)}\nobtenida: {matriz(pe[999], 6)}")
    aprobado("Robustez correcta en el caso visible.")


def generalidad(espacio: dict) -> None:
    """Funciona con d_model = 2 (una sola pareja) y con T = 1."""
    funcion = funcion_del_cuaderno(espacio, "positional_encoding")
    bien, forma_visible = _regla_de_control(funcion, "la generalidad")
    pe2, pe1 = _tabla(funcion, 3, 2), _tabla(funcion, 1, 6)
    _sin_nan_ni_inf(pe2, (3, 2), forma_visible)
    _sin_nan_ni_inf(pe1, (1, 6), forma_visible)
    pe2, pe1 = _en_su_forma(pe2, 3, 2), _en_su_forma(pe1, 1, 6)
    if not bien:
        aprobado("Nada que restar aquí: sin excepciones, nan ni inf con d_model = 2 y con T = 1. Tu función "
                 "ya falla con el caso visible, y eso lo descuenta la celda de los valores.")
        return
    esperada = np.array([[0.0, 1.0], [np.sin(1.0), np.cos(1.0)], [np.sin(2.0), np.cos(2.0)]])
    if not np.allclose(pe2, esperada, **TOLERANCIA):
        fallo("Con T = 3 y d_model = 2 (una sola pareja, frecuencia 1) la tabla no coincide.",
              f"esperada:\n{matriz(esperada, 6)}\nobtenida:\n{matriz(pe2, 6)}")
    if not np.allclose(pe1, [[0, 1, 0, 1, 0, 1]], **TOLERANCIA):
        fallo("Con T = 1 y d_model = 6 se esperaba [[0, 1, 0, 1, 0, 1]].", f"ha llegado {pe1.round(6).tolist()}.")
    aprobado("Generalidad correcta en el caso visible.")
