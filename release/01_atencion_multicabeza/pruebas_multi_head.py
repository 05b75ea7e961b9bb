"""Pruebas visibles de `multi_head` (lección 1): lo que ejecuta cada celda de comprobación del ejercicio.

Cada celda de comprobación termina con una línea que llama a una función de
este módulo con el espacio de nombres del cuaderno, por ejemplo::

    __import__("pruebas_multi_head").mapas(globals())

``contrato``, ``mapas``, ``salida``, ``no_modifica``, ``robustez`` y
``generalidad`` comprueban `multi_head` con el caso visible (T = 4,
d_model = 6, h = 3, X y las cuatro W de un decimal) y, según la celda, con
otras formas. Si algo falla, lanzan ``PruebaVisibleFallida``: en sus
primeras líneas, qué no coincide y la causa más probable; después, los
valores esperados y los tuyos. Los valores esperados salen del bucle de la
sección 5 aplicado a estas entradas: puedes repetir la cuenta paso a paso.

Las celdas siguen el orden en que conviene leer los fallos: si fallan los
mapas, la celda de la salida lo dice y no busca otra causa; si tu función
ya falla con el caso visible, la robustez y la generalidad no vuelven a
cobrarlo (sólo miran que no haya excepciones, ``nan`` ni ``inf`` y que las
formas sean las del contrato), salvo que no calcule bien nada: sin trabajo
hecho, ni esas celdas ni la de no modificar los argumentos puntúan. Es la
misma regla que aplica la nota (README del curso, «Cómo se califica»).

Al calificar se usan otros casos (la tabla del ejercicio dice cuáles) y la
copia del curso de este archivo: editar la tuya no cambia la nota.
"""
from __future__ import annotations

import itertools
import re

import numpy as np

from pruebas_visibles import (PISTAS_DE_EXCEPCIONES, PruebaVisibleFallida, aprobado, causa_de_poca_precision, como_array,
                              fallo, funcion_del_cuaderno, llamar, matriz, salida_del_alumno, sin_complejos)

# Un producto cuyas formas no encajan: lo más habitual en esta capa es juntar las cabezas sin concatenarlas.
PISTAS_DE_EXCEPCIONES["multi_head"] = [
    (r"matmul|not aligned|could not be broadcast",
     "las formas de un producto no encajan. Si promedias o sumas las cabezas (np.mean o np.sum de la lista), "
     "el resultado mide (T, d_k) y no se puede multiplicar por Wo, que mide (d_model, d_model): las cabezas se "
     "concatenan lado a lado, en su orden, hasta (T, d_model). Si no es eso, mira la forma (.shape) de cada "
     "operando en la línea señalada."),
]

TOLERANCIA = {"rtol": 1e-4, "atol": 1e-6}      # la del ejercicio: np.allclose(..., rtol=1e-4, atol=1e-6)
H = 3                                           # cabezas del caso visible (d_k = 2)


def caso(T: int = 4, escala: float = 1) -> tuple:
    """Entradas nuevas del caso visible en cada llamada: ``(X, Wq, Wk, Wv, Wo)``.

    X tiene forma (T, 6) (sus T primeras filas, T <= 4) multiplicada por
    ``escala``; las cuatro W, (6, 6). Valores de un decimal.
    """
    rng = np.random.default_rng(2024)
    X = rng.uniform(-2, 2, size=(4, 6)).round(1)[:T] * escala
    return (X, *(rng.uniform(-1, 1, size=(6, 6)).round(1) for _ in range(4)))


def otro_caso(T: int, d_model: int) -> tuple:
    """Entradas de otra forma: X (T, d_model) y las cuatro W (d_model, d_model), de un decimal."""
    rng = np.random.default_rng(T)
    X = rng.uniform(-2, 2, size=(T, d_model)).round(1)
    return (X, *(rng.uniform(-1, 1, size=(d_model, d_model)).round(1) for _ in range(4)))


def entradas_no_modifica(h: int) -> tuple:
    """Entradas nuevas de la celda de no modificar: T = 5, d_model = 12 (lo dividen h = 2, 3 y 4)."""
    rng = np.random.default_rng(h)
    X = rng.uniform(-2, 2, size=(5, 12)).round(1)
    return (X, *(rng.uniform(-1, 1, size=(12, 12)).round(1) for _ in range(4)))


# ------------------------------------------------------- valores esperados

# Los mapas del caso visible, (h, T, T) = (3, 4, 4).
MAPAS = np.array([
    [[0.25591771, 0.02876178, 0.13020029, 0.58512022],
     [0.19205615, 0.35339862, 0.27905893, 0.17548629],
     [0.15590160, 0.03334420, 0.24509158, 0.56566263],
     [0.17222657, 0.30581538, 0.32556448, 0.19639356]],
    [[0.76617190, 0.04292184, 0.11128180, 0.07962446],
     [0.16769467, 0.00969544, 0.81267923, 0.00993066],
     [0.57398769, 0.00565525, 0.41078737, 0.00956969],
     [0.28292732, 0.00917386, 0.69672977, 0.01116905]],
    [[0.48755807, 0.04275462, 0.36408025, 0.10560707],
     [0.07907576, 0.68912726, 0.03493489, 0.19686209],
     [0.03376896, 0.83032442, 0.00942024, 0.12648638],
     [0.61757153, 0.11815692, 0.13742132, 0.12685023]]])

# Concat(cabeza 0, cabeza 1, cabeza 2) del caso visible (la salida con Wo = I): (T, d_model) = (4, 6).
CONCATENACION = np.array([
    [1.38630207, -0.02147590, 1.65603179, -0.09882418, -0.94997700, 1.33083385],
    [0.35024818, 0.10703777, 3.21258665, -1.26346364, 0.70290310, 0.71755142],
    [1.06000832, -0.27530743, 2.41500838, -0.56916335, 1.01573555, 0.78930587],
    [0.37099793, 0.02835852, 2.97937963, -1.06382822, -0.29445287, 0.59162625]])

# La salida del caso visible, con su Wo: (4, 6).
SALIDA = np.array([
    [-1.34162891, -0.84226953, -1.57824029, -0.87630986, -2.94097039, 0.52341143],
    [2.87567193, 1.80716910, -0.66047543, 1.66129850, -4.75277576, 0.71413952],
    [1.56281574, 0.62637906, -0.19760646, 1.55929425, -2.95526340, 1.99400655],
    [2.10892283, 1.69598935, -1.55070814, 0.98333015, -4.48121306, 0.07502983]])

# Otras formas (T, d_model, h), con las entradas de otro_caso: d_k impar y T = 5.
MAPAS_OTRAS_FORMAS = {
    (3, 6, 2): np.array([
        [[0.18893958, 0.81061510, 0.00044532],
         [0.27907011, 0.70624184, 0.01468805],
         [0.35727267, 0.61163019, 0.03109714]],
        [[0.32450056, 0.65852548, 0.01697397],
         [0.36115148, 0.16669533, 0.47215319],
         [0.32083127, 0.64401330, 0.03515544]]]),
    (5, 8, 2): np.array([
        [[0.00462852, 0.17114077, 0.00244461, 0.02372398, 0.79806212],
         [0.00466216, 0.98267509, 0.00008443, 0.00011514, 0.01246318],
         [0.00298181, 0.99658081, 0.00000951, 0.00000023, 0.00042764],
         [0.00000042, 0.99166937, 0.00000000, 0.00000000, 0.00833022],
         [0.00330916, 0.00005540, 0.10291911, 0.89229194, 0.00142439]],
        [[0.00009677, 0.55506217, 0.34342891, 0.10054246, 0.00086969],
         [0.00000218, 0.99733991, 0.00264453, 0.00000033, 0.00001306],
         [0.12722334, 0.00074278, 0.06823408, 0.18616700, 0.61763281],
         [0.03362697, 0.00374110, 0.06602137, 0.02016157, 0.87644899],
         [0.32043712, 0.18540379, 0.18477448, 0.09408382, 0.21530079]]])}
SALIDAS_OTRAS_FORMAS = {
    (3, 6, 2): np.array([
        [2.17994700, -2.21027680, 0.26660715, -0.67032084, 0.52207008, -0.50344780],
        [0.58569553, -1.69206139, 1.24745274, -0.66188969, 1.26334037, -0.58949641],
        [2.02980735, -2.18423327, 0.35157272, -0.65669025, 0.60286133, -0.69522992]]),
    (5, 8, 2): np.array([
        [0.10566960, 0.76209677, 1.31169007, -1.00731498, 0.21408113, -1.59542852, 3.15306068, 3.00506865],
        [3.76823415, -2.26639361, 1.32570070, 3.12877619, -4.10653500, -2.56992842, 3.03061520, -0.56314957],
        [5.63749434, -1.77608633, 0.61000115, 1.80139206, -3.20501820, -1.43842385, 4.64675786, -0.13988683],
        [5.19064748, -1.89580950, 0.16021050, 3.00113774, -4.03698333, -1.18864413, 3.85314194, -1.07027662],
        [7.29991595, -1.19203065, 1.39724247, 2.24408211, 0.77548262, 1.44649112, 2.26079219, 1.34600634]])}

# Con X multiplicada por 20 las puntuaciones pasan de mil: cada fila pone todo su peso en su mayor
# puntuación (la posición que indica cada número) y la salida es la fila elegida de X·Wv en cada cabeza.
MAPAS_X20 = np.eye(4)[[[3, 1, 3, 2], [0, 2, 0, 2], [0, 1, 1, 0]]]
SALIDA_X20 = np.array([
    [15.58, 13.42, -22.22, 28.02, -16.26, 39.72],
    [100.78, 71.00, 18.50, 56.48, -108.88, -0.24],
    [17.70, 2.50, 17.36, 36.56, -22.48, 58.32],
    [80.84, 65.54, -27.94, 47.28, -95.24, 4.52]])


# ------------------------------------------------------------ ayudantes

def _iguales(a, b) -> bool:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.allclose(a, b, **TOLERANCIA))


def _par(resultado, en_su_orden: bool = True) -> tuple:
    """``(salida, A)`` de lo que devolvió la función, o un fallo si no es un par.

    Con ``en_su_orden``, un par al revés, ``(A, salida)`` (A con forma (h, T, T) y
    la salida (T, d_model)), se lee en su orden: ese error lo cobra y lo nombra sólo la
    celda del contrato, como en la nota (un error se descuenta una vez).
    """
    if not (isinstance(resultado, (tuple, list)) and len(resultado) == 2):
        fallo(f"multi_head debe devolver el par (salida, A) y ha devuelto {type(resultado).__name__}.",
              "Mira la celda del contrato.")
    salida, A = resultado[0], resultado[1]
    if not en_su_orden:
        return salida, A
    salida, A = sin_complejos(salida), sin_complejos(A)
    # el orden, antes de quitar ejes de lote: con h = 1, unos mapas (1, T, T) en el sitio de la salida
    # perderían su eje de tamaño 1 y ya no se verían como mapas (el alumno 22b: «Con h = 1, `salida`
    # debería tener forma (4, 6) y tiene (4, 4)» para un par al revés, que sólo cobra el contrato)
    for _ in range(2):
        primero, segundo = _forma(salida), _forma(A)
        if len(primero) == 3 and len(segundo) == 2 and primero[1] == primero[2] == segundo[0]:
            salida, A = A, salida                            # (h, T, T) y (T, d_model): sin dudas
            break
        salida, A = _sin_eje_de_lote(salida, 2), _sin_eje_de_lote(A, 3)
    return _sin_eje_de_lote(salida, 2), _sin_eje_de_lote(A, 3)


