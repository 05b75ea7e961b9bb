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


@pytest.mark.parametrize("pregunta, valor, bien", [
    (VerdaderoFalso("respuesta_5", True, ""), "True", "`respuesta_5 = True`"),
    (VerdaderoFalso("respuesta_5", True, ""), "falso", "`respuesta_5 = False`"),
    (ENTERO, "800", "`respuesta_8 = 800`"),
    (ENTERO, "2 359 296", "`respuesta_8 = 2359296`"),
])
def test_entre_comillas_vale_y_se_dice_como_se_escribe(pregunta, valor, bien):
    """A number or True/False written as text (the sixth student's report B4-4): read as the same answer (the
    grade reads it so too), and the verdict says, kindly, how the question asks for it."""
    veredicto = pregunta.juzgar(valor, 1)
    assert veredicto.puntos == (1 if pregunta.leer(valor) == pregunta.correcta else 0)
    assert bien in " ".join(veredicto.lineas[0].split()) and "se lee igual" in veredicto.lineas[0]
    sin_comillas = True if valor == "True" else pregunta.leer(valor)
    assert "se lee igual" not in pregunta.juzgar(sin_comillas, 1).lineas[0]


def test_un_numero_enorme_es_ilegible_no_un_error_interno():
    veredicto = ENTERO.juzgar("9" * 5000, 1)
    assert veredicto.puntos == 0 and veredicto.motivo == "respuesta_ilegible"


# ------------------------------------- the instant check in the notebook and the grade agree

import contextlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from conftest import RAIZ, cargar_modulo  # noqa: E402
from grader_tests.juez import descubrimiento, juez, quiz  # noqa: E402
from grader_tests.en_el_kernel import pruebas_visibles  # noqa: E402
from grader_tests.en_el_kernel.serializacion import deserializar, serializar  # noqa: E402

LECCIONES = [l for l in descubrimiento.lecciones(RAIZ) if descubrimiento.cuestionario(l.cuaderno.stem)]


def _modulo_de_la_leccion(leccion):
    """The lesson's own copy of pruebas_visibles.py (what a student's kernel imports), loaded from its folder."""
    return cargar_modulo(leccion.carpeta / "pruebas_visibles.py", f"pruebas_visibles_{leccion.tarea}")


class _Raro:
    def __repr__(self):
        return "<raro>"


# Every kind of value a student could assign: right and wrong answers written in every accepted way,
# NumPy scalars and arrays, containers, things the grader does not admit, long and nested values.
VALORES = ["a", "b", "c", "d", "e", " B ", "b)", "(c)", "opción b", "Opción D.", "respuesta a", "«b»", "la c",
           "bd", "b, c", "a y c", "a, c", "{a, b, d}", "abd", "abde", "a/b/d", "A,B,D", "ab", "z", "", "  ",
           ["b"], ("c",), ["a", "c"], ("d", "b", "a"), {"a", "c"}, frozenset("abd"), {"A", "b", "d"}, set(),
           [], ["a", 1], [["a"]], ["a"] * 70, list("abd") + ["x"],
           0, 1, 256, 800, 2359296, -1, 256.0, 2359296.0, 256.5, float("nan"), float("inf"),
           np.int64(256), np.int32(2359296), np.float64(256.0), np.float32(256.0), np.uint8(1),
           np.longdouble(256), np.complex128(256), np.str_("b"), np.bytes_(b"b"), np.array(256),
           np.array(["b"]), np.arange(3),
           "256", " 2 359 296 ", "2.359.296", "2_359_296", "2359296.0", "2.56e2", "2,56e2", "256,0", "25.6",
           "9" * 5000, "1" * 61, "b" * 2000,
           True, False, np.True_, np.False_, "verdadero", "Falso", "v", "f", "sí", "no", "True", "cierto",
           None, ..., _Raro(), b"b", 1j, {"a": 1}, range(3),
           # the exact lax forms of issue 22's fifth student's report (B10): ✔ in the notebook, and the grade?
           "B", "d)", "2359296", ["a", "b", "d"], "True", 6912.0, "6912", np.float64(6912.0)]


def _como_lo_juzga_la_nota(pregunta, valor):
    """What autograde does: the kernel serialises the value, the trusted side rebuilds and judges it."""
    try:
        descrito = serializar(valor)
    except Exception:  # noqa: BLE001 - the kernel could not even describe it: nothing reaches the grader
        return None
    evidencia = {"grade_id": "x", "valor": json.loads(json.dumps(descrito))}
    try:
        leido = deserializar(evidencia["valor"])
    except (ValueError, KeyError, TypeError):
        return 0.0                                            # juez: «No se puede leer el valor»
    return pregunta.juzgar(leido, 1).puntos


