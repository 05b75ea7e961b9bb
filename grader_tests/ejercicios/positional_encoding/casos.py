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
# One more control for the work-done rule (every control must show work: TRABAJO_EN_CADA_CONTROL), of a size
# no lesson lists: its frequencies 10^(-4i/7) are none of those of d_model = 6, 8, 16 or 64, so a table
# of frequencies hard-coded for the published sizes shows no work here (issue 19, fifth attack).
_SIN_PUBLICAR = {"T": 11, "d_model": 14}
CONTROLES_SIN_PUBLICAR = (_SIN_PUBLICAR,)      # the only controls that are not a case of the values cell

CELDAS = (
    Celda("contrato", ({"T": 7, "d_model": 12},)),
    Celda("valores", _PRINCIPALES),
    # many positions: angles up to ~1000 rad, where float32 loses the 1e-6 tolerance
    Celda("robustez", ({"T": 1000, "d_model": 16},), control=_PRINCIPALES + (_SIN_PUBLICAR,)),
    Celda("generalidad", ({"T": 1, "d_model": 8}, {"T": 5, "d_model": 2}, {"T": 31, "d_model": 10}),
          control=_PRINCIPALES + (_SIN_PUBLICAR,)),
)
