"""What the cells of ``@@FUNCION@@`` check, with their tolerance and points (trusted side only).

The contract (lesson @@NUMERO@@, exercise): ``@@FUNCION@@(Q, K)`` returns S,
a float64 array (T, T), compared with ``np.allclose(rtol=1e-6, atol=1e-6)``.
Generalidad (T = 1, d_k = 1) is partly checked only at grading time.

``TRABAJO``: besides S right, what shows that a wrong ``@@FUNCION@@`` did
real work (``grader_tests.propiedades``, points only for work done): the
products Q[t]·K[s] up to one common nonzero factor (forgetting the scale, or
using another one, is the values cell's mistake, charged there once).  Zeros
or a constant keep nothing.  The visible tests
(``source/@@TAREA@@/pruebas_@@FUNCION@@.py``) check the same piece on their
visible case.
"""
import numpy as np

from grader_tests.propiedades import VARIACION_MINIMA, arrays_devueltos, contrato, pieza, resultado, valores

RESULTADO = resultado(("S", ("T", "T")))
TOLERANCIA = {"rtol": 1e-6, "atol": 1e-6}

PROPIEDADES = {
    "contrato": contrato("forma y dtype"),
    "valores": valores("los valores de S", 2),
    "generalidad": valores("formas poco habituales (T = 1, d_k = 1)", 1, no_repite=True,
                           solo_al_calificar=True),
}


def proporcional(S: np.ndarray, S_ref: np.ndarray) -> bool:
    """``S`` (or its transpose) is ``c · S_ref`` for one nonzero ``c``, and ``S_ref`` varies.

    With one position (T = 1, a single score) no factor can be told apart from
    a constant: there ``S`` must equal ``S_ref`` itself (and ``S_ref`` be nonzero).

    Args:
        S, S_ref: float arrays (T, T).
    """
    S, S_ref = np.asarray(S, dtype=np.float64), np.asarray(S_ref, dtype=np.float64)
    if S.shape != S_ref.shape or not S_ref.size or not np.all(np.isfinite(S)):
        return False
    if S_ref.size == 1:
        return bool(abs(S_ref.item()) > VARIACION_MINIMA and np.allclose(S, S_ref, **TOLERANCIA))
    if np.ptp(S_ref) <= VARIACION_MINIMA:
        return False
    for candidata in (S, S.T):
        c = float(np.vdot(candidata, S_ref) / np.vdot(S_ref, S_ref))     # the best common factor
        if abs(c) > 1e-3 and np.allclose(candidata, c * S_ref, **TOLERANCIA):
            return True
    return False


def productos_salvo_un_factor(llamada) -> bool:
    """The returned S holds the products Q[t]·K[s], scaled by one common nonzero factor."""
    S_ref = llamada.referencia()
    return any(proporcional(S, S_ref) for S in arrays_devueltos(llamada))


TRABAJO = (
    pieza("los productos Q[t]·K[s] salvo un factor común (las puntuaciones sin la escala 1/√d_k o con otra)",
          productos_salvo_un_factor),
)
