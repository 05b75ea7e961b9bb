"""Fast unit tests of the hidden tests' judge, driven in-process, for every exercise found.

The student side (``cliente.recoger_evidencia``) calls a function on the
cell's inputs and the trusted side (``juez.juzgar``) scores the evidence, as
under ``nbgrader autograde`` but without a kernel.  Every exercise of
``grader_tests/ejercicios/`` is checked the same way (no exercise is named
here; tests of one exercise's particulars live in ``tests/ejercicios/``):

* every battery file keeps its header (expectation, known mistakes named,
  exact points), and correct alternatives get full marks everywhere;
* the grades of every battery file are the ones recorded before issue 14
  (``tests/notas_de_referencia.json``): the refactor changed no grade;
* every known mistake of the catalogue loses points where it differs from
  the reference and is named there;
* malformed results and malformed evidence never crash the judge;
* the verdicts are typed: known mistakes with id, Spanish name, category
  and lesson section; reasons; quiz answers;
* the judge of one exercise is fast.
"""
from __future__ import annotations

import copy

import functools
import json

import numpy as np
import pytest

from conftest import RAIZ
from grader_tests.juez import bateria, descubrimiento, diagnostico, juez
from grader_tests.en_el_kernel.casos import argumentos, celdas_de
from grader_tests.juez.propiedades import Llamada, en_cualquier_orden, en_el_orden_del_contrato

# c08_lenta's 32 s sleep proves something only in a real kernel (tests/test_bateria.py)
pytestmark = pytest.mark.usefixtures("sin_esperas")

