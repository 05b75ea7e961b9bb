"""What the cells of ``positional_encoding`` check, with their tolerance and points (trusted side only).

The contract (lesson 2, exercise): ``positional_encoding(T, d_model)``
returns the table PE, a float64 array (T, d_model), compared with
``np.allclose(rtol=1e-6, atol=1e-6)`` (angles up to ~1000 rad need float64).
Generalidad (T = 1, d_model = 2) is partly checked only at grading time.

``TRABAJO``: besides the whole table right, what shows that a wrong
``positional_encoding`` did real work (``grader_tests.juez.propiedades``, points
only for work done): a frequency computed from d_model, seen in one of three
pieces in every control case (``TRABAJO_EN_CADA_CONTROL``: d_model = 16, 6,
64 and two sizes no lesson lists, so that a fixed frequency such as 1/10 or a
table written for the published sizes cannot pass for one).  A quarter of
the reference's coordinates beyond pair 0, whole (columns other than sin(pos)
and cos(pos), wherever they sit: swapped sine and cosine, the exponent 2j or
j, pairs counted from 1, sines only); one whole position ≥ 1 right (a row of
the reference, wherever it sits: positions counted from 1); or the lesson's
ladder with another ratio that follows d_model (``escalera``: sin and cos of
pos·ω₀·r^i interleaved, pair by pair, ω₀ one constant of the call (1, or π/180
in degrees, 1/T with pos/T), frequencies spanning a factor between 1.4 and
10^6, and one law |log r|·(d_model + c) = K over the law sizes the cells also
call, ``casos.MUESTRA_DE_LA_LEY``: another base, multiplying instead of
dividing, exponents spread with linspace; not r = 0.999, not a fixed r, not
a ratio by ranges of sizes, not hand-written tables for some sizes).  Pair 0
alone (ω₀ = 1 needs no computation: sin(pos) and cos(pos) in one column or in all), row 0 ([0, 1, 0, 1…]) and constant columns show
nothing.  A transposed table counts in both orientations.  The visible tests
(``source/02_codificacion_posicional/pruebas_positional_encoding.py``) check
the same pieces with their sizes and one drawn at random.
"""
import numpy as np

from grader_tests.juez.diagnostico import como_array
from grader_tests.juez.propiedades import (VARIACION_MINIMA, alguna_linea_igual, arrays_devueltos, contrato,
                                           sin_ejes_de_lote,
                                      lineas_iguales, pieza, resultado, valores)

from . import casos

RESULTADO = resultado(("PE", ("T", "d_model")))
TOLERANCIA = {"rtol": 1e-6, "atol": 1e-6}

PROPIEDADES = {
    "contrato": contrato("forma y dtype"),
    "valores": valores("los valores de PE", 3),
    "robustez": valores("muchas posiciones sin perder precisión", 1, no_repite=True),
    "generalidad": valores("formas poco habituales (T = 1, d_model = 2)", 1, no_repite=True,
                           solo_al_calificar=True),
}


def _tablas(llamada) -> list[np.ndarray]:
    """The returned table as (positions, coordinates): as it came and transposed, if 2-D."""
    return [t for a in arrays_devueltos(llamada) if a.ndim == 2 for t in (a, a.T)]