@pytest.mark.parametrize("leccion", LECCIONES, ids=lambda l: l.tarea)
def test_la_comprobacion_inmediata_y_la_nota_no_discrepan(leccion):
    """For every question and every value: the notebook says «Correcto» iff the grade gives the point.

    The instant check runs the lesson's shipped copy with its shipped
    ``cuestionario.json``; the grade runs the trusted quiz after the
    serialisation round trip that autograde makes.
    """
    modulo = _modulo_de_la_leccion(leccion)
    publicadas = modulo.preguntas(str(leccion.carpeta))
    confiables = descubrimiento.cuestionario(leccion.cuaderno.stem)
    assert {p.variable for p in confiables.values()} == set(publicadas)
    for gid, pregunta in confiables.items():
        publicada = publicadas[pregunta.variable]
        valores = VALORES + [pregunta.correcta, sorted(pregunta.correcta) if isinstance(pregunta.correcta, frozenset)
                             else str(pregunta.correcta)]
        for valor in valores:
            nota = _como_lo_juzga_la_nota(pregunta, valor)
            if nota is None:
                continue
            inmediata = publicada.corregir(modulo.como_lo_recibe_el_corrector(valor))
            assert inmediata.acierta == (nota == 1), (gid, valor, inmediata, nota)
        assert publicada.corregir(pregunta.correcta).acierta, gid


@pytest.mark.parametrize("leccion", LECCIONES, ids=lambda l: l.tarea)
def test_respuestas_y_explicaciones_salen_del_cuestionario_del_curso(leccion):
    """The shipped cuestionario.json is exactly grader_tests/cuestionarios/<cuaderno>.py (one source of truth)."""
    publicadas = pruebas_visibles.preguntas(str(leccion.carpeta))
    for gid, pregunta in descubrimiento.cuestionario(leccion.cuaderno.stem).items():
        publicada = publicadas[pregunta.variable]
        assert (type(publicada).__name__, publicada.correcta, publicada.explicacion) == (
            type(pregunta).__name__, pregunta.correcta, pregunta.explicacion), gid
        assert getattr(publicada, "opciones", None) == getattr(pregunta, "opciones", None)


def test_la_nota_lee_con_las_clases_de_la_comprobacion_inmediata():
    for clase in (quiz.Opcion, quiz.Varias, quiz.Entero, quiz.VerdaderoFalso):
        publica = pruebas_visibles.TIPOS[clase.__name__]
        assert issubclass(clase, publica)
        assert all(getattr(clase, m) is getattr(publica, m) for m in ("leer", "formato", "mostrar", "corregir"))


def _ejecutar_celda(modulo, variable, espacio):
    salida = io.StringIO()
    with contextlib.redirect_stdout(salida):
        modulo.respuesta(variable, espacio)
    return salida.getvalue()