EJERCICIOS = descubrimiento.ejercicios()
ARCHIVOS = [(f, a) for f, ej in EJERCICIOS.items() for a in ej.bateria()]
NOTAS_DE_REFERENCIA = json.loads((RAIZ / "tests" / "notas_de_referencia.json").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def juzgado(funcion: str, nombre: str):
    """In-process verdicts of a battery file and where they break its header (once per session)."""
    archivo = next(a for f, a in ARCHIVOS if f == funcion and a.nombre == nombre)
    return bateria.juzgar_archivo(EJERCICIOS[funcion], archivo)


def total(veredictos: dict) -> float:
    return sum(v.puntos for v in veredictos.values())


def texto(veredictos: dict) -> str:
    return "\n".join(v.texto() for v in veredictos.values())


# ------------------------------------------------------------ the battery

@pytest.mark.parametrize("funcion,archivo", ARCHIVOS, ids=[f"{f}/{a.nombre}" for f, a in ARCHIVOS])
def test_bateria_en_proceso(funcion, archivo):
    """Each battery file scores what its header says and names the mistakes it declares."""
    veredictos, fallos = juzgado(funcion, archivo.nombre)
    assert not fallos, "\n".join(fallos) + "\n\n" + texto(veredictos)


def test_las_notas_de_la_bateria_no_cambian():
    """Every battery file recorded before issue 14 gets the same points in every cell."""
    registradas = NOTAS_DE_REFERENCIA["bateria_en_proceso"]
    archivos = {f"{f}/{a.nombre}": (f, a) for f, a in ARCHIVOS}
    assert set(registradas) <= set(archivos), sorted(set(registradas) - set(archivos))
    distintas = {}
    for clave, esperadas in registradas.items():
        funcion, archivo = archivos[clave]
        puntos = {g: v.puntos for g, v in juzgado(funcion, archivo.nombre)[0].items()}
        if puntos != esperadas:
            distintas[clave] = (esperadas, puntos)
    assert not distintas, distintas


def test_la_bateria_cubre_cada_error_conocido():
    """Every known mistake has a battery file that makes it; the battery's headers are well formed."""
    problemas = [p for ej in EJERCICIOS.values() for p in descubrimiento.problemas_de_bateria(ej)]
    assert not problemas, "\n".join(problemas)


# ------------------------------------------------- every known mistake

def _como_estudiante(implementacion):
    def funcion(*argumentos_):
        return implementacion(*argumentos_)
    return funcion


def _en_su_orden(array, esperado):
    """``array`` with its axes in the contract's order when only one order gives ``esperado``'s shape, or one of several gives its values (as ``comparar``)."""
    a = diagnostico.como_array(array)
    if a is None or a.shape == np.shape(esperado):
        return array
    ordenados = en_cualquier_orden(a, np.shape(esperado))
    if len(ordenados) == 1:
        return ordenados[0]
    # several orders fit (maps (T, h, T)): the one with the reference's values, as ``comparar`` reads it
    with np.errstate(all="ignore"):
        return next((o for o in ordenados if diagnostico.iguales(o, esperado)), array)


ERRORES = [(f, e, i) for f, ej in EJERCICIOS.items() for e in ej.errores
           for i, _ in enumerate(e.implementaciones)]


@pytest.mark.parametrize("funcion,error,variante", ERRORES,
                         ids=[f"{f}/{e.id}/{i}" for f, e, i in ERRORES])
def test_cada_error_conocido_resta_y_se_nombra(funcion, error, variante):
    ej = EJERCICIOS[funcion]
    implementacion = error.implementaciones[variante]
    veredictos = bateria.corregir(funcion, _como_estudiante(implementacion))
    assert total(veredictos) < ej.puntos
    for gid, veredicto in veredictos.items():
        propiedad = ej.propiedades[gid]
        espec = celdas_de(funcion)[gid]
        difiere = False
        for caso in espec.casos_puntuados:       # controls are not scored
            llamada = Llamada(caso, argumentos(funcion, caso), ej)
            with np.errstate(all="ignore"):
                r_error = implementacion(*llamada.argumentos)
            if propiedad.tipo == "valores" and isinstance(r_error, (tuple, list)):
                # value cells read a pair that comes swapped in the contract's order (the contract charges it)
                r_error = en_el_orden_del_contrato(llamada, list(r_error))
            o = diagnostico.partes(llamada, r_error, propiedad.parte)
            r = diagnostico.partes(llamada, llamada.referencia(), propiedad.parte)
            if propiedad.tipo == "valores":
                # ... and an array whose axes only one order brings to the contract's shape (a transposed table)
                o = [_en_su_orden(a, b) for a, b in zip(o, r)]
            difiere |= not all(diagnostico.iguales(a, b, **ej.tolerancia) for a, b in zip(o, r))
        pierde = veredicto.puntos < veredicto.maximo
        if propiedad.tipo != "valores":          # form and arguments, not values
            difiere = pierde
        if difiere and not pierde:
            # only no_repite cells forgive a value mistake charged elsewhere
            assert propiedad.no_repite and error.excusable, (gid, veredicto.texto())
            assert "aquí no resta" in veredicto.texto()
        if pierde:
            assert error.explicacion in veredicto.texto(), (gid, veredicto.texto())
            assert error.id in {e.id for e in veredicto.errores}, (gid, veredicto.a_dict())
        if propiedad.tipo == "valores" and not propiedad.no_repite:
            assert pierde == difiere, (gid, veredicto.texto())


@pytest.mark.parametrize("funcion", list(EJERCICIOS))
def test_errores_distinguibles(funcion):
    """On the first main case no two known mistakes give the same result (vectors, not P·Pᵀ)."""
    ej = EJERCICIOS[funcion]
    principal = next(g for g, p in ej.propiedades.items() if p.tipo == "valores" and not p.no_repite)
    caso = celdas_de(funcion)[principal].casos[0]
    llamada = Llamada(caso, argumentos(funcion, caso), ej)
    resultados = {}
    for error in ej.errores:
        for i, implementacion in enumerate(error.implementaciones):
            with np.errstate(all="ignore"):
                resultados[(error.id, i)] = implementacion(*llamada.argumentos)
    claves = list(resultados)
    for i, a in enumerate(claves):
        for b in claves[i + 1:]:
            if a[0] == b[0]:
                continue               # variants of one mistake may coincide
            pa, pb = (diagnostico.partes(llamada, resultados[k]) for k in (a, b))
            assert not all(diagnostico.iguales(x, y) for x, y in zip(pa, pb)), (a, b)


@pytest.mark.parametrize("funcion", list(EJERCICIOS))
def test_las_celdas_no_repite_tienen_un_control_igual_a_un_caso_de_valores(funcion):
    ej = EJERCICIOS[funcion]
    celdas = celdas_de(funcion)
    principales = [celdas[g].casos for g, p in ej.propiedades.items() if p.tipo == "valores" and not p.no_repite]
    for gid, propiedad in ej.propiedades.items():
        espec = celdas[gid]
        if propiedad.no_repite:
            assert espec.n_controles >= 1, gid
            assert len(espec.casos_puntuados) + espec.n_controles + espec.n_muestra == len(espec.casos)
            for control in espec.casos_control:
                assert any(control in casos for casos in principales), gid
        else:
            assert espec.n_controles == 0, gid


@pytest.mark.parametrize("funcion", list(EJERCICIOS))
def test_la_referencia_saca_la_nota_completa(funcion):
    ej = EJERCICIOS[funcion]
    veredictos = bateria.corregir(funcion, _como_estudiante(ej.referencia))
    assert total(veredictos) == ej.puntos, texto(veredictos)
    assert all(v.errores == [] and v.motivo is None for v in veredictos.values())


# ------------------------------------------------------ typed verdicts

def test_el_veredicto_nombra_cada_error_con_id_nombre_categoria_y_seccion():
    for funcion, ej in EJERCICIOS.items():
        error = next(e for e in ej.errores if e.implementaciones)
        veredictos = bateria.corregir(funcion, _como_estudiante(error.implementaciones[0]))
        cargados = [v for v in veredictos.values() if error.id in {e.id for e in v.errores}]
        assert cargados, funcion
        datos = cargados[0].a_dict()
        json.dumps(datos)                         # machine-readable as it is
        assert datos["grade_id"].startswith(funcion + "_") and datos["propiedad"]
        assert {"id": error.id, "nombre": error.nombre, "categoria": error.categoria,
                "seccion": error.seccion} in datos["errores"]
        assert any(not c["aprobado"] and error.id in c["errores"] for c in datos["casos"])
        assert datos["puntos"] < datos["maximo"] and datos["motivo"] is None


def test_los_motivos_de_una_celda_sin_juzgar_son_tipados():
    funcion = next(iter(EJERCICIOS))
    gid = next(iter(celdas_de(funcion)))
    assert juez.juzgar({"grade_id": gid, "falta": True}, None, None).motivo == "no_definido"
    assert juez.juzgar("basura", None, None).motivo == "evidencia_dañada"
    assert juez.juzgar({"grade_id": "otra"}, None, None, grade_id=gid).motivo == "evidencia_ajena"
    assert juez.juzgar({"grade_id": gid, "no_invocable": "int"}, None, None).motivo == "no_invocable"


def test_una_pregunta_sin_valor_se_dice_como_en_validate():
    """An unanswered question (its answer cell still raises) is «Pregunta N sin contestar» in the grade too, as
    Validate says it, not a hint about running cells (a new student's report, issue 22)."""
    import importlib
    visibles = importlib.import_module("grader_tests.en_el_kernel.pruebas_visibles")
    veredicto = juez.juzgar({"grade_id": "comprueba_respuesta_2", "falta": True}, None, "atencion_multicabeza")
    texto = " ".join(veredicto.lineas)
    assert veredicto.motivo == "no_definido" and veredicto.puntos == 0
    assert texto.startswith(visibles.sin_contestar("respuesta_2").split(":")[0] + ":"), texto
    assert "¿has ejecutado" not in texto


def test_el_veredicto_de_una_pregunta_guarda_la_respuesta_leida():
    from grader_tests.en_el_kernel.serializacion import serializar
    for leccion in descubrimiento.lecciones(RAIZ):
        preguntas = descubrimiento.cuestionario(leccion.cuaderno.stem)
        for gid, pregunta in preguntas.items():
            bien = juez.juzgar({"grade_id": gid, "valor": serializar(_literal(pregunta.correcta))},
                               None, leccion.cuaderno.stem)
            assert bien.completo and bien.respuesta == pregunta.correcta and bien.propiedad == pregunta.variable
            vacia = juez.juzgar({"grade_id": gid, "valor": serializar(None)}, None, leccion.cuaderno.stem)
            assert vacia.puntos == 0 and vacia.motivo == "sin_contestar" and vacia.respuesta is None


def _literal(valor):
    return set(valor) if isinstance(valor, frozenset) else valor


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


@pytest.mark.parametrize("funcion", list(EJERCICIOS))
@pytest.mark.parametrize("nombre", sorted(RAROS))
def test_resultados_raros_no_rompen_el_juez(funcion, nombre):
    veredictos = bateria.corregir(funcion, RAROS[nombre])
    assert total(veredictos) < EJERCICIOS[funcion].puntos
    for veredicto in veredictos.values():
        assert isinstance(veredicto.texto(), str)
        assert 0 <= veredicto.puntos <= veredicto.maximo
        json.dumps(veredicto.a_dict())


@pytest.mark.parametrize("funcion", list(EJERCICIOS))
def test_excepcion_nombrada(funcion):
    veredictos = bateria.corregir(funcion, RAROS["excepcion"])
    assert total(veredictos) == 0
    assert "ZeroDivisionError" in texto(veredictos)
    assert all(c.excepcion == "ZeroDivisionError" for v in veredictos.values() for c in v.casos)


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
@pytest.mark.parametrize("funcion", list(EJERCICIOS))
def test_evidencia_danada_no_rompe_el_juez(funcion, registro):
    ej = EJERCICIOS[funcion]
    for gid, espec in celdas_de(funcion).items():
        evidencia = {"grade_id": gid, "version": 1, "objetivo": funcion,
                     "resultados": [registro] * len(espec.casos)}
        veredicto = juez.juzgar(evidencia, maximo=None, notebook=None)
        assert veredicto.puntos < veredicto.maximo or ej.propiedades[gid].tipo == "argumentos"


def test_subclases_ajenas_a_numpy_no_viajan_como_array():
    from grader_tests.en_el_kernel.serializacion import Otro, deserializar, serializar

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


def test_una_namedtuple_viaja_como_tupla_leida_con_los_metodos_de_tuple():
    """A namedtuple (a tuple subclass) is a tuple: it is described by its items, read through tuple's own C
    methods, so an overridden __iter__ or __getitem__ changes nothing (a grader tester, issue 22: 0/10)."""
    from collections import namedtuple

    from grader_tests.en_el_kernel.serializacion import deserializar, serializar

    Par = namedtuple("Par", ["salida", "A"])

    class Tramposa(tuple):
        def __iter__(self):
            return iter(["trampa"])

        def __getitem__(self, i):
            return "trampa"

        def __len__(self):
            return 1
    for valor in (Par(np.eye(2), np.ones(3)), Tramposa((np.eye(2), np.ones(3)))):
        leido = deserializar(serializar(valor))
        assert type(leido) is tuple and len(leido) == 2
        assert np.array_equal(leido[0], np.eye(2)) and np.array_equal(leido[1], np.ones(3))
    assert serializar(Par(1, 2))["subclase"] == "Par"


def test_sys_exit_en_la_funcion_es_su_excepcion_no_un_fallo_del_corrector():
    """``sys.exit()`` (SystemExit) inside the student's function is evidence like any exception (a grader tester:
    it escaped the grader); KeyboardInterrupt is not caught, as it is how a cell's time limit stops it."""
    import sys

    from grader_tests.juez import bateria

    def multi_head(X, Wq, Wk, Wv, Wo, h):
        sys.exit(0)
    veredictos = bateria.corregir("multi_head", multi_head)
    assert all(v.puntos == 0 for v in veredictos.values())
    assert "tu función lanzó SystemExit" in veredictos["multi_head_mapas"].texto()

    def multi_head(X, Wq, Wk, Wv, Wo, h):       # noqa: F811 - GeneratorExit, the other BaseException a student meets
        raise GeneratorExit("fin")
    veredictos = bateria.corregir("multi_head", multi_head)
    assert all(v.puntos == 0 for v in veredictos.values())
    assert "tu función lanzó GeneratorExit" in veredictos["multi_head_mapas"].texto()

    class Muda(Exception):
        def __str__(self):
            raise RuntimeError("sin mensaje")

    def multi_head(X, Wq, Wk, Wv, Wo, h):       # noqa: F811 - an exception whose message cannot be read
        raise Muda()
    veredictos = bateria.corregir("multi_head", multi_head)
    assert all(v.puntos == 0 for v in veredictos.values())
    assert "Muda" in veredictos["multi_head_mapas"].texto()


def test_una_funcion_que_cambia_con_las_mismas_entradas_no_se_libra_de_robustez_ni_generalidad():
    """Control rule: right in the value cells, wrong on purpose on the same inputs later (found by an attacker)."""
    import numpy as np
    from grader_tests.juez import bateria, propiedades

    vistos = set()

    def positional_encoding(T, d_model):
        # zeros on the unusual inputs (what robustness and generality score) and on repeated inputs
        # (the controls), so that the controls seem to excuse the zeros
        if (T, d_model) in vistos or T == 1000 or T == 1 or d_model in (2, 10):
            return np.zeros((T, d_model))
        vistos.add((T, d_model))
        pos = np.arange(T)[:, None]
        omega = 1.0 / 10000 ** (np.arange(0, d_model, 2) / d_model)
        PE = np.zeros((T, d_model))
        PE[:, 0::2], PE[:, 1::2] = np.sin(pos * omega), np.cos(pos * omega)
        return PE

    veredictos = bateria.corregir("positional_encoding", positional_encoding)
    assert veredictos["positional_encoding_valores"].completo
    for gid in ("positional_encoding_robustez", "positional_encoding_generalidad"):
        assert veredictos[gid].puntos < veredictos[gid].maximo, gid
        assert propiedades.NOTA_NO_DETERMINISTA in veredictos[gid].lineas


def test_una_funcion_vacia_no_gana_el_punto_de_no_modificar():
    """``return None`` leaves the arguments alone by doing nothing: no point for that (found by an attacker)."""
    from grader_tests.juez import bateria

    def multi_head(X, Wq, Wk, Wv, Wo, h):
        return None

    veredictos = bateria.corregir("multi_head", multi_head)
    assert veredictos["multi_head_no_modifica"].puntos == 0
    assert "no devuelve nada" in veredictos["multi_head_no_modifica"].texto()


# ------------------------------------------------------ points only for work done (issue 19.7)

def _esqueleto(funcion: str, relleno):
    """A stub that computes nothing: the reference's shapes (and the contract's dtype), filled by ``relleno``."""
    referencia = EJERCICIOS[funcion].referencia

    def esqueleto(*argumentos_):
        with np.errstate(all="ignore"):
            r = referencia(*argumentos_)       # only for the shapes: nothing of its values is kept
        partes = [r] if len(EJERCICIOS[funcion].partes) == 1 else list(r)
        rellenas = [relleno(np.asarray(p).shape) for p in partes]
        return rellenas[0] if len(rellenas) == 1 else tuple(rellenas)
    return esqueleto


ESQUELETOS = {
    "ceros": lambda forma: np.zeros(forma),
    "unos": lambda forma: np.ones(forma),
    "constante": lambda forma: np.full(forma, 0.37),
    "uniforme": lambda forma: np.full(forma, 1.0 / forma[-1]),
    "ruido": lambda forma: np.random.default_rng(7).normal(size=forma),
    "filas_0_1": lambda forma: np.resize(np.array([0.0, 1.0]), forma),
}
CASOS_ESQUELETO = [(f, n) for f in EJERCICIOS for n in sorted(ESQUELETOS)]


@pytest.mark.parametrize("funcion,nombre", CASOS_ESQUELETO, ids=[f"{f}/{n}" for f, n in CASOS_ESQUELETO])
def test_un_esqueleto_solo_puede_ganar_el_contrato(funcion, nombre):
    """Zeros, ones, a constant, uniform maps, noise or a [0, 1, 0, 1…] pattern with the contract's form: at most
    the contract point, and the cells that pay only work done say why (README, «Cómo se califica»)."""
    ej = EJERCICIOS[funcion]
    veredictos = bateria.corregir(funcion, _esqueleto(funcion, ESQUELETOS[nombre]))
    contrato = sum(p.puntos for g, p in ej.propiedades.items() if p.tipo == "contrato")
    assert total(veredictos) <= contrato, {g: v.puntos for g, v in veredictos.items()}
    for gid, propiedad in ej.propiedades.items():
        if propiedad.no_repite:
            assert "Sin trabajo correcto, esta celda no puntúa" in veredictos[gid].texto(), gid
        if propiedad.tipo == "argumentos":
            assert "sólo puntúa cuando la función hace su trabajo" in veredictos[gid].texto(), gid


@pytest.mark.parametrize("funcion", list(EJERCICIOS))
def test_el_esqueleto_constante_se_nombra(funcion):
    veredictos = bateria.corregir(funcion, _esqueleto(funcion, ESQUELETOS["ceros"]))
    assert "aún no calcula nada de lo que pide el ejercicio" in texto(veredictos)
    assert any(e.id == "sin_calcular" for v in veredictos.values() for e in v.errores)


@pytest.mark.parametrize("funcion", list(EJERCICIOS))
def test_el_trabajo_hecho_de_la_referencia_y_de_cada_pieza(funcion):
    """The reference does work on every case; each declared piece holds on the reference where work is judged
    (ordinary inputs: the value cells' cases, the controls, the no-modification cases) and fails on zeros."""
    from grader_tests.juez.propiedades import trabajo_hecho
    ej = EJERCICIOS[funcion]
    ceros = _esqueleto(funcion, ESQUELETOS["ceros"])
    for espec in celdas_de(funcion).values():
        inusuales = espec.casos_puntuados if ej.propiedades[espec.grade_id].no_repite else ()
        for caso in espec.casos:
            llamada = Llamada(caso, argumentos(funcion, caso), ej)
            with np.errstate(all="ignore"):
                llamada.resultado = ej.referencia(*llamada.argumentos)
            assert trabajo_hecho(llamada), (espec.grade_id, caso)
            for pieza in ej.trabajo:
                # unusual inputs (T = 1, scores in the thousands: maps of 0 and 1) may show no piece
                if caso not in inusuales:
                    assert pieza.comprobar(llamada), (pieza.descripcion, caso)
            llamada = Llamada(caso, argumentos(funcion, caso), ej)
            llamada.resultado = ceros(*llamada.argumentos)
            assert not trabajo_hecho(llamada), caso
            assert not any(p.comprobar(llamada) for p in ej.trabajo), caso


def _llamada_mh(resultado_de, caso=None):
    """A call of ``multi_head`` on a main case whose result is ``resultado_de(X, Wq, Wk, Wv, Wo, h)``."""
    ej = EJERCICIOS["multi_head"]
    caso = caso or celdas_de("multi_head")["multi_head_mapas"].casos[0]
    llamada = Llamada(caso, argumentos("multi_head", caso), ej)
    with np.errstate(all="ignore"):
        llamada.resultado = resultado_de(*copy.deepcopy(llamada.argumentos))
    return llamada


def _softmax(E, eje=-1):
    P = np.exp(E - E.max(axis=eje, keepdims=True))
    return P / P.sum(axis=eje, keepdims=True)


def _de_sus_mapas(A, X, Wv, Wo, grupos):
    """The output the maps ``A`` give, each head i with the columns ``grupos[i]`` of V."""
    V = X @ Wv
    return np.concatenate([A[i] @ V[:, g] for i, g in enumerate(grupos)], axis=1) @ Wo


def _cabezas(E_de, h_de=None, eje=-1):
    """An implementation whose head i has the scores ``E_de(Q, K, i, d_k, h)`` and a softmax along ``eje``."""
    def multi_head(X, Wq, Wk, Wv, Wo, h):
        d_k = X.shape[1] // h
        Q, K = X @ Wq, X @ Wk
        A = np.stack([_softmax(E_de(Q, K, i, d_k, h), eje) for i in range(h)])
        return _de_sus_mapas(A, X, Wv, Wo, [slice(i * d_k, (i + 1) * d_k) for i in range(h)]), A
    return multi_head


def _bloque(i, d_k):
    return slice(i * d_k, (i + 1) * d_k)


# honest mistakes in the maps alone: the maps still come from Q and K (the piece «mapas que salgan de Q y K»)
MAPAS_HONESTOS = {
    "escala 7.3": _cabezas(lambda Q, K, i, d_k, h: Q[:, _bloque(i, d_k)] @ K[:, _bloque(i, d_k)].T / 7.3),
    "softmax por columnas": _cabezas(lambda Q, K, i, d_k, h: Q[:, _bloque(i, d_k)] @ K[:, _bloque(i, d_k)].T,
                                     eje=0),
    "K·Qᵀ": _cabezas(lambda Q, K, i, d_k, h: K[:, _bloque(i, d_k)] @ Q[:, _bloque(i, d_k)].T),
    "Q·Qᵀ": _cabezas(lambda Q, K, i, d_k, h: Q[:, _bloque(i, d_k)] @ Q[:, _bloque(i, d_k)].T),
    "columnas i::h": _cabezas(lambda Q, K, i, d_k, h: Q[:, i::h] @ K[:, i::h].T / np.sqrt(d_k)),
    "bloque desplazado 2": _cabezas(lambda Q, K, i, d_k, h: Q[:, (np.arange(d_k) + i * d_k + 2) % Q.shape[1]]
                                    @ K[:, (np.arange(d_k) + i * d_k + 2) % Q.shape[1]].T),
    "sin cabezas (Q·Kᵀ entero)": _cabezas(lambda Q, K, i, d_k, h: Q @ K.T / np.sqrt(d_k)),
    "un grupo cualquiera de d_k − 1": _cabezas(lambda Q, K, i, d_k, h: (
        lambda J: Q[:, J] @ K[:, J].T)(np.random.default_rng(i).permutation(Q.shape[1])[:max(d_k - 1, 1)])),
    "escala 1/(50·√d_k)": _cabezas(lambda Q, K, i, d_k, h: Q[:, _bloque(i, d_k)] @ K[:, _bloque(i, d_k)].T
                                  / (50 * np.sqrt(d_k))),
    "sin softmax": lambda X, Wq, Wk, Wv, Wo, h: (
        lambda A: (_de_sus_mapas(A, X, Wv, Wo, [_bloque(i, X.shape[1] // h) for i in range(h)]), A))(
        np.stack([(X @ Wq)[:, _bloque(i, X.shape[1] // h)] @ (X @ Wk)[:, _bloque(i, X.shape[1] // h)].T
                  for i in range(h)])),
}

# maps that do not depend on Q and K, each with the output that exactly corresponds to them
def _fijos(mapa_de):
    def multi_head(X, Wq, Wk, Wv, Wo, h):
        T, d_model = X.shape
        A = np.stack([mapa_de(T, X, Wv, i) for i in range(h)])
        return _de_sus_mapas(A, X, Wv, Wo, [_bloque(i, d_model // h) for i in range(h)]), A
    return multi_head


MAPAS_FIJOS = {
    "identidad": _fijos(lambda T, X, Wv, i: np.eye(T)),
    "permutación": _fijos(lambda T, X, Wv, i: np.roll(np.eye(T), 1 + i, axis=1)),
    "aleatorios": _fijos(lambda T, X, Wv, i: _softmax(np.random.default_rng(i).normal(size=(T, T)))),
    "distancia": _fijos(lambda T, X, Wv, i: _softmax(-np.abs(np.subtract.outer(np.arange(T), np.arange(T))))),
    "causal": _fijos(lambda T, X, Wv, i: np.tril(np.ones((T, T))) / np.arange(1, T + 1)[:, None]),
    "X·Xᵀ": _fijos(lambda T, X, Wv, i: _softmax(X @ X.T)),
    "V·Vᵀ": _fijos(lambda T, X, Wv, i: _softmax((X @ Wv) @ (X @ Wv).T)),
}

# maps from Q and K that show no work (issue 19, third attack): the scores shrunk until the maps are uniform,
# or one column of W^Q for every head; zero output, as the attack returned it
def _sin_salida(mapas_de):
    def multi_head(X, Wq, Wk, Wv, Wo, h):
        return np.zeros(X.shape), np.stack([mapas_de(X, Wq, Wk)] * h)
    return multi_head


MAPAS_SIN_TRABAJO = {
    "casi uniformes (1e-9·q₀k₀ᵀ)": _sin_salida(lambda X, Wq, Wk: _softmax(1e-9 * np.outer(X @ Wq[:, 0], X @ Wk[:, 0]))),
    "casi uniformes (Q·Kᵀ / 10⁴)": _sin_salida(lambda X, Wq, Wk: _softmax((X @ Wq) @ (X @ Wk).T / 1e4)),
    "una columna de W^Q (q₀q₀ᵀ)": _sin_salida(lambda X, Wq, Wk: _softmax(np.outer(X @ Wq[:, 0], X @ Wq[:, 0]))),
    "una columna (q₀k₀ᵀ)": _sin_salida(lambda X, Wq, Wk: _softmax(np.outer(X @ Wq[:, 0], X @ Wk[:, 0]))),
    "dos columnas (q₀k₀ᵀ + q₁k₁ᵀ)": _sin_salida(lambda X, Wq, Wk: _softmax((X @ Wq[:, :2]) @ (X @ Wk[:, :2]).T)),
}


@pytest.mark.parametrize("nombre", sorted(MAPAS_SIN_TRABAJO))
def test_mapas_de_q_y_k_sin_trabajo_no_puntuan(nombre):
    """Maps that come from Q and K only in name (near-uniform, or a group of fewer than d_k − 1 columns in every
    head) with a zero output are no work in any case the rule reads: at most the contract."""
    from grader_tests.juez.propiedades import trabajo_hecho
    celdas = celdas_de("multi_head")
    for caso in celdas["multi_head_no_modifica"].casos + celdas["multi_head_robustez"].casos_control:
        assert not trabajo_hecho(_llamada_mh(MAPAS_SIN_TRABAJO[nombre], caso)), (nombre, caso)
    veredictos = bateria.corregir("multi_head", MAPAS_SIN_TRABAJO[nombre])
    assert total(veredictos) <= 1, {g: v.puntos for g, v in veredictos.items()}


@pytest.mark.parametrize("nombre", sorted(MAPAS_HONESTOS))
def test_mapas_que_salen_de_q_y_k_son_trabajo(nombre):
    """A mistake in the maps alone (scale, axis, Q and K, the columns of a head…) keeps the maps' piece where work
    is judged: in every no-modification case and in the controls (an arbitrary group of columns is only told
    apart where there are more entries than columns: not with T = 3 and d_model = 20, the third control)."""
    ej = EJERCICIOS["multi_head"]
    un_mapa, de_q_y_k = (p.comprobar for p in ej.trabajo)
    celdas = celdas_de("multi_head")
    controles = celdas["multi_head_robustez"].casos_control
    for caso in celdas["multi_head_no_modifica"].casos + controles:
        llamada = _llamada_mh(MAPAS_HONESTOS[nombre], caso)
        assert de_q_y_k(llamada) or (nombre == "un grupo cualquiera de d_k − 1" and caso["T"] == 3), (nombre, caso)
    veredictos = bateria.corregir("multi_head", MAPAS_HONESTOS[nombre])
    for celda in ("no_modifica", "robustez", "generalidad"):
        texto_celda = veredictos[f"multi_head_{celda}"].texto()
        assert "Sin trabajo" not in texto_celda and "hace su trabajo" not in texto_celda, (nombre, celda)


@pytest.mark.parametrize("nombre", sorted(MAPAS_FIJOS))
def test_mapas_que_no_dependen_de_q_y_k_no_son_trabajo(nombre):
    """Fixed maps (the identity, a permutation, any fixed row-stochastic matrix, or maps from X or V alone) with
    their exact output are no work: at most the contract (issue 19, final attack A1-A2)."""
    from grader_tests.juez.propiedades import trabajo_hecho
    celdas = celdas_de("multi_head")
    for caso in celdas["multi_head_no_modifica"].casos + celdas["multi_head_robustez"].casos_control:
        assert not trabajo_hecho(_llamada_mh(MAPAS_FIJOS[nombre], caso)), (nombre, caso)
    veredictos = bateria.corregir("multi_head", MAPAS_FIJOS[nombre])
    assert total(veredictos) <= 1, {g: v.puntos for g, v in veredictos.items()}


def test_las_piezas_de_multi_head():
    """A mistake in the maps alone keeps «mapas que salgan de Q y K»; shifted heads keep one head's map too."""
    from grader_tests.juez.propiedades import trabajo_hecho
    ej = EJERCICIOS["multi_head"]
    un_mapa, de_q_y_k = (p.comprobar for p in ej.trabajo)
    sin_escala = ej.error("sin_escala").implementaciones[0]
    desplazadas = ej.error("bloque_siguiente").implementaciones[0]
    for implementacion, esperado in ((sin_escala, (False, True)), (desplazadas, (True, True))):
        llamada = _llamada_mh(implementacion)
        assert (un_mapa(llamada), de_q_y_k(llamada)) == esperado
        assert trabajo_hecho(llamada)
    # uniform maps and their output: no work
    llamada = _llamada_mh(_fijos(lambda T, X, Wv, i: np.full((T, T), 1 / T)))
    assert not trabajo_hecho(llamada)


# maps that show work next to an output that is not computed with them (issue 19, ninth attack): no work, so
# no-modification, robustness and generality pay nothing; every honest mistake computes its output with its maps
def _bien(X, Wq, Wk, Wv, Wo, h):
    return EJERCICIOS["multi_head"].referencia(X, Wq, Wk, Wv, Wo, h)


SALIDAS_SIN_TRABAJO = {
    "mapas bien, salida a cero": lambda X, Wq, Wk, Wv, Wo, h: (np.zeros(X.shape), _bien(X, Wq, Wk, Wv, Wo, h)[1]),
    "mapas bien, salida constante": lambda X, Wq, Wk, Wv, Wo, h: (np.full(X.shape, 0.5),
                                                                  _bien(X, Wq, Wk, Wv, Wo, h)[1]),
    "mapas bien, salida X·W^V·W^O": lambda X, Wq, Wk, Wv, Wo, h: (X @ Wv @ Wo, _bien(X, Wq, Wk, Wv, Wo, h)[1]),
    "una cabeza copiada, salida a cero": lambda X, Wq, Wk, Wv, Wo, h: (
        np.zeros(X.shape), np.repeat(_bien(X, Wq, Wk, Wv, Wo, h)[1][:1], h, axis=0)),
    "Q·Kᵀ crudo copiado, salida a cero": lambda X, Wq, Wk, Wv, Wo, h: (
        np.zeros(X.shape), np.repeat(((X @ Wq) @ (X @ Wk).T)[None], h, axis=0)),
    "Q·Kᵀ crudo copiado, salida X·W^V": lambda X, Wq, Wk, Wv, Wo, h: (
        X @ Wv, np.repeat(((X @ Wq) @ (X @ Wk).T)[None], h, axis=0)),
    "escala mínima copiada, salida a cero": lambda X, Wq, Wk, Wv, Wo, h: (
        np.zeros(X.shape), np.repeat(_softmax((X @ Wq) @ (X @ Wk).T / (100 * np.sqrt(X.shape[1] // h)))[None],
                                     h, axis=0)),
}


@pytest.mark.parametrize("nombre", sorted(SALIDAS_SIN_TRABAJO))
def test_unos_mapas_sin_una_salida_calculada_con_ellos_no_son_trabajo(nombre):
    from grader_tests.juez.propiedades import trabajo_hecho
    celdas = celdas_de("multi_head")
    for caso in celdas["multi_head_no_modifica"].casos + celdas["multi_head_robustez"].casos_control:
        assert not trabajo_hecho(_llamada_mh(SALIDAS_SIN_TRABAJO[nombre], caso)), (nombre, caso)
    veredictos = bateria.corregir("multi_head", SALIDAS_SIN_TRABAJO[nombre])
    for celda in ("no_modifica", "robustez", "generalidad"):
        veredicto = veredictos[f"multi_head_{celda}"]
        assert veredicto.puntos == 0, (nombre, celda, veredicto.texto())
        assert "le falta una salida calculada con tus mapas" in veredicto.texto() or (
            "no calcula bien nada" in veredicto.texto()), (nombre, celda, veredicto.texto())
    # never «¿recortas las puntuaciones?» for a function that is already wrong on ordinary inputs
    assert "recortas" not in veredictos["multi_head_robustez"].texto()


# outputs computed with the maps in ways the catalogue does not list: still work done
SALIDAS_DE_SUS_MAPAS = {
    "A_iᵀ·V_i": lambda X, Wq, Wk, Wv, Wo, h: (lambda A: (np.concatenate(
        [A[i].T @ (X @ Wv)[:, _bloque(i, X.shape[1] // h)] for i in range(h)], axis=1) @ Wo, A))(
        _bien(X, Wq, Wk, Wv, Wo, h)[1]),
    "concatenación preasignada, bloques desplazados": EJERCICIOS["multi_head"].error(
        "cabezas_desplazadas_recortadas").implementaciones[0],
    "sin softmax ni escala": lambda X, Wq, Wk, Wv, Wo, h: (lambda A: (_de_sus_mapas(
        A, X, Wv, Wo, [_bloque(i, X.shape[1] // h) for i in range(h)]), A))(np.stack(
        [(X @ Wq)[:, _bloque(i, X.shape[1] // h)] @ (X @ Wk)[:, _bloque(i, X.shape[1] // h)].T for i in range(h)])),
}


@pytest.mark.parametrize("nombre", sorted(SALIDAS_DE_SUS_MAPAS))
def test_una_salida_calculada_con_sus_mapas_es_trabajo(nombre):
    from grader_tests.juez.propiedades import trabajo_hecho
    celdas = celdas_de("multi_head")
    for caso in celdas["multi_head_no_modifica"].casos + celdas["multi_head_robustez"].casos_control:
        assert trabajo_hecho(_llamada_mh(SALIDAS_DE_SUS_MAPAS[nombre], caso)), (nombre, caso)


def _una_atencion(puntuaciones, valores, final, escala=1.0, mitad=False):
    """One head over every column, copied into the h maps: the scores ``puntuaciones(Q, K, Q_de_K)``, the values
    ``valores(X, Wv)`` and ``final(Wo)`` (a matrix or None), with half the output columns zeroed if ``mitad``."""
    def multi_head(X, Wq, Wk, Wv, Wo, h):
        T, d_model = X.shape
        A = _softmax(puntuaciones(X @ Wq, X @ Wk) * escala / np.sqrt(d_model // h))
        Y = (h * A if mitad else A) @ valores(X, Wv)
        Y = Y @ final(Wo) if final(Wo) is not None else Y
        if mitad:
            Y[:, d_model // 2 + d_model % 2:] = 0
        return Y, np.repeat(A[None], h, axis=0)
    return multi_head


_QQ, _KK, _QK = (lambda Q, K: Q @ Q.T), (lambda Q, K: K @ K.T), (lambda Q, K: Q @ K.T)
_V, _SIN_V = (lambda X, Wv: X @ Wv), (lambda X, Wv: X)
_WO, _SIN_WO = (lambda Wo: Wo), (lambda Wo: None)

# (tenth attack) the allowances of the work rule, stacked: each comes from an honest mistake, but two or more
# weight matrices left out is no attention; one left out is an honest mistake and keeps its work
VARIAS_MATRICES_OLVIDADAS = {
    "Q·Qᵀ, V = X, sin W^O (sólo W^Q)": (_una_atencion(_QQ, _SIN_V, _SIN_WO), ["W^K", "W^V", "W^O"]),
    "Q·Qᵀ escala mínima, V = X, sin W^O, media salida": (
        _una_atencion(_QQ, _SIN_V, _SIN_WO, escala=0.01, mitad=True), ["W^K", "W^V", "W^O"]),
    "Q·Kᵀ escala mínima, V = X, sin W^O, media salida": (
        _una_atencion(_QK, _SIN_V, _SIN_WO, escala=0.01, mitad=True), ["W^V", "W^O"]),
    "Q·Qᵀ, V = X·W^V, sin W^O": (_una_atencion(_QQ, _V, _SIN_WO), ["W^K", "W^O"]),
    "K·Kᵀ, V = X, con W^O": (_una_atencion(_KK, _SIN_V, _WO), ["W^Q", "W^V"]),
    "mapas bien, V = X, sin W^O": (lambda X, Wq, Wk, Wv, Wo, h: (lambda A: (
        np.concatenate([A[i] @ X[:, _bloque(i, X.shape[1] // h)] for i in range(h)], axis=1), A))(
        _bien(X, Wq, Wk, Wv, Wo, h)[1]), ["W^V", "W^O"]),
}
UNA_MATRIZ_OLVIDADA = {
    "Q·Qᵀ (K = X·W^Q)": _una_atencion(_QQ, _V, _WO),
    "K·Kᵀ (Q = X·W^K)": _una_atencion(_KK, _V, _WO),
    "V = X": _una_atencion(_QK, _SIN_V, _WO),
    "sin W^O, escala mínima, media salida": _una_atencion(_QK, _V, _SIN_WO, escala=0.01, mitad=True),
}


@pytest.mark.parametrize("nombre", sorted(VARIAS_MATRICES_OLVIDADAS))
def test_dos_matrices_olvidadas_no_son_trabajo(nombre):
    """Issue 19, tenth attack: softmax(Q·Qᵀ/(100·√d_k)) copied into every head and h·A·X with half its columns
    zero used only W^Q and scored 4 of 10.  Changing two of W^Q, W^K, W^V and W^O must change something: the
    robustness, generality and no-modification cells pay nothing, and say which matrices are left out."""
    from grader_tests.ejercicios.multi_head.propiedades import matrices_olvidadas
    from grader_tests.juez.propiedades import trabajo_hecho
    implementacion, olvidadas = VARIAS_MATRICES_OLVIDADAS[nombre]
    celdas = celdas_de("multi_head")
    for caso in celdas["multi_head_no_modifica"].casos + celdas["multi_head_robustez"].casos_control:
        llamada = _llamada_mh(implementacion, caso)
        assert matrices_olvidadas(llamada) == olvidadas, (nombre, caso)
        assert not trabajo_hecho(llamada), (nombre, caso)
    veredictos = bateria.corregir("multi_head", implementacion)
    for celda in ("no_modifica", "robustez", "generalidad"):
        texto_celda = veredictos[f"multi_head_{celda}"].texto()
        assert veredictos[f"multi_head_{celda}"].puntos == 0, (nombre, celda, texto_celda)
        lista = olvidadas[0] if len(olvidadas) == 1 else ", ".join(olvidadas[:-1]) + " y " + olvidadas[-1]
        assert f"le falta usar {lista}: cambiarlas no cambia nada" in texto_celda, (nombre, celda, texto_celda)


@pytest.mark.parametrize("nombre", sorted(UNA_MATRIZ_OLVIDADA))
def test_una_matriz_olvidada_sigue_siendo_trabajo(nombre):
    """One weight matrix left out is an honest mistake of the lesson (K = X·W^Q, Q = X·W^K, V = X, no W^O), even
    with the other allowances (one head over every column, the smallest scale, half the output zero)."""
    from grader_tests.juez.propiedades import trabajo_hecho
    celdas = celdas_de("multi_head")
    for caso in celdas["multi_head_no_modifica"].casos + celdas["multi_head_robustez"].casos_control:
        assert trabajo_hecho(_llamada_mh(UNA_MATRIZ_OLVIDADA[nombre], caso)), (nombre, caso)


def test_cada_error_de_la_leccion_calcula_su_salida_con_sus_mapas():
    """Every required piece (``TRABAJO_NECESARIO``: the output computed with the maps, and at most one of W^Q, W^K,
    W^V and W^O left out) holds for every known mistake's implementation on every case where work is judged: an
    honest mistake never loses it."""
    ej = EJERCICIOS["multi_head"]
    necesarias = [p.comprobar for p in ej.trabajo_necesario]
    assert len(necesarias) == 2
    celdas = celdas_de("multi_head")
    for error in ej.errores:
        for implementacion in error.implementaciones:
            for caso in celdas["multi_head_no_modifica"].casos + celdas["multi_head_robustez"].casos_control:
                llamada = _llamada_mh(implementacion, caso)
                assert all(comprobar(llamada) for comprobar in necesarias), (error.id, caso)


@pytest.mark.parametrize("junta", ["reshape", "transpose"])
def test_el_reshape_sin_transponer_es_trabajo_hecho(junta):
    """Splitting the heads with reshape(h, T, d_k) without the transpose (lesson 1, section 10) computes maps
    from Q and K and the output from them: it loses the maps and the output, named, and nothing else
    (issue 22, B2-2: it used to keep only the contract, told «no calcula bien nada»)."""
    from grader_tests.juez.propiedades import trabajo_hecho

    def multi_head(X, Wq, Wk, Wv, Wo, h):
        T, d_model = X.shape
        d_k = d_model // h
        Q, K, V = ((X @ W).reshape(h, T, d_k) for W in (Wq, Wk, Wv))
        A = _softmax(Q @ K.transpose(0, 2, 1) / np.sqrt(d_k))
        cabezas = A @ V
        concat = cabezas.reshape(T, d_model) if junta == "reshape" else cabezas.transpose(1, 0, 2).reshape(T, d_model)
        return concat @ Wo, A

    celdas = celdas_de("multi_head")
    for caso in celdas["multi_head_no_modifica"].casos + celdas["multi_head_robustez"].casos_control:
        assert trabajo_hecho(_llamada_mh(multi_head, caso)), caso
    veredictos = bateria.corregir("multi_head", multi_head)
    assert {g.removeprefix("multi_head_"): v.puntos for g, v in veredictos.items()} == {
        "contrato": 1, "mapas": 0, "salida": 0, "no_modifica": 1, "robustez": 1, "generalidad": 1}
    assert "no calcula bien nada" not in texto(veredictos)
    for celda in ("mapas", "salida"):
        assert "reshape_sin_transponer" in {e.id for e in veredictos[f"multi_head_{celda}"].errores}, celda
    for celda in ("robustez", "generalidad"):       # excused there, with its name
        assert "(división con reshape sin transponer)" in veredictos[f"multi_head_{celda}"].texto(), celda


def test_olvidar_la_softmax_se_nombra_y_es_trabajo_hecho():
    """No softmax anywhere (maps = the scores, the output computed with them) is an honest mistake: 4 of 10,
    named «sin softmax» in the value cells; the scores returned next to a right output stay «mapas sin
    softmax»."""
    ej = EJERCICIOS["multi_head"]
    veredictos = bateria.corregir("multi_head", MAPAS_HONESTOS["sin softmax"])
    assert total(veredictos) == 4, {g: v.puntos for g, v in veredictos.items()}
    for celda in ("mapas", "salida"):
        ids = {e.id for e in veredictos[f"multi_head_{celda}"].errores}
        assert "sin_softmax" in ids and "mapas_sin_softmax" not in ids, (celda, ids)
    solo_mapas = ej.error("mapas_sin_softmax")
    llamada = _llamada_mh(lambda X, Wq, Wk, Wv, Wo, h: (_bien(X, Wq, Wk, Wv, Wo, h)[0], np.stack([
        (X @ Wq)[:, _bloque(i, X.shape[1] // h)] @ (X @ Wk)[:, _bloque(i, X.shape[1] // h)].T
        / np.sqrt(X.shape[1] // h) for i in range(h)])))
    ids = {d.error.id for d in diagnostico.reconocer(llamada, ej.propiedades["multi_head_mapas"])}
    assert solo_mapas.id in ids and "sin_softmax" not in ids, ids


def test_las_piezas_de_positional_encoding():
    """Swapped sine and cosine keep a coordinate beyond pair 0; positions from 1 keep whole positions; another
    base keeps the ladder; row 0 and pair 0 alone are no work."""
    from grader_tests.juez.propiedades import trabajo_hecho
    ej = EJERCICIOS["positional_encoding"]
    coordenada, posicion, escalera = (p.comprobar for p in ej.trabajo)
    caso = celdas_de("positional_encoding")["positional_encoding_valores"].casos[0]
    T, d = argumentos("positional_encoding", caso)
    PE = ej.referencia(T, d)
    intercambiada = PE.copy()
    intercambiada[:, 0::2], intercambiada[:, 1::2] = PE[:, 1::2], PE[:, 0::2]
    desde_1 = ej.referencia(T + 1, d)[1:]
    pos = np.arange(T, dtype=np.float64)[:, None]
    solo_pareja_0 = np.zeros((T, d))
    solo_pareja_0[:, :2] = PE[:, :2]
    for tabla, esperado in ((intercambiada, (True, False, False)), (desde_1, (False, True, False)),
                            (PE.T, (True, True, True)), (np.tile(PE[0], (T, 1)), (False, False, False)),
                            (solo_pareja_0, (False, False, False)),
                            (np.tile(np.sin(pos), (1, d)), (False, False, False)),
                            (np.tile(np.hstack([np.sin(pos), np.cos(pos)]), (1, d // 2)), (False, False, False))):
        llamada = Llamada(caso, (T, d), ej)
        llamada.resultado = tabla
        assert (coordenada(llamada), posicion(llamada), escalera(llamada)) == esperado
        assert trabajo_hecho(llamada) == any(esperado)


# another ratio for the lesson's ladder keeps the piece «escalera»; a frequency that is not computed does not
ESCALERAS = {
    "base 1000": lambda T, d: 1000.0 ** (-2 * np.arange(d // 2) / d),
    "multiplica": lambda T, d: 10000.0 ** (2 * np.arange(d // 2) / d),
    "linspace": lambda T, d: np.exp(-np.log(10000.0) * np.arange(d // 2) / (d // 2 - 1)),
    "exponente j": lambda T, d: 10000.0 ** (-np.arange(d // 2) / d),
    # pair 0 at another frequency, one constant per call, with the formula's ratio (issue 19, eighth attack)
    "en grados": lambda T, d: np.pi / 180 * 10000.0 ** (-2 * np.arange(d // 2) / d),
    "pos / T": lambda T, d: 10000.0 ** (-2 * np.arange(d // 2) / d) / T,
}
NO_ESCALERAS = {
    "una frecuencia fija": lambda T, d: np.r_[1.0, np.full(d // 2 - 1, 0.5)],
    "frecuencias 1": lambda T, d: np.ones(d // 2),
    "razón por tramos finos": lambda T, d: next(r for tope, r in ((20, 0.35), (26, 0.44), (32, 0.53), (40, 0.6),
                                                                   (50, 0.66), (62, 0.72), (10**9, 0.75))
                                                 if d < tope) ** np.arange(d // 2),
    "la fórmula en 16, 32 y 64 y razón 0,44 en los demás": lambda T, d: (
        10000.0 ** (-2 / d) if d in (16, 32, 64) else 0.44) ** np.arange(d // 2),
    "r = 0,999 (la pareja 0 casi repetida)": lambda T, d: 0.999 ** np.arange(d // 2),
    "r = 1,01": lambda T, d: 1.01 ** np.arange(d // 2),
    "razón fija 0,5 (no sale de d_model)": lambda T, d: 0.5 ** np.arange(d // 2),
    "razón fija 0,56": lambda T, d: 0.56 ** np.arange(d // 2),
    "r = 1e-9 (constantes tras la pareja 1)": lambda T, d: 1e-9 ** np.arange(d // 2),
}


@pytest.mark.parametrize("nombre", sorted(ESCALERAS) + sorted(NO_ESCALERAS))
def test_la_escalera_de_positional_encoding(nombre):
    from grader_tests.juez.propiedades import trabajo_hecho
    ej = EJERCICIOS["positional_encoding"]
    frecuencias = {**ESCALERAS, **NO_ESCALERAS}[nombre]

    def llamada_de(caso):
        T, d = argumentos("positional_encoding", caso)
        angulos = np.arange(T)[:, None] * frecuencias(T, d)
        tabla = np.empty((T, d))
        tabla[:, 0::2], tabla[:, 1::2] = np.sin(angulos), np.cos(angulos)
        llamada = Llamada(caso, (T, d), ej)
        llamada.resultado = tabla
        return llamada

    espec = celdas_de("positional_encoding")["positional_encoding_robustez"]
    muestra = tuple(llamada_de(caso) for caso in espec.casos_muestra)     # the law sizes, as the cell calls them
    resultados = []
    for caso in espec.casos_control:
        llamada = llamada_de(caso)
        llamada.otras = muestra
        resultados.append(trabajo_hecho(llamada))
        if nombre in ESCALERAS:
            assert resultados[-1], (nombre, caso)
    # every control must show work (TRABAJO_EN_CADA_CONTROL): a fixed ratio fails on some size
    assert all(resultados) == (nombre in ESCALERAS), (nombre, resultados)


@pytest.mark.parametrize("funcion", list(EJERCICIOS))
def test_los_casos_sin_publicar_no_salen_en_lo_que_recibe_el_alumno(funcion):
    """A size an exercise keeps unpublished (``CASOS_SIN_PUBLICAR``) is named by no file of release/."""
    import re

    ej = EJERCICIOS[funcion]
    sin_publicar = getattr(ej.casos, "CASOS_SIN_PUBLICAR", ())
    todos = [c for casos in (celda.casos + celda.controles for celda in ej.casos.CELDAS) for c in casos]
    for caso in sin_publicar:
        assert caso in todos, caso
        for clave, valor in caso.items():
            # d_model = 46, "d_model": 46, and the lesson's LaTeX $d_{\text{model}} = 46$
            nombre = re.escape(clave).replace("_", r"_\{?(\\text\{)?") + r"(\}\})?"
            patron = re.compile(rf"{nombre}[\"']?\s*[:=]\s*{valor}\b")
            for archivo in (RAIZ / "release").rglob("*"):
                if archivo.is_file() and archivo.suffix in (".py", ".ipynb", ".json", ".md", ".txt"):
                    texto = archivo.read_text(encoding="utf-8")
                    assert not patron.search(texto) or clave == "T", (archivo, clave, valor)
        tupla = re.compile(r"\(\s*" + r"\s*,\s*".join(str(v) for v in caso.values()) + r"\s*\)")
        for archivo in (RAIZ / "release").rglob("*.py"):
            assert not tupla.search(archivo.read_text(encoding="utf-8")), archivo


@pytest.mark.parametrize("completa", [True, False])
def test_una_prueba_visible_fallida_no_contradice_la_nota_de_la_celda(completa):
    """Issue 19, tenth attack: the feedback read «✔ Puntos: 1 de 1» under the visible test's «Sin trabajo hecho, la
    robustez no puntúa (tampoco al calificar)…». With full points, the verdict says the visible test failed with
    its own inputs and the cell scores in full, without copying a message that claims the opposite; with points
    lost, the visible message is kept (it costs nothing more)."""
    from nbformat.v4 import new_code_cell
    from nbformat.notebooknode import from_dict

    from grader_tests.en_el_kernel.cliente import MIME_EVIDENCIA, recoger_evidencia
    from grader_tests.extensiones_nbgrader.nbgrader_juez import veredicto_de_celda

    referencia = EJERCICIOS["positional_encoding"].referencia

    def positional_encoding(T, d_model):
        PE = np.array(referencia(T, d_model))
        if not completa and T >= 1000:
            PE[-1] = 0.0          # wrong only at the far positions of the robustness case
        return PE

    gid = "positional_encoding_robustez"
    from grader_tests.juez.propiedades import empezar_cuaderno
    empezar_cuaderno()
    evidencia = recoger_evidencia(gid, {"positional_encoding": positional_encoding})
    visible = ("✘ Sin trabajo hecho, la robustez no puntúa (tampoco al calificar). La nota aplica esta misma "
               "regla con sus tamaños.")
    celda = new_code_cell(source="...", metadata={"nbgrader": {"grade_id": gid, "points": 1, "grade": True}})
    celda.outputs = [from_dict({"output_type": "display_data", "metadata": {}, "data": {MIME_EVIDENCIA: evidencia}}),
                     from_dict({"output_type": "error", "ename": "AssertionError", "evalue": visible,
                                "traceback": []})]
    veredicto = veredicto_de_celda(celda, None)
    assert veredicto.prueba_visible_fallida
    texto_celda = veredicto.texto()
    if completa:
        assert veredicto.puntos == 1 and "✔ Puntos: 1 de 1" in texto_celda
        assert "tampoco al calificar" not in texto_celda and "Sin trabajo hecho" not in texto_celda
        assert "la celda puntúa entera" in texto_celda
    else:
        assert veredicto.puntos < 1 and visible in texto_celda


def test_una_tabla_que_lanza_con_algunos_tamanos_lo_dice():
    """A positional_encoding that raises for some even d_model (a grader tester: «no calcula bien nada» there, and
    the exception was not named): the value cell names the exception and where; it still pays only work done."""
    from grader_tests.ejercicios.positional_encoding.referencia import positional_encoding as referencia
    from grader_tests.juez import bateria

    def positional_encoding(T, d_model):
        if d_model % 4:
            raise ValueError("d_model tiene que ser múltiplo de 4")
        return referencia(T, d_model)
    veredictos = bateria.corregir("positional_encoding", positional_encoding)
    texto = veredictos["positional_encoding_valores"].texto()
    assert veredictos["positional_encoding_valores"].puntos == 0
    assert "lanzó ValueError: d_model tiene que ser múltiplo de 4" in texto, texto
    assert "d_model = 6" in texto.split("lanzó")[0] and "tu función lanzó" not in texto, texto
