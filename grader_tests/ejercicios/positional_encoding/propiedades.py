"""What the cells of ``positional_encoding`` check, with their tolerance and points (trusted side only).

The contract (lesson 2, exercise): ``positional_encoding(T, d_model)``
returns the table PE, a float64 array (T, d_model), compared with
``np.allclose(rtol=1e-6, atol=1e-6)`` (angles up to ~1000 rad need float64).
Generalidad (T = 1, d_model = 2) is partly checked only at grading time.

``TRABAJO``: besides the whole table right, what shows that a wrong
``positional_encoding`` did real work (``grader_tests.propiedades``, points
only for work done): one whole coordinate right (a column of the reference
that changes with the position, wherever it sits: swapped sine and cosine,
pairs counted from 1, a wrong base keep pair 0), or one whole position ≥ 1
right (a row of the reference, wherever it sits: positions counted from 1).
Row 0 (all angles 0: [0, 1, 0, 1…]) and constant columns show nothing.  A
transposed table counts in both orientations.  The visible tests
(``source/02_codificacion_posicional/pruebas_positional_encoding.py``) check
the same pieces on their visible table.
"""
import numpy as np

from grader_tests.propiedades import alguna_linea_igual, arrays_devueltos, contrato, pieza, resultado, valores

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
    """Some column equals a column of the reference that changes with the position."""
    referencia = llamada.referencia()
    return any(t.shape[0] == referencia.shape[0] and alguna_linea_igual(t.T, referencia.T, TOLERANCIA)
               for t in _tablas(llamada))


def una_posicion(llamada) -> bool:
    """Some row equals the row of a position ≥ 1 of the reference."""
    referencia = llamada.referencia()
    return any(t.shape[1] == referencia.shape[1] and alguna_linea_igual(t, referencia[1:], TOLERANCIA)
               for t in _tablas(llamada))


TRABAJO = (
    pieza("una coordenada entera de PE (una columna que cambia con la posición)", una_coordenada),
    pieza("la codificación entera de una posición pos ≥ 1 (una fila)", una_posicion),
)
