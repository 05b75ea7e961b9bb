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
pos·r^i interleaved, pair by pair, frequencies spanning a factor between 3
and 10^6, and the same law of r at every size: another base, multiplying
instead of dividing, exponents spread with linspace; not r = 0.999, not a
fixed r).  Pair 0 alone (ω₀ = 1 needs no computation: sin(pos) and cos(pos)
in one column or in all), row 0 ([0, 1, 0, 1…]) and constant columns show
nothing.  A transposed table counts in both orientations.  The visible tests
(``source/02_codificacion_posicional/pruebas_positional_encoding.py``) check
the same pieces with their sizes and one drawn at random.
"""
import numpy as np

from grader_tests.juez.propiedades import (VARIACION_MINIMA, alguna_linea_igual, arrays_devueltos, contrato,
                                      lineas_iguales, pieza, resultado, valores)

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


def tabla_de_razon(T: int, d_model: int, razon: float) -> np.ndarray:
    """The lesson's table with frequencies ω_i = razon^i: PE[pos, 2i] = sin(pos·ω_i), PE[pos, 2i+1] = cos(pos·ω_i).

    With ``razon`` = 10000^(−2/d_model) it is the reference (lesson 2, section 4).
    """
    angulos = np.arange(T, dtype=np.float64)[:, None] * razon ** np.arange(d_model // 2, dtype=np.float64)
    tabla = np.empty((T, d_model))
    tabla[:, 0::2], tabla[:, 1::2] = np.sin(angulos), np.cos(angulos)
    return tabla


# How many turns of 2π the frequency of pair 1 may have beyond what row 1 shows (pos = 1 only gives ω_1
# modulo 2π): multiplying by 10000^(2/d_model) instead of dividing reaches ω_1 = 100 with d_model = 4.
_VUELTAS = 200
# How far the ladder must climb or fall from pair 0 to the last pair: a factor of 3 at least.  The
# paper's spans 10000^(1 − 2/d_model); every known wrong ladder (another base, multiplying, linspace,
# the exponent j) spans 10 or more; pair 0 repeated with r = 0.999 spans almost nothing (issue 19,
# third attack).
_RECORRIDO_MINIMO = 3.0        # met within 0.1 % of its logarithm, as in the visible tests
# ... and at most a factor of 10^6.  Every known wrong ladder computes its ratio from d_model and spans
# between 10 and 10^4 whatever d_model is (another base, multiplying, linspace, the exponent j).  A fixed
# ratio does not use d_model: its span grows as r^(d_model/2 − 1), so no fixed r spans ≥ 3 with
# d_model = 6 and ≤ 10^6 with d_model = 64 (r = 0.5 spans 4 and 2^31).  And a ratio that falls faster leaves
# every pair but the first two constant (r = 1e-9, or pair 0 and constants with one entry of 1e-12 read
# as r = 1e-12: fifth attack, issue 19).
_RECORRIDO_MAXIMO = 1e6


# A ratio that comes from d_model: over the sizes judged together with d_model ≥ 16, |log r|·(d_model − 1)/2
# (the span of the ladder's logarithm, from pair 0 to a pair beyond the last) stays within this factor.
# Every known wrong ladder keeps it within 1.1 from d_model = 16 to 64 (another base b, multiplying, the
# exponent j or 4i: |log r| = c/d_model; linspace: c/(d_model/2 − 1); 2i/(d_model + 1): 1.1), and so does
# the right table; below 16 the ways of spreading the exponents part more (1.25 at d_model = 6), so small
# sizes only have to be ladders.  A fixed ratio multiplies it by (62 − 1)/(22 − 1) = 2.9 from d_model = 22
# to 62, the two unpublished sizes; a ratio chosen by size ranges, or hand-written tables with a fixed
# ratio for the other sizes, break it too (issue 19, seventh attack).
_FACTOR_ENTRE_TAMANOS = 1.25
_TAMANO_MINIMO_DE_LA_LEY = 16


def _razon(llamada) -> float | None:
    """The ratio r of the lesson's ladder that the call's table is (``tabla_de_razon(T, d_model, r)``), or None.

    r is read from pair 1 at pos = 1 (its angle modulo 2π, every turn tried);
    the table must then match within the tolerance, pair 1 must differ from
    pair 0, pair 1's sine must change with the position, and the frequencies
    must span a factor of 3 at least and 10^6 at most from the first pair to
    the last.  None with T < 3 or d_model < 4 (too small to read a ladder).
    """
    T, d_model = (int(x) for x in llamada.argumentos)
    if T < 3 or d_model < 4 or d_model % 2:
        return None
    for t in _tablas(llamada):
        if (t.shape != (T, d_model) or not np.all(np.isfinite(t)) or np.ptp(t[:, 2] - t[:, 0]) <= VARIACION_MINIMA
                or np.ptp(t[:, 2]) <= VARIACION_MINIMA):
            continue
        angulo = float(np.arctan2(t[1, 2], t[1, 3])) % (2 * np.pi)
        for vueltas in range(_VUELTAS):
            razon = angulo + 2 * np.pi * vueltas
            recorrido = abs(np.log(razon)) * (d_model // 2 - 1) if razon > 0 else 0.0
            if (np.log(_RECORRIDO_MINIMO) * (1 - 1e-3) <= recorrido <= np.log(_RECORRIDO_MAXIMO) * (1 + 1e-3)
                    and np.allclose(tabla_de_razon(T, d_model, razon), t, **TOLERANCIA)):
                return razon
    return None


def _paso(llamada, razon: float) -> float:
    """|log r|·(d_model − 1)/2: what a ratio computed from d_model keeps almost fixed across sizes."""
    return abs(np.log(razon)) * (int(llamada.argumentos[1]) - 1) / 2


def escalera(llamada) -> bool:
    """The whole table is the lesson's ladder with another ratio r ≠ 1, and r follows d_model.

    Every pair computed with its own frequency ω_i = r^i (another base,
    10000^(+2i/d_model), exponents from np.linspace…), pair 0 with ω₀ = 1
    (``_razon``: r = 1 or r = 0.999, pair 0 all over again, is no work, nor is
    r = 1e-9, pair 0 and constants).  Judged with other sizes
    (``Llamada.otras``: the cell's other controls or cases), the table of every
    one of them with T ≥ 3 and d_model ≥ 16 (this one included) must be such
    a ladder too, with |log r|·(d_model − 1)/2 within ``_FACTOR_ENTRE_TAMANOS``
    across them: a ratio computed from d_model keeps it, a fixed one does not
    (0.5, 0.8, one per range of sizes, or one only where no hand-written table
    exists).
    """
    razon = _razon(llamada)
    if razon is None:
        return False
    pasos = []
    for una in (llamada,) + tuple(getattr(llamada, "otras", ())):
        T, d_model = (int(x) for x in una.argumentos)
        if T < 3 or d_model < _TAMANO_MINIMO_DE_LA_LEY or d_model % 2:
            continue
        r = razon if una is llamada else _razon(una)
        if r is None:
            return False
        pasos.append(_paso(una, r))
    return not pasos or max(pasos) <= _FACTOR_ENTRE_TAMANOS * min(pasos)


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
          "frecuencia r^i, con frecuencias que bajen o suban entre un factor 3 y un factor 10^6 de la primera "
          "pareja a la última, y la misma ley con todos los tamaños)", escalera),
)
