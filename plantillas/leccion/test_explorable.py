"""Tests of the lesson-@@NUMERO@@ explorable (source/@@TAREA@@/explorable_@@NOMBRE@@.py).

(Template of ``make leccion``: replace them with the tests of your explorable.)
Pure layer: the claims the lesson makes.  Drawing: a PNG.  Wiring: the
widget is built headlessly, its controls are set and the state is checked.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from conftest import RAIZ, cargar_modulo

ex = cargar_modulo(RAIZ / "source" / "@@TAREA@@" / "explorable_@@NOMBRE@@.py", "explorable_@@NOMBRE@@")


def test_sin_dividir_la_desviacion_crece_como_raiz_de_d_k():
    """Section 2: without the scale the spread is about √d_k; with it, about 1."""
    for d_k in (4, 64, 256):
        assert ex.desviacion_tipica(d_k, escalar=False) == pytest.approx(np.sqrt(d_k), rel=0.1)
        assert ex.desviacion_tipica(d_k, escalar=True) == pytest.approx(1.0, rel=0.1)


def test_puntuaciones_para_pintar_en_float16_y_con_su_forma():
    Q, K = ex.matrices_de_ejemplo(5, 16)
    S = ex.puntuaciones_para_pintar(Q, K, escalar=True)
    assert S.shape == (5, 5) and S.dtype == np.float16
    np.testing.assert_allclose(S, Q @ K.T / 4, atol=1e-2)


def test_dibujo_da_un_png():
    Q, K = ex.matrices_de_ejemplo(ex.T_EJEMPLO, 4)
    assert ex.figura_a_png(ex.dibujar(ex.puntuaciones_para_pintar(Q, K, True), "S")).startswith(b"\x89PNG")


def test_mover_los_controles_redibuja():
    caja = ex.crear_explorable(d_k=4, escalar=False)
    antes = caja.imagen.value
    caja.control_d_k.value = 256
    assert caja.imagen.value != antes and "d_k = 256" in caja.estado_texto.value
    caja.control_escala.value = True
    assert "dividiendo entre √256" in caja.estado_texto.value


def test_valores_iniciales_que_no_ofrece_se_rechazan():
    with pytest.raises(ValueError):
        ex.crear_explorable(d_k=3)
