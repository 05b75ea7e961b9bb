"""grader_tests/comun/legible.py: the one helper that makes a submission's text safe to show to a person."""
from __future__ import annotations

import pytest

from grader_tests.comun.legible import legible


@pytest.mark.parametrize("texto, esperado", [
    ("a\nb\x1b[31m", "a\\x0ab\\x1b[31m"),                     # forged line, terminal escape
    ("ana\u202egnp.ipynb", "ana\\u202egnp.ipynb"),               # bidi override
    ("x\u200by\ufeff", "x\\u200by\\ufeff"),                     # zero-width characters
    ("\u2028\u2029\x85\x7f", "\\u2028\\u2029\\x85\\x7f"),     # separators, C1, DEL
    ("\ud800", "\\ud800"),                                      # a lone surrogate
    ("\U000e0001", "\\U000e0001"),                              # an invisible tag character
    ("ñandú √ 日本", "ñandú √ 日本"),                           # printable text is kept
    (42, "42"),
])
def test_escapa_lo_que_no_se_ve_y_respeta_lo_demas(texto, esperado):
    assert legible(texto) == esperado
    assert legible(texto).isprintable()


def test_el_limite_corta_con_puntos_suspensivos():
    assert legible("x" * 500) == "x" * 500
    assert legible("x" * 500, 100) == "x" * 99 + "…"
    assert len(legible("\n" * 500, 120)) == 120
    assert legible("corto", 100) == "corto"