@pytest.mark.parametrize("leccion", LECCIONES, ids=lambda l: l.tarea)
def test_en_validate_solo_falla_la_primera_pregunta_sin_contestar(leccion, monkeypatch):
    """Under Validate (``NBGRADER_EXECUTION=validate``) the first unanswered question fails, saying Validate shows
    only the first; the later unanswered ones write their line without failing, so the exercise's diagnosis stays
    within the dialog's first lines (a new student's report, issue 22: line 42 with eight unanswered).  A wrong
    answer still fails; when grading, and in JupyterLab, every unanswered question fails."""
    monkeypatch.syspath_prepend(str(leccion.carpeta))
    modulo = _modulo_de_la_leccion(leccion)
    preguntas = list(descubrimiento.cuestionario(leccion.cuaderno.stem).values())
    primera, segunda, tercera = preguntas[:3]
    for ejecucion in (None, "autograde"):
        if ejecucion:
            monkeypatch.setenv("NBGRADER_EXECUTION", ejecucion)
        for p in (primera, segunda):
            with pytest.raises(modulo.PruebaVisibleFallida, match="sin contestar"):
                _ejecutar_celda(modulo, p.variable, {p.variable: None})
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    monkeypatch.setattr(modulo, "_SIN_CONTESTAR_EN_VALIDATE", [])
    numero = primera.variable.rsplit("_", 1)[1]
    with pytest.raises(modulo.PruebaVisibleFallida) as fallo:
        _ejecutar_celda(modulo, primera.variable, {primera.variable: None})
    assert fallo.value.lineas() == [f"✘ Pregunta {numero} sin contestar: escribe {primera.variable} arriba y "
                                    "ejecuta las dos celdas.", "Validate sólo enseña la primera pregunta sin contestar."]
    assert all(len(l) <= modulo.ANCHO for l in fallo.value.lineas())
    v = segunda.variable
    rellena = f'# Escribe tu respuesta así: {v} = "a"\n# ESCRIBE TU CÓDIGO AQUÍ\nraise NotImplementedError()'
    texto = _ejecutar_celda(modulo, v, {"In": ["", rellena]})
    assert texto.startswith(f"✘ Pregunta {segunda.variable.rsplit('_', 1)[1]} sin contestar"), texto
    # the comment deleted and the raise left (a student): Validate ran that cell, so not «aún no existe en el núcleo»
    texto = _ejecutar_celda(modulo, v, {"In": ["", "raise NotImplementedError()"]})
    assert "sin contestar" in texto and "aún no existe" not in texto, texto
    monkeypatch.delenv("NBGRADER_EXECUTION")
    with pytest.raises(modulo.PruebaVisibleFallida, match="aún no existe en el núcleo"):
        _ejecutar_celda(modulo, v, {"In": ["", "raise NotImplementedError()"]})
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    mal = {"Opcion": lambda c: "a" if c != "a" else "b", "Entero": lambda c: c + 1,
           "VerdaderoFalso": lambda c: not c, "Varias": lambda c: {"a"} if c != {"a"} else {"b"}}
    with pytest.raises(modulo.PruebaVisibleFallida, match="Has respondido") as fallo:
        _ejecutar_celda(modulo, tercera.variable,
                        {tercera.variable: mal[type(tercera).__name__](tercera.correcta)})
    # a wrong answer in Validate: its line and where the explanation is, not the explanation (a hub TA's report:
    # two wrong answers pushed the exercise's diagnosis to line 30)
    assert len(fallo.value.lineas()) <= 4, fallo.value.lineas()
    assert "al ejecutar esta celda en el cuaderno" in " ".join(" ".join(fallo.value.lineas()).split())