def una_coordenada(llamada) -> bool:
    """At least a quarter of the reference's columns beyond pair 0 that change with the position are columns of the table.

    Wherever they sit (swapped sine and cosine, pairs counted from 1, the
    concatenated layout, sines only, the column index in the exponent keep a quarter or more).  Columns 0 and 1 of
    the reference, sin(pos) and cos(pos), do not count: their frequency is 1
    whatever d_model is.  A quarter, not one: a fixed table of exponents 1/p for
    primes p holds one column of the reference for every even d_model (the
    pair j = m/p of d_model = 2m), without computing anything from d_model
    (issue 19, sixth attack).
    """
    referencia = llamada.referencia()
    for t in _tablas(llamada):
        # at most d_model columns: a fixed bank of frequencies wider than the table holds a quarter of
        # the reference's columns for any size without computing any (issue 19, eighth attack)
        if t.shape[0] != referencia.shape[0] or t.shape[1] > referencia.shape[1]:
            continue
        iguales, total = lineas_iguales(t.T, referencia.T[2:], TOLERANCIA)
        if total and iguales >= max(1, -(-total // 4)):
            return True
    return False


def una_posicion(llamada) -> bool:
    """Some row equals the row of a position ≥ 1 of the reference."""
    referencia = llamada.referencia()
    return any(t.shape[1] == referencia.shape[1] and alguna_linea_igual(t, referencia[1:], TOLERANCIA)
               for t in _tablas(llamada))


def tabla_de_razon(T: int, d_model: int, razon: float, omega_0: float = 1.0) -> np.ndarray:
    """The lesson's table with frequencies ω_i = omega_0·razon^i: PE[pos, 2i] = sin(pos·ω_i), PE[pos, 2i+1] = cos(pos·ω_i).

    With ``razon`` = 10000^(−2/d_model) and ``omega_0`` = 1 it is the reference (lesson 2, section 4).
    """
    angulos = np.arange(T, dtype=np.float64)[:, None] * (
        omega_0 * razon ** np.arange(d_model // 2, dtype=np.float64))
    tabla = np.empty((T, d_model))
    tabla[:, 0::2], tabla[:, 1::2] = np.sin(angulos), np.cos(angulos)
    return tabla


# How many turns of 2π the frequency of pair 1 may have beyond what row 1 shows (pos = 1 only gives ω_1
# modulo 2π): multiplying by 10000^(2/d_model) instead of dividing reaches ω_1 = 100 with d_model = 4.
_VUELTAS = 200
# How far the ladder must climb or fall from pair 0 to the last pair: a factor of 1.4 at least.  The
# paper's spans 10000^(1 − 2/d_model); the known wrong ladders (another base, multiplying, linspace, the
# exponent j) span 10 or more, but base e spans e^(1 − 2/d_model), 1.65 with d_model = 4, and base 2
# 2^(1/2) = 1.41 (issue 22, eighth student: it was 3, and base e got «sin trabajo hecho»); pair 0 repeated
# with r = 0.999 spans almost nothing (issue 19, third attack), and a fixed ratio fails the law below.
_RECORRIDO_MINIMO = 1.4        # met within 0.1 % of its logarithm, as in the visible tests
# ... and at most a factor of 10^6.  A ratio that falls faster leaves every pair but the first two constant
# (r = 1e-9, or pair 0 and constants with one entry of 1e-12 read as r = 1e-12: fifth attack, issue 19).
_RECORRIDO_MAXIMO = 1e6

# The law of the ratio (issue 19, eighth attack).  A ratio computed from d_model keeps |log r|·(d_model + c)
# equal to one constant K > 0 at every size, for one c of the honest normalisations of the exponent:
# 2i/d_model, i/d_model, another base, multiplying, the exponent j (c = 0); 2i/(d_model ± 1) (c = ±1);
# np.linspace(0, 1, d_model/2) (c = −2).  The law is read on a fixed sample of sizes that the hidden cells
# call besides their cases (``casos.MUESTRA_DE_LA_LEY``: every even d_model from 16 to 64, T = 4), plus the
# size of the call judged; the visible tests call the same sample.  K within ``_TOLERANCIA_DE_LA_LEY``: the
# honest ladders keep it exactly (to rounding, below); a fixed ratio changes it by (64 + c)/(16 + c), and a ratio
# chosen by ranges of sizes, or hand-written tables for some sizes and a ratio for the others, break it
# between two neighbouring sizes of the sample ((18 + c)/(16 + c) ≥ 1.1).  c is not a free slope: K is the
# same at every size, so a constant |log r| never fits.
# How much K may vary (issue 19, ninth attack: it was 1.5 %, and the explorable's float16 frequencies passed).
# Measured over the sample plus both unpublished law sizes, relative spread of K at the best c: the honest
# ladders in float64 (the formula, another base, i/d_model, multiplying, linspace, 2i/(d_model ± 1)) ≤ 2e-15;
# the same computed in float32 ≤ 4e-7; a ratio rebuilt from the explorable's float16 numbers, 7.9e-5
# (from longitud_maxima) and 1.7e-3 to 5.7e-3 (from frecuencias).  1e-5 keeps a factor 25 on either side.
_C_DE_LA_LEY = np.linspace(-2.0, 2.0, 401)
_TOLERANCIA_DE_LA_LEY = 1e-5


def sigue_la_ley(puntos) -> bool:
    """The ratios ``puntos`` = [(d_model, r), …] follow one law |log r|·(d_model + c) = K (see above).

    Every r on the same side of 1 (all divide or all multiply), and some c of
    ``_C_DE_LA_LEY`` for which K varies less than ``_TOLERANCIA_DE_LA_LEY``
    across the points.  One point alone always follows it.
    """
    d = np.array([float(p[0]) for p in puntos])
    r = np.array([float(p[1]) for p in puntos])
    if not len(r) or np.any(r <= 0) or not (np.all(r < 1) or np.all(r > 1)):
        return False
    a = np.abs(np.log(r))
    K = a[None, :] * (d[None, :] + _C_DE_LA_LEY[:, None])        # (c, points)
    return bool(np.any((K.min(axis=1) > 0) & (K.max(axis=1) <= (1 + _TOLERANCIA_DE_LA_LEY) * K.min(axis=1))))


def _leer_escalera(t: np.ndarray, recorrido: bool = True) -> tuple[float, float] | None:
    """``(omega_0, r)`` if the table (T, d_model) is ``tabla_de_razon(T, d_model, r, omega_0)``, or None.

    omega_0 (pair 0's frequency, in (0, 2π)) and ω_1 are read from row
    pos = 1 (ω_1 modulo 2π, every turn tried up to ``_VUELTAS``); the whole
    table must then match within the tolerance.  Pair 0 and pair 1 must
    change with the position and differ from each other, and the frequencies
    must span a factor of 1.4 at least and 10^6 at most from the first pair to
    the last.  omega_0 ≠ 1 is one constant of the whole table: the angle in
    degrees (π/180) or the position divided by T (1/T) keep the ladder.  None
    with T < 3 or d_model < 4 (too small to read a ladder).  ``recorrido=False``
    skips the span (the first columns of a wider table: ``trabajo_en_la_muestra``).
    """
    T, d_model = t.shape
    if (T < 3 or d_model < 4 or d_model % 2 or not np.all(np.isfinite(t))
            or np.ptp(t[:, 0]) <= VARIACION_MINIMA or np.ptp(t[:, 2]) <= VARIACION_MINIMA
            or np.ptp(t[:, 2] - t[:, 0]) <= VARIACION_MINIMA):
        return None
    omega_0 = float(np.arctan2(t[1, 0], t[1, 1])) % (2 * np.pi)
    if omega_0 <= 0:
        return None
    angulo = float(np.arctan2(t[1, 2], t[1, 3])) % (2 * np.pi)
    for vueltas in range(_VUELTAS):
        razon = (angulo + 2 * np.pi * vueltas) / omega_0
        if razon <= 0:
            continue
        alcance = abs(np.log(razon)) * (d_model // 2 - 1)
        if recorrido and not (np.log(_RECORRIDO_MINIMO) * (1 - 1e-3) <= alcance
                              <= np.log(_RECORRIDO_MAXIMO) * (1 + 1e-3)):
            continue
        if np.allclose(tabla_de_razon(T, d_model, razon, omega_0), t, **TOLERANCIA):
            return omega_0, razon
    return None


def _escalera_de(llamada) -> tuple[float, float] | None:
    """``(omega_0, r)`` of the ladder the call returned (as it came or transposed), or None; read once."""
    if "escalera" not in llamada.memoria:
        leida = None
        try:
            T, d_model = (int(x) for x in llamada.argumentos)
            for t in _tablas(llamada):
                if t.shape == (T, d_model):
                    leida = _leer_escalera(t)
                    if leida is not None:
                        break
        except Exception:  # a malformed result is no ladder
            leida = None
        llamada.memoria["escalera"] = leida
    return llamada.memoria["escalera"]


_SIN_PUBLICAR = tuple(dict(c) for c in casos.LEY_SIN_PUBLICAR)


def _de_la_ley(llamadas) -> list:
    """The calls of the published law sizes (``casos.MUESTRA_DE_LA_LEY``), not the unpublished ones."""
    return [ll for ll in llamadas if dict(ll.caso) not in _SIN_PUBLICAR]


def escalera(llamada) -> bool:
    """The whole table is the lesson's ladder with another ratio r ≠ 1, and r follows one law of d_model.

    Every pair computed with its own frequency ω_i = omega_0·r^i (another
    base, 10000^(+2i/d_model), exponents from np.linspace…; omega_0 = 1, or
    one other constant: degrees, pos/T), read by ``_leer_escalera`` (r = 1
    or 0.999, pair 0 all over again, is no work, nor is r = 1e-9, pair 0 and
    constants).  Every call of the cell's sample (``Llamada.otras``: the law
    sizes, ``casos.MUESTRA_DE_LA_LEY``) must return such a ladder too, and
    the ratios of all of them and of this call must follow one law
    (``sigue_la_ley``): a ratio computed from d_model does, a fixed one does
    not (0.5, 0.8, one per range of sizes, or one only where no hand-written
    table exists).
    """
    leida = _escalera_de(llamada)
    if leida is None:
        return False
    puntos = [(int(llamada.argumentos[1]), leida[1])]
    for otra in _de_la_ley(getattr(llamada, "otras", ())):
        de_otra = _escalera_de(otra)
        if de_otra is None:
            return False
        puntos.append((int(otra.argumentos[1]), de_otra[1]))
    return sigue_la_ley(puntos)


# A fixed frequency of 1/10, 1/100 or 1/1000 is a column of the reference whenever d_model is a multiple
# of 4 or 8 (16 and 64 among the controls, 8 in the visible case): only with every control (d_model = 16, 6
# and 64) does a coordinate, a position or a ladder show a frequency computed from d_model (issue 19,
# fourth attack).
TRABAJO_EN_CADA_CONTROL = True

TRABAJO = (
    pieza("la cuarta parte de las coordenadas de PE fuera de la pareja 0, enteras (columnas cuya frecuencia sale de "
          "d_model)", una_coordenada),
    pieza("la codificación entera de una posición pos ≥ 1 (una fila)", una_posicion),
    pieza("la escalera de frecuencias de la lección con otra razón que sale de d_model (cada pareja con su "
          "frecuencia ω₀·r^i, con frecuencias que bajen o suban entre un factor 1,4 y un factor 10^6 de la primera "
          "pareja a la última, y la razón con una misma ley de d_model en todos los tamaños, también en los "
          "de la muestra de la ley: cada d_model par de 16 a 64)", escalera),
)


# What the unpublished law sizes must show (issue 19, ninth attack): a function that computes the table shows
# it with any d_model, and only their first columns are read (cheap; a list of lists brings only its first
# 64 items per row, and returning a list is an honest mistake).  On those columns, one of the pieces above: a
# quarter of the reference's columns beyond pair 0, one whole row ≥ 1, or the lesson's ladder with a ratio that
# follows the same law as at the published law sizes (the span is not asked of a slice).  A dict of ratios for
# every published size, with zeros or anything else elsewhere, shows none.
_COLUMNAS_LEIDAS = 64


def _primeras_columnas(llamada) -> np.ndarray | None:
    """The first ``_COLUMNAS_LEIDAS`` columns of the call's table, as it came or transposed, or None.

    The table has d_model columns and T rows, or one row more or fewer (``range(T + 1)``,
    ``np.arange(1, T)``: a form mistake the contract charges, whose rows are still computed).
    """
    T, d_model = (int(x) for x in llamada.argumentos)
    n = min(d_model, _COLUMNAS_LEIDAS)
    filas_posibles = (T, T - 1, T + 1)
    resultado = llamada.resultado
    if isinstance(resultado, (list, tuple)) and len(resultado) in filas_posibles and all(
            isinstance(f, (list, tuple)) and len(f) >= n for f in resultado):
        filas = [f[:n] for f in resultado]
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) for f in filas for x in f):
            return np.array(filas, dtype=np.float64).reshape(len(filas), n)
        return None
    array = como_array(resultado)
    if array is not None:
        array = sin_ejes_de_lote(array, (T, d_model))
    if array is None or array.ndim != 2 or array.dtype.kind not in "fiu":
        return None
    for filas in filas_posibles:
        for t in (array, array.T):
            if t.shape == (filas, d_model) and filas >= 1:
                t = np.asarray(t[:, :n], dtype=np.float64)
                return t if np.all(np.isfinite(t)) else None
    return None


def _trabajo_en_las_primeras_columnas(llamada, publicadas: list) -> bool:
    t = _primeras_columnas(llamada)
    if t is None:
        return False
    d_model = int(llamada.argumentos[1])
    filas = t.shape[0]
    # the reference with one position more: a table of T − 1 rows may start at position 0 or at 1
    referencia = tabla_de_razon(filas + 1, d_model, 10000.0 ** (-2 / d_model))[:, :t.shape[1]]
    for desde in (0, 1):
        iguales, total = lineas_iguales(t.T, referencia[desde:desde + filas].T[2:], TOLERANCIA)
        if total and iguales >= max(1, -(-total // 4)):
            return True
    if alguna_linea_igual(t, referencia[1:], TOLERANCIA):
        return True
    leida = _leer_escalera(t, recorrido=False)
    if leida is None or not publicadas:
        return False
    puntos = [(d_model, leida[1])]
    for otra in publicadas:
        de_otra = _escalera_de(otra)
        if de_otra is None:
            return False
        puntos.append((int(otra.argumentos[1]), de_otra[1]))
    return sigue_la_ley(puntos)


def trabajo_en_los_tamanos_sin_publicar(muestra) -> bool:
    """Every call of the sample at an unpublished law size (``casos.LEY_SIN_PUBLICAR``) does work on its first columns.

    ``muestra``: the cell's sample calls (``Llamada``), published law sizes
    first.  True when the sample holds no unpublished size (damaged evidence
    is judged by the other rules).
    """
    publicadas = _de_la_ley(muestra)
    ocultas = [ll for ll in muestra if dict(ll.caso) in _SIN_PUBLICAR]
    return all(ll.excepcion is None and _trabajo_en_las_primeras_columnas(ll, publicadas) for ll in ocultas)


TRABAJO_EN_LA_MUESTRA = pieza(
    "en sus primeras columnas no está ni la cuarta parte de las coordenadas de PE fuera de la pareja 0, ni la "
    "codificación de una posición pos ≥ 1, ni la escalera de frecuencias de la lección con una razón que siga la "
    "misma ley de d_model que en los demás tamaños", trabajo_en_los_tamanos_sin_publicar)