def _sin_eje_de_lote(valor, ejes: int):
    """``valor`` sin los ejes de tamaño 1 que lleva delante de más (``ejes``: los del contrato).

    Una salida (1, T, d_model) o unos mapas (1, h, T, T) (un eje de lote, como
    en la sección 11 o en PyTorch) se leen sin ese eje: como en la nota, la
    forma la descuenta sólo la celda del contrato.
    """
    if isinstance(valor, np.ndarray) and valor.ndim > ejes and all(n == 1 for n in valor.shape[:valor.ndim - ejes]):
        return valor.reshape(valor.shape[valor.ndim - ejes:])
    return valor


def _con_eje_de_lote(resultado) -> bool:
    """Si la función devolvió la salida o los mapas con un eje de tamaño 1 de más delante."""
    if not (isinstance(resultado, (tuple, list)) and len(resultado) == 2):
        return False
    return any(_sin_eje_de_lote(v, n) is not v for v, n in zip(resultado, (2, 3))) or \
        any(_sin_eje_de_lote(v, n) is not v for v, n in zip(resultado, (3, 2)))


AVISO_EJE_DE_LOTE = ("Tu función devuelve un eje de tamaño 1 de más delante (un eje de lote): aquí se lee sin él. "
                     "La forma la descuenta la celda del contrato.")


def _forma(valor) -> tuple:
    """La forma de ``valor`` como array de números (``()`` si no lo es)."""
    try:
        return np.asarray(sin_complejos(valor), dtype=np.float64).shape
    except (TypeError, ValueError):
        return ()


def _arrays(resultado) -> list[np.ndarray]:
    """Los arrays de números que devolvió la función (los dos del par, si lo son)."""
    partes = list(resultado) if isinstance(resultado, (tuple, list)) else [resultado]
    if len(partes) == 2:     # sin un eje de lote de más, como las celdas de los valores
        partes = [_sin_eje_de_lote(partes[0], 2), _sin_eje_de_lote(partes[1], 3)]
    partes = [sin_complejos(parte) for parte in partes]
    arrays = []
    for parte in partes:
        try:
            array = np.asarray(parte, dtype=np.float64)
        except (TypeError, ValueError):
            continue
        arrays.append(array)
    return arrays


def _en_cualquier_orden(array: np.ndarray, forma: tuple) -> list[np.ndarray]:
    """``array`` traspuesto de cada manera que da la forma ``forma``."""
    if array.ndim != len(forma):
        return []
    return [np.transpose(array, orden) for orden in itertools.permutations(range(array.ndim))
            if tuple(array.shape[k] for k in orden) == tuple(forma)]


def _doble_centrado(M: np.ndarray) -> np.ndarray:
    """M (T, T) sin lo que depende sólo de la fila o sólo de la columna.

    Resta las medias de sus filas y de sus columnas (y suma la media total).
    Así desaparecen de log A el denominador de la softmax (por filas, por
    columnas o del mapa entero) y el máximo que se resta antes de np.exp.
    """
    return M - M.mean(axis=1, keepdims=True) - M.mean(axis=0, keepdims=True) + M.mean()


def _escala_de_un_grupo(coeficientes: np.ndarray, con_signo: bool, minimo: int) -> float:
    """c si los coeficientes valen c > 0 en un grupo de al menos ``minimo`` columnas y 0 en las demás; si no, 0.

    Con ``con_signo`` (el cociente de los mapas de dos cabezas): +c en un
    grupo y −c en otro, cada uno de al menos ``minimo`` columnas.
    """
    escala = float(np.max(np.abs(coeficientes) if con_signo else coeficientes))
    if not escala > 0:
        return 0.0
    relativos = coeficientes / escala
    cercanos = np.round(relativos)
    if not (np.all(np.isin(cercanos, (-1, 0, 1) if con_signo else (0, 1)))
            and np.all(np.abs(relativos - cercanos) <= 0.05)):
        return 0.0
    grupos = (cercanos == 1, cercanos == -1) if con_signo else (cercanos == 1,)
    return escala if all(int(np.sum(g)) >= minimo for g in grupos) else 0.0


def _bloques_diagonales(W: np.ndarray, h: int) -> np.ndarray | None:
    """W con sólo sus h bloques diagonales (d_k, d_k): lo que usan unas cabezas que leen sólo sus d_k columnas
    de X (``X[:, c] @ W[c, c]``). None si h no divide a d_model."""
    d_model = W.shape[0]
    if h < 1 or d_model % h:
        return None
    d_k = d_model // h
    bloques = np.zeros_like(W, dtype=np.float64)
    for i in range(h):
        bloques[i * d_k:(i + 1) * d_k, i * d_k:(i + 1) * d_k] = W[i * d_k:(i + 1) * d_k, i * d_k:(i + 1) * d_k]
    return bloques


def _afin(original: np.ndarray, final: np.ndarray) -> bool:
    """Si cada columna (o cada fila) de ``final`` es a·(la de ``original``) + b, con a ≠ 0: centrada, escalada…"""
    for x, y in ((original, final), (original.T, final.T)):
        n = x.shape[0]
        if n < 3:
            continue
        bien = True
        for columna, otra in zip(x.T, y.T):
            A = np.stack([columna, np.ones(n)], axis=1)
            (a, b), *_ = np.linalg.lstsq(A, otra, rcond=None)
            if not abs(a) > 1e-12 or np.linalg.norm(A @ (a, b) - otra) > 1e-6 * (np.linalg.norm(otra) + 1e-12):
                bien = False
                break
        if bien:
            return True
    return False


_QK = frozenset({"W^Q", "W^K"})
_VO = frozenset({"W^V", "W^O"})
MATRICES = ("W^Q", "W^K", "W^V", "W^O")


def _mejor(encontradas: frozenset | None, usadas: frozenset) -> bool:
    """Si ``usadas`` usa más matrices que lo encontrado hasta ahora (o no se ha encontrado nada)."""
    return encontradas is None or len(usadas) > len(encontradas)


def _mapas_de_las_puntuaciones(mapas: list[np.ndarray], entradas: tuple, h: int) -> frozenset | None:
    """``_mapas_con_las_puntuaciones`` con los pesos como llegan y, si no basta, traspuestos (X @ Wq.T y X @ Wk.T:
    proyectar con los pesos traspuestos es un error honrado, como en la nota; sus mapas salen de Q y K)."""
    encontradas = _mapas_con_las_puntuaciones(mapas, entradas, h)
    if encontradas == _QK:
        return encontradas
    X, Wq, Wk = (np.asarray(M, dtype=np.float64) for M in entradas[:3])
    if Wq.shape[0] != Wq.shape[1] or Wk.shape[0] != Wk.shape[1]:
        return encontradas
    traspuestas = _mapas_con_las_puntuaciones(mapas, (X, Wq.T, Wk.T) + tuple(entradas[3:]), h)
    return traspuestas if traspuestas is not None and _mejor(encontradas, traspuestas) else encontradas


