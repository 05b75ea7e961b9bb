"""Inputs of the graded cells of ``@@FUNCION@@`` (lesson @@NUMERO@@).  Public: the student's kernel reads it.

(Template of ``make leccion``: the inputs of the example exercise, the scaled
scores Q Kᵀ / √d_k.)  The main cases have T ≠ d_k and d_k > 1 (a missing
scale cannot hide); the generality cell ends with the main cases of the value
cell as unscored controls (the control rule, ``grader_tests.juez.propiedades``).
"""
from __future__ import annotations

import numpy as np

from grader_tests.en_el_kernel.casos import Celda

ARGUMENTOS = ("Q", "K")


def argumentos(caso: dict) -> tuple:
    """``(Q, K)``: two float64 arrays (T, d_k) drawn from a normal distribution with the case's seed."""
    rng = np.random.default_rng(int(caso["semilla"]))
    T, d_k = int(caso["T"]), int(caso["d_k"])
    return rng.normal(size=(T, d_k)), rng.normal(size=(T, d_k))


_PRINCIPALES = ({"T": 5, "d_k": 8, "semilla": 1}, {"T": 7, "d_k": 3, "semilla": 2})

CELDAS = (
    Celda("contrato", ({"T": 4, "d_k": 6, "semilla": 3},)),
    Celda("valores", _PRINCIPALES),
    # one position, and d_k = 1 (where forgetting the scale does not show)
    Celda("generalidad", ({"T": 1, "d_k": 4, "semilla": 4}, {"T": 6, "d_k": 1, "semilla": 5}),
          control=_PRINCIPALES),
)
