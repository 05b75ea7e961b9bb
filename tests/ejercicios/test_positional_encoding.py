"""Particulars of the ``positional_encoding`` grader (grader_tests/ejercicios/positional_encoding/)."""
from __future__ import annotations

import numpy as np
import pytest

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
    """What the grade decides: every case of the values cell (its controls too) does work, with the cell's sample,
    and the sample's unpublished sizes show work on their first columns (``TRABAJO_EN_LA_MUESTRA``)."""
    from grader_tests.en_el_kernel.casos import celdas_de
    from grader_tests.en_el_kernel.serializacion import deserializar, serializar
    from grader_tests.juez.propiedades import Llamada, separar, trabajo_hecho

    espec = celdas_de("positional_encoding")["positional_encoding_valores"]
    llamadas = []
    for caso in espec.casos:
        argumentos = EJ.argumentos(caso)
        llamada = Llamada(caso=caso, argumentos=argumentos, ejercicio=EJ)
        try:
            with np.errstate(all="ignore"):
                llamada.resultado = deserializar(serializar(funcion(*argumentos)))   # as the kernel sends it
        except Exception as exc:  # noqa: BLE001 - the student's function
            llamada.excepcion = {"clase": type(exc).__name__}
        llamadas.append(llamada)
    puntuadas, _, muestra = separar(espec, llamadas)
    assert len(muestra) == len(EJ.casos.MUESTRA_DE_LA_LEY) + len(EJ.casos.LEY_SIN_PUBLICAR)
    return all(trabajo_hecho(ll) for ll in puntuadas) and EJ.trabajo_en_la_muestra.comprobar(muestra)


def test_la_muestra_de_la_ley_es_la_misma_en_la_nota_y_en_las_pruebas_visibles():
    """The law sizes, the range of c and the tolerance: one set of numbers on both sides (issue 19, 8th attack)."""
    from grader_tests.ejercicios.positional_encoding import casos, propiedades

    visibles = _pruebas_visibles_de_la_leccion()
    assert casos.MUESTRA_DE_LA_LEY == tuple({"T": visibles.T_DE_LA_LEY, "d_model": d}
                                           for d in visibles.MUESTRA_DE_LA_LEY)
    assert np.array_equal(propiedades._C_DE_LA_LEY, visibles.C_DE_LA_LEY)
    assert propiedades._TOLERANCIA_DE_LA_LEY == visibles.TOLERANCIA_DE_LA_LEY
    for celda in casos.CELDAS:
        assert celda.muestra == (() if celda.propiedad == "contrato"
                                 else casos.MUESTRA_DE_LA_LEY + casos.LEY_SIN_PUBLICAR), celda.propiedad
    # the unpublished law sizes: wider than any published one, outside the visible draw and on either side of it
    ocultos = sorted(c["d_model"] for c in casos.LEY_SIN_PUBLICAR)
    sorteables = [2 * p for p in visibles.PRIMOS_GRANDES_AL_AZAR]
    assert ocultos[0] < min(sorteables) and max(sorteables) < ocultos[-1]
    assert ocultos[0] > max(visibles.MUESTRA_DE_LA_LEY) and not set(ocultos) & set(sorteables)
    # Validate's large size is one the explorable refuses, as the grade's largest is (tenth attack): what the
    # explorable gives computes nothing there, in Validate as in the grade
    from explorable_escalera import D_MODEL_MAX
    assert min(sorteables) > D_MODEL_MAX and ocultos[-1] > D_MODEL_MAX
    assert all(c["T"] == visibles.T_DE_LA_LEY for c in casos.LEY_SIN_PUBLICAR)
    assert visibles.COLUMNAS_LEIDAS == propiedades._COLUMNAS_LEIDAS