def _mapas_con_las_puntuaciones(mapas: list[np.ndarray], entradas: tuple, h: int) -> frozenset | None:
    """Si algún mapa sale de Q y K como los de la atención, aunque falle la escala, el eje o las columnas.

    Devuelve qué matrices de W^Q y W^K usan los mapas (Q·Kᵀ y K·Qᵀ, las dos;
    Q·Qᵀ, con K = X·Wq, sólo W^Q; K·Kᵀ, con Q = X·Wk, sólo W^K), o None si no
    salen de las puntuaciones.

    Es decir, si algún mapa es softmax(c · Q_J K_Jᵀ) para algún grupo J de
    al menos d_k − 1 columnas y alguna escala c no menor que 1/(100·√d_k),
    normalizado por filas, por columnas o entero (o con la softmax entre
    cabezas: entonces lo es el cociente de dos mapas). El log del mapa, sin
    lo que depende sólo de la fila o de la columna, debe ser c veces las
    puntuaciones. Una sola columna repetida en todas las cabezas, o unas
    puntuaciones encogidas hasta dejar los mapas uniformes, no cuentan. Se comprueba con mínimos
    cuadrados frente a q_j k_jᵀ de cada columna j (cualquier grupo J) y, uno
    a uno, con los grupos de los repartos equivocados habituales (bloques que
    empiezan en cualquier columna, de d_k o d_k - 1 columnas, columnas
    intercaladas i::h, todas las columnas, las cabezas de un reshape(h, T, d_k)
    sin transponer y las que leen sólo sus d_k columnas de X). Los mapas con una
    máscara causal (ceros por encima de la diagonal) también: en su triángulo,
    sin la media de cada fila. Es la regla de la nota.
    """
    X, Wq, Wk = entradas[:3]
    T, d_model = X.shape
    Q, K = X @ Wq, X @ Wk
    d_k = max(d_model // h, 1)
    # 1/(100·√d_k) con un margen de 0,1 %: la escala justa cuenta siempre, como en la nota
    minimo, escala_minima = max(d_k - 1, 1), 0.01 * (1 - 1e-3) / np.sqrt(d_k)
    grupos = [[(inicio + t) % d_model for t in range(tamano)]
              for tamano in {d_k, d_k - 1} if tamano >= 1 for inicio in range(d_model)]
    grupos += [list(range(i, d_model, h)) for i in range(min(h, d_model))] + [list(range(d_model))]
    familias, por_grupo = [], []
    # Q Kᵀ, K Qᵀ (Q y K cambiadas, o el mapa traspuesto), Q Qᵀ (K = X Wq) y K Kᵀ (Q = X Wk)
    for a, b, simetrica, usadas in ((Q, K, False, _QK), (K, Q, False, _QK), (Q, Q, True, frozenset({"W^Q"})),
                                    (K, K, True, frozenset({"W^K"}))):
        productos = np.stack([_doble_centrado(np.outer(a[:, j], b[:, j])).ravel() for j in range(d_model)], axis=1)
        por_grupo += [(productos[:, grupo].sum(axis=1), usadas) for grupo in grupos]
        dimension = T * (T - 1) // 2 if simetrica else (T - 1) ** 2
        if dimension > d_model and np.linalg.matrix_rank(productos) == d_model:
            familias.append((productos, np.linalg.pinv(productos), usadas))
    # las cabezas separadas con reshape(h, T, d_k) sin transponer (sección 10): posiciones y bloques mezclados
    if d_model % h == 0:
        Qh, Kh = Q.reshape(h, T, d_k), K.reshape(h, T, d_k)
        por_grupo += [(_doble_centrado(a[i] @ b[i].T).ravel(), _QK) for a, b in ((Qh, Kh), (Kh, Qh))
                      for i in range(h)]
        # cada cabeza lee sólo sus d_k columnas de X (X[:, c] @ Wq[c, c]): la opción a de la pregunta 3
        Qb, Kb = X @ _bloques_diagonales(Wq, h), X @ _bloques_diagonales(Wk, h)
        por_grupo += [(_doble_centrado(a[:, i * d_k:(i + 1) * d_k] @ b[:, i * d_k:(i + 1) * d_k].T).ravel(), _QK)
                      for a, b in ((Qb, Kb), (Kb, Qb)) for i in range(h)]
    encontradas = None
    for m in mapas:
        if not np.all(np.isfinite(m)):
            continue
        with np.errstate(all="ignore"):
            logaritmos = np.log(m) if np.all(m > 0) else None
        candidatas = [(m[i], False) for i in range(len(m))]
        if logaritmos is not None:
            candidatas += [(logaritmos[i], False) for i in range(len(m))]
            candidatas += [(logaritmos[i] - logaritmos[j], True)
                           for i in range(len(m)) for j in range(i + 1, len(m))]
        for matriz, con_signo in candidatas:
            objetivo = _doble_centrado(matriz).ravel()
            norma = float(np.linalg.norm(objetivo))
            if not norma > 1e-9:
                continue
            for productos, inversa, usadas in familias:
                if not _mejor(encontradas, usadas):
                    continue
                coeficientes = inversa @ objetivo
                if (np.linalg.norm(productos @ coeficientes - objetivo) <= 1e-4 * norma
                        and _escala_de_un_grupo(coeficientes, con_signo, minimo) >= escala_minima):
                    encontradas = usadas
            for s, usadas in ([] if con_signo else por_grupo):
                if not _mejor(encontradas, usadas):
                    continue
                c = float(s @ objetivo) / float(s @ s) if float(s @ s) > 0 else 0.0
                if c >= escala_minima and np.linalg.norm(objetivo - c * s) <= 1e-4 * norma:
                    encontradas = usadas
            if encontradas == _QK:
                return encontradas
    # mapas con una máscara causal (ceros por encima de la diagonal, sección 11): lo mismo en el triángulo,
    # sin la media de cada fila en lugar del doble centrado
    brutas = ((Q, K, _QK), (K, Q, _QK), (Q, Q, frozenset({"W^Q"})), (K, K, frozenset({"W^K"})))
    for m in mapas:
        for mapa in (m if np.all(np.isfinite(m)) else []):
            dentro = _triangulo(mapa)
            if dentro is None:
                continue
            objetivo = _centrado_por_filas(np.log(np.where(dentro, mapa, 1.0)), dentro)
            norma = float(np.linalg.norm(objetivo))
            if not norma > 1e-9:
                continue
            for a, b, usadas in brutas:
                for grupo in grupos:
                    s = _centrado_por_filas(a[:, grupo] @ b[:, grupo].T, dentro)
                    c = float(s @ objetivo) / float(s @ s) if float(s @ s) > 0 else 0.0
                    if (_mejor(encontradas, usadas) and c >= escala_minima
                            and np.linalg.norm(objetivo - c * s) <= 1e-4 * norma):
                        encontradas = usadas
                if encontradas == _QK:
                    return encontradas
    return encontradas


def _triangulo(mapa: np.ndarray) -> np.ndarray | None:
    """Dónde vive un mapa con máscara causal: el triángulo de abajo con la diagonal si ``mapa`` (T, T) vale 0 por
    encima de la diagonal y es positivo en el resto (el de arriba si la máscara va al revés), o None."""
    abajo = np.tri(mapa.shape[0], dtype=bool)
    for dentro in (abajo, abajo.T):
        if np.all(mapa[dentro] > 0) and np.all(mapa[~dentro] == 0):
            return dentro
    return None


def _centrado_por_filas(M: np.ndarray, dentro: np.ndarray) -> np.ndarray:
    """Las entradas de ``M`` (T, T) donde ``dentro``, menos la media de su fila en ``dentro`` (en una línea)."""
    M = np.where(dentro, M, 0.0)
    medias = M.sum(axis=1, keepdims=True) / np.maximum(dentro.sum(axis=1, keepdims=True), 1)
    return (M - medias)[dentro]


def _mapas_de(resultado, entradas: tuple, h: int) -> list[np.ndarray]:
    """Cada array devuelto que se lee como h mapas (T, T), en cualquier orden de los ejes."""
    T = entradas[0].shape[0]
    return [m for a in _arrays(resultado) for m in _en_cualquier_orden(a, (h, T, T))]


def _columnas_de_valores_bastan(U: np.ndarray, elegidas: np.ndarray, cero: int) -> bool:
    """Si las columnas calculadas de una concatenación salen de bastantes columnas distintas de los valores ``U``.

    Cada cabeza, bien o con un error honrado, multiplica su mapa por sus propias columnas de valores: una
    concatenación usa al menos la mitad (y al menos dos). Una sola columna de X o de V repetida en la salida,
    con el resto a cero, no es una capa. Las columnas iguales de ``U`` cuentan como una.
    """
    d_model = U.shape[1]
    # representante[j]: la primera columna i <= j igual a la columna j (np.allclose(U[:, i], U[:, j]), todas a la vez)
    with np.errstate(all="ignore"):
        cerca = np.all(np.abs(U.T[:, None, :] - U.T[None, :, :]) <= 1e-12 + 1e-9 * np.abs(U.T[None, :, :]), axis=-1)
    representante = np.argmax(cerca & np.tri(d_model, dtype=bool).T, axis=0)
    usadas = {int(representante[int(e) % d_model]) for e in elegidas if int(e) != cero}
    return len(usadas) >= min(len(set(representante.tolist())), max(2, -(-d_model // 2)))


def _concatenaciones(C: np.ndarray, mapas: np.ndarray, U: np.ndarray, h: int) -> list[np.ndarray]:
    """Concatenaciones de las cabezas hechas con ``mapas`` (h, T, T) y los valores ``U`` (T, d_model), cerca de ``C``.

    Columna a columna: cada columna de ``C`` se cambia por la más parecida de
    la forma M·u_j, con M el mapa de una cabeza (o su traspuesto, o la media o
    la suma de los mapas: cabezas promediadas o sumadas) y u_j una columna de ``U``; así vale
    cualquier reparto de columnas y cualquier orden de las cabezas (como mucho,
    la mitad de las columnas a cero). Y las que mezclan posiciones con un
    reshape: separar con reshape(h, T, d_k) o juntar con reshape(T, d_model)
    sin transponer.
    """
    d_model = U.shape[1]
    columnas = _columnas_de_las_cabezas(mapas, U)
    elegidas = np.argmin(np.linalg.norm(columnas[:, None, :] - C.T[None, :, :], axis=-1), axis=0)
    candidatas = [columnas[elegidas].T] if (2 * int(np.sum(elegidas == len(columnas) - 1)) <= d_model
                                            and _columnas_de_valores_bastan(U, elegidas, len(columnas) - 1)) else []
    return candidatas + _concatenaciones_con_reshape(mapas, U, h)


def _columnas_de_las_cabezas(mapas: np.ndarray, U: np.ndarray) -> np.ndarray:
    """Cada columna M·u_j (M el mapa de una cabeza, su traspuesto, o la media o la suma de los mapas; u_j una
    columna de ``U``) y al final una columna de ceros."""
    T = U.shape[0]
    M = np.concatenate([mapas, mapas.transpose(0, 2, 1), mapas.mean(axis=0, keepdims=True),
                        mapas.sum(axis=0, keepdims=True)])
    return np.concatenate([np.einsum("kts,sj->kjt", M, U).reshape(-1, T), np.zeros((1, T))])


def _concatenaciones_con_reshape(mapas: np.ndarray, U: np.ndarray, h: int) -> list[np.ndarray]:
    """Las concatenaciones que separan o juntan con reshape: bien, o mezclando posiciones (sin transponer)."""
    T, d_model = U.shape
    candidatas = []
    if h >= 1 and d_model % h == 0 and len(mapas) == h:
        d_k = d_model // h
        for Vh in (U.reshape(h, T, d_k), U.reshape(T, h, d_k).transpose(1, 0, 2)):
            cabezas = mapas @ Vh
            candidatas += [cabezas.reshape(T, d_model), cabezas.transpose(1, 0, 2).reshape(T, d_model)]
    return candidatas


# Una salida calculada con los mapas puede llegar multiplicada por una constante k (V dividida también entre
# √d_k, las cabezas proyectadas y promediadas): el trabajo es el mismo. k, como mucho un factor 100.
ESCALA_MAXIMA = 100.0


def _escala_de_las_columnas(C: np.ndarray, mapas: np.ndarray, U: np.ndarray) -> float | None:
    """La constante k de ``C`` ≈ k·(columnas M·u_j), leída columna a columna por su dirección, o None."""
    columnas = _columnas_de_las_cabezas(mapas, U)[:-1]
    normas = np.linalg.norm(columnas, axis=1)
    normas_C = np.linalg.norm(C, axis=0)
    utiles = normas_C > 1e-9 * max(float(normas_C.max(initial=0.0)), 1e-300)
    if not np.any(utiles) or not np.any(normas > 0):
        return None
    with np.errstate(all="ignore"):
        coseno = (columnas @ C[:, utiles]) / (np.where(normas > 0, normas, np.inf)[:, None] * normas_C[utiles])
    k = float(np.median(normas_C[utiles] / normas[np.argmax(coseno, axis=0)]))
    return k if np.isfinite(k) and k > 0 else None


def _multiplo(candidata: np.ndarray, s: np.ndarray) -> bool:
    """Si ``s`` es k·``candidata`` para una constante k entre 1/ESCALA_MAXIMA y ESCALA_MAXIMA (k = 1 incluida)."""
    with np.errstate(all="ignore"):
        if _iguales(candidata, s):
            return True
        norma = float(np.sum(candidata * candidata))
        if not np.isfinite(norma) or norma <= 0:
            return False
        k = float(np.sum(candidata * s)) / norma
        return 1 / ESCALA_MAXIMA <= k <= ESCALA_MAXIMA and _iguales(k * candidata, s)


def _salida_calculada(resultado, entradas: tuple, h: int, esperada: np.ndarray | None = None) -> frozenset | None:
    """Si la salida es la esperada o está calculada con los mapas que devuelve la función (la regla de la nota).

    Devuelve qué matrices de W^V y W^O usa (las dos si es la esperada), o
    None si no está calculada con los mapas.

    Es decir, si algún array (T, d_model) que devuelve, no constante, es
    C·F con F = Wo (o Wo.T, o nada) y C una concatenación de las cabezas
    hecha con sus propios mapas y los valores V = X·Wv (o X, X·Wv.T, X·Wq o
    X·Wk) (``_concatenaciones``), o k veces eso (una constante k), o cada
    cabeza proyectada con el mismo bloque de Wo y sumadas. Unos mapas con la salida a cero, constante o
    sin relación con ellos no son trabajo hecho: todos los errores de la
    lección calculan la salida con sus mapas.
    """
    X, Wq, Wk, Wv, Wo = (np.asarray(M, dtype=np.float64) for M in entradas)
    T, d_model = X.shape
    salidas = [s for a in _arrays(resultado) for s in _en_cualquier_orden(a, (T, d_model))
               if np.all(np.isfinite(s)) and np.ptp(s) > 1e-3]
    mapas = [m for m in _mapas_de(resultado, entradas, h) if np.all(np.isfinite(m))]
    # V = X·Wv (o X·Wv.T, o por sus bloques diagonales), o sin W^V: X, X·Wq o X·Wk (copiar y pegar)
    valores = [(X @ Wv, True), (X, False), (X @ Wv.T, True), (X @ Wq, False), (X @ Wk, False)]
    valores.append((X @ Wv @ Wo, True))       # Wo aplicada a V antes de separar las cabezas (y no al final)
    if _bloques_diagonales(Wv, h) is not None:
        valores.append((X @ _bloques_diagonales(Wv, h), True))      # cabezas que leen sólo sus columnas de X
    # cada cabeza proyectada con las filas del mismo bloque de Wo, y las proyecciones sumadas
    bloques_de_wo = ([np.tile(Wo[j * (d_model // h):(j + 1) * (d_model // h)], (h, 1)) for j in range(h)]
                     if h >= 2 and d_model % h == 0 else [])
    encontradas = None
    # y la salida con X sumada (una conexión residual, que el artículo pone fuera de la capa de atención)
    residuales = [s - X for s in salidas if np.ptp(s - X) > 1e-3]
    for s in salidas + residuales:
        if esperada is not None and _iguales(s, esperada):
            return _VO
        for F, con_wo in ((Wo, True), (np.eye(d_model), False), (Wo.T, True)):
            try:
                C = np.linalg.solve(F.T, s.T).T                                # C·F = s
            except np.linalg.LinAlgError:
                continue
            for m in mapas:
                for U, con_wv in valores:
                    usadas = frozenset(["W^V"] * con_wv + ["W^O"] * con_wo)
                    if not _mejor(encontradas, usadas):
                        continue
                    candidatas = _concatenaciones(C, m, U, h)
                    k = _escala_de_las_columnas(C, m, U)
                    if k is not None and 1 / ESCALA_MAXIMA <= k <= ESCALA_MAXIMA and abs(k - 1) > 1e-9:
                        candidatas += _concatenaciones(C / k, m, U, h)[:1]
                    if any(_multiplo(c @ F, s) for c in candidatas):
                        encontradas = usadas
                        if encontradas == _VO:
                            return encontradas
        for F in bloques_de_wo:
            for m in mapas:
                for U, con_wv in valores:
                    usadas = frozenset(["W^V"] * con_wv + ["W^O"])
                    if _mejor(encontradas, usadas) and any(
                            _multiplo(c @ F, s) for c in _concatenaciones_con_reshape(m, U, h)):
                        encontradas = usadas
                        if encontradas == _VO:
                            return encontradas
    return encontradas


def _olvidadas(mapas: frozenset | None, salida: frozenset | None) -> list[str] | None:
    """Las matrices de W^Q, W^K, W^V y W^O que no usa el trabajo (None si mapas o salida no cuentan)."""
    if mapas is None or salida is None:
        return None
    return [m for m in MATRICES if m not in mapas | salida]


def _olvidadas_en_el_caso_visible(resultado) -> list[str] | None:
    """``_olvidadas`` con el caso visible: los mapas, bien o de Q y K; la salida, calculada con ellos."""
    salida = _salida_calculada(resultado, caso(), H, SALIDA)
    if salida == _VO and any(_iguales(c, SALIDA) for array in _arrays(resultado)
                             for c in _en_cualquier_orden(array, SALIDA.shape)):
        return []
    mapas_visibles = _mapas_de(resultado, caso(), H)
    bien = any(_iguales(m[i], MAPAS[j]) for m in mapas_visibles for i in range(H) for j in range(H))
    return _olvidadas(_QK if bien else _mapas_de_las_puntuaciones(mapas_visibles, caso(), H), salida)


def trabajo_hecho(resultado, funcion, cabezas: tuple = (3,)) -> bool:
    """Si la función calcula algo bien: la regla de la nota («puntos sólo por trabajo hecho»).

    Con el caso visible (``resultado``): algún array igual a los mapas o a la
    salida esperados (en cualquier orden de los ejes o del par) o el mapa de
    alguna cabeza. Si no, con T = 5, d_model = 12 y h = 3 (d_k = 4, como en
    uno de los casos de la nota; en el visible, d_k = 2 y una cabeza de una
    sola columna se confundiría con un error honrado): unos mapas que salen
    de Q y K (la softmax de c·Q_J K_Jᵀ de algún grupo J de al menos d_k − 1
    columnas, con cualquier escala c no menor que 1/(100·√d_k) y por
    cualquier eje), también con los argumentos como los dejó la llamada si
    escribió en ellos (centrados o escalados). Unos mapas que no dependen de Q y K (uniformes, la
    identidad, una permutación fija) no cuentan, aunque la salida sea la que
    les corresponde. Y en los dos casos, además, una salida calculada con los
    mapas que devuelve (``_salida_calculada``): unos mapas junto a una salida
    a cero no son trabajo hecho; y como mucho una de las cuatro matrices W^Q,
    W^K, W^V y W^O olvidada (issue 19, décimo ataque: con sólo W^Q, Q·Qᵀ en
    todas las cabezas y la salida A·X, cada permiso de un error honrado se
    sumaba a los demás).

    ``cabezas``: los h con los que se busca ese trabajo si el caso visible no lo muestra (T = 5, d_model = 12;
    basta uno): (3,) en la celda de no modificar; las de robustez y generalidad prueban también h = 2 y h = 4,
    como la nota, que busca el trabajo en sus casos de control (h = 3, 2 y 4) y se conforma con uno (todas las
    cabezas con el bloque de la cabeza 0 usan la mitad de las columnas de V con h = 2, y un tercio con h = 3:
    un probador de la nota, issue 22).
    """
    algo_bien = any(_iguales(c, esperado) for array in _arrays(resultado) for esperado in (MAPAS, SALIDA)
                    for c in _en_cualquier_orden(array, esperado.shape))
    algo_bien = algo_bien or any(_iguales(m[i], MAPAS[j]) for m in _mapas_de(resultado, caso(), H)
                                 for i in range(H) for j in range(H))
    if algo_bien and _salida_calculada(resultado, caso(), H, SALIDA) is not None:
        olvidadas = _olvidadas_en_el_caso_visible(resultado)
        if olvidadas is None or len(olvidadas) <= 1:
            return True
    return any(_trabajo_con_h(funcion, h) for h in cabezas)


def _trabajo_con_h(funcion, h: int) -> bool:
    """El trabajo de ``trabajo_hecho`` con las entradas de no modificar de ``h`` cabezas (T = 5, d_model = 12)."""
    entradas = entradas_no_modifica(h)
    try:
        with salida_del_alumno():
            otro = funcion(*entradas, h)
    except Exception:  # noqa: BLE001 - una excepción aquí no es trabajo hecho; la celda lo dice con el caso visible
        return False
    limpias = entradas_no_modifica(h)     # las de antes de la llamada (la función puede escribir en las suyas)
    posibles = [limpias]
    # si escribió en sus argumentos (X -= X.mean(axis=0), X /= c), también con ellos como los dejó, si cada uno
    # sigue siendo su argumento centrado o escalado (columna a columna o fila a fila): la escritura la cobra la
    # celda de no modificar, una vez
    if any(not np.array_equal(a, b) for a, b in zip(limpias, entradas)):
        cambiadas = tuple(np.asarray(b, dtype=np.float64) if (
            np.shape(a) == np.shape(b) and np.all(np.isfinite(b)) and _afin(a, np.asarray(b, dtype=np.float64)))
            else a for a, b in zip(limpias, entradas))
        posibles.append(cambiadas)
    for e in posibles:
        olvidadas = _olvidadas(_mapas_de_las_puntuaciones(_mapas_de(otro, e, h), e, h), _salida_calculada(otro, e, h))
        if olvidadas is not None and len(olvidadas) <= 1:
            return True
    return False


SIN_TRABAJO = ("Sin trabajo hecho, {celda} no puntúa (tampoco al calificar). Ese punto es para una función "
               "que ya calcula algo de la capa: los mapas o la salida del caso visible, el mapa de alguna "
               "cabeza o, al menos, unos mapas que salgan de las puntuaciones de Q y K (aunque fallen la "
               "escala, el eje de la softmax o el reparto de las columnas), y siempre una salida calculada "
               "con esos mapas y con V (una salida a cero o constante no cuenta). La tuya aún no lo hace: "
               "{final}")


def _sin_trabajo(celda: str, resultado) -> str:
    """El mensaje ``SIN_TRABAJO`` de ``celda``, con el consejo que toca según los mapas del caso visible."""
    mapas_bien = any(_iguales(m, MAPAS) for m in _mapas_de(resultado, caso(), H))
    olvidadas = _olvidadas_en_el_caso_visible(resultado) or []
    if len(olvidadas) > 1:
        lista = ", ".join(olvidadas[:-1]) + " y " + olvidadas[-1]
        final = (f"cambiar {lista} no cambia nada de lo que devuelve. Olvidar una de las cuatro matrices W^Q, "
                 "W^K, W^V y W^O es un error que la lección nombra; olvidar dos o más ya no calcula atención.")
    elif mapas_bien:
        final = "tus mapas están bien, así que te falta calcular la salida con ellos (mira la celda de la salida)."
    else:
        final = "empieza por la celda de los mapas."
    return SIN_TRABAJO.format(celda=celda, final=final)


ARGUMENTOS = ("X", "Wq", "Wk", "Wv", "Wo")


def _argumentos_escritos(funcion) -> list[str]:
    """Los argumentos que `multi_head` cambia en su sitio con el caso visible (``["X", "Wq"]``), o []."""
    entradas = caso()
    try:
        llamar(funcion, *entradas, H)
    except PruebaVisibleFallida:      # la celda ya cuenta la excepción
        return []
    return [n for n, antes, despues in zip(ARGUMENTOS, caso(), entradas) if not np.array_equal(antes, despues)]


def _diagnostico_de_los_mapas(funcion) -> tuple[str, str] | None:
    """El primer problema de los mapas del caso visible, ``(mensaje, detalle)``, o None si están bien.

    Si además la función escribe en sus argumentos (``X /= c``), ésa es la
    causa probable que se nombra primero: lo que calcula después usa el array
    cambiado, y la celda que lo comprueba (no modificar los argumentos) va
    detrás de la de los mapas.
    """
    problema = _primer_problema_de_los_mapas(funcion)
    escritos = _argumentos_escritos(funcion) if problema else []
    if not escritos:
        return problema
    titular, _, otra_causa = problema[0].partition("\n")
    nombres = " y ".join(", ".join(f"`{n}`" for n in escritos).rsplit(", ", 1))
    M = escritos[0]
    return (f"{titular}\nCausa probable: tu función cambia {nombres} en su sitio (con `{M} -= ...`, `{M} /= ...`, "
            f"`{M} *= ...` o `{M}[...] = ...`): lo que calcula después usa los valores cambiados, y quien la "
            f"llama pierde los suyos. Escribe `{M} = {M} / ...` o trabaja sobre una copia (`{M} = {M}.copy()`)."
            + ("\nSi no es eso: " + re.sub(r"^Causas? probables?: ", "", otra_causa) if otra_causa else ""),
            problema[1])


def _primer_problema_de_los_mapas(funcion) -> tuple[str, str] | None:
    """El primer problema de los mapas del caso visible, ``(mensaje, detalle)``, o None si están bien.

    En el orden en que mejor se ve la causa: la forma, que cada fila sume 1,
    que cada cabeza use su bloque de columnas y los valores (con la escala,
    si es lo que falla).
    """
    A = como_array(_par(llamar(funcion, *caso(), H))[1], "A")
    if A.shape != (3, 4, 4):
        return (f"A debería tener forma (h, T, T) = (3, 4, 4) y tiene {A.shape}.", "Mira la celda del contrato.")
    if _iguales(A.transpose(0, 2, 1), MAPAS):
        return ("Devuelves cada mapa traspuesto (A_i.T): sus columnas suman 1 y sus filas no.\n"
                "Causa probable: apilas (o devuelves) A_i.T en lugar de A_i; la fila t del mapa es la consulta t "
                "frente a todas las claves, y es la que suma 1. Si tu salida está bien, la softmax ya va por filas: "
                "sólo sobra la trasposición de lo que devuelves.",
                f"Mapa esperado de la cabeza 0:\n{matriz(MAPAS[0])}\nobtenido:\n{matriz(A[0])}")
    if not (np.all(A >= -1e-6) and np.allclose(A.sum(axis=-1), 1.0, rtol=0, atol=1e-3)):
        sumas = f"Sumas de las filas de cada mapa (una fila por cabeza):\n{matriz(A.sum(axis=-1))}"
        if np.any(A < -1e-6):
            return ("Tus mapas tienen valores negativos: no son los pesos de una softmax.\n"
                    "Causa probable: falta la softmax (devuelves las puntuaciones Q_i K_iᵀ tal cual). Cada "
                    "mapa es softmax(Q_i K_iᵀ / √d_k) fila a fila: resta a cada fila su máximo, aplica np.exp "
                    "y divide entre la suma de la fila.", sumas)
        if np.allclose(A.sum(axis=-2), 1.0, rtol=0, atol=1e-3):
            causa = "la softmax normaliza por columnas"
        elif np.allclose(A.sum(axis=(-2, -1)), 1.0, rtol=0, atol=1e-3):
            causa = "la softmax normaliza el mapa entero de una vez"
        elif np.allclose(A.sum(axis=0), 1.0, rtol=0, atol=1e-3):
            causa = "la softmax normaliza sobre el eje de las cabezas (axis=0)"
        else:
            causa = "falta dividir entre la suma de cada fila, o la softmax normaliza por otro eje"
        return ("Cada fila de cada mapa debe sumar 1, y no suman 1.\n"
                f"Causa probable: {causa}; el máximo y la suma van por filas: axis=-1 y keepdims=True.", sumas)
    if all(np.ptp(A[i]) < 1e-9 for i in range(3)):
        return ("Todos tus mapas son constantes (cada fila reparte el peso por igual): aún no calculas las "
                "puntuaciones softmax(Q_i K_iᵀ / √d_k) de cada cabeza.",
                f"Mapa obtenido de la cabeza 0:\n{matriz(A[0])}")
    # Una máscara causal (sección 11): ceros por encima de la diagonal en todos los mapas (o por debajo).
    for lado, dentro in (("encima", np.tri(4, dtype=bool)), ("debajo", np.tri(4, dtype=bool).T)):
        if all(np.all(A[i][~dentro] == 0) and np.all(A[i][dentro] > 0) for i in range(3)):
            return (f"Tus mapas tienen ceros por {lado} de la diagonal: cada posición sólo atiende a sí misma y a "
                    f"las {'anteriores' if lado == 'encima' else 'siguientes'}.\n"
                    "Causa probable: aplicas una máscara causal, la del decodificador (sección 11). `multi_head` es "
                    "la autoatención sin máscara, en la que cada posición atiende a todas: quita la máscara.",
                    f"Mapa esperado de la cabeza 0:\n{matriz(MAPAS[0])}\nobtenido:\n{matriz(A[0])}")
    # Los mapas salen de las puntuaciones: con Wq y Wk nulos todas valen 0 y los mapas cambian (son uniformes).
    X, Wq, Wk, Wv, Wo = caso()
    A_nulas = como_array(_par(llamar(funcion, X, 0 * Wq, 0 * Wk, Wv, Wo, H))[1], "A")
    if A_nulas.shape == A.shape and _iguales(A_nulas, A):
        return ("Tus mapas no cambian al cambiar Wq y Wk: no salen de las puntuaciones.\n"
                "Causa probable: un mapa fijo (la identidad, una permutación, uno que sólo mira la "
                "distancia entre posiciones) no es atención. Cada mapa es softmax(Q_i K_iᵀ / √d_k), "
                "con Q = X @ Wq y K = X @ Wk.",
                f"Mapa obtenido de la cabeza 0, con Wq y Wk y sin ellos:\n{matriz(A[0])}")
    # Los pesos traspuestos (X @ Wq.T, X @ Wk.T): con Wq.T y Wk.T en su lugar, sus mapas son los de la capa.
    X, Wq, Wk, Wv, Wo = caso()
    A_traspuestos = como_array(_par(llamar(funcion, X, Wq.T.copy(), Wk.T.copy(), Wv.T.copy(), Wo, H))[1], "A")
    if A_traspuestos.shape == MAPAS.shape and _iguales(A_traspuestos, MAPAS):
        return ("Los mapas no coinciden.\n"
                "Causa probable: proyectas con los pesos traspuestos (X @ Wq.T, X @ Wk.T): con Wq.T y Wk.T en su "
                "lugar, tus mapas son los de la capa. Las proyecciones son Q = X @ Wq, K = X @ Wk y V = X @ Wv, "
                "sin trasponer las matrices.",
                f"Mapa esperado de la cabeza 0:\n{matriz(MAPAS[0])}\nobtenido:\n{matriz(A[0])}")
    # Cada cabeza, su bloque: con Wq y Wk nulos fuera de las columnas 0 y 1 (las de la cabeza 0), las
    # puntuaciones de las cabezas 1 y 2 valen todas 0 y sus mapas son uniformes (1/T = 0.25). Entradas
    # nuevas en cada llamada: una función que escribe en X no cambia lo que ve la siguiente prueba.
    X, Wq, Wk, Wv, Wo = caso()
    Wq[:, 2:], Wk[:, 2:] = 0, 0
    A0 = como_array(_par(llamar(funcion, X, Wq, Wk, Wv, Wo, H))[1], "A")
    uniformes = [A0.shape == (3, 4, 4) and bool(np.allclose(A0[i], 0.25, **TOLERANCIA)) for i in range(3)]
    if uniformes != [False, True, True]:
        return ("Las cabezas no toman su bloque de columnas.\n"
                "Causa probable: la cabeza i usa Q[:, i*d_k:(i+1)*d_k] (ni Q[:, i::h], ni un "
                "reshape(h, T, d_k) sin transponer, ni un bloque desplazado) y los mapas van en el orden "
                "de las cabezas.",
                "La prueba: con Wq y Wk nulos salvo en las columnas 0 y 1, sólo el mapa de la cabeza 0 "
                "debería no ser uniforme.\n"
                "¿Uniforme? " + ", ".join(f"cabeza {i}: {'sí' if u else 'no'}" for i, u in enumerate(uniformes))
                + ".")
    # Cada cabeza, la X entera: con Wq y Wk reducidos a sus bloques diagonales, unos mapas que no cambian leen
    # sólo las d_k columnas de X de su cabeza (X[:, c] @ Wq[c, c]), la idea de la opción a de la pregunta 3.
    X, Wq, Wk, Wv, Wo = caso()
    A_bloques = como_array(_par(llamar(funcion, X, _bloques_diagonales(Wq, H), _bloques_diagonales(Wk, H), Wv, Wo,
                                       H))[1], "A")
    if not _iguales(A, MAPAS) and A_bloques.shape == A.shape and _iguales(A_bloques, A):
        return ("Los mapas no coinciden.\n"
                "Causa probable: cada cabeza lee sólo sus d_k columnas de X (`X[:, c] @ Wq[c, c]`), la idea de la "
                "opción a de la pregunta 3. Cada cabeza ve la X entera y toma sus columnas de las proyecciones: "
                "Q_i = X @ Wq[:, c] (igual K_i y V_i), con c = slice(i*d_k, (i+1)*d_k).",
                "La prueba: con Wq y Wk reducidos a sus bloques diagonales (d_k, d_k), tus mapas no cambian; los "
                "de la capa sí.\n"
                f"Mapa esperado de la cabeza 0:\n{matriz(MAPAS[0])}\nobtenido:\n{matriz(A[0])}")
    # X normalizada antes de proyectarla (la normalización de capa, o columna a columna): con 3·X + 0.5 las
    # puntuaciones de la capa cambian y sus mapas también; los de una X normalizada, no.
    X, Wq, Wk, Wv, Wo = caso()
    A_afin = como_array(_par(llamar(funcion, 3 * X + 0.5, Wq, Wk, Wv, Wo, H))[1], "A")
    if not _iguales(A, MAPAS) and A_afin.shape == A.shape and _iguales(A_afin, A):
        return ("Los mapas no coinciden.\n"
                "Causa probable: normalizas X antes de proyectarla (media 0 y varianza 1 en cada fila, la "
                "normalización de capa, o en cada columna). Esa normalización es del bloque completo del "
                "Transformer, fuera de la atención; multi_head proyecta la X tal como llega: Q = X @ Wq, "
                "K = X @ Wk, V = X @ Wv.",
                "La prueba: con 3·X + 0.5 en lugar de X, tus mapas no cambian; los de la capa sí.\n"
                f"Mapa esperado de la cabeza 0:\n{matriz(MAPAS[0])}\nobtenido:\n{matriz(A[0])}")
    for i in range(3):
        if _iguales(A[i], MAPAS[i]):
            continue
        # log A_i es la fila de puntuaciones salvo una constante: comparar sus pendientes delata la escala
        L, L_esp = (np.log(np.clip(M, 1e-300, None)) for M in (A[i], MAPAS[i]))
        L, L_esp = L - L.mean(axis=1, keepdims=True), L_esp - L_esp.mean(axis=1, keepdims=True)
        c = float(np.sum(L * L_esp) / np.sum(L_esp ** 2))
        causa = ("Causas probables: Q = X @ Wq y K = X @ Wk (no al revés), E = Q_i @ K_i.T (la fila t es la "
                 "consulta t frente a todas las claves) y la escala √d_k = √2.")
        if np.allclose(L, c * L_esp, atol=1e-3):
            if abs(c - np.sqrt(2 / 6)) < 1e-3:
                causa = "Causa probable: divides entre √d_model = √6 en lugar de entre √d_k = √2."
            elif abs(c - np.sqrt(2)) < 1e-3:
                causa = "Causa probable: no divides las puntuaciones entre √d_k = √2."
            elif abs(c - 1 / np.sqrt(2)) < 1e-3:
                causa = ("Causa probable: divides las puntuaciones entre 2: entre d_k = 2 en lugar de entre su "
                         "raíz, √d_k = √2, o entre √T = √4 = 2 (la escala es la de d_k, no depende del número "
                         "de posiciones). Si ya escribes np.sqrt(d_k), mira que d_k salga dentro de la función "
                         "(d_model // h): una d_k de otra celda del cuaderno no vale.")
            elif abs(c - 1) > 1e-3:
                causa = (f"Causa probable: la escala. Tus puntuaciones son {c:.3g} veces las esperadas: "
                         "Q_i K_iᵀ se divide entre √d_k = √2 (ni d_k, ni √d_model, ni √h).")
        return (f"El mapa de la cabeza {i} no coincide (mayor diferencia "
                f"{np.abs(A[i] - MAPAS[i]).max():.2g}).\n{causa}",
                f"esperado:\n{matriz(MAPAS[i])}\nobtenido:\n{matriz(A[i])}")
    return None


# --------------------------------------------------------------- celdas

def _fallo_si_poca_precision(funcion) -> None:
    """Falla aquí si el par del caso visible llega en float16 con los valores redondeados (``causa_de_poca_precision``)."""
    resultado = llamar(funcion, *caso(), H)
    if isinstance(resultado, (tuple, list)) and len(resultado) == 2:
        salida, A = _par(resultado)
        causa_16 = causa_de_poca_precision([salida, A], [SALIDA, MAPAS], ["salida", "A"],
                                           "los mapas, la salida, no modificar los argumentos, la robustez y la "
                                           "generalidad")
        if causa_16:
            fallo(causa_16, "Mira la celda del contrato.")


def contrato(espacio: dict) -> None:
    """El par ``(salida, A)``: dos ``np.ndarray`` float64 de formas (T, d_model) = (4, 6) y (h, T, T) = (3, 4, 4)."""
    funcion = funcion_del_cuaderno(espacio, "multi_head")
    salida, A = _par(llamar(funcion, *caso(), H), en_su_orden=False)
    if np.shape(salida) == (3, 4, 4) and np.shape(A) == (4, 6):
        fallo("Devuelves (A, salida): el orden es (salida, A). Sólo lo cobra esta celda: las de los mapas y "
              "la salida leen el par en su orden.")
    pistas = {(4, 4, 3): "Parece (T, T, h): apila los mapas con np.stack(mapas), que añade el eje 0. Si los "
                         "mapas están bien, sólo lo cobra esta celda: la de los mapas los lee en su orden.",
              (4, 3, 4): "Parece (T, h, T): el eje de las cabezas va primero; transpón con .transpose(1, 0, 2). "
                         "Si los mapas están bien, sólo lo cobra esta celda: la de los mapas los lee en su orden.",
              (6, 4): "Es la salida traspuesta, (d_model, T): una fila por posición, como X. Sólo lo cobra esta "
                      "celda: la de la salida la lee traspuesta.",
              (4, 12): "Parece (T, h·T): los mapas de las cabezas uno al lado de otro (np.hstack o "
                       "np.concatenate). Apílalos en un eje nuevo, el primero, con np.stack(mapas).",
              (12, 4): "Parece (h·T, T): los mapas de las cabezas uno debajo de otro (np.vstack o "
                       "np.concatenate). Apílalos en un eje nuevo, el primero, con np.stack(mapas)."}
    for nombre, valor, forma in (("salida", salida, (4, 6)), ("A", A, (3, 4, 4))):
        if type(valor) is not np.ndarray:
            fallo(f"`{nombre}` debe ser un np.ndarray y es {type(valor).__module__}.{type(valor).__name__}.",
                  "Si es una lista de arrays, apílala con np.stack; no uses np.matrix (np.asarray la convierte).")
        if valor.shape != forma:
            pista = pistas.get(valor.shape, "")
            if _sin_eje_de_lote(valor, len(forma)).shape == forma:
                pista = ("Sobra el eje de tamaño 1 de delante (¿un eje de lote, x[None] o np.expand_dims?): el "
                         "contrato no lleva eje de lote. Si los valores están bien, sólo lo cobra esta celda: las "
                         "demás leen tus arrays sin ese eje.")
            fallo(f"`{nombre}` debería tener forma {forma} y tiene {valor.shape}.", pista)
        if valor.dtype.kind == "c":
            fallo(f"`{nombre}` debería ser float64 y es {valor.dtype}: números complejos. Quédate con la parte "
                  "real, np.real(...), o calcula con funciones reales.")
        if valor.dtype != np.float64:
            fallo(f"`{nombre}` debería ser float64 y es {valor.dtype}: si calculas en otra precisión, "
                  "convierte al final con .astype(np.float64).")
    aprobado("Contrato correcto en el caso visible.")


def _orden_de_los_ejes(A: np.ndarray, esperado: np.ndarray) -> tuple | None:
    """El orden de los ejes con el que ``A``, de otra forma, da los mapas ``esperado``, o None.

    Unos mapas apilados en otro eje, (T, h, T) o (T, T, h), tienen dos órdenes
    posibles; si uno de ellos da los valores esperados, los mapas se leen así y
    sólo la celda del contrato cobra la forma, como en la nota.
    """
    if A.ndim != 3 or A.shape == esperado.shape:
        return None
    for orden in itertools.permutations(range(3)):
        leido = np.transpose(A, orden)
        if leido.shape == esperado.shape and _iguales(leido, esperado):
            return orden
    return None


def mapas(espacio: dict) -> None:
    """Los mapas A: filas que suman 1, el bloque de cada cabeza y los valores, también con otras dos formas."""
    funcion = funcion_del_cuaderno(espacio, "multi_head")
    _fallo_si_poca_precision(funcion)
    A = como_array(_par(llamar(funcion, *caso(), H))[1], "A")
    orden = _orden_de_los_ejes(A, MAPAS)
    if orden is not None:
        for (T, d_model, h), esperado in MAPAS_OTRAS_FORMAS.items():
            otro = como_array(_par(llamar(funcion, *otro_caso(T, d_model), h))[1], "A")
            if _orden_de_los_ejes(otro, esperado) is None:
                fallo(f"Con T = {T}, d_model = {d_model}, h = {h} (d_k = {d_model // h}) tus mapas no coinciden "
                      f"con los esperados, ni leídos con los ejes en otro orden (forma {otro.shape}).")
        aprobado(f"Mapas correctos en el caso visible y en las otras formas, leídos con los ejes en el orden del "
                 f"contrato: llegan con forma {A.shape} en lugar de (h, T, T) = (3, 4, 4). Esa forma la descuenta "
                 "la celda del contrato.")
        return
    problema = _diagnostico_de_los_mapas(funcion)
    if problema:
        fallo(*problema)
    for (T, d_model, h), esperado in MAPAS_OTRAS_FORMAS.items():
        A = como_array(_par(llamar(funcion, *otro_caso(T, d_model), h))[1], "A")
        forma = f"T = {T}, d_model = {d_model}, h = {h} (d_k = {d_model // h})"
        if A.shape != esperado.shape:
            fallo(f"Con {forma}, A debería tener forma {esperado.shape} y tiene {A.shape}.")
        if not _iguales(A, esperado):
            i, t, s = np.unravel_index(np.argmax(np.abs(A - esperado)), A.shape)
            fallo(f"Con {forma} los mapas no coinciden.\n"
                  "Causa probable: algo depende de una forma fija. d_k = d_model // h y la escala √d_k salen "
                  "de los argumentos (ningún número fijo) y cada cabeza usa sus d_k columnas enteras, "
                  "también si d_k es impar.",
                  f"La mayor diferencia está en la cabeza {i}, fila {t}, columna {s}: se esperaba "
                  f"{esperado[i, t, s]:.4f} y es {A[i, t, s]:.4f}.\n"
                  f"Mapa esperado de la cabeza {i}:\n{matriz(esperado[i])}\nobtenido:\n{matriz(A[i])}")
    aprobado("Mapas correctos en el caso visible y en las otras formas."
             + ("\n" + AVISO_EJE_DE_LOTE if _con_eje_de_lote(llamar(funcion, *caso(), H)) else ""))


def salida(espacio: dict) -> None:
    """La salida: la concatenación de las cabezas en su orden (con Wo = I) y por Wo, también con otras formas.

    Si la salida no coincide porque los mapas ya fallan, lo dice y no busca
    otra causa.
    """
    funcion = funcion_del_cuaderno(espacio, "multi_head")
    _fallo_si_poca_precision(funcion)
    entradas = caso()
    resultado = llamar(funcion, *caso(), H)
    obtenida = como_array(_par(resultado)[0], "La salida")
    traspuesta = obtenida.shape == (6, 4)
    obtenida = _en_su_forma(obtenida, 4, 6)
    if obtenida.shape != (4, 6):
        fallo(f"La salida debería tener forma (T, d_model) = (4, 6) y tiene {obtenida.shape}.",
              "Mira la celda del contrato.")
    if not _iguales(obtenida, SALIDA):
        problema = _diagnostico_de_los_mapas(funcion)
        if problema:
            titular, _, causa = problema[0].partition("\n")
            fallo("La salida no coincide porque los mapas tampoco (celda multi_head_mapas): "
                  + titular[0].lower() + titular[1:] + ("\n" + causa if causa else ""),
                  "Con tus propios mapas, la salida está bien calculada: corrige los mapas y esta celda "
                  "pasará." if _salida_de_tus_mapas(obtenida, _par(resultado)[1], entradas) else
                  "Corrige primero los mapas; si después esta celda sigue fallando, mira cómo juntas las "
                  "cabezas y la proyección W^O.")
        _diagnostico_de_la_salida(funcion, obtenida)
    for (T, d_model, h), esperada in SALIDAS_OTRAS_FORMAS.items():
        otra_salida, otros_mapas = _par(llamar(funcion, *otro_caso(T, d_model), h))
        otra = _en_su_forma(como_array(otra_salida, "La salida"), T, d_model)
        forma = f"T = {T}, d_model = {d_model}, h = {h} (d_k = {d_model // h})"
        if otra.shape != esperada.shape:
            fallo(f"Con {forma}, la salida debería tener forma {esperada.shape} y tiene {otra.shape}.")
        if not _iguales(otra, esperada):
            t, j = np.unravel_index(np.argmax(np.abs(otra - esperada)), otra.shape)
            mapas_mal = not _iguales(otros_mapas, MAPAS_OTRAS_FORMAS[(T, d_model, h)])
            fallo(f"Con {forma} la salida no coincide"
                  + (" porque los mapas tampoco (celda multi_head_mapas)" if mapas_mal else "") + ".\n"
                  "Causa probable: algo depende de una forma fija (d_k, la escala o el número de cabezas).",
                  f"La mayor diferencia está en la fila {t}, columna {j}: se esperaba {esperada[t, j]:.4f} "
                  f"y es {otra[t, j]:.4f}.\nesperada:\n{matriz(esperada, 3)}\nobtenida:\n{matriz(otra, 3)}")
    aprobado("Salida correcta en el caso visible y en las otras formas."
             + ("\n" + AVISO_EJE_DE_LOTE if _con_eje_de_lote(resultado) else "")
             + ("\nTu salida llega traspuesta, (d_model, T): aquí se lee con una fila por posición. La forma la "
                "descuenta la celda del contrato." if traspuesta else ""))


def _salida_de_tus_mapas(obtenida: np.ndarray, A, entradas: tuple) -> bool:
    """Si ``obtenida`` es Concat(A_i·V_i)·W^O con los mapas ``A`` devueltos (bloques contiguos)."""
    X, _, _, Wv, Wo = entradas
    A = np.asarray(A, dtype=np.float64)
    if A.shape != (3, 4, 4):
        return False
    V = X @ Wv
    concatenacion = np.concatenate([A[i] @ V[:, 2 * i:2 * i + 2] for i in range(3)], axis=1)
    return _iguales(concatenacion @ Wo, obtenida)


def _concatenacion_del_caso(V: np.ndarray, mapas: np.ndarray = MAPAS) -> np.ndarray:
    """Concat(mapas_i @ V_i) del caso visible (bloques contiguos de d_k = 2 columnas), (4, 6)."""
    return np.concatenate([mapas[i] @ V[:, 2 * i:2 * i + 2] for i in range(H)], axis=1)


def _error_conocido_de_la_salida(obtenida: np.ndarray) -> str | None:
    """Con los mapas bien, el error conocido del final de la capa que da ``obtenida`` en el caso visible, o None.

    Los valores proyectados con otra matriz, sin W^V, cada cabeza con su mapa traspuesto, todas las cabezas
    con el mismo bloque de Wo, o la salida multiplicada por una constante (V dividida también entre √d_k,
    las cabezas proyectadas y promediadas).
    """
    X, Wq, Wk, Wv, Wo = caso()
    conocidos = (
        (_concatenacion_del_caso(X @ Wq) @ Wo,
         "los valores salen de Wq (V = X @ Wq): V se proyecta con su propia matriz, V = X @ Wv."),
        (_concatenacion_del_caso(X @ Wk) @ Wo,
         "los valores salen de Wk (V = X @ Wk): V se proyecta con su propia matriz, V = X @ Wv."),
        (_concatenacion_del_caso(X) @ Wo,
         "cada cabeza lee los valores de X directamente (X[:, bloque]), sin W^V: V = X @ Wv y la cabeza i usa "
         "V[:, i*d_k:(i+1)*d_k]."),
        (_concatenacion_del_caso(X @ Wv, MAPAS.transpose(0, 2, 1)) @ Wo,
         "cada cabeza multiplica V por su mapa traspuesto (A_i.T @ V_i): la cabeza i da A_i @ V_i, los mismos "
         "mapas que devuelves."),
        (_concatenacion_del_caso(X @ Wv @ Wo),
         "multiplicas por Wo antes de tiempo: V = X @ Wv @ Wo y después cada cabeza lee su bloque de ese V. "
         "Wo mezcla las cabezas y va al final, sobre la concatenación de las salidas de todas: salida = "
         "concat @ Wo."),
        (X + SALIDA,
         "sumas X a la salida (una conexión residual). En el artículo esa suma va fuera de la atención, en "
         "«Add & Norm»; multi_head devuelve concat @ Wo sin sumar X."),
        (sum(MAPAS[i] @ (X @ Wv)[:, 2 * i:2 * i + 2] @ Wo[:2] for i in range(H)),
         "proyectas cada cabeza con las mismas filas de Wo (Wo[:d_k]) y sumas: la cabeza i usa sus propias "
         "filas, Wo[i*d_k:(i+1)*d_k] (sumar así es lo mismo que concat @ Wo)."),
    )
    for esperada, causa in conocidos:
        if _iguales(obtenida, esperada):
            return causa
    vivas = np.abs(SALIDA) > 1e-6
    apagadas, quedan = vivas & (obtenida == 0), vivas & (obtenida != 0)
    if apagadas.any() and quedan.sum() >= max(2, apagadas.sum()):
        k = float(np.median(obtenida[quedan] / SALIDA[quedan]))
        if k >= 1 - 1e-9 and np.allclose(obtenida[quedan], k * SALIDA[quedan], **TOLERANCIA):
            return (f"aplicas dropout (o una máscara al azar) a la salida: {int(apagadas.sum())} de sus 24 valores "
                    f"valen 0 y los demás son los esperados multiplicados por {k:.3g}. multi_head calcula la capa "
                    "tal cual, sin nada al azar: el dropout se aplica al entrenar, fuera de esta función.")
    k = float(np.sum(obtenida * SALIDA) / np.sum(SALIDA * SALIDA))
    if abs(k - 1) > 1e-3 and _iguales(obtenida, k * SALIDA):
        if abs(k - 1 / np.sqrt(2)) < 1e-3:
            return ("tu salida es la esperada dividida entre √d_k = √2: divides también los valores (o la salida "
                    "de las cabezas) entre √d_k. La escala sólo toca las puntuaciones, Q_i K_iᵀ / √d_k.")
        if abs(k - 1 / H) < 1e-3:
            return ("tu salida es la esperada dividida entre h = 3: promedias las cabezas (ya proyectadas con "
                    "sus filas de Wo) en lugar de sumarlas; sumarlas es lo mismo que concat @ Wo.")
        return (f"tu salida es {k:.3g} veces la esperada: sobra (o falta) un factor constante al final de la "
                "capa; ni V ni la salida de las cabezas se escalan.")
    return None


def _diagnostico_de_la_salida(funcion, obtenida: np.ndarray) -> None:
    """Con los mapas bien y la salida mal: qué parte del final de la capa falla."""
    escritos = _argumentos_escritos(funcion)
    if escritos:
        nombres = " y ".join(", ".join(f"`{n}`" for n in escritos).rsplit(", ", 1))
        M = escritos[0]
        fallo("La salida no coincide, aunque los mapas están bien.\n"
              f"Causa probable: tu función cambia {nombres} en su sitio (`{M} /= ...`, `{M} -= ...`): lo que calcula "
              "después usa los valores cambiados (V = X @ Wv sale de la X cambiada), y quien la llama pierde los "
              f"suyos. Trabaja sobre un array nuevo (`{M} = {M} / ...`) o una copia (`{M} = {M}.copy()`); si querías "
              "escalar las puntuaciones, divide Q_i @ K_i.T entre √d_k.",
              f"esperada:\n{matriz(SALIDA)}\nobtenida:\n{matriz(obtenida)}")
    if not np.any(obtenida):
        fallo("Tu salida es todo ceros, aunque los mapas están bien: aún no calculas la salida.\n"
              "Cada cabeza da A_i @ V_i (con V = X @ Wv y sus d_k columnas); se juntan lado a lado, en su "
              "orden, y se multiplican por Wo: salida = concat @ Wo.")
    conocido = _error_conocido_de_la_salida(obtenida)
    if conocido:
        fallo("La salida no coincide, aunque los mapas están bien.\nCausa probable: " + conocido,
              f"esperada:\n{matriz(SALIDA)}\nobtenida:\n{matriz(obtenida)}")
    X, Wq, Wk, Wv, _ = caso()
    concatenacion = como_array(_par(llamar(funcion, X, Wq, Wk, Wv, np.eye(6), H))[0], "La salida")
    for i in range(3):
        bloque = concatenacion[:, 2 * i:2 * i + 2] if concatenacion.shape == (4, 6) else None
        if bloque is not None and _iguales(bloque, CONCATENACION[:, 2 * i:2 * i + 2]):
            continue
        otras = [j for j in range(3) if bloque is not None and _iguales(bloque, CONCATENACION[:, 2 * j:2 * j + 2])]
        fallo(f"Con Wo = I, las columnas {2 * i} y {2 * i + 1} de la salida deberían ser la salida de la "
              f"cabeza {i}, A_{i} @ V_{i}, y no lo son.\n"
              + (f"Es la salida de la cabeza {otras[0]}: concatena las cabezas en su orden, la 0 primero."
                 if otras else
                 "Causas probables: al juntar las cabezas hay que pasar de (h, T, d_k) a (T, h, d_k) con "
                 "transpose(1, 0, 2) antes del reshape(T, d_model); las cabezas se concatenan, no se "
                 "promedian ni se suman; cada cabeza multiplica su mapa por sus columnas de V."),
              f"esperadas:\n{matriz(CONCATENACION[:, 2 * i:2 * i + 2])}\n"
              f"obtenidas:\n{matriz(bloque) if bloque is not None else concatenacion.shape}")
    if _iguales(obtenida, CONCATENACION):
        fallo("La salida es la concatenación de las cabezas sin proyectar: falta multiplicarla por Wo "
              "(salida = concat @ Wo).")
    fallo(f"La salida no coincide (mayor diferencia {np.abs(obtenida - SALIDA).max():.2g}), aunque los mapas y "
          "la concatenación están bien.\nCausa probable: la proyección final es concat @ Wo (no Wo @ concat "
          "ni concat @ Wo.T).",
          f"esperada:\n{matriz(SALIDA)}\nobtenida:\n{matriz(obtenida)}")


def no_modifica(espacio: dict) -> None:
    """X, Wq, Wk, Wv y Wo quedan como estaban (con h = 2, 3 y 4), y la función hace su trabajo."""
    funcion = funcion_del_cuaderno(espacio, "multi_head")
    for h in (2, 3, 4):
        argumentos = entradas_no_modifica(h)
        try:
            llamar(funcion, *argumentos, h)
        except PruebaVisibleFallida as exc:
            if not _acierta_el_caso_visible(_resultado_o_nada(funcion)):
                raise
            # acierta el caso visible (d_model = 6, h = 3) y lanza con otra forma: la causa es la forma fija,
            # como dicen los mapas, no la que sugiere el tipo de excepción (el alumno 22b: «Si promedias o
            # sumas las cabezas…» para un d_k = 2 escrito a mano)
            fallo(f"Con T = 5, d_model = 12 y h = {h} (d_k = {12 // h}), {exc.mensaje.splitlines()[0]}\n"
                  "Causa probable: algo depende de una forma fija (d_k, la escala o el número de cabezas): con el "
                  "caso visible funciona. d_k = d_model // h sale de los argumentos, como la escala √d_k y el "
                  "número de cabezas.", exc.detalle)
        for nombre, antes, despues in zip(("X", "Wq", "Wk", "Wv", "Wo"), entradas_no_modifica(h), argumentos):
            if not np.array_equal(antes, despues):
                fallo(f"Con h = {h}, multi_head ha escrito en `{nombre}`.\n"
                      "Operaciones como `M /= ...`, `M -= ...` o `M[...] = ...` cambian el array de quien "
                      "llama: escribe `M = M / ...` o trabaja sobre una copia (`M = M.copy()`).")
    _fallo_si_poca_precision(funcion)
    resultado = llamar(funcion, *caso(), H)
    if not trabajo_hecho(resultado, funcion):
        if trabajo_hecho(resultado, funcion, cabezas=(2, 4)):
            # al calificar, cada caso (h = 2, 3 y 4) puntúa si en él hay trabajo: aquí, sólo una parte
            fallo("Con h = 3 tu función no calcula nada de la capa (con h = 2 o h = 4, sí): dejar intactos los "
                  "argumentos sólo puntúa, también al calificar, en los casos en que calcula algo (unos mapas que "
                  "salgan de Q y K y una salida calculada con ellos y con V). Empieza por la celda de los mapas: "
                  "cada cabeza usa su propio bloque de columnas.")
        fallo(_sin_trabajo("dejar intactos los argumentos", resultado))
    aprobado("Argumentos intactos con h = 2, 3 y 4.")


def _acierta_el_caso_visible(resultado) -> bool:
    """Si los valores del caso visible están bien (un par al revés se lee en su orden: lo cobra el contrato)."""
    if not (isinstance(resultado, (tuple, list)) and len(resultado) == 2):
        return False
    salida, A = _par(resultado)
    return _iguales(_en_su_forma(salida, 4, 6), SALIDA) and _iguales(_en_el_orden_de_los_ejes(A, resultado), MAPAS)


def _resultado_o_nada(funcion):
    """Lo que devuelve la función con el caso visible, o None si lanza."""
    try:
        with salida_del_alumno():
            return funcion(*caso(), H)
    except Exception:  # noqa: BLE001 - la celda ya cuenta la excepción con su propia llamada
        return None


def _acierta_las_otras_formas(funcion, resultado_visible) -> bool:
    """Si los mapas y la salida de las otras formas (``MAPAS_OTRAS_FORMAS``, ``SALIDAS_OTRAS_FORMAS``) están bien."""
    for (T, d_model, h), mapas_esperados in MAPAS_OTRAS_FORMAS.items():
        try:
            with salida_del_alumno():
                otro = funcion(*otro_caso(T, d_model), h)
        except Exception:  # noqa: BLE001 - lo cuentan las celdas de los mapas y la salida
            return False
        if not (isinstance(otro, (tuple, list)) and len(otro) == 2):
            return False
        salida, A = _par(otro)
        esperada = SALIDAS_OTRAS_FORMAS.get((T, d_model, h))
        try:
            if not _iguales(_en_el_orden_de_los_ejes(A, resultado_visible), mapas_esperados) or (
                    esperada is not None and not _iguales(_en_su_forma(salida, T, d_model), esperada)):
                return False
        except (TypeError, ValueError):
            return False
    return True


def _en_el_orden_de_los_ejes(A, resultado_visible) -> np.ndarray:
    """``A`` leído con el orden de los ejes que da los mapas del caso visible (``_orden_de_los_ejes``), si lo hay.

    Como en la nota: unos mapas bien calculados y apilados en otro eje sólo los
    cobra el contrato.
    """
    A = np.asarray(A, dtype=np.float64)
    try:
        visible = np.asarray(_par(resultado_visible)[1], dtype=np.float64)
    except (TypeError, ValueError):
        return A
    orden = _orden_de_los_ejes(visible, MAPAS)
    return np.transpose(A, orden) if orden is not None and A.ndim == 3 else A


def _en_su_forma(salida, T: int, d_model: int):
    """La salida como (T, d_model): si llegó traspuesta, (d_model, T) con T ≠ d_model, se lee traspuesta.

    Como en la nota: la forma la descuenta sólo la celda del contrato.
    """
    array = np.asarray(salida) if isinstance(salida, np.ndarray) else None
    return array.T if array is not None and T != d_model and array.shape == (d_model, T) else salida


def _formas_bien(resultado) -> list[bool]:
    """Si la salida y A tenían, con el caso visible, las formas del contrato (leído el par en su orden)."""
    salida, A = _par(resultado)
    return [np.shape(salida) == (4, 6), np.shape(A) == (3, 4, 4)]


def _sin_nan_ni_inf(que: str, resultado, formas: tuple, formas_bien: list[bool], pista: str = "") -> None:
    """Las formas del contrato (si estaban bien en el caso visible) y todo finito."""
    for nombre, valor, forma, bien in zip(("salida", "A"), _par(resultado), formas, formas_bien):
        valor = como_array(valor, f"`{nombre}`")
        if bien and valor.shape != forma:
            fallo(f"{que}, `{nombre}` debería tener forma {forma} y tiene {valor.shape}.")
        if not np.all(np.isfinite(valor)):
            fallo(f"{que}, `{nombre}` contiene nan o inf." + (f"\n{pista}" if pista else ""))


def _regla_de_control(funcion, celda: str) -> tuple[bool, list[bool]]:
    """La regla de la nota con el caso visible: ``(caso visible bien, formas bien)``.

    Si la función ya falla con el caso visible y no hace ningún trabajo, la
    celda falla aquí mismo (sin trabajo hecho no puntúa).
    """
    resultado = llamar(funcion, *caso(), H)
    _par(resultado)
    _fallo_si_poca_precision(funcion)
    # como en la nota, cuyos casos de control son los de las celdas de valores: el caso visible y las otras
    # formas de las celdas de los mapas y la salida (una escala fija √2 acierta el caso visible y falla las
    # otras: eso ya lo descuentan los mapas, y aquí sólo se juzga lo propio)
    bien = _acierta_el_caso_visible(resultado) and _acierta_las_otras_formas(funcion, resultado)
    if not bien and not trabajo_hecho(resultado, funcion, cabezas=(3, 2, 4)):
        fallo(_sin_trabajo(celda, resultado))
    if not bien:
        for nombre, valor, forma in zip(("salida", "A"), _par(resultado), ((4, 6), (3, 4, 4))):
            if not _forma_legible(valor, forma):
                fallo(f"`{nombre}` llega con forma {_forma(valor)}, que no es {forma} ni con los ejes en otro orden "
                      f"(ni con uno de más o de menos): sin una forma de partida, {celda} juzga los valores "
                      "enteros, como al calificar, y tu función ya falla con el caso visible.",
                      "Mira la celda del contrato.")
    return bien, _formas_bien(resultado)


def _forma_legible(valor, forma: tuple) -> bool:
    """Si ``valor`` es un array de números con los ejes de ``forma`` en algún orden, cada uno con su longitud o
    una más o una menos (la regla de control de la nota: una forma así la descuenta el contrato)."""
    tiene = _forma(valor)
    return len(tiene) == len(forma) and any(
        all(abs(tiene[k] - n) <= 1 for k, n in zip(orden, forma)) for orden in itertools.permutations(range(len(forma))))


def robustez(espacio: dict) -> None:
    """Con X multiplicada por 20 y por 60 hay puntuaciones de más de mil: todo finito y, si el caso visible está bien, exacto (con 20)."""
    funcion = funcion_del_cuaderno(espacio, "multi_head")
    bien, formas_bien = _regla_de_control(funcion, "la robustez")
    pista = ("Causa probable: la softmax no resta el máximo de cada fila antes de np.exp. Sin restar nada, "
             "np.exp(1000) desborda a inf, e inf / inf da nan; restando el máximo de todas las puntuaciones "
             "(no el de cada fila), o el de otra fila (E.max(axis=-1) sin keepdims=True resta a la columna t "
             "el máximo de la fila t), una fila lejana de él da np.exp(-1000) = 0 en todas sus columnas, y "
             "0 / 0 da nan.")
    visible = llamar(funcion, *caso(), H)
    resultado = llamar(funcion, *caso(escala=20), H)
    _sin_nan_ni_inf("Con X multiplicada por 20", resultado, ((4, 6), (3, 4, 4)), formas_bien, pista=pista)
    # la nota llega a X multiplicada por 60: lo que allí da nan o inf resta aquí también (issue 22, octavo
    # alumno: el máximo sin keepdims pasaba con 20 y perdía medio punto al calificar)
    _sin_nan_ni_inf("Con X multiplicada por 60", llamar(funcion, *caso(escala=60), H), ((4, 6), (3, 4, 4)),
                    formas_bien, pista=pista)
    if not bien:
        aprobado("Nada que restar aquí: sin nan ni inf con X multiplicada por 20 ni por 60. Tu función ya "
                 "falla con el caso visible, y eso lo descuentan las celdas de los mapas y de la salida.")
        return
    salida_x20, A_x20 = (np.asarray(v, dtype=np.float64) for v in _par(resultado))
    salida_x20, A_x20 = _en_su_forma(salida_x20, 4, 6), _en_el_orden_de_los_ejes(A_x20, visible)
    if not _iguales(A_x20, MAPAS_X20):
        fallo("Con X multiplicada por 20 los mapas no son los esperados: cada fila debería poner todo su "
              "peso en su mayor puntuación.",
              f"esperados:\n{matriz(MAPAS_X20, 2)}\nobtenidos:\n{matriz(A_x20, 4)}")
    if not _iguales(salida_x20, SALIDA_X20):
        fallo("Con X multiplicada por 20 la salida no es la esperada (los mapas sí lo son).",
              f"esperada:\n{matriz(SALIDA_X20, 2)}\nobtenida:\n{matriz(salida_x20, 2)}")
    aprobado("Robustez correcta en el caso visible.")


def generalidad(espacio: dict) -> None:
    """h = 1 es la atención de una cabeza; T = 1 y h = d_model también funcionan."""
    funcion = funcion_del_cuaderno(espacio, "multi_head")
    bien, formas_bien = _regla_de_control(funcion, "la generalidad")
    X, Wq, Wk, Wv, Wo = caso()
    visible = llamar(funcion, *caso(), H)
    con_h1 = llamar(funcion, *caso(), 1)              # h = 1: una cabeza con d_k = 6
    con_T1 = llamar(funcion, *caso(T=1), H)           # T = 1: una sola posición
    con_h6 = llamar(funcion, *caso(), 6)              # h = d_model = 6: d_k = 1
    _sin_nan_ni_inf("Con h = 1", con_h1, ((4, 6), (1, 4, 4)), formas_bien)
    _sin_nan_ni_inf("Con T = 1", con_T1, ((1, 6), (3, 1, 1)), formas_bien)
    _sin_nan_ni_inf("Con h = d_model = 6", con_h6, ((4, 6), (6, 4, 4)), formas_bien)
    if not bien:
        aprobado("Nada que restar aquí: sin excepciones, nan ni inf con h = 1, T = 1 y h = d_model. Tu "
                 "función ya falla con el caso visible, y eso lo descuentan las celdas de los mapas y de "
                 "la salida.")
        return
    # h = 1 es la atención de una cabeza, softmax(Q Kᵀ / √6) V, seguida de Wo.
    puntuaciones = (X @ Wq) @ (X @ Wk).T / np.sqrt(6)                  # (T, T), d_k = 6
    mapa = np.exp(puntuaciones - puntuaciones.max(axis=1, keepdims=True))
    mapa = mapa / mapa.sum(axis=1, keepdims=True)
    salida_h1, A_h1 = (np.asarray(v, dtype=np.float64) for v in _par(con_h1))
    salida_h1, A_h1 = _en_su_forma(salida_h1, 4, 6), _en_el_orden_de_los_ejes(A_h1, visible)
    if not _iguales(A_h1[0], mapa):
        fallo("Con h = 1 el mapa debería ser el de la atención de una cabeza, softmax(Q Kᵀ / √6).",
              f"esperado:\n{matriz(mapa)}\nobtenido:\n{matriz(A_h1[0])}")
    if not _iguales(salida_h1, mapa @ X @ Wv @ Wo):
        fallo("Con h = 1 la salida debería ser A (X Wv) Wo: ¿se multiplica por Wo también cuando h = 1?")
    salida_T1, A_T1 = (np.asarray(v, dtype=np.float64) for v in _par(con_T1))
    salida_T1 = _en_su_forma(salida_T1, 1, 6)
    if not np.allclose(A_T1, 1.0, **TOLERANCIA):
        fallo("Con T = 1 cada mapa es [[1.]] y A debería ser np.ones((3, 1, 1)).",
              f"ha llegado {A_T1.round(4).tolist()}.")
    if not _iguales(salida_T1, X[:1] @ Wv @ Wo):
        fallo("Con T = 1 la salida debería ser X Wv Wo (la única posición se atiende a sí misma).")
    if not np.allclose(_en_el_orden_de_los_ejes(_par(con_h6)[1], visible).sum(axis=-1), 1.0, rtol=0, atol=1e-3):
        fallo("Con h = d_model cada fila de cada mapa debería sumar 1.")
    aprobado("Generalidad correcta en el caso visible.")
