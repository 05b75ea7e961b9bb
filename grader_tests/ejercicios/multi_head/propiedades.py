"""What the cells of ``multi_head`` check, with their tolerance and points (trusted side only).

The contract (lesson 1, exercise): ``multi_head(X, Wq, Wk, Wv, Wo, h)``
returns the pair ``(salida, A)``, float64 arrays of shapes (T, d_model) and
(h, T, T), compared with ``np.allclose(rtol=1e-4, atol=1e-6)`` (float32
arithmetic inside passes).  Generalidad (h = 1, h = d_model, T = 1, odd d_k,
h = 5) is partly checked only at grading time, as the lesson says.

``TRABAJO``: besides a whole array right, what shows that a wrong
``multi_head`` did real work (``grader_tests.juez.propiedades``, points only for
work done): one head's map right, or maps that come from the scores the way
attention's do (``mapas_de_las_puntuaciones``: some map, or the quotient of
two maps, is the softmax of c·Q_J·K_Jᵀ for some group J of at least d_k − 1
columns, c ≥ 1/(100·√d_k), whichever axis the softmax normalises).  A mistake in the maps alone (the
scale, the softmax's axis, Q and K swapped, K = X·W^Q, heads split into
other columns) keeps the second; shifted heads keep the first; maps that do
not depend on Q and K (zeros, uniform, the identity, any fixed permutation)
keep neither, whatever the output; nor do maps of a single column repeated
in every head, or scores shrunk until the maps are uniform.  The heads split
with ``reshape(h, T, d_k)`` without the transpose keep the second too.

Two honest mistakes of a whole layer keep their work too (issue 22, the seventh student's report B2-1):
heads that read only their own d_k columns of X (``X[:, c] @ Wq[c, c]``: W^Q, W^K and W^V used by their
diagonal blocks, ``_bloques_diagonales``), and a function that writes into its arguments before computing
(``X -= X.mean(axis=0)``, ``X /= c``, ``Wq /= √d_k``): its work is read with the arguments as the call left
them too, when each is an affine transform of what was passed, column by column or row by row
(``entradas_posibles``; a fixed matrix written over X is not).  The writing is charged once, by
``no_modifica``.

``TRABAJO_NECESARIO``: whatever piece holds, the output must be computed with
the maps the call returns (``salida_calculada``; an honest mistake at the end of
the layer, V from W^Q or W^K, V divided by √d_k, the same block of W^O for every
head, the projected heads averaged, keeps it: issue 22, eighth student): maps
next to a zero or constant output are no work (issue 19, ninth attack); and at most one of the
four weight matrices W^Q, W^K, W^V and W^O may be left out of the work
(``usa_las_matrices``, from the routes the two pieces recognised): each
honest mistake forgets one (K = X·W^Q, Q = X·W^K, V = X, no W^O), but the
allowances stacked let softmax(Q·Qᵀ) copied into every head with an output
A·X, using W^Q alone, earn 4 of 10 (issue 19, tenth attack).  The visible tests
(``source/01_atencion_multicabeza/pruebas_multi_head.py``) check the same
pieces on their visible case.
"""
import numpy as np

from grader_tests.en_el_kernel.serializacion import deserializar
from grader_tests.juez.propiedades import (VARIACION_MINIMA, alguna_linea_igual, arrays_devueltos, contrato,
                                           en_cualquier_orden, no_modifica, pieza, resultado, valores)

RESULTADO = resultado(("salida", ("T", "d_model")), ("A", ("h", "T", "T")))
TOLERANCIA = {"rtol": 1e-4, "atol": 1e-6}

PROPIEDADES = {
    "contrato": contrato("forma y tipo de lo que devuelve"),
    "mapas": valores("los mapas de atención A", 3, parte="A"),
    "salida": valores("la salida final", 3, parte="salida"),
    "no_modifica": no_modifica("no escribir en los argumentos"),
    "robustez": valores("puntuaciones de más de mil sin nan ni inf", 1, no_repite=True),
    "generalidad": valores("formas poco habituales (h = 1, h = d_model, T = 1)", 1, no_repite=True,
                           solo_al_calificar=True),
}


def _mapas_devueltos(llamada) -> list[np.ndarray]:
    """Every returned array that reads as h maps (T, T), in any axis order."""
    X, h = llamada.argumentos[0], int(llamada.argumentos[5])
    T = np.shape(X)[0]
    return [m for a in arrays_devueltos(llamada) for m in en_cualquier_orden(a, (h, T, T))]


def un_mapa_correcto(llamada) -> bool:
    """One head's map equals the map of some head of the reference (a head computed right)."""
    _, A_ref = llamada.referencia()
    T = A_ref.shape[1]
    referencias = A_ref.reshape(-1, T * T)
    return any(alguna_linea_igual(m.reshape(-1, T * T), referencias, TOLERANCIA) for m in _mapas_devueltos(llamada))


# ------------------------------------------- the arguments the call worked with

# How close a written argument must be to an affine transform of the one passed (relative residual).
_RESIDUO_AFIN = 1e-6


