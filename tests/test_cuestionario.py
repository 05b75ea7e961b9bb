"""How quiz answers are read (grader_tests/juez/quiz.py): every reasonable way of writing the right answer
earns the point, and a malformed one gets a Spanish message that says what is wrong."""
from __future__ import annotations

import numpy as np
import pytest

from grader_tests.juez.quiz import Entero, Opcion, Varias, VerdaderoFalso

OPCION = Opcion("respuesta_1", "b", "")
VARIAS = Varias("respuesta_4", frozenset("abd"), "", opciones="abcde")
ENTERO = Entero("respuesta_8", 800, "")


@pytest.mark.parametrize("valor", ["b", " B ", "b)", "(b)", "b.", "opción b", "Opción B.", "respuesta b",
                                   "«b»", ["b"], ("b",)])
def test_una_letra_escrita_de_muchas_formas(valor):
    assert OPCION.juzgar(valor, 1).puntos == 1


@pytest.mark.parametrize("valor", ["abd", "{a, b, d}", "a, b y d", "a y b y d", "a b d", "A,B,D", "a/b/d",
                                   "{'a', 'b', 'd'}", ["a", "b", "d"], ("d", "b", "a"), {"A", "b", "d"}])
def test_varias_letras_escritas_de_muchas_formas(valor):
    assert VARIAS.juzgar(valor, 1).puntos == 1


def test_la_opcion_e_no_se_confunde_con_la_conjuncion():
    assert VARIAS.leer("a, b, d, e") == frozenset("abde")
    assert VARIAS.juzgar("a y c", 1).lineas[0].startswith('Has respondido {"a", "c"}')


@pytest.mark.parametrize("valor", [800, np.int64(800), np.int32(800), 800.0, np.float64(800.0), "800", "8e2",
                                   "8.00e2", "800.0", "800,0", " 800 "])
def test_enteros_de_python_de_numpy_y_en_texto(valor):
    assert ENTERO.juzgar(valor, 1).puntos == 1


def test_notacion_cientifica_de_la_leccion_2():
    assert Entero("respuesta_3", 256, "").juzgar("2.56e2", 1).puntos == 1
    assert "entero exacto" in Entero("respuesta_3", 256, "").juzgar("2.565e2", 1).lineas[0]


@pytest.mark.parametrize("valor", [np.True_, np.False_])
def test_booleanos_de_numpy(valor):
    assert VerdaderoFalso("respuesta_5", bool(valor), "").juzgar(valor, 1).puntos == 1


@pytest.mark.parametrize("valor", ["bd", "b, c", "b y c"])
def test_varias_letras_en_una_pregunta_de_una_sola(valor):
    veredicto = OPCION.juzgar(valor, 1)
    assert veredicto.puntos == 0 and veredicto.motivo == "respuesta_ilegible"
    assert "una sola respuesta y has escrito varias letras" in veredicto.lineas[0]


@pytest.mark.parametrize("valor", [np.True_, True])
def test_un_booleano_no_es_un_entero(valor):
    assert "no True/False" in ENTERO.juzgar(valor, 1).lineas[0]


@pytest.mark.parametrize("valor, numero", [("2 359 296", 2359296), ("2.359.296", 2359296), ("2_359_296", 2359296),
                                           ("2359296.0", 2359296), ("2.56e2", 256), ("-1.000", -1000)])
def test_separadores_de_millares_y_decimales_enteros(valor, numero):
    assert Entero("r", numero, "").leer(valor) == numero


@pytest.mark.parametrize("valor", ["25.6", "2.56", "0.256", "2.5.6", "2 5 6", "8.00", "80.0", "23.59296"])
def test_un_punto_decimal_no_se_borra(valor):
    """Only groups of exactly three digits are thousands: a decimal never becomes the whole answer."""
    for respuesta in (256, 800, 2359296):
        assert Entero("r", respuesta, "").juzgar(valor, 1).puntos == 0


def test_un_numero_enorme_es_ilegible_no_un_error_interno():
    veredicto = ENTERO.juzgar("9" * 5000, 1)
    assert veredicto.puntos == 0 and veredicto.motivo == "respuesta_ilegible"