# Ratios of the lesson's ladder: those computed from d_model (the formula and the honest mistakes) follow the
# law at every size; a fixed one, one per range of sizes, or exact tables for some sizes and another ratio
# elsewhere do not.
RAZONES_CON_LEY = {
    "la fórmula": lambda d: 10000.0 ** (-2 / d),
    "otra base": lambda d: 1000.0 ** (-2 / d),
    "exponente i/d_model": lambda d: 10000.0 ** (-1 / d),
    "multiplica": lambda d: 10000.0 ** (2 / d),
    "linspace": lambda d: 10000.0 ** (-1 / (d // 2 - 1)),
    "2i/(d_model + 1)": lambda d: 10000.0 ** (-2 / (d + 1)),
    "2i/(d_model - 1)": lambda d: 10000.0 ** (-2 / (d - 1)),
}
RAZONES_SIN_LEY = {
    "fija 0,75": lambda d: 0.75,
    "dos tramos": lambda d: 0.44 if d < 40 else 0.75,
    "ocho tramos": lambda d: next(r for tope, r in [(16, 0.5), (20, 0.35), (26, 0.44), (32, 0.53), (40, 0.60),
                                                     (50, 0.66), (62, 0.72), (10**9, 0.75)] if d < tope),
    "exacta en 16, 32 y 64, 0,44 en los demás": lambda d: 10000.0 ** (-2 / d) if d in (16, 32, 64) else 0.44,
    "una razón por tamaño con un 3 % de error en uno": lambda d: 10000.0 ** (-2 / d) * (1.03 if d == 40 else 1),
    "divide en unos y multiplica en otros": lambda d: 10000.0 ** ((-2 if d < 40 else 2) / d),
}


@pytest.mark.parametrize("nombre", sorted(RAZONES_CON_LEY) + sorted(RAZONES_SIN_LEY))
def test_la_ley_de_la_razon(nombre):
    from grader_tests.ejercicios.positional_encoding import propiedades

    razon = {**RAZONES_CON_LEY, **RAZONES_SIN_LEY}[nombre]
    visibles = _pruebas_visibles_de_la_leccion()
    puntos = [(d, razon(d)) for d in visibles.MUESTRA_DE_LA_LEY]
    esperado = nombre in RAZONES_CON_LEY
    assert propiedades.sigue_la_ley(puntos) == visibles.sigue_la_ley(puntos) == esperado
    # the size judged joins the sample: also below 16 (the values cell's d_model = 6)
    if esperado:
        assert propiedades.sigue_la_ley(puntos + [(6, razon(6))])


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
    grandes = [2 * p for p in visibles.PRIMOS_GRANDES_AL_AZAR][::4]       # the two ends and some between
    grandes[-1] = 2 * visibles.PRIMOS_GRANDES_AL_AZAR[-1]
    assert len(grandes) >= len(sorteables)
    vistos = {True: 0, False: 0}
    for archivo in EJ.bateria():
        funcion = bateria.cargar(archivo, "positional_encoding")
        esperado = _trabajo_al_calificar(funcion)
        vistos[esperado] += 1
        for d_model, grande in zip(sorteables, grandes):
            try:
                with np.errstate(all="ignore"):
                    visibles.comprobar_trabajo(funcion, visibles._tabla(funcion, 5, 8), "la celda", (11, d_model),
                                               grande)
                visible = True
            except AssertionError:       # the visible failure («Sin trabajo hecho», or an exception named)
                visible = False
            assert visible == esperado, (archivo.nombre, d_model, esperado)
    assert vistos[True] and vistos[False], vistos


def test_las_frecuencias_del_explorable_no_son_la_respuesta():
    """``from explorable_escalera import frecuencias`` + sin and cos earned 6/6 (issue 19, eighth attack, s8):
    the explorable's public per-pair numbers are float16 like its map, so such a function computes nothing
    right and earns the contract only, and the visible tests fail it too."""
    import importlib.util

    from conftest import RAIZ

    ruta = RAIZ / "source" / "02_codificacion_posicional" / "explorable_escalera.py"
    _pruebas_visibles_de_la_leccion()           # puts the lesson folder on sys.path (respaldo_explorable)
    spec = importlib.util.spec_from_file_location("explorable_escalera_s8", ruta)
    explorable = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(explorable)

    def con_el_explorable(T, d_model):
        angulos = np.arange(T)[:, None] * explorable.frecuencias(d_model)[None, :]
        PE = np.zeros((T, d_model))
        PE[:, 0::2], PE[:, 1::2] = np.sin(angulos), np.cos(angulos)
        return PE

    veredictos = corregir(con_el_explorable)
    assert {g: v.puntos for g, v in veredictos.items()} == {
        "positional_encoding_contrato": 1.0, "positional_encoding_valores": 0.0,
        "positional_encoding_robustez": 0.0, "positional_encoding_generalidad": 0.0}
    visibles = _pruebas_visibles_de_la_leccion()
    with pytest.raises(AssertionError):
        visibles.valores({"positional_encoding": con_el_explorable})


def test_la_regla_de_control_no_dice_que_acierta_si_los_controles_fallan():
    """s1 of the eighth attack: a bank (T, 2520) fails every control; no robustness or generality line may say
    that the function is right on the value cells' inputs («acierta»)."""
    from fractions import Fraction

    banco = 10000.0 ** (-np.array([float(x) for x in sorted({Fraction(j, p) for p in range(1, 65)
                                                             for j in range(p)})]))

    def con_banco(T, d_model):
        angulos = np.arange(T)[:, None] * banco[None, :]
        return np.hstack([np.sin(angulos), np.cos(angulos)])

    veredictos = corregir(con_banco)
    assert sum(v.puntos for v in veredictos.values()) == 0
    for gid in ("positional_encoding_robustez", "positional_encoding_generalidad"):
        assert "tu función acierta" not in veredictos[gid].texto(), veredictos[gid].texto()
    # and the visible robustness and generality fail it too (the contract's shape, as in the grade)
    visibles = _pruebas_visibles_de_la_leccion()
    for celda in ("robustez", "generalidad"):
        with pytest.raises(AssertionError):
            visibles.__dict__[celda]({"positional_encoding": con_banco})


def test_la_evidencia_de_cada_archivo_cabe_en_los_limites_con_la_muestra_de_la_ley():
    """The law sizes make every cell call the function 25 more times: the evidence of every battery file (a
    list of lists included, e15_lista) stays within the judge's bounds, or its cell would be worth 0."""
    from grader_tests.en_el_kernel.casos import celdas_de
    from grader_tests.en_el_kernel.cliente import recoger_evidencia
    from grader_tests.juez.evidencia import comprobar

    for archivo in EJ.bateria():
        funcion = bateria.cargar(archivo, "positional_encoding")
        for grade_id in celdas_de("positional_encoding"):
            with np.errstate(all="ignore"):
                comprobar(recoger_evidencia(grade_id, {"positional_encoding": funcion}))