@pytest.mark.parametrize("leccion", LECCIONES, ids=lambda l: l.tarea)
def test_la_celda_de_comprobacion_explica_al_momento(leccion, monkeypatch):
    """Right: «✔ … Correcto» and the explanation; wrong or unanswered: a Spanish failure with the
    explanation, so Validate never says «Success» to an answer that loses the point."""
    monkeypatch.syspath_prepend(str(leccion.carpeta))
    modulo = _modulo_de_la_leccion(leccion)
    for pregunta in descubrimiento.cuestionario(leccion.cuaderno.stem).values():
        numero = pregunta.variable.rsplit("_", 1)[1]
        texto = _ejecutar_celda(modulo, pregunta.variable, {pregunta.variable: pregunta.correcta})
        assert texto.startswith(f"✔ Pregunta {numero}. Correcto")
        assert " ".join(pregunta.explicacion.split()[:6]) in " ".join(texto.split())
        assert all(len(l) <= modulo.ANCHO for l in texto.splitlines())
        mal = {"Opcion": lambda c: "a" if c != "a" else "b", "Entero": lambda c: c + 1,
               "VerdaderoFalso": lambda c: not c, "Varias": lambda c: {"a"} if c != {"a"} else {"b"}}
        incorrecta = mal[type(pregunta).__name__](pregunta.correcta)
        with pytest.raises(modulo.PruebaVisibleFallida) as fallo:
            _ejecutar_celda(modulo, pregunta.variable, {pregunta.variable: incorrecta})
        assert isinstance(fallo.value, AssertionError)
        lineas = fallo.value._render_traceback_()
        texto = " ".join(" ".join(lineas).split())
        assert f"Pregunta {numero}. Has respondido" in texto and "la respuesta correcta es" in texto
        assert " ".join(pregunta.explicacion.split()[:6]) in texto
        assert all(len(l) <= modulo.ANCHO for l in fallo.value.lineas())
        # unanswered (the answer cell still raises, or the variable is None): one line, so that
        # Validate's list of failing cells reaches the exercise's diagnosis soon (issue 22)
        for espacio in ({}, {pregunta.variable: None}):
            with pytest.raises(modulo.PruebaVisibleFallida) as fallo:
                _ejecutar_celda(modulo, pregunta.variable, espacio)
            assert fallo.value.lineas() == [f"✘ Pregunta {numero} sin contestar: escribe "
                                            f"{pregunta.variable} arriba y ejecuta las dos celdas."]
            assert len(fallo.value.lineas()[0]) <= modulo.ANCHO
        with pytest.raises(modulo.PruebaVisibleFallida, match="No se puede leer tu respuesta"):
            _ejecutar_celda(modulo, pregunta.variable, {pregunta.variable: _Raro()})
        # an answer cell that was run and failed is not «sin contestar»: IPython's In keeps its code
        # (a student's report, issue 22: a paste that does not compile was called unanswered)
        v = pregunta.variable
        rellena = f'# Escribe tu respuesta así: {v} = "a"\n# ESCRIBE TU CÓDIGO AQUÍ\nraise NotImplementedError()'
        for celda, esperado in ((f"x = 1\n{v} = ysalida,frenteah·d_model²", "tiene un error de sintaxis en su línea 2"),
                                (f"{v} = b", "dio un error al ejecutarse"),
                                (rellena, "sin contestar")):
            with pytest.raises(modulo.PruebaVisibleFallida) as fallo:
                _ejecutar_celda(modulo, v, {"In": ["", celda, f"{v} == 3"]})
            texto = " ".join(fallo.value.lineas())
            assert esperado in texto and texto.startswith(f"✘ Pregunta {numero}"), (celda, texto)
            if esperado != "sin contestar":
                assert pregunta.formato().split("`")[0] in texto
        # after a kernel restart, only the check cell run (the seventh student's report B4-2): the answer may be
        # written in the notebook, so not «sin contestar» but «run its cell»
        for historia in (["", f'__import__("pruebas_visibles").respuesta("{v}", globals())'], [""]):
            with pytest.raises(modulo.PruebaVisibleFallida) as fallo:
                _ejecutar_celda(modulo, v, {"In": historia})
            texto = " ".join(" ".join(fallo.value.lineas()).split())
            assert texto.startswith(f"✘ Pregunta {numero}: {v} aún no existe en el núcleo"), texto
            assert "sin contestar" not in texto and "ejecuta su celda" in texto, texto
            assert all(len(l) <= modulo.ANCHO for l in fallo.value.lineas())
        # answered before, then the answer cell broken: the check does not grade the old value
        with pytest.raises(modulo.PruebaVisibleFallida) as fallo:
            _ejecutar_celda(modulo, v, {v: pregunta.correcta, "In": ["", f"{v} = {pregunta.correcta!r}",
                                                                    f"{v} = {pregunta.correcta!r})"]})
        assert "tiene un error de sintaxis en su línea 1" in " ".join(fallo.value.lineas())
        assert "respuesta anterior" in " ".join(fallo.value.lineas())
        # fixed again: the right answer is right
        texto = _ejecutar_celda(modulo, v, {v: pregunta.correcta, "In": ["", f"{v} = x)", f"{v} = {pregunta.correcta!r}"]})
        assert texto.startswith(f"✔ Pregunta {numero}. Correcto")


def test_una_funcion_con_error_de_sintaxis_se_nombra(monkeypatch):
    """The exercise's cell does not compile: the visible tests say so (with its line), not «no está
    definida», and never test an older definition that is still in the namespace (student's report)."""
    def f():
        return 1
    celda = "def multi_head(X, Wq, Wk, Wv, Wo, h):\n    return (X\n"
    for espacio in ({"In": ["", celda]}, {"multi_head": f, "In": ["", "def multi_head(X):\n    return X", celda]}):
        with pytest.raises(pruebas_visibles.PruebaVisibleFallida) as fallo:
            pruebas_visibles.funcion_del_cuaderno(espacio, "multi_head")
        texto = " ".join(fallo.value.lineas())
        assert "tiene un error de sintaxis en su línea" in texto and "no está definida" not in texto, texto
    # the definition compiles again: it is the function
    assert pruebas_visibles.funcion_del_cuaderno({"multi_head": f, "In": ["", celda, "def multi_head():\n  pass"]},
                                                 "multi_head") is f


def test_el_texto_de_la_nota_es_el_de_la_comprobacion():
    """The feedback's lines are the instant check's (the same ``corregir``)."""
    pregunta = OPCION
    for valor in ("b", "a", None, ["x", "y"]):
        assert tuple(pregunta.juzgar(valor, 1).lineas) == pregunta.corregir(valor).lineas


