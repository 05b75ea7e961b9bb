"""Fast unit tests of the hidden tests' judge, driven in-process.

The student side (``cliente.recoger_evidencia``) calls a function on the
cell's inputs and the trusted side (``juez.juzgar``) scores the evidence, as
under ``nbgrader autograde`` but without a kernel.  Checked here:

* every battery file (``tests/bateria``) gets its declared expectation and
  diagnosis, and correct alternatives get full marks everywhere;
* every known mistake of ``diagnostico`` loses points where it differs from
  the reference and is named there; partial credit is exact for the
  mistakes whose property split is part of the design;
* malformed results and malformed evidence never crash the judge;
* the judge of one exercise is fast.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from grader_tests import diagnostico, juez, referencia
from grader_tests.casos import ARGUMENTOS, ESPECIFICACIONES
from grader_tests.cliente import recoger_evidencia
from grader_tests.propiedades import TOLERANCIA_MULTI_HEAD, TOLERANCIA_PE

BATERIA = Path(__file__).resolve().parent / "bateria"
FUNCIONES = ("multi_head", "positional_encoding")


def celdas(funcion: str) -> list[str]:
    return [g for g, e in ESPECIFICACIONES.items() if e.objetivo == funcion]


def corregir(funcion: str, implementacion) -> dict:
    """grade_id -> Veredicto for every test cell of the exercise."""
    espacio = {funcion: implementacion}
    return {g: juez.juzgar(recoger_evidencia(g, espacio), maximo=None, notebook=None) for g in celdas(funcion)}


def total(veredictos: dict) -> float:
    return sum(v.puntos for v in veredictos.values())


def texto(veredictos: dict) -> str:
    return "\n".join(v.texto() for v in veredictos.values())


def leer_cabecera(ruta: Path) -> dict:
    cabecera = {}
    for linea in ruta.read_text(encoding="utf-8").splitlines():
        if not linea.startswith("#"):
            break
        clave, _, valor = linea[1:].partition(":")
        cabecera[clave.strip()] = valor.strip()
    return cabecera


def cargar(ruta: Path, funcion: str):
    espacio: dict = {}
    exec(compile(ruta.read_text(encoding="utf-8"), str(ruta), "exec"), espacio)
    return espacio[funcion]


MAXIMO = {f: sum(juez.puntos_por_defecto(g) for g in celdas(f)) for f in FUNCIONES}
ARCHIVOS = [(f, r) for f in FUNCIONES for r in sorted((BATERIA / f).glob("*.py"))]


# ------------------------------------------------------------ the battery

@pytest.mark.parametrize("funcion,ruta", ARCHIVOS, ids=[r.stem for _, r in ARCHIVOS])
def test_bateria_en_proceso(funcion, ruta):
    cabecera = leer_cabecera(ruta)
    veredictos = corregir(funcion, cargar(ruta, funcion))
    puntos, maximo = total(veredictos), MAXIMO[funcion]
    resumen = {g: v.puntos for g, v in veredictos.items()}
    if cabecera["espera"] == "completo":
        assert puntos == maximo, resumen
    elif cabecera["espera"] == "parcial":
        assert 0 < puntos < maximo, resumen
    else:
        assert puntos == 0, resumen
    if "puntos" in cabecera:
        assert puntos == pytest.approx(float(cabecera["puntos"])), resumen
    if "diagnostico" in cabecera:
        assert cabecera["diagnostico"] in texto(veredictos)
    if cabecera["espera"] != "completo":
        assert "Diagnóstico probable" in texto(veredictos)


# Exact split of points for the mistakes whose partial credit is the design.
REPARTO = {
    "e04_sin_maximo": {"multi_head_robustez": 0},
    "e07_fusion_sin_transponer": {"multi_head_salida": 0},
    "e08_sin_wo": {"multi_head_salida": 0},
    "e11_orden_inverso": {"multi_head_salida": 0},
    "e12_A_TTh": {"multi_head_contrato": 0, "multi_head_mapas": 0},
    "e13_A_ThT": {"multi_head_contrato": 0, "multi_head_mapas": 0},
    "e01_escala_d_model": {"multi_head_mapas": 0, "multi_head_salida": 0},
    "e19_escribe_wq": {"multi_head_no_modifica": 0},
    "e21_float32": {"multi_head_contrato": 0},
    "e22_lista": {"multi_head_contrato": 0},
    "e01_concatenado": {"positional_encoding_valores": 0},
    "e11_entero": {"positional_encoding_contrato": 0, "positional_encoding_valores": 0},
    "e14_float32": {"positional_encoding_contrato": 0},
    "e15_lista": {"positional_encoding_contrato": 0},
    "e23_h1_sin_wo": {"multi_head_generalidad": 0.75},
    "e24_escala_d_model_h5": {"multi_head_generalidad": 0.75},
    "e28_matriz": {"multi_head_contrato": 0},
    "e18_matriz": {"positional_encoding_contrato": 0},
    "e19_float32_al_final": {"positional_encoding_contrato": 0},
}


@pytest.mark.parametrize("nombre", sorted(REPARTO))
def test_reparto_exacto(nombre):
    funcion = "multi_head" if (BATERIA / "multi_head" / f"{nombre}.py").exists() else "positional_encoding"
    veredictos = corregir(funcion, cargar(BATERIA / funcion / f"{nombre}.py", funcion))
    for gid, veredicto in veredictos.items():
        esperado = REPARTO[nombre].get(gid, veredicto.maximo)   # the rest keeps full marks
        assert veredicto.puntos == esperado, (gid, veredicto.texto())


# ------------------------------------------------- every known mistake

def _como_estudiante(implementacion):
    def funcion(*argumentos):
        return implementacion(*argumentos)
    return funcion


ERRORES = [(f, e) for f in FUNCIONES for e in diagnostico.ERRORES[f] if e.implementacion is not None]


@pytest.mark.parametrize("funcion,error", ERRORES, ids=[e.nombre for _, e in ERRORES])
def test_cada_error_conocido_resta_y_se_nombra(funcion, error):
    veredictos = corregir(funcion, _como_estudiante(error.implementacion))
    assert total(veredictos) < MAXIMO[funcion]
    for gid, veredicto in veredictos.items():
        espec = ESPECIFICACIONES[gid]
        difiere = False
        for caso in espec.casos_puntuados:       # controls are not scored
            argumentos = ARGUMENTOS[funcion](caso)
            with np.errstate(all="ignore"):
                r_error = error.implementacion(*argumentos)
            r_ref = (referencia.multi_head if funcion == "multi_head" else referencia.positional_encoding)(*argumentos)
            if funcion == "multi_head":
                partes = {"multi_head_mapas": [1], "multi_head_salida": [0]}.get(gid, [0, 1])
                difiere |= not all(diagnostico.iguales(r_error[i], r_ref[i], **TOLERANCIA_MULTI_HEAD)
                                   for i in partes)
            else:
                difiere |= not diagnostico.iguales(r_error, r_ref, **TOLERANCIA_PE)
        pierde = veredicto.puntos < veredicto.maximo
        if gid.endswith(("_contrato", "_no_modifica")):   # form and arguments, not values
            difiere = pierde
        if difiere and not pierde:
            # only robustness/generality forgive a value mistake charged elsewhere
            assert gid.endswith(("_robustez", "_generalidad")) and error.excusable, (gid, veredicto.texto())
            assert "aquí no resta" in veredicto.texto()
        if pierde:
            assert error.explicacion in veredicto.texto(), (gid, veredicto.texto())
        if gid.endswith(("_mapas", "_salida", "_valores")):
            assert pierde == difiere, (gid, veredicto.texto())


def test_errores_distinguibles():
    """On the main cases no two known mistakes give the same result (vectors, not P·Pᵀ)."""
    for funcion, gid in (("multi_head", "multi_head_salida"), ("positional_encoding", "positional_encoding_valores")):
        for caso in ESPECIFICACIONES[gid].casos[:1]:
            argumentos = ARGUMENTOS[funcion](caso)
            resultados = {}
            for error in diagnostico.ERRORES[funcion]:
                if error.implementacion is not None:
                    with np.errstate(all="ignore"):
                        resultados[error.explicacion] = error.implementacion(*argumentos)
            explicaciones = list(resultados)
            for i, a in enumerate(explicaciones):
                for b in explicaciones[i + 1:]:
                    ra, rb = resultados[a], resultados[b]
                    if funcion == "multi_head":
                        mismos = all(diagnostico.iguales(x, y) for x, y in zip(ra, rb))
                    else:
                        mismos = diagnostico.iguales(ra, rb)
                    assert not mismos, (a, b)


def test_pe_intercalada_y_concatenada_tienen_el_mismo_producto_pero_se_distinguen():
    T, d = 9, 16
    P = referencia.positional_encoding(T, d)
    C = np.concatenate([P[:, 0::2], P[:, 1::2]], axis=1)
    assert np.allclose(P @ P.T, C @ C.T)
    veredictos = corregir("positional_encoding", lambda T, d_model: np.concatenate(
        [referencia.positional_encoding(T, d_model)[:, 0::2],
         referencia.positional_encoding(T, d_model)[:, 1::2]], axis=1))
    assert "todos los senos a la izquierda" in texto(veredictos)
    assert veredictos["positional_encoding_valores"].puntos == 0


def test_h_fijo_se_detecta_con_otros_h():
    def h_fijo(X, Wq, Wk, Wv, Wo, h):
        return referencia.multi_head(X, Wq, Wk, Wv, Wo, 4)
    veredictos = corregir("multi_head", h_fijo)
    assert veredictos["multi_head_generalidad"].puntos < 1
    assert veredictos["multi_head_mapas"].puntos < 3
    assert "no usa el argumento `h`" in texto(veredictos)


def test_escribe_en_x_lo_nombra():
    def escribe_x(X, Wq, Wk, Wv, Wo, h):
        resultado = referencia.multi_head(X.copy(), Wq, Wk, Wv, Wo, h)
        X[:] = 0
        return resultado
    veredictos = corregir("multi_head", escribe_x)
    assert veredictos["multi_head_no_modifica"].puntos == 0
    assert "escribe en `X`" in texto(veredictos)
    assert total(veredictos) == MAXIMO["multi_head"] - 1


# ------------------------------------------------ the control-case rule

def _solo_con(condicion, error):
    """Correct except when ``condicion(h)``: then it makes ``error`` (a faulty implementation)."""
    def funcion(X, Wq, Wk, Wv, Wo, h):
        if condicion(h):
            return error(X, Wq, Wk, Wv, Wo, h)
        return referencia.multi_head(X, Wq, Wk, Wv, Wo, h)
    return funcion


def _error(nombre):
    return next(e for e in diagnostico.ERRORES_MULTI_HEAD if e.nombre == nombre).implementacion


def test_las_celdas_no_repite_tienen_un_control_igual_a_un_caso_de_valores():
    for gid, principal in (("multi_head_robustez", "multi_head_mapas"),
                           ("multi_head_generalidad", "multi_head_mapas"),
                           ("positional_encoding_robustez", "positional_encoding_valores"),
                           ("positional_encoding_generalidad", "positional_encoding_valores")):
        espec = ESPECIFICACIONES[gid]
        assert espec.n_controles == 1
        assert espec.casos_control[0] == ESPECIFICACIONES[principal].casos[0]
        assert len(espec.casos_puntuados) + 1 == len(espec.casos)


def test_un_error_que_solo_aparece_en_generalidad_no_se_excusa():
    veredictos = corregir("multi_head", _solo_con(lambda h: h == 1, _error("sin W^O")))
    v = veredictos["multi_head_generalidad"]
    assert v.puntos == pytest.approx(0.75), v.texto()
    assert "aquí no resta" not in v.texto()
    assert "sin multiplicarla por Wo" in v.texto()
    assert total(veredictos) == pytest.approx(MAXIMO["multi_head"] - 0.25)
    veredictos = corregir("multi_head", _solo_con(lambda h: h == 5, _error("escala √d_model")))
    assert veredictos["multi_head_generalidad"].puntos == pytest.approx(0.75)
    assert total(veredictos) == pytest.approx(MAXIMO["multi_head"] - 0.25)


def test_un_error_de_valores_que_tambien_esta_en_el_control_se_excusa():
    veredictos = corregir("multi_head", _como_estudiante(_error("sin W^O")))
    assert veredictos["multi_head_generalidad"].puntos == 1
    assert "aquí no resta" in veredictos["multi_head_generalidad"].texto()
    assert veredictos["multi_head_salida"].puntos == 0


def test_no_modifica_en_varios_h():
    def escribe_si_h2(X, Wq, Wk, Wv, Wo, h):
        resultado = referencia.multi_head(X, Wq.copy(), Wk, Wv, Wo, h)
        if h == 2:
            Wq += 1
        return resultado
    espec = ESPECIFICACIONES["multi_head_no_modifica"]
    assert sorted(c["h"] for c in espec.casos) == [2, 3, 4]
    for c in espec.casos:
        assert len({c["T"], c["h"], c["d_model"] // c["h"]}) == 3
    veredicto = corregir("multi_head", escribe_si_h2)["multi_head_no_modifica"]
    assert veredicto.puntos < 1
    assert "escribe en `Wq`" in veredicto.texto()


# ------------------------------------------------ form vs values, wording

def test_matriz_numpy_solo_pierde_el_contrato():
    veredictos = corregir("positional_encoding",
                          lambda T, d_model: np.asmatrix(referencia.positional_encoding(T, d_model)))
    assert veredictos["positional_encoding_contrato"].puntos == 0
    assert "debería ser un np.ndarray y es np.matrix" in veredictos["positional_encoding_contrato"].texto()
    assert total(veredictos) == MAXIMO["positional_encoding"] - 1


def test_subclases_ajenas_a_numpy_no_viajan_como_array():
    from grader_tests.serializacion import Otro, deserializar, serializar

    class Falsa(np.ndarray):
        pass
    Falsa.__module__ = "numpy"

    class ConArray:
        def __array__(self, *a, **k):
            raise RuntimeError("no")

        def __eq__(self, otro):
            return True
    for valor in (np.zeros((2, 2)).view(Falsa), ConArray()):
        assert isinstance(deserializar(serializar(valor)), Otro)
    m = deserializar(serializar(np.asmatrix(np.eye(2))))
    assert type(np.asarray(m)) is np.ndarray and np.asarray(m).shape == (2, 2)
    assert diagnostico.como_array(m) is not None


def test_pe_float32_al_final_no_se_confunde_con_angulos_float32():
    veredictos = corregir("positional_encoding",
                          lambda T, d_model: referencia.positional_encoding(T, d_model).astype(np.float32))
    assert "calculas los ángulos en float32" not in texto(veredictos)
    assert "devuelves float32" in texto(veredictos)


def test_redaccion_singular_y_un_solo_dos_puntos():
    veredictos = corregir("positional_encoding", RAROS["none"])
    assert "0 de 1 caso correcto." in veredictos["positional_encoding_contrato"].texto()
    bien = corregir("multi_head", cargar(BATERIA / "multi_head" / "c01_bucle.py", "multi_head"))
    primera = bien["multi_head_robustez"].texto().strip().splitlines()[0]
    assert primera.count(":") <= 1, primera


# ------------------------------------------------------ malformed results

RAROS = {
    "none": lambda *a: None,
    "cadena": lambda *a: "hola",
    "dict": lambda *a: {"salida": 1},
    "objeto": lambda *a: np.array([object(), 1], dtype=object),
    "nan": lambda *a: np.full((3, 3), np.nan),
    "pareja_nan": lambda *a: (np.full((2, 2), np.nan), np.full((2, 2, 2), np.inf)),
    "pareja_none": lambda *a: (None, None),
    "pareja_rara": lambda *a: ([1, [2, 3]], "x"),
    "pareja_objeto": lambda *a: (np.array([None, 1]), np.array(["a"])),
    "tres": lambda *a: (1, 2, 3),
    "forma_mala": lambda *a: np.zeros((7, 7, 7, 7)),
    "complejo": lambda *a: (np.zeros((2, 2), dtype=complex), np.zeros((1, 2, 2), dtype=complex)),
    "lista_larga": lambda *a: [[0.0] * 100] * 100,
    "escalar": lambda *a: np.float64(3.0),
    "booleano": lambda *a: True,
    "excepcion": lambda *a: 1 / 0,
    "generador": lambda *a: (x for x in range(3)),
}


@pytest.mark.parametrize("funcion", FUNCIONES)
@pytest.mark.parametrize("nombre", sorted(RAROS))
def test_resultados_raros_no_rompen_el_juez(funcion, nombre):
    veredictos = corregir(funcion, RAROS[nombre])
    assert total(veredictos) < MAXIMO[funcion]
    for veredicto in veredictos.values():
        assert isinstance(veredicto.texto(), str)
        assert 0 <= veredicto.puntos <= veredicto.maximo


def test_excepcion_nombrada():
    veredictos = corregir("multi_head", RAROS["excepcion"])
    assert total(veredictos) == 0
    assert "ZeroDivisionError" in texto(veredictos)


@pytest.mark.parametrize("registro", [
    {"resultado": {"tipo": "ndarray", "dtype": "<f8", "shape": [3], "datos": "@@@"}},
    {"resultado": {"tipo": "ndarray", "dtype": "<f8", "shape": [9, 9], "datos": ""}},
    {"resultado": {"tipo": "desconocido"}},
    {"resultado": "no es un dict"},
    {"excepcion": "no es un dict"},
    {"excepcion": {"clase": 3, "mensaje": None, "linea": 7}},
    {"resultado": {"tipo": "none"}, "avisos": [{"a": 1}], "stderr": 5, "modificados": {"x": 1, "99": 2}},
    {"resultado": {"tipo": "list", "elementos": [{"tipo": "float", "valor": "nan"}]}},
    {},
])
@pytest.mark.parametrize("funcion", FUNCIONES)
def test_evidencia_danada_no_rompe_el_juez(funcion, registro):
    for gid in celdas(funcion):
        evidencia = {"grade_id": gid, "version": 1, "objetivo": funcion,
                     "resultados": [registro] * len(ESPECIFICACIONES[gid].casos)}
        veredicto = juez.juzgar(evidencia, maximo=None, notebook=None)
        assert veredicto.puntos < veredicto.maximo or gid.endswith("no_modifica")


# ------------------------------------------------------------------ speed

@pytest.mark.parametrize("funcion,archivo", [("multi_head", "c01_bucle"), ("multi_head", "e03_softmax_columnas"),
                                             ("positional_encoding", "c01_rebanadas"),
                                             ("positional_encoding", "e01_concatenado")])
def test_el_juez_de_un_ejercicio_es_rapido(funcion, archivo):
    implementacion = cargar(BATERIA / funcion / f"{archivo}.py", funcion)
    corregir(funcion, implementacion)                 # warm-up (imports, caches)
    inicio = time.perf_counter()
    corregir(funcion, implementacion)
    assert time.perf_counter() - inicio < 1.0         # the benchmark's target is 0.3 s
