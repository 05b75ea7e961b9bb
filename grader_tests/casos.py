"""What each hidden test cell runs: the inputs of every graded property.

Public by design (kernel-safe): the inputs are not secret, the expected
values are.  The student's kernel builds the inputs from these descriptions,
calls the student's function and ships the results out (``cliente``); the
trusted grader rebuilds the same inputs to compute the reference (``juez``).

Inputs are chosen so that no known mistake can hide: h ≥ 2 with T, h and d_k
all different, random non-identity W^O, several shapes, a large-score case.

The robustness and generality cells end with one *control* case, equal to the
first main case of the value cells.  It is run like the others but never
scored: it tells the judge whether a known value mistake seen on the unusual
shapes is also made on the ordinary ones (and so is charged in the value
cells) or appears only there (a separate bug, charged here).  See
``propiedades``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Especificacion:
    """One graded test cell.

    Attributes:
        grade_id: the nbgrader grade_id of the test cell.
        objetivo: the name looked up in the student's namespace (a function
            such as ``multi_head`` or a variable such as ``respuesta_3``).
        casos: for functions, the input descriptions (dicts of ints) it is
            called on, controls included; empty for quiz variables.
        n_controles: how many of the last ``casos`` are unscored controls.
    """

    grade_id: str
    objetivo: str
    casos: tuple = field(default_factory=tuple)
    n_controles: int = 0

    @property
    def es_funcion(self) -> bool:
        return bool(self.casos)

    @property
    def casos_puntuados(self) -> tuple:
        """The cases that count towards the cell's points."""
        return self.casos[:len(self.casos) - self.n_controles]

    @property
    def casos_control(self) -> tuple:
        """The unscored control cases (equal to main cases of the value cells)."""
        return self.casos[len(self.casos) - self.n_controles:]


def argumentos_multi_head(caso: dict) -> tuple:
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


def argumentos_positional_encoding(caso: dict) -> tuple:
    """Inputs of ``positional_encoding`` for one case: ``(T, d_model)`` as ints."""
    return int(caso["T"]), int(caso["d_model"])


ARGUMENTOS = {
    "multi_head": argumentos_multi_head,
    "positional_encoding": argumentos_positional_encoding,
}


def _mh(T, d_model, h, semilla, escala=1):
    return {"T": T, "d_model": d_model, "h": h, "semilla": semilla, "escala": escala}


# T, h and d_k all different, h >= 2, in the main cases (a hard-coded h, an
# interleaved split, a (T, T, h) map or a missing transpose cannot hide).
_MH_PRINCIPALES = (_mh(5, 12, 3, 11), _mh(7, 8, 2, 12), _mh(3, 20, 4, 13))

_PE_PRINCIPALES = ({"T": 9, "d_model": 16}, {"T": 13, "d_model": 6}, {"T": 60, "d_model": 64})


def _con_control(grade_id: str, objetivo: str, casos: tuple, control: dict) -> Especificacion:
    """A robustness/generality cell: its cases plus one unscored control at the end."""
    return Especificacion(grade_id, objetivo, tuple(casos) + (control,), n_controles=1)


_ESPECIFICACIONES = [
    Especificacion("multi_head_contrato", "multi_head", (_mh(5, 12, 3, 21),)),
    Especificacion("multi_head_mapas", "multi_head", _MH_PRINCIPALES),
    Especificacion("multi_head_salida", "multi_head", _MH_PRINCIPALES),
    # h = 2, 3, 4 with T, h and d_k different: an in-place write that only
    # happens for some h cannot hide
    Especificacion("multi_head_no_modifica", "multi_head",
                   (_mh(5, 12, 2, 31), _mh(6, 12, 3, 32), _mh(7, 20, 4, 33))),
    # scores of several hundred to a few thousand: a softmax without
    # max-subtraction overflows to inf and gives nan
    _con_control("multi_head_robustez", "multi_head",
                 (_mh(4, 6, 2, 41, escala=60), _mh(6, 15, 3, 42, escala=25)), _MH_PRINCIPALES[0]),
    # h = 1, h = d_model, T = 1 and an odd d_k (h = 5 appears only here)
    _con_control("multi_head_generalidad", "multi_head",
                 (_mh(5, 6, 1, 51), _mh(4, 6, 6, 52), _mh(1, 8, 2, 53), _mh(9, 10, 5, 54)),
                 _MH_PRINCIPALES[0]),
    Especificacion("positional_encoding_contrato", "positional_encoding", ({"T": 7, "d_model": 12},)),
    Especificacion("positional_encoding_valores", "positional_encoding", _PE_PRINCIPALES),
    # many positions: angles up to ~1000 rad, where float32 loses the 1e-6 tolerance
    _con_control("positional_encoding_robustez", "positional_encoding",
                 ({"T": 1000, "d_model": 16},), _PE_PRINCIPALES[0]),
    _con_control("positional_encoding_generalidad", "positional_encoding",
                 ({"T": 1, "d_model": 8}, {"T": 5, "d_model": 2}, {"T": 31, "d_model": 10}),
                 _PE_PRINCIPALES[0]),
]

ESPECIFICACIONES: dict[str, Especificacion] = {e.grade_id: e for e in _ESPECIFICACIONES}


def especificacion(grade_id: str) -> Especificacion:
    """The cell with ``grade_id``; quiz cells ``comprueba_respuesta_N`` read ``respuesta_N``.

    Raises:
        KeyError: no graded cell has that grade_id.
    """
    if grade_id in ESPECIFICACIONES:
        return ESPECIFICACIONES[grade_id]
    prefijo = "comprueba_"
    if grade_id.startswith(prefijo) and grade_id[len(prefijo):].startswith("respuesta_"):
        return Especificacion(grade_id, grade_id[len(prefijo):])
    raise KeyError(f"ninguna celda calificada se llama {grade_id!r}")
