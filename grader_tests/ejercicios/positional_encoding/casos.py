"""Inputs of the graded cells of ``positional_encoding`` (lesson 2).  Public: the student's kernel reads it.

The robustness and generality cells end with the main cases of the value
cell as unscored controls (the control rule, ``grader_tests.juez.propiedades``).
"""
from __future__ import annotations

from grader_tests.en_el_kernel.casos import Celda

ARGUMENTOS = ("T", "d_model")


def argumentos(caso: dict) -> tuple:
    """Inputs of ``positional_encoding`` for one case: ``(T, d_model)`` as ints."""
    return int(caso["T"]), int(caso["d_model"])


_PRINCIPALES = ({"T": 9, "d_model": 16}, {"T": 13, "d_model": 6}, {"T": 16, "d_model": 64})

CELDAS = (
    Celda("contrato", ({"T": 7, "d_model": 12},)),
    Celda("valores", _PRINCIPALES),
    # many positions: angles up to ~1000 rad, where float32 loses the 1e-6 tolerance
    Celda("robustez", ({"T": 1000, "d_model": 16},), control=_PRINCIPALES),
    Celda("generalidad", ({"T": 1, "d_model": 8}, {"T": 5, "d_model": 2}, {"T": 31, "d_model": 10}),
          control=_PRINCIPALES),
)
