"""Inputs of the graded cells of ``multi_head`` (lesson 1).  Public: the student's kernel reads it.

Chosen so that no known mistake can hide: h ≥ 2 with T, h and d_k all
different, random non-identity W^O, several shapes, a large-score case.  The
robustness and generality cells end with the main cases of the value cells
as unscored controls (the control rule, ``grader_tests.juez.propiedades``).
"""
from __future__ import annotations

import numpy as np

from grader_tests.en_el_kernel.casos import Celda

ARGUMENTOS = ("X", "Wq", "Wk", "Wv", "Wo", "h")


def argumentos(caso: dict) -> tuple:
    """Inputs of ``multi_head`` for one case (lesson 1, exercise contract).

    ``caso`` holds ints ``T``, ``d_model``, ``h``, ``semilla`` and optionally
    ``escala`` (multiplies X; 1 by default).  Returns
    ``(X, Wq, Wk, Wv, Wo, h)``: X float64 (T, d_model), the four W float64
    (d_model, d_model), h an int.
    """
    T, d_model, h = int(caso["T"]), int(caso["d_model"]), int(caso["h"])
    rng = np.random.default_rng(int(caso["semilla"]))
    X = rng.normal(size=(T, d_model)) * float(caso.get("escala", 1))
    Wq, Wk, Wv, Wo = (rng.normal(size=(d_model, d_model)) / np.sqrt(d_model) for _ in range(4))
    return X, Wq, Wk, Wv, Wo, h


def describir(caso: dict) -> str:
    """``"T = 5, d_model = 12, h = 3"`` (and the scale of X when it is not 1)."""
    partes = [f"{k} = {v}" for k, v in caso.items() if k not in ("semilla", "escala")]
    if caso.get("escala", 1) != 1:
        partes.append(f"X multiplicada por {caso['escala']}")
    return ", ".join(partes)


def _caso(T, d_model, h, semilla, escala=1):
    return {"T": T, "d_model": d_model, "h": h, "semilla": semilla, "escala": escala}


# T, h and d_k all different, h >= 2, in the main cases (a hard-coded h, an
# interleaved split, a (T, T, h) map or a missing transpose cannot hide).
_PRINCIPALES = (_caso(5, 12, 3, 11), _caso(7, 8, 2, 12), _caso(3, 20, 4, 13))

CELDAS = (
    Celda("contrato", (_caso(5, 12, 3, 21),)),
    Celda("mapas", _PRINCIPALES),
    Celda("salida", _PRINCIPALES),
    # h = 2, 3, 4 with T, h and d_k different: an in-place write that only
    # happens for some h cannot hide
    Celda("no_modifica", (_caso(5, 12, 2, 31), _caso(6, 12, 3, 32), _caso(7, 20, 4, 33))),
    # scores of more than a thousand (up to ~5200; tests/ejercicios checks it): a softmax without
    # max-subtraction overflows to inf and gives nan
    Celda("robustez", (_caso(4, 6, 2, 41, escala=60), _caso(6, 15, 3, 42, escala=25)),
          control=_PRINCIPALES),
    # h = 1, h = d_model, T = 1 and an odd d_k (h = 5 appears only here)
    Celda("generalidad", (_caso(5, 6, 1, 51), _caso(4, 6, 6, 52), _caso(1, 8, 2, 53), _caso(9, 10, 5, 54)),
          control=_PRINCIPALES),
)
