"""Particulars of the ``multi_head`` grader (grader_tests/ejercicios/multi_head/) beyond its battery."""
from __future__ import annotations

import pytest

from grader_tests.juez import bateria, descubrimiento
from grader_tests.en_el_kernel.casos import celdas_de

EJ = descubrimiento.ejercicio("multi_head")
referencia = EJ.referencia


def corregir(implementacion) -> dict:
    return bateria.corregir("multi_head", implementacion)


def texto(veredictos: dict) -> str:
    return "\n".join(v.texto() for v in veredictos.values())


def total(veredictos: dict) -> float:
    return sum(v.puntos for v in veredictos.values())


def _error(id_):
    return EJ.error(id_).implementaciones[0]


def _solo_con(condicion, error):
    """Correct except when ``condicion(h)``: then it makes ``error`` (a faulty implementation)."""
    def funcion(X, Wq, Wk, Wv, Wo, h):
        if condicion(h):
            return error(X, Wq, Wk, Wv, Wo, h)
        return referencia(X, Wq, Wk, Wv, Wo, h)
    return funcion


def test_h_fijo_se_detecta_con_otros_h():
    veredictos = corregir(lambda X, Wq, Wk, Wv, Wo, h: referencia(X, Wq, Wk, Wv, Wo, 4))
    assert veredictos["multi_head_generalidad"].puntos < 1
    assert veredictos["multi_head_mapas"].puntos < 3
    assert "no usa el argumento `h`" in texto(veredictos)


def test_escribe_en_x_lo_nombra():
    def escribe_x(X, Wq, Wk, Wv, Wo, h):
        resultado = referencia(X.copy(), Wq, Wk, Wv, Wo, h)
        X[:] = 0
        return resultado
    veredictos = corregir(escribe_x)
    assert veredictos["multi_head_no_modifica"].puntos == 0
    assert "escribe en `X`" in texto(veredictos)
    assert [e.id for e in veredictos["multi_head_no_modifica"].errores] == ["escribe_en_argumentos"]
    assert total(veredictos) == EJ.puntos - 1


def test_un_error_que_solo_aparece_en_generalidad_no_se_excusa():
    veredictos = corregir(_solo_con(lambda h: h == 1, _error("sin_wo")))
    v = veredictos["multi_head_generalidad"]
    assert v.puntos == pytest.approx(0.75), v.texto()
    assert "aquí no resta" not in v.texto()
    assert "sin multiplicarla por Wo" in v.texto()
    assert [c.solo_aqui for c in v.casos if not c.aprobado] == [True]
    assert total(veredictos) == pytest.approx(EJ.puntos - 0.25)
    veredictos = corregir(_solo_con(lambda h: h == 5, _error("escala_d_model")))
    assert veredictos["multi_head_generalidad"].puntos == pytest.approx(0.75)
    assert total(veredictos) == pytest.approx(EJ.puntos - 0.25)


def test_un_error_de_valores_que_tambien_esta_en_el_control_se_excusa():
    veredictos = corregir(_error("sin_wo"))
    generalidad = veredictos["multi_head_generalidad"]
    assert generalidad.puntos == 1
    assert "aquí no resta" in generalidad.texto()
    assert any(c.excusado for c in generalidad.casos) and generalidad.errores == []
    assert veredictos["multi_head_salida"].puntos == 0


def test_no_modifica_en_varios_h():
    def escribe_si_h2(X, Wq, Wk, Wv, Wo, h):
        resultado = referencia(X, Wq.copy(), Wk, Wv, Wo, h)
        if h == 2:
            Wq += 1
        return resultado
    espec = celdas_de("multi_head")["multi_head_no_modifica"]
    assert sorted(c["h"] for c in espec.casos) == [2, 3, 4]
    for c in espec.casos:
        assert len({c["T"], c["h"], c["d_model"] // c["h"]}) == 3
    veredicto = corregir(escribe_si_h2)["multi_head_no_modifica"]
    assert veredicto.puntos < 1
    assert "escribe en `Wq`" in veredicto.texto()


def test_redaccion_de_la_primera_linea_con_un_solo_dos_puntos():
    archivo = next(a for a in EJ.bateria() if a.nombre == "c01_bucle")
    bien = corregir(bateria.cargar(archivo, "multi_head"))
    primera = bien["multi_head_robustez"].texto().strip().splitlines()[0]
    assert primera.count(":") <= 1, primera


def test_la_robustez_tiene_puntuaciones_de_mas_de_mil():
    """The cell's description and the lesson say «más de mil»: every robustness case has them."""
    from grader_tests.en_el_kernel.casos import argumentos
    from grader_tests.ejercicios.multi_head.errores import _puntuaciones_maximas
    assert "más de mil" in EJ.propiedades["multi_head_robustez"].descripcion
    for caso in celdas_de("multi_head")["multi_head_robustez"].casos_puntuados:
        assert _puntuaciones_maximas(argumentos("multi_head", caso)) > 1000, caso


def test_los_avisos_de_numpy_se_dicen_en_espanol():
    from grader_tests.juez.propiedades import traducir_aviso
    assert traducir_aviso("RuntimeWarning: overflow encountered in exp") == (
        "aviso de NumPy: desbordamiento (un resultado demasiado grande: inf) en exp")
    assert traducir_aviso("UserWarning: otra cosa") == "UserWarning: otra cosa"