def test_una_celda_que_lanza_antes_del_def_se_nombra(monkeypatch):
    """The exercise's cell raised before its ``def`` (an import of something not installed): the visible tests
    name that exception, not «no está definida: ejecuta antes la celda» (issue 22, ninth student)."""
    import linecache
    celda = "from scipy.special import softmax\n\ndef multi_head(X, Wq, Wk, Wv, Wo, h):\n    return X\n"
    # as IPython does, the cell's code in linecache under the cell's file name (tracebacks read it there)
    for nombre, codigo in (("/tmp/ipykernel_1/2.py", celda), ("/tmp/ipykernel_1/3.py", "raise NotImplementedError()")):
        monkeypatch.setitem(linecache.cache, nombre, (len(codigo), None, codigo.splitlines(True), nombre))
    try:
        exec(compile(celda, "/tmp/ipykernel_1/2.py", "exec"), {"__name__": "__celda__"})
    except ImportError as exc:
        monkeypatch.setattr(sys, "last_value", exc, raising=False)
        monkeypatch.setattr(sys, "last_traceback", exc.__traceback__, raising=False)
    else:  # pragma: no cover - scipy is not among the course's packages
        pytest.skip("scipy está instalado")
    with pytest.raises(pruebas_visibles.PruebaVisibleFallida) as fallo:
        pruebas_visibles.funcion_del_cuaderno({"In": ["", celda]}, "multi_head")
    texto = " ".join(" ".join(fallo.value.lineas()).split())
    assert "terminó con ModuleNotFoundError" in texto and "«scipy»" in texto and "no está definida" not in texto, texto
    assert all(len(l) <= pruebas_visibles.ANCHO for l in fallo.value.lineas())
    # another cell's exception (an unanswered question) is not this cell's: the usual message
    try:
        exec(compile("raise NotImplementedError()", "/tmp/ipykernel_1/3.py", "exec"), {})
    except NotImplementedError as exc:
        monkeypatch.setattr(sys, "last_value", exc, raising=False)
        monkeypatch.setattr(sys, "last_traceback", exc.__traceback__, raising=False)
    with pytest.raises(pruebas_visibles.PruebaVisibleFallida, match="no está definida"):
        pruebas_visibles.funcion_del_cuaderno({"In": ["", celda]}, "multi_head")


def test_un_escalar_de_numpy_se_muestra_como_su_numero():
    """A letter written without quotes that names a notebook variable holding a NumPy scalar (a student:
    «No se puede leer tu respuesta np.int64(852)»): the message shows the number as Python writes it."""
    leccion = str(RAIZ / "source" / "01_atencion_multicabeza")
    pregunta = next(p for p in pruebas_visibles.preguntas(leccion).values() if type(p).__name__ == "Opcion")
    texto = pregunta.corregir(np.int64(852)).lineas[0]
    assert "tu respuesta `852`:" in texto and "np.int64" not in texto, texto
    texto = pregunta.corregir(np.float64(2.5)).lineas[0]
    assert "tu respuesta `2.5`:" in texto and "np.float64" not in texto, texto
    # a set in order, with the quotes of the examples, and the letter that is not an option named
    varias = next(p for p in pruebas_visibles.preguntas(leccion).values() if type(p).__name__ == "Varias")
    texto = varias.corregir({"d", "a", "z"}).lineas[0]
    assert 'tu respuesta `{"a", "d", "z"}`: "z" no es una de las opciones' in texto, texto