def _afin(original: np.ndarray, final: np.ndarray, eje: int) -> bool:
    """Each column (``eje`` = 0) or row (``eje`` = 1) of ``final`` is a·(that of ``original``) + b, a ≠ 0.

    Needs at least three entries per line (with two, any line fits).
    """
    if eje == 1:
        original, final = original.T, final.T
    n = original.shape[0]
    if n < 3:
        return False
    for x, y in zip(original.T, final.T):
        A = np.stack([x, np.ones(n)], axis=1)
        (a, b), *_ = np.linalg.lstsq(A, y, rcond=None)
        if not abs(a) > 1e-12 or np.linalg.norm(A @ (a, b) - y) > _RESIDUO_AFIN * (np.linalg.norm(y) + 1e-12):
            return False
    return True


def entradas_posibles(llamada) -> list[tuple]:
    """``(X, Wq, Wk, Wv, Wo)`` as passed, and, if the call wrote into them, as it left them.

    A written array counts only when it is an affine transform of the one
    passed, column by column or row by row (centred, scaled, standardised):
    what the function computed with it is still the layer's work on its
    inputs.  Anything else written keeps the array passed.  Float64 arrays.
    """
    pasadas = tuple(np.asarray(M, dtype=np.float64) for M in llamada.argumentos[:5])
    cambiadas = list(pasadas)
    for posicion, descripcion in dict(getattr(llamada, "modificados", {}) or {}).items():
        try:
            k = int(posicion)
            final = np.asarray(deserializar(descripcion), dtype=np.float64)
        except (ValueError, TypeError, KeyError):
            continue
        if (0 <= k < 5 and final.shape == pasadas[k].shape and final.ndim == 2 and np.all(np.isfinite(final))
                and (_afin(pasadas[k], final, 0) or _afin(pasadas[k], final, 1))):
            cambiadas[k] = final
    cambiadas = tuple(cambiadas)
    return [pasadas] if all(a is b for a, b in zip(pasadas, cambiadas)) else [pasadas, cambiadas]


def _bloques_diagonales(W: np.ndarray, h: int) -> np.ndarray | None:
    """``W`` with only its h diagonal blocks (d_k, d_k) kept: what heads that read only their own d_k
    columns of X use (``X[:, c] @ W[c, c]``), or None when d_model is not a multiple of h."""
    d_model = W.shape[0]
    if h < 1 or d_model % h or W.shape != (d_model, d_model):
        return None
    d_k = d_model // h
    bloques = np.zeros_like(W)
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        bloques[c, c] = W[c, c]
    return bloques


def _puntuaciones_de_sus_columnas(X, Wq, Wk, h: int) -> list[np.ndarray]:
    """The double-centred scores of each head when it reads only its own d_k columns of X (flat; Q·Kᵀ and K·Qᵀ)."""
    Bq, Bk = _bloques_diagonales(Wq, h), _bloques_diagonales(Wk, h)
    if Bq is None or Bk is None:
        return []
    d_k = X.shape[1] // h
    Q, K = X @ Bq, X @ Bk
    return [doble_centrado(a[:, i * d_k:(i + 1) * d_k] @ b[:, i * d_k:(i + 1) * d_k].T).ravel()
            for a, b in ((Q, K), (K, Q)) for i in range(h)]


# ---------------------------------------------------------- maps that come from the scores

# Relative residual and coefficient spread allowed (float32 arithmetic inside passes; a map that does
# not come from the scores leaves a residual of the order of the map itself).
_RESIDUO = 1e-4
_DISPERSION = 0.05
# The smallest scale c that counts, in units of the paper's 1/√d_k: maps softmax(1e-9·q·kᵀ) are the
# uniform maps in disguise (issue 19, third attack); every known wrong scale (√d_model, none, d_k…)
# is well above it.
_ESCALA_MINIMA = 1e-2
# Both limits are met within 0.1 %: a scale of exactly 1/(100·√d_k) counts in every case, whatever the
# rounding of its estimate (the visible tests use the same margin).
_HOLGURA = 1e-3


def doble_centrado(M: np.ndarray) -> np.ndarray:
    """``M`` (..., T, T) minus its row means and its column means (plus the overall mean).

    What is left of a matrix once any term that depends only on the row or
    only on the column is removed: the softmax's normaliser (by rows, by
    columns or of the whole map) and a shift of the scores by a row or column
    maximum vanish from ``log A``.
    """
    return (M - M.mean(axis=-1, keepdims=True) - M.mean(axis=-2, keepdims=True)
            + M.mean(axis=(-2, -1), keepdims=True))


