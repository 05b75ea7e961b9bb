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


# The values cell ends with a size no lesson lists (the visible tests and their comments name the other
# three): a table written for the published sizes gets it wrong, and the work-done rule
# (TRABAJO_EN_CADA_CONTROL) pays no value, robustness or generality point to a function that computes
# nothing with it (issue 19, fifth and sixth attacks).  d_model = 46 = 2·23: the exponents of its pairs are
# j/23, none of those of a fixed table of simple fractions 1/2, 1/3, 2/3… that fits in 46 columns, and its
# frequencies are none of those of d_model = 6, 8, 16 or 64.
_SIN_PUBLICAR = {"T": 11, "d_model": 46}
CASOS_SIN_PUBLICAR = (_SIN_PUBLICAR,)
_PRINCIPALES = ({"T": 9, "d_model": 16}, {"T": 13, "d_model": 6}, {"T": 16, "d_model": 64}, _SIN_PUBLICAR)

CELDAS = (
    Celda("contrato", ({"T": 7, "d_model": 12},)),
    Celda("valores", _PRINCIPALES),
    # many positions: angles up to ~1000 rad, where float32 loses the 1e-6 tolerance
    Celda("robustez", ({"T": 1000, "d_model": 16},), control=_PRINCIPALES),
    Celda("generalidad", ({"T": 1, "d_model": 8}, {"T": 5, "d_model": 2}, {"T": 31, "d_model": 10}),
          control=_PRINCIPALES),
)
