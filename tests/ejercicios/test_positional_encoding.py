"""Particulars of the ``positional_encoding`` grader (grader_tests/ejercicios/positional_encoding/)."""
from __future__ import annotations

import numpy as np

from grader_tests.juez import bateria, descubrimiento

EJ = descubrimiento.ejercicio("positional_encoding")
referencia = EJ.referencia


def corregir(implementacion) -> dict:
    return bateria.corregir("positional_encoding", implementacion)


def texto(veredictos: dict) -> str:
    return "\n".join(v.texto() for v in veredictos.values())


def test_pe_intercalada_y_concatenada_tienen_el_mismo_producto_pero_se_distinguen():
    T, d = 9, 16
    P = referencia(T, d)
    C = np.concatenate([P[:, 0::2], P[:, 1::2]], axis=1)
    assert np.allclose(P @ P.T, C @ C.T)
    veredictos = corregir(lambda T, d_model: np.concatenate(
        [referencia(T, d_model)[:, 0::2], referencia(T, d_model)[:, 1::2]], axis=1))
    assert "todos los senos a la izquierda" in texto(veredictos)
    assert veredictos["positional_encoding_valores"].puntos == 0


def test_matriz_numpy_solo_pierde_el_contrato():
    veredictos = corregir(lambda T, d_model: np.asmatrix(referencia(T, d_model)))
    assert veredictos["positional_encoding_contrato"].puntos == 0
    assert "debería ser un np.ndarray y es np.matrix" in veredictos["positional_encoding_contrato"].texto()
    assert sum(v.puntos for v in veredictos.values()) == EJ.puntos - 1


def test_pe_float32_al_final_no_se_confunde_con_angulos_float32():
    veredictos = corregir(lambda T, d_model: referencia(T, d_model).astype(np.float32))
    assert "calculas los ángulos en float32" not in texto(veredictos)
    assert "en float32: los valores son correctos" in texto(veredictos)
    assert [e.id for e in veredictos["positional_encoding_contrato"].errores] == ["salida_float32"]


def test_redaccion_singular():
    veredictos = corregir(lambda *a: None)
    assert "0 de 1 caso correcto." in veredictos["positional_encoding_contrato"].texto()
