"""What the cells of ``multi_head`` check, with their tolerance and points (trusted side only).

The contract (lesson 1, exercise): ``multi_head(X, Wq, Wk, Wv, Wo, h)``
returns the pair ``(salida, A)``, float64 arrays of shapes (T, d_model) and
(h, T, T), compared with ``np.allclose(rtol=1e-4, atol=1e-6)`` (float32
arithmetic inside passes).  Generalidad (h = 1, h = d_model, T = 1, odd d_k,
h = 5) is partly checked only at grading time, as the lesson says.

``TRABAJO``: besides a whole array right, what shows that a wrong
``multi_head`` did real work (``grader_tests.propiedades``, points only for
work done): one head's map right, or the output right *from its own maps*
(every column of Concat = salida·(W^O)⁻¹ is one of the returned maps times a
column of V = X·W^V, whichever grouping of columns it used).  A mistake in
the maps alone (the scale, the softmax's axis, Q and K swapped…) keeps the
second; shifted heads keep the first; zeros or uniform maps keep neither.
The visible tests (``source/01_atencion_multicabeza/pruebas_multi_head.py``)
check the same pieces on their visible case.
"""
import numpy as np

from grader_tests.propiedades import (VARIACION_MINIMA, alguna_linea_igual, arrays_devueltos, contrato,
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


def salida_de_tus_mapas(llamada) -> bool:
    """The output is the one the returned maps give: Concat(A_i·V_j) · W^O, whatever the columns' grouping.

    Every column of C = salida·(W^O)⁻¹ must be one of the returned maps times
    a column of V = X·W^V (the second half of the layer done right), and some
    column must vary with the position (a zero output, or uniform maps, prove
    nothing).
    """
    X, _, _, Wv, Wo, _ = llamada.argumentos
    V = np.asarray(X, dtype=np.float64) @ Wv                        # (T, d_model)
    T, d_model = V.shape
    for salida in (a for a in arrays_devueltos(llamada) if a.shape == (T, d_model)):
        C = np.linalg.solve(np.asarray(Wo, dtype=np.float64).T, salida.T).T      # salida = C · Wo
        if not np.all(np.isfinite(C)) or np.ptp(C, axis=0).max() <= VARIACION_MINIMA:
            continue
        atol = 1e-6 * (1 + np.abs(C).max())
        for mapas in _mapas_devueltos(llamada):
            candidatas = np.concatenate([(m @ V).T for m in mapas])            # (h·d_model, T): A_i · V_j
            cerca = np.abs(C.T[:, None, :] - candidatas[None]) <= atol + 1e-3 * np.abs(candidatas[None])
            if np.all(np.any(np.all(cerca, axis=-1), axis=-1)):
                return True
    return False


TRABAJO = (
    pieza("el mapa de atención de alguna cabeza", un_mapa_correcto),
    pieza("la salida que corresponde a tus propios mapas (cada columna de Concat(cabezas), la salida "
          "por la inversa de W^O, es uno de tus mapas por una columna de V = X·W^V)", salida_de_tus_mapas),
)