@pytest.mark.parametrize("leccion", LECCIONES, ids=lambda l: l.tarea)
def test_una_letra_sin_comillas_se_nombra(leccion, monkeypatch):
    """`respuesta_1 = b` without quotes is the notebook variable b (a student read «No se puede leer tu respuesta
    852»): the check cell says the letter lacks its quotes; a number in a number question is not blamed on it."""
    monkeypatch.syspath_prepend(str(leccion.carpeta))
    modulo = _modulo_de_la_leccion(leccion)
    for pregunta in descubrimiento.cuestionario(leccion.cuaderno.stem).values():
        v = pregunta.variable
        if type(pregunta).__name__ == "Opcion":
            espacio = {"In": ["", f"{v} = b"], "b": np.int64(852), v: np.int64(852)}
            with pytest.raises(modulo.PruebaVisibleFallida) as fallo:
                _ejecutar_celda(modulo, v, espacio)
            texto = " ".join(" ".join(fallo.value.lineas()).split())
            assert "la letra b sin comillas" in texto and "(vale `852`)" in texto and f'{v} = "b"' in texto, texto
        elif type(pregunta).__name__ == "Varias":
            espacio = {"In": ["", f"{v} = {{a, c}}"], "a": 1, "c": 3, v: {1, 3}}
            with pytest.raises(modulo.PruebaVisibleFallida) as fallo:
                _ejecutar_celda(modulo, v, espacio)
            texto = " ".join(" ".join(fallo.value.lineas()).split())
            assert "las letras sin comillas" in texto and f'{v} = {{"a", "c"}}' in texto, texto
        elif type(pregunta).__name__ == "Entero":
            espacio = {"In": ["", f"{v} = b"], "b": 2.5, v: 2.5}
            with pytest.raises(modulo.PruebaVisibleFallida) as fallo:
                _ejecutar_celda(modulo, v, espacio)
            assert "sin comillas: así" not in " ".join(fallo.value.lineas())


@pytest.mark.parametrize("leccion", LECCIONES, ids=lambda l: l.tarea)
def test_una_respuesta_cuya_celda_fallo_no_se_da_por_buena(leccion, monkeypatch):
    """A student ran `respuesta_3 = np.sqrt(256)` without NumPy imported: NameError, and the check cell said
    «✔ Correcto» with the answer of an earlier run. The check now knows the answer cell failed the last time."""
    from IPython.core.interactiveshell import InteractiveShell
    monkeypatch.syspath_prepend(str(leccion.carpeta))
    modulo = _modulo_de_la_leccion(leccion)
    shell = InteractiveShell.instance()
    try:
        assert modulo._vigilar_celdas() is modulo._vigilar_celdas()        # one hook per kernel
        pregunta = next(iter(descubrimiento.cuestionario(leccion.cuaderno.stem).values()))
        v = pregunta.variable
        correcta = sorted(pregunta.correcta) if isinstance(pregunta.correcta, frozenset) else pregunta.correcta
        assert shell.run_cell(f"{v} = {correcta!r}").success
        assert "Correcto" in _ejecutar_celda(modulo, v, shell.user_ns)
        assert not shell.run_cell(f"{v} = no_existe.sqrt(256)").success     # NameError: the old value stays
        assert v in shell.user_ns
        with pytest.raises(modulo.PruebaVisibleFallida) as fallo:
            _ejecutar_celda(modulo, v, shell.user_ns)
        texto = " ".join(" ".join(fallo.value.lineas()).split())
        assert "dio un error la última vez que la ejecutaste" in texto and "respuesta anterior" in texto, texto
        assert shell.run_cell(f"{v} = {correcta!r}").success                # fixed and run again: checked again
        assert "Correcto" in _ejecutar_celda(modulo, v, shell.user_ns)
    finally:
        InteractiveShell.clear_instance()


def test_un_despiste_frecuente_se_nombra_antes_de_la_explicacion():
    """Issue 22's first student: the most common slip of lesson 1's question 2, 3·768² = 1 769 472 (W^O
    forgotten), got only the general explanation. A question may name frequent wrong answers (``pistas``):
    the instant check and the grade say the slip before the explanation, and the hint travels in
    cuestionario.json with the question."""
    from grader_tests.cuestionarios.atencion_multicabeza import PREGUNTAS
    from grader_tests.en_el_kernel import pruebas_visibles as pv
    from grader_tests.juez import quiz

    pregunta = PREGUNTAS["comprueba_respuesta_2"]
    lineas = pregunta.corregir(3 * 768 ** 2).lineas
    assert "1 769 472" in lineas[0] and "sin W^O" in lineas[1] and lineas[2] == pregunta.explicacion
    assert "sesgos" in pregunta.corregir("2 362 368").lineas[1]
    assert pregunta.corregir(12345).lineas[1:] == (pregunta.explicacion,)          # no hint: the explanation
    assert pregunta.corregir(4 * 768 ** 2).lineas == ("Correcto: 2 359 296.", pregunta.explicacion)
    veredicto = pregunta.juzgar(3 * 768 ** 2, 1)
    assert veredicto.puntos == 0 and any("sin W^O" in linea for linea in veredicto.lineas)
    publicada = next(p for p in quiz.exportar(PREGUNTAS)["preguntas"] if p["variable"] == "respuesta_2")
    assert pv.pregunta_desde_dict(publicada).corregir(3 * 768 ** 2).lineas == lineas
