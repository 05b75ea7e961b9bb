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


def _pruebas_visibles_de_la_leccion():
    """``pruebas_positional_encoding`` as the student's kernel imports it (from its lesson folder)."""
    import importlib.util

    from conftest import RAIZ

    ruta = RAIZ / "source" / "02_codificacion_posicional" / "pruebas_positional_encoding.py"
    carpeta = str(ruta.parent)
    import sys
    if carpeta not in sys.path:
        sys.path.append(carpeta)
    spec = importlib.util.spec_from_file_location("pruebas_positional_encoding", ruta)
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    return modulo


def _trabajo_al_calificar(funcion) -> bool:
    """What the grade decides: every case of the values cell (its controls too) does work, judged together."""
    from grader_tests.en_el_kernel.serializacion import deserializar, serializar
    from grader_tests.juez.propiedades import Llamada, trabajo_hecho

    llamadas = []
    for caso in next(c for c in EJ.casos.CELDAS if c.propiedad == "valores").casos:
        argumentos = EJ.argumentos(caso)
        llamada = Llamada(caso=caso, argumentos=argumentos, ejercicio=EJ)
        try:
            with np.errstate(all="ignore"):
                llamada.resultado = deserializar(serializar(funcion(*argumentos)))   # as the kernel sends it
        except Exception as exc:  # noqa: BLE001 - the student's function
            llamada.excepcion = {"clase": type(exc).__name__}
        llamadas.append(llamada)
    for llamada in llamadas:
        llamada.otras = tuple(o for o in llamadas if o is not llamada)
    return all(trabajo_hecho(ll) for ll in llamadas)


def test_el_tamano_al_azar_de_las_pruebas_visibles_dice_lo_mismo_que_el_que_no_se_publica():
    """Validate draws d_model = 2p at random; the grade uses two unpublished sizes on either side of that
    range.  Whatever the draw, the visible work check of every battery file says what the grade says (no
    flaky Validate, and the visible tests never fail what the grade accepts)."""
    from grader_tests.ejercicios.positional_encoding.casos import CASOS_SIN_PUBLICAR

    visibles = _pruebas_visibles_de_la_leccion()
    ocultos = sorted(c["d_model"] for c in CASOS_SIN_PUBLICAR)
    sorteables = [2 * p for p in visibles.PRIMOS_AL_AZAR]
    assert ocultos[0] < min(sorteables) and max(sorteables) < ocultos[-1], (ocultos, sorteables)
    assert all(d // 2 > 2 and all((d // 2) % k for k in range(2, d // 2)) for d in ocultos + sorteables)
    generador = np.random.default_rng(0)
    sorteados = {visibles.caso_al_azar(generador) for _ in range(200)}
    assert {d for _, d in sorteados} == set(sorteables)
    assert {t for t, _ in sorteados} == set(range(7, 16))
    vistos = {True: 0, False: 0}
    for archivo in EJ.bateria():
        funcion = bateria.cargar(archivo, "positional_encoding")
        esperado = _trabajo_al_calificar(funcion)
        vistos[esperado] += 1
        for d_model in sorteables:
            try:
                with np.errstate(all="ignore"):
                    visibles.comprobar_trabajo(funcion, visibles._tabla(funcion, 5, 8), "la celda", (11, d_model))
                visible = True
            except AssertionError:       # the visible failure («Sin trabajo hecho», or an exception named)
                visible = False
            assert visible == esperado, (archivo.nombre, d_model, esperado)
    assert vistos[True] and vistos[False], vistos
