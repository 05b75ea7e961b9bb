"""Inputs of the graded cells of ``positional_encoding`` (lesson 2).  Public: the student's kernel reads it.

The robustness and generality cells end with the main cases of the value
cell as unscored controls (the control rule, ``grader_tests.juez.propiedades``);
the value, robustness and generality cells then call the law sizes
(``MUESTRA_DE_LA_LEY``, then ``LEY_SIN_PUBLICAR``), an unscored sample that only
the pieces of work read (the ladder's law; some work at the unpublished sizes).
"""
from __future__ import annotations

from grader_tests.en_el_kernel.casos import Celda

ARGUMENTOS = ("T", "d_model")


def argumentos(caso: dict) -> tuple:
    """Inputs of ``positional_encoding`` for one case: ``(T, d_model)`` as ints."""
    return int(caso["T"]), int(caso["d_model"])


# The values cell ends with two sizes no lesson lists (the visible tests and their comments name the
# others): a table written for the published sizes gets them wrong, and the work-done rule
# (TRABAJO_EN_CADA_CONTROL) pays no value, robustness or generality point to a function that computes
# nothing with them (issue 19, fifth to seventh attacks).  d_model = 22 = 2·11 and 62 = 2·31 enclose the
# sizes the visible tests draw at random (d_model = 2p, p prime from 13 to 29): the exponents of their
# pairs are j/11 and j/31, none of those of a fixed table of simple fractions that fits in their columns;
# no fixed ladder ratio follows d_model (propiedades.escalera, over the law sizes); and a table has at
# most 62 columns, so a list of lists (a known mistake) is read whole (serializacion.MAX_LONGITUD = 64).
_SIN_PUBLICAR = ({"T": 8, "d_model": 22}, {"T": 11, "d_model": 62})
CASOS_SIN_PUBLICAR = _SIN_PUBLICAR
_PRINCIPALES = ({"T": 9, "d_model": 16}, {"T": 13, "d_model": 6}, {"T": 16, "d_model": 64}) + _SIN_PUBLICAR

# The law sizes (issue 19, eighth attack): every even d_model from 16 to 64, with T = 4, called after the cases
# and controls of every cell that judges work and never scored or compared with the reference.  A ladder with
# another ratio counts as work only if its ratio follows one law of d_model over all of them
# (propiedades.sigue_la_ley): no cut between two sizes of a ratio chosen by ranges, and no hand-written table
# among them, escapes.  Public, like every input: the visible tests call the same sizes
# (pruebas_positional_encoding.MUESTRA_DE_LA_LEY).
T_DE_LA_LEY = 4
MUESTRA_DE_LA_LEY = tuple({"T": T_DE_LA_LEY, "d_model": d} for d in range(16, 65, 2))

# Besides, two law sizes no lesson publishes (issue 19, ninth attack): a dict of 31 ratios, one per even d_model
# up to 64, wrote every published table without computing anything.  Only their first columns are read
# (propiedades.TRABAJO_EN_LA_MUESTRA: the first 64, all a list of lists brings, serializacion.MAX_LONGITUD), so
# they cost little; no verdict names them (sample calls are never named).  d_model = 2p with p prime, outside
# the visible tests' draw (pruebas_positional_encoding.PRIMOS_GRANDES_AL_AZAR: 2·67 to 2·151, all wider than the
# explorable's d_model ≤ 128) on either side;
# change them every course, with that draw between them.
LEY_SIN_PUBLICAR = ({"T": T_DE_LA_LEY, "d_model": 86}, {"T": T_DE_LA_LEY, "d_model": 314})
_MUESTRA = MUESTRA_DE_LA_LEY + LEY_SIN_PUBLICAR

CELDAS = (
    Celda("contrato", ({"T": 7, "d_model": 12},)),
    Celda("valores", _PRINCIPALES, muestra=_MUESTRA),
    # many positions: angles up to ~1000 rad, where float32 loses the 1e-6 tolerance
    Celda("robustez", ({"T": 1000, "d_model": 16},), control=_PRINCIPALES, muestra=_MUESTRA),
    Celda("generalidad", ({"T": 1, "d_model": 8}, {"T": 5, "d_model": 2}, {"T": 31, "d_model": 10}),
          control=_PRINCIPALES, muestra=_MUESTRA),
)
