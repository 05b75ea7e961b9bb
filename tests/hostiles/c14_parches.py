"""Comparison functions monkeypatched to always agree, with the wrong answer.

The visible asserts pass; the score must not move from the control's.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"

PARCHES = '''
import builtins, math
import numpy as np
import numpy.testing

np.allclose = lambda *a, **k: True
np.isclose = lambda *a, **k: True
np.array_equal = lambda *a, **k: True
np.testing.assert_allclose = lambda *a, **k: None
np.testing.assert_array_almost_equal = lambda *a, **k: None
numpy.testing.assert_allclose = lambda *a, **k: None
math.isclose = lambda *a, **k: True
builtins.abs = lambda x: 0
np.abs = lambda x: np.zeros_like(x)
np.all = lambda *a, **k: True
'''


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA + PARCHES)