def _productos_por_columna(X, Wq, Wk) -> list[tuple[np.ndarray, int, frozenset]]:
    """Per family of scores, the products of each column and the dimension of the space they live in.

    Q_J·K_Jᵀ = Σ_{j∈J} q_j·k_jᵀ (q_j, k_j: column j of Q = X·W^Q, K = X·W^K),
    so the scores of any group of columns are a sum of these with
    coefficients 1.  Families: Q·Kᵀ, K·Qᵀ (keys and queries swapped, or the
    map transposed), Q·Qᵀ (K = X·W^Q) and K·Kᵀ (Q = X·W^K).  Returns, per
    family, ``(productos, dimension, usadas)``: the double-centred products as
    the columns of a (T², d_model) matrix, how many independent entries a
    double-centred (T, T) matrix of that family has ((T − 1)², or T(T − 1)/2
    when it is symmetric), and which of W^Q and W^K it uses (``usadas``).
    """
    X = np.asarray(X, dtype=np.float64)
    Q, K = X @ np.asarray(Wq, dtype=np.float64), X @ np.asarray(Wk, dtype=np.float64)
    T = X.shape[0]
    familias = []
    for a, b, simetrica, usadas in ((Q, K, False, _QK), (K, Q, False, _QK), (Q, Q, True, frozenset({"W^Q"})),
                                    (K, K, True, frozenset({"W^K"}))):
        productos = doble_centrado(a.T[:, :, None] * b.T[:, None, :])      # (d_model, T, T)
        familias.append((productos.reshape(len(productos), -1).T,
                         T * (T - 1) // 2 if simetrica else (T - 1) ** 2, usadas))
    return familias


def _grupos_de_columnas(d_model: int, h: int) -> list[list[int]]:
    """The groups of columns a head takes when the split goes wrong in the usual ways.

    Blocks of d_k and of d_k − 1 columns starting at any column (wrapping
    round at the end: blocks shifted, a column lost when d_k is odd), the
    interleaved columns i::h and every column (heads not split).
    """
    d_k = max(d_model // max(int(h), 1), 1)
    grupos = [[(inicio + t) % d_model for t in range(tamano)]
              for tamano in {d_k, d_k - 1} if tamano >= 1 for inicio in range(d_model)]
    return grupos + [list(range(i, d_model, int(h))) for i in range(min(int(h), d_model))] + [list(range(d_model))]


def _lineas_candidatas(mapas: np.ndarray) -> list[tuple[np.ndarray, bool]]:
    """What must be c·(scores) up to row and column terms: ``(matriz, admite_signos)``.

    Each head's log A_i (a softmax by rows, columns or of the whole map), each
    A_i itself (maps returned without the softmax) and the quotient of two
    heads' maps, log A_i − log A_j (a softmax across the heads: its
    normaliser cancels; the coefficients are then +c and −c).
    """
    candidatas = []
    with np.errstate(all="ignore"):
        logaritmos = np.log(mapas) if np.all(mapas > 0) else None
    for i in range(len(mapas)):
        if logaritmos is not None:
            candidatas.append((logaritmos[i], False))
        candidatas.append((mapas[i], False))
    if logaritmos is not None:
        candidatas += [(logaritmos[i] - logaritmos[j], True)
                       for i in range(len(mapas)) for j in range(i + 1, len(mapas))]
    return candidatas


def columnas_minimas(d_model: int, h: int) -> int:
    """How many columns a head's group J needs at least: d_k − 1 (one lost with an odd d_k), 1 if d_k = 1."""
    return max(max(d_model // max(int(h), 1), 1) - 1, 1)


def _escala_de_un_grupo(coeficientes: np.ndarray, admite_signos: bool, minimo: int) -> float:
    """c if the coefficients are c on a group of at least ``minimo`` columns and 0 elsewhere, else 0.

    With ``admite_signos`` (the quotient of two heads' maps), +c on one group
    and −c on another, each of at least ``minimo`` columns.
    """
    escala = float(np.max(np.abs(coeficientes))) if admite_signos else float(np.max(coeficientes))
    if not escala > 0:
        return 0.0
    relativos = coeficientes / escala
    cercanos = np.round(relativos)
    permitidos = (-1, 0, 1) if admite_signos else (0, 1)
    if not (np.all(np.isin(cercanos, permitidos)) and np.all(np.abs(relativos - cercanos) <= _DISPERSION)):
        return 0.0
    grupos = (cercanos == 1, cercanos == -1) if admite_signos else (cercanos == 1,)
    return escala if all(int(np.sum(g)) >= minimo for g in grupos) else 0.0


def _escala_proporcional(objetivo: np.ndarray, norma: float, puntuaciones: np.ndarray) -> float:
    """c if ``objetivo`` = c · ``puntuaciones`` (both double-centred and flat) with c > 0, else 0."""
    cuadrado = float(puntuaciones @ puntuaciones)
    if not cuadrado > 0:
        return 0.0
    escala = float(puntuaciones @ objetivo) / cuadrado
    return escala if escala > 0 and np.linalg.norm(objetivo - escala * puntuaciones) <= _RESIDUO * norma else 0.0


def _puntuaciones_sin_transponer(X, Wq, Wk, h: int) -> list[np.ndarray]:
    """The double-centred scores of each head when the heads are split with ``reshape(h, T, d_k)`` directly.

    The lesson's own mistake (section 10, question 7): without the transpose
    each «head» takes d_k-long pieces of the rows of Q and K in row-major
    order, positions and blocks mixed.  Its maps still come from Q and K
    (softmax of c·Q_hᵢ·K_hᵢᵀ); with h = 1 they are the right ones.  Q·Kᵀ and
    K·Qᵀ (the map transposed too); flat, one per head.
    """
    X = np.asarray(X, dtype=np.float64)
    T, d_model = X.shape
    if h < 1 or d_model % h:
        return []
    d_k = d_model // h
    Q = (X @ np.asarray(Wq, dtype=np.float64)).reshape(h, T, d_k)
    K = (X @ np.asarray(Wk, dtype=np.float64)).reshape(h, T, d_k)
    return [doble_centrado(a[i] @ b[i].T).ravel() for a, b in ((Q, K), (K, Q)) for i in range(h)]


_QK = frozenset({"W^Q", "W^K"})


def mapas_de_las_puntuaciones(llamada) -> bool:
    """Some returned map comes from Q and K the way attention's maps do (``matrices_de_los_mapas``)."""
    return matrices_de_los_mapas(llamada) is not None


def matrices_de_los_mapas(llamada) -> frozenset | None:
    """Which of W^Q and W^K the returned maps come from, or None when they do not come from the scores.

    The most the routes below find: Q·Kᵀ and K·Qᵀ use both, Q·Qᵀ (K = X·W^Q)
    only W^Q, K·Kᵀ (Q = X·W^K) only W^K.  Computed once per call.

    Some head's map A_i is softmax(c · Q_J·K_Jᵀ) for some group J of at
    least d_k − 1 columns (``columnas_minimas``) and some scale
    c ≥ 1/(100·√d_k) (``_ESCALA_MINIMA`` times the paper's 1/√d_k),
    normalised by rows, by columns or as a whole (or shifted by a row or
    column maximum); or the quotient of two heads' maps is that of two such
    scores (a softmax across the heads).  The double-centred ``log A_i``
    (``doble_centrado``) must then be c times the double-centred scores.
    One column of W^Q repeated in every head, or maps softmax(1e-9·q·kᵀ) that
    are the uniform maps in disguise, do not count (issue 19, third attack).
    Two checks:

    * any group J: least squares of the double-centred ``log A_i`` against
      the products q_j·k_jᵀ of every column (``_productos_por_columna``): the
      residual vanishes and the coefficients are c on J and 0 elsewhere.
      Only where the coefficients are determined, with room to spare (more
      independent entries than columns); with fewer (T = 3, d_model = 20)
      any map would fit;
    * the usual wrong splits (``_grupos_de_columnas``), one at a time, the
      heads split with ``reshape(h, T, d_k)`` without the transpose
      (``_puntuaciones_sin_transponer``) and heads that read only their own
      d_k columns of X (``_puntuaciones_de_sus_columnas``): the
      double-centred ``log A_i`` is proportional to that group's scores
      (from T = 3 on);
    * maps with a causal mask (0 above the diagonal: ``_mapas_enmascarados``):
      the same, on the triangle and centred by rows.

    With the arguments as passed and, if the call wrote into them, as it
    left them (``entradas_posibles``).
    """
    if "matrices_de_los_mapas" not in llamada.memoria:
        llamada.memoria["matrices_de_los_mapas"] = _buscar_matrices_de_los_mapas(llamada)
    return llamada.memoria["matrices_de_los_mapas"]


def _mejor(encontradas: frozenset | None, usadas: frozenset) -> bool:
    """``usadas`` uses more matrices than the best route found so far (or none was found)."""
    return encontradas is None or len(usadas) > len(encontradas)


def _buscar_matrices_de_los_mapas(llamada) -> frozenset | None:
    h = int(llamada.argumentos[5])
    mapas = [m for m in _mapas_devueltos(llamada) if np.all(np.isfinite(m))]
    if np.shape(llamada.argumentos[0])[0] < 3 or not mapas:
        return None
    encontradas: frozenset | None = None
    posibles = entradas_posibles(llamada)
    # and the weights transposed (X @ Wq.T, X @ Wk.T: an honest mistake, e59_pesos_traspuestos; its maps come
    # from Q and K of the inputs), tried only when the weights as passed do not already explain the maps
    posibles += [(X, Wq.T, Wk.T, Wv, Wo) for X, Wq, Wk, Wv, Wo in posibles
                 if Wq.shape[0] == Wq.shape[1] and Wk.shape[0] == Wk.shape[1]]
    for X, Wq, Wk, _, _ in posibles:
        usadas = _mapas_de(mapas, X, Wq, Wk, h, encontradas)
        if usadas is not None and _mejor(encontradas, usadas):
            encontradas = usadas
        if encontradas == _QK:
            break
    return encontradas


def _mapas_de(mapas: list[np.ndarray], X, Wq, Wk, h: int, encontradas: frozenset | None) -> frozenset | None:
    """``matrices_de_los_mapas`` with these inputs (the ones passed, or as the call left them): the best
    route found, starting from ``encontradas`` (what other inputs already found)."""
    T, d_model = np.shape(X)
    familias = _productos_por_columna(X, Wq, Wk)
    inversas = [(productos, np.linalg.pinv(productos), usadas) for productos, dimension, usadas in familias
                if dimension > d_model and np.linalg.matrix_rank(productos) == d_model]
    grupos = _grupos_de_columnas(d_model, h)
    minimo = columnas_minimas(d_model, h)
    escala_minima = _ESCALA_MINIMA * (1 - _HOLGURA) / np.sqrt(max(d_model // max(h, 1), 1))
    por_grupo = [(productos[:, grupo].sum(axis=1), usadas) for productos, _, usadas in familias for grupo in grupos]
    por_grupo += [(s, _QK) for s in _puntuaciones_sin_transponer(X, Wq, Wk, h)]
    por_grupo += [(s, _QK) for s in _puntuaciones_de_sus_columnas(X, Wq, Wk, h)]
    for m in mapas:
        for matriz, admite_signos in _lineas_candidatas(m):
            objetivo = doble_centrado(matriz).ravel()
            norma = float(np.linalg.norm(objetivo))
            if not norma > 1e-9 or not np.isfinite(norma):
                continue
            for productos, inversa, usadas in inversas:
                if _mejor(encontradas, usadas) and _cumple_la_familia(productos, inversa, objetivo, norma,
                                                                      admite_signos, minimo, escala_minima):
                    encontradas = usadas
            for s, usadas in ([] if admite_signos else por_grupo):
                if _mejor(encontradas, usadas) and _escala_proporcional(objetivo, norma, s) >= escala_minima:
                    encontradas = usadas
            if encontradas == _QK:
                return encontradas
    return _mapas_enmascarados(mapas, X, Wq, Wk, h, escala_minima, encontradas)


def _triangulo(mapa: np.ndarray) -> np.ndarray | None:
    """Where a causally masked map (T, T) lives, as a boolean (T, T), or None.

    The lower triangle with its diagonal when ``mapa`` is 0 above its diagonal
    and positive on and below it (scores masked with −∞ or a large negative
    number before a row softmax: lesson 1, section 11), or the upper one for
    the mask the other way round.
    """
    abajo = np.tri(mapa.shape[0], dtype=bool)
    for dentro in (abajo, abajo.T):
        if np.all(mapa[dentro] > 0) and np.all(mapa[~dentro] == 0):
            return dentro
    return None


def _centrado_por_filas(M: np.ndarray, dentro: np.ndarray) -> np.ndarray:
    """The entries of ``M`` (T, T) where ``dentro``, minus the mean of their row over ``dentro`` (flat).

    What is left of the scores of a masked map once the row softmax's
    normaliser is removed (a row with one entry gives 0).
    """
    M = np.where(dentro, M, 0.0)
    medias = M.sum(axis=1, keepdims=True) / np.maximum(dentro.sum(axis=1, keepdims=True), 1)
    return (M - medias)[dentro]


def _mapas_enmascarados(mapas, X, Wq, Wk, h: int, escala_minima: float,
                        encontradas: frozenset | None) -> frozenset | None:
    """The maps' route for causally masked maps (``_triangulo``): on the triangle, the row-centred
    ``log A_i`` is c times the row-centred scores of one of the usual groups of columns
    (``_grupos_de_columnas``) of Q·Kᵀ, K·Qᵀ, Q·Qᵀ or K·Kᵀ, c ≥ the smallest scale.  The mask is a
    mistake the lesson names (``mascara_causal``), and those maps still come from the scores
    (issue 22, grader tester: 1 of 10 with no diagnosis).  Starting from ``encontradas``."""
    X, Wq, Wk = (np.asarray(M, dtype=np.float64) for M in (X, Wq, Wk))
    Q, K = X @ Wq, X @ Wk
    familias = ((Q, K, _QK), (K, Q, _QK), (Q, Q, frozenset({"W^Q"})), (K, K, frozenset({"W^K"})))
    grupos = _grupos_de_columnas(X.shape[1], h)
    for m in mapas:
        for mapa in m:
            dentro = _triangulo(mapa)
            if dentro is None:
                continue
            objetivo = _centrado_por_filas(np.log(np.where(dentro, mapa, 1.0)), dentro)
            norma = float(np.linalg.norm(objetivo))
            if not norma > 1e-9 or not np.isfinite(norma):
                continue
            for a, b, usadas in familias:
                if not _mejor(encontradas, usadas):
                    continue
                if any(_escala_proporcional(objetivo, norma, _centrado_por_filas(a[:, g] @ b[:, g].T, dentro))
                       >= escala_minima for g in grupos):
                    encontradas = usadas
                    if encontradas == _QK:
                        return encontradas
    return encontradas


def _cumple_la_familia(productos, inversa, objetivo, norma, admite_signos, minimo, escala_minima) -> bool:
    """The least-squares route of ``matrices_de_los_mapas``: c on a group of columns, 0 elsewhere."""
    coeficientes = inversa @ objetivo
    return bool(np.linalg.norm(productos @ coeficientes - objetivo) <= _RESIDUO * norma
                and _escala_de_un_grupo(coeficientes, admite_signos, minimo) >= escala_minima)


# ------------------------------------------------------- an output computed with the maps

def _columnas_de_valores_bastan(U: np.ndarray, elegidas: np.ndarray, cero: int) -> bool:
    """The computed columns of a concatenation come from enough different columns of the values ``U``.

    ``elegidas`` indexes the candidates of ``_concatenaciones`` (head k, value column j at k·d_model + j;
    ``cero`` is the zero column).  Every head of a layer, right or with an honest mistake, multiplies its
    map by its own value columns, so a concatenation uses at least half of them (and at least two): one
    column of X or V repeated across the output, the rest left at zero, is no layer (issue 19, eleventh
    attack: 4 of 10 with one map copied into every head).  Equal columns of ``U`` count as one.
    """
    d_model = U.shape[1]
    # representante[j]: the first column i <= j equal to column j (np.allclose(U[:, i], U[:, j]), all at once)
    with np.errstate(all="ignore"):
        cerca = np.all(np.abs(U.T[:, None, :] - U.T[None, :, :]) <= 1e-12 + 1e-9 * np.abs(U.T[None, :, :]), axis=-1)
    representante = np.argmax(cerca & np.tri(d_model, dtype=bool).T, axis=0)
    usadas = {int(representante[int(e) % d_model]) for e in elegidas if int(e) != cero}
    return len(usadas) >= min(len(set(representante.tolist())), max(2, -(-d_model // 2)))


def _columnas_de_las_cabezas(mapas: np.ndarray, U: np.ndarray) -> np.ndarray:
    """Every column M·u_j (K·d_model, T), M a head's map, its transpose, or the heads' mean or sum, u_j a column
    of ``U``; then one zero column."""
    T = U.shape[0]
    M = np.concatenate([mapas, mapas.transpose(0, 2, 1), mapas.mean(axis=0, keepdims=True),
                        mapas.sum(axis=0, keepdims=True)])
    return np.concatenate([np.einsum("kts,sj->kjt", M, U).reshape(-1, T), np.zeros((1, T))])


def _concatenaciones_con_reshape(mapas: np.ndarray, U: np.ndarray, h: int) -> list[np.ndarray]:
    """The concatenations that split or join with ``reshape``: right, or mixing positions (``reshape(h, T, d_k)``
    without the transpose, or the heads joined with ``reshape(T, d_model)`` without it)."""
    T, d_model = U.shape
    candidatas = []
    if h >= 1 and d_model % h == 0 and len(mapas) == h:
        d_k = d_model // h
        for Vh in (U.reshape(h, T, d_k), U.reshape(T, h, d_k).transpose(1, 0, 2)):
            cabezas = mapas @ Vh                                            # (h, T, d_k)
            candidatas += [cabezas.reshape(T, d_model), cabezas.transpose(1, 0, 2).reshape(T, d_model)]
    return candidatas


def _concatenaciones(C: np.ndarray, mapas: np.ndarray, U: np.ndarray, h: int) -> list[np.ndarray]:
    """Concatenations of the heads built from ``mapas`` (h, T, T) and values ``U`` (T, d_model), near ``C``.

    Column by column: each column of ``C`` replaced by the nearest column
    M·u_j, with M a head's map (or its transpose, or the heads' mean or sum:
    heads averaged or added) and u_j a column of ``U`` (any split of the columns, any order of
    the heads, blocks interleaved or shifted; at most half of the columns
    left at zero); and the splits and joins with ``reshape``
    (``_concatenaciones_con_reshape``).
    """
    d_model = U.shape[1]
    columnas = _columnas_de_las_cabezas(mapas, U)
    # a column left at zero (a concatenation preallocated with np.zeros and a shifted block) is allowed,
    # as long as at least half of the columns are computed
    distancias = np.linalg.norm(columnas[:, None, :] - C.T[None, :, :], axis=-1)
    elegidas = np.argmin(distancias, axis=0)
    candidatas = []
    if (2 * int(np.sum(elegidas == len(columnas) - 1)) <= d_model
            and _columnas_de_valores_bastan(U, elegidas, len(columnas) - 1)):
        candidatas.append(columnas[elegidas].T)
    return candidatas + _concatenaciones_con_reshape(mapas, U, h)


# An output computed with the maps may come multiplied by one constant k (issue 22, the eighth student's B2-1: V
# divided by √d_k too, the heads projected and averaged, 1/h): the work is the same.  k within a factor of 100.
_ESCALA_MAXIMA = 100.0


def _escala_de_las_columnas(C: np.ndarray, mapas: np.ndarray, U: np.ndarray) -> float | None:
    """The constant k of ``C`` ≈ k·(columns M·u_j), read column by column by direction (the median of the ratios of
    norms to the most parallel column), or None (no column of ``C`` that is not zero)."""
    columnas = _columnas_de_las_cabezas(mapas, U)[:-1]
    normas = np.linalg.norm(columnas, axis=1)
    normas_C = np.linalg.norm(C, axis=0)
    utiles = normas_C > 1e-9 * max(float(normas_C.max(initial=0.0)), 1e-300)
    if not np.any(utiles) or not np.any(normas > 0):
        return None
    with np.errstate(all="ignore"):
        coseno = (columnas @ C[:, utiles]) / (np.where(normas > 0, normas, np.inf)[:, None] * normas_C[utiles])
    mejores = np.argmax(coseno, axis=0)
    cocientes = normas_C[utiles] / normas[mejores]
    k = float(np.median(cocientes))
    return k if np.isfinite(k) and k > 0 else None


def _multiplo(candidata: np.ndarray, s: np.ndarray, tolerancia: dict) -> bool:
    """``s`` is k·``candidata`` for one constant k in [1/_ESCALA_MAXIMA, _ESCALA_MAXIMA] (k = 1 included)."""
    with np.errstate(all="ignore"):
        if np.allclose(candidata, s, **tolerancia):
            return True
        norma = float(np.sum(candidata * candidata))
        if not np.isfinite(norma) or norma <= 0:
            return False
        k = float(np.sum(candidata * s)) / norma
        return (1 / _ESCALA_MAXIMA <= k <= _ESCALA_MAXIMA) and bool(np.allclose(k * candidata, s, **tolerancia))


def salida_calculada(llamada) -> bool:
    """The output is the reference's, or attention computed with the returned maps (``matrices_de_la_salida``)."""
    return matrices_de_la_salida(llamada) is not None


_VO = frozenset({"W^V", "W^O"})


def matrices_de_la_salida(llamada) -> frozenset | None:
    """Which of W^V and W^O the output is computed with, or None when it is not computed with the maps.

    The most the routes below find (the reference's output: both).
    Computed once per call.

    That is, some returned array (T, d_model), in any axis order, not
    constant, equals k·C·F where F is W^O (or W^Oᵀ, or nothing: W^O forgotten
    or transposed; or one block of W^O's rows for every head, the heads
    projected and added), C a concatenation of the heads built from the maps
    it returns and the values V = X·W^V (or X, X·W^Q or X·W^K: W^V forgotten
    or another matrix in its place; X·W^Vᵀ: transposed; X·W^V·W^O: W^O applied
    before the split; or X·W^V by its
    diagonal blocks: heads that read only their own columns of X), whatever
    the split of the columns, the order of the heads or a missing transpose
    (``_concatenaciones``), and k one constant within a factor of 100 (V
    divided by √d_k too, the projected heads averaged); with the arguments
    as passed and, if the call wrote into them, as it left them
    (``entradas_posibles``).  Maps with a zero, constant
    or unrelated output are no work (issue 19, ninth attack): every honest
    mistake of the lesson computes its output with its maps.
    """
    if "matrices_de_la_salida" not in llamada.memoria:
        llamada.memoria["matrices_de_la_salida"] = _buscar_matrices_de_la_salida(llamada)
    return llamada.memoria["matrices_de_la_salida"]


def _buscar_matrices_de_la_salida(llamada) -> frozenset | None:
    h = int(llamada.argumentos[5])
    T, d_model = np.shape(llamada.argumentos[0])
    tolerancia = llamada.ejercicio.tolerancia
    salida_ref = np.asarray(llamada.referencia()[0], dtype=np.float64)
    salidas = [s for a in arrays_devueltos(llamada) for s in en_cualquier_orden(a, (T, d_model))
               if np.all(np.isfinite(s)) and np.ptp(s) > VARIACION_MINIMA]
    mapas = [m for m in _mapas_devueltos(llamada) if np.all(np.isfinite(m))]
    if any(np.allclose(s, salida_ref, **tolerancia) for s in salidas):
        return _VO
    encontradas: frozenset | None = None
    for X, Wq, Wk, Wv, Wo in entradas_posibles(llamada):
        encontradas = _salida_de(salidas, mapas, X, Wq, Wk, Wv, Wo, h, tolerancia, encontradas)
        if encontradas == _VO:
            break
    return encontradas


def _salida_de(salidas, mapas, X, Wq, Wk, Wv, Wo, h: int, tolerancia: dict,
               encontradas: frozenset | None) -> frozenset | None:
    """``matrices_de_la_salida`` with these inputs (the ones passed, or as the call left them): the best
    route found, starting from ``encontradas`` (what other inputs already found).

    The output as it came or minus X (a residual connection added).  Values V = X·W^V (or X·W^Vᵀ, or by its
    diagonal blocks), or without W^V: X, X·W^Q or X·W^K (V projected
    with the wrong matrix, copy and paste); F = W^O (or W^Oᵀ, or nothing), or the rows of one block of W^O
    for every head (each head projected with the same block and the projections added: only the
    ``reshape`` concatenations, as F cannot be inverted); the output k times the result (``_multiplo``).
    """
    d_model = X.shape[1]
    valores = [(X @ Wv, True), (X, False), (X @ Wv.T, True), (X @ Wq, False), (X @ Wk, False)]
    valores.append((X @ Wv @ Wo, True))       # W^O applied to V before the split (and not at the end)
    Bv = _bloques_diagonales(Wv, h)
    if Bv is not None:
        valores.append((X @ Bv, True))          # heads that read only their own d_k columns of X
    bloques_de_wo = []
    if h >= 2 and d_model % h == 0:
        d_k = d_model // h
        bloques_de_wo = [np.tile(Wo[j * d_k:(j + 1) * d_k], (h, 1)) for j in range(h)]
    # and the output with X added (a residual connection, which the paper puts outside the attention layer)
    residuales = [s - X for s in salidas if np.ptp(s - X) > VARIACION_MINIMA]
    for s in salidas + residuales:
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
                    if k is not None and 1 / _ESCALA_MAXIMA <= k <= _ESCALA_MAXIMA and abs(k - 1) > 1e-9:
                        candidatas += _concatenaciones(C / k, m, U, h)[:1]
                    if any(_multiplo(c @ F, s, tolerancia) for c in candidatas):
                        encontradas = usadas
                        if encontradas == _VO:
                            return encontradas
        for F in bloques_de_wo:
            for m in mapas:
                for U, con_wv in valores:
                    usadas = frozenset(["W^V"] * con_wv + ["W^O"])
                    if _mejor(encontradas, usadas) and any(
                            _multiplo(c @ F, s, tolerancia) for c in _concatenaciones_con_reshape(m, U, h)):
                        encontradas = usadas
                        if encontradas == _VO:
                            return encontradas
    return encontradas


# ------------------------------------------------- W^Q, W^K, W^V and W^O: at most one forgotten

_MATRICES = ("W^Q", "W^K", "W^V", "W^O")


def matrices_olvidadas(llamada) -> list[str]:
    """The weight matrices the call's work does not use: changing them would change nothing it returns.

    From the routes that recognised its work: the maps' (``matrices_de_los_mapas``;
    one head's map or the maps right use W^Q and W^K) and the output's
    (``matrices_de_la_salida``).  Empty when the output is the reference's,
    or when a route is missing (the other pieces charge that).
    """
    salida = matrices_de_la_salida(llamada)
    if salida is None or _parte_de_la_referencia(llamada, 0):
        return []
    if un_mapa_correcto(llamada) or _parte_de_la_referencia(llamada, 1):
        mapas = _QK
    else:
        mapas = matrices_de_los_mapas(llamada)
        if mapas is None:
            return []
    return [m for m in _MATRICES if m not in mapas | salida]


def _parte_de_la_referencia(llamada, parte: int) -> bool:
    """Some returned array, in any axis order, is the reference's output (``parte`` 0) or maps (1)."""
    esperado = np.asarray(llamada.referencia()[parte], dtype=np.float64)
    return any(np.allclose(a, esperado, **llamada.ejercicio.tolerancia)
               for array in arrays_devueltos(llamada) for a in en_cualquier_orden(array, esperado.shape))


def usa_las_matrices(llamada) -> bool:
    """At most one of W^Q, W^K, W^V and W^O is left out of the work (issue 19, tenth attack).

    Each honest mistake forgets at most one (K = X·W^Q, Q = X·W^K, V = X, no
    W^O); the allowances of the pieces above, stacked, let softmax(Q·Qᵀ)
    copied into every head with an output A·X earn 4 of 10 with only W^Q.
    """
    return len(matrices_olvidadas(llamada)) <= 1


def _lista(nombres: list[str]) -> str:
    return nombres[0] if len(nombres) == 1 else ", ".join(nombres[:-1]) + " y " + nombres[-1]


def falta_usar_las_matrices(llamada) -> str | None:
    """What ``usa_las_matrices`` misses in this call, in Spanish after «le falta» (None: nothing)."""
    olvidadas = matrices_olvidadas(llamada)
    if len(olvidadas) <= 1:
        return None
    return (f"usar {_lista(olvidadas)}: cambiarlas no cambia nada de lo que devuelve (olvidar una de las "
            "cuatro matrices W^Q, W^K, W^V y W^O es un error honrado; olvidar dos o más ya no calcula "
            "atención)")


TRABAJO = (
    pieza("el mapa de atención de alguna cabeza", un_mapa_correcto),
    pieza("unos mapas que salgan de Q y K (la softmax de c·Q_J·K_Jᵀ de algún grupo J de al menos d_k − 1 "
          "columnas, con cualquier escala c no menor que 1/(100·√d_k) y por cualquier eje)",
          mapas_de_las_puntuaciones),
)

# Whatever else is right, the output must be computed with the maps: maps next to a zero output are no work.
TRABAJO_NECESARIO = (
    pieza("una salida calculada con tus mapas y los valores V (la de la referencia, o Concat(A_i·V_i) con "
          "o sin W^O, aunque sea un múltiplo de ella)", salida_calculada),
    # and at most one of the four weight matrices forgotten (issue 19, tenth attack)
    pieza("usar al menos tres de las cuatro matrices W^Q, W^K, W^V y W^O (olvidar una es un error honrado; "
          "olvidar dos o más ya no calcula atención)", usa_las_matrices, detalle=falta_usar_las_matrices),
)
