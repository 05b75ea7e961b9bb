"""The visible tests of every lesson against every battery file, in-process (fast).

Each visible test cell is one line that calls the lesson's checker module
(``source/<tarea>/pruebas_<función>.py``, shipped with the assignment).
What a student reads when Validate fails must fit a terminal and put the
Spanish diagnosis first: ``nbgrader validate`` cuts every line at
``Validator.width - 3`` characters (87 by default), so every line of a
visible failure has at most 80, and a failure is its Spanish lines only (no
Python traceback: ``PruebaVisibleFallida._render_traceback_``).  The visible
tests agree with the hidden ones: they fail for every battery file that
loses points outside the cells checked only at grading time, and pass every
file with full marks (the same rule that ``make comprobar`` checks in a
kernel and ``test_bateria.py`` under ``nbgrader validate``); a later cell
never blames another cause when the maps already fail; and the cells that
pay only work done fail, as the grade does, for a function that computes
nothing right.
"""
from __future__ import annotations

import contextlib
import io
import re
import sys
import warnings

import nbformat
import numpy as np
import pytest

from grader_tests.juez import bateria, descubrimiento

from conftest import RAIZ

# c08_lenta's 32 s sleep proves something only in a real kernel (tests/test_bateria.py)
pytestmark = pytest.mark.usefixtures("sin_esperas")

OCULTO = re.compile(r"### BEGIN HIDDEN TESTS\n.*?### END HIDDEN TESTS\n?", re.S)
ANSI = re.compile(r"\x1b\[[0-9;]*m")
ANCHO = 80
EJERCICIOS = descubrimiento.ejercicios()
LECCIONES = {f: l for l in descubrimiento.lecciones(RAIZ) for f in l.funciones if f in EJERCICIOS}
ARCHIVOS = [(f, a) for f in LECCIONES for a in EJERCICIOS[f].bateria()]
for _leccion in LECCIONES.values():          # the checker modules, as the student's kernel imports them
    if str(_leccion.carpeta) not in sys.path:
        sys.path.append(str(_leccion.carpeta))


def pruebas_visibles(funcion: str) -> dict[str, str]:
    nb = nbformat.read(LECCIONES[funcion].cuaderno, as_version=4)
    return {c.metadata.nbgrader["grade_id"]: OCULTO.sub("", c.source) for c in nb.cells
            if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") in EJERCICIOS[funcion].propiedades}


def lo_que_se_ve(exc: BaseException) -> str:
    """The failure as JupyterLab and Validate show it (IPython's rendering, without colours)."""
    if hasattr(exc, "_render_traceback_"):
        return ANSI.sub("", "\n".join(exc._render_traceback_()))
    return f"{type(exc).__name__}: {exc}"


@contextlib.contextmanager
def _en_silencio(errores: io.StringIO | None = None):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(errores or io.StringIO()), \
            np.errstate(all="ignore"):
        yield


def ejecutar_visibles(funcion: str, codigo: str, stderr: dict | None = None) -> dict[str, tuple[bool, str]]:
    """{grade_id: (is an assertion, what the student reads)} of the visible test cells that fail.

    ``stderr``, if given, receives {grade_id: what the cell wrote to stderr}, every warning shown
    (nbgrader fails a test cell with any stderr output).
    """
    espacio: dict = {"np": np}
    with _en_silencio():
        exec(compile(codigo, funcion, "exec"), espacio)
    fallan = {}
    for gid, fuente in pruebas_visibles(funcion).items():
        copia = dict(espacio)
        errores = io.StringIO()
        try:
            with _en_silencio(errores), warnings.catch_warnings():
                warnings.simplefilter("always")
                exec(compile(fuente, gid, "exec"), copia)
        except Exception as exc:  # noqa: BLE001 - what the student would see
            fallan[gid] = (isinstance(exc, AssertionError), lo_que_se_ve(exc))
        if stderr is not None:
            stderr[gid] = errores.getvalue()
    return fallan


def test_cada_prueba_visible_es_una_linea_que_llama_al_modulo_de_la_leccion():
    for funcion, leccion in LECCIONES.items():
        modulo = f"pruebas_{funcion}"
        assert (leccion.carpeta / f"{modulo}.py").is_file(), modulo
        for gid, fuente in pruebas_visibles(funcion).items():
            codigo = [l for l in fuente.splitlines() if l.strip() and not l.startswith('"""')]
            propiedad = gid.removeprefix(funcion + "_")
            assert codigo == [f'__import__("{modulo}").{propiedad}(globals())'], (gid, codigo)


@pytest.mark.parametrize("funcion,archivo", ARCHIVOS, ids=[f"{f}/{a.nombre}" for f, a in ARCHIVOS])
def test_los_mensajes_visibles_caben_y_dicen_lo_mismo_que_la_nota(funcion, archivo):
    stderr: dict = {}
    fallan = ejecutar_visibles(funcion, archivo.codigo, stderr)
    # nbgrader fails a test cell with anything on stderr, wherever JupyterLab was opened (issue 22, B1):
    # the student's prints to stderr and warnings come out on stdout, and the checkers write nothing there
    escrito = {gid: texto for gid, texto in stderr.items() if texto}
    assert not escrito, f"celdas visibles con texto en stderr: {escrito}"
    largas = [(gid, linea) for gid, (asercion, texto) in fallan.items() if asercion
              for linea in texto.splitlines() if len(linea) > ANCHO]
    assert not largas, "\n".join(f"{g}: {len(l)} caracteres: {l}" for g, l in largas)
    ej = EJERCICIOS[funcion]
    veredictos = bateria.corregir(funcion, bateria.cargar(archivo, funcion))
    pierde = [g for g, v in veredictos.items() if v.puntos < v.maximo and not ej.propiedades[g].solo_al_calificar]
    completo = all(v.completo for v in veredictos.values())
    assert not (pierde and not fallan), f"pierde puntos en {pierde} y las pruebas visibles dicen «Success»"
    assert not (completo and fallan), f"nota completa y fallan las pruebas visibles: {fallan}"
    # cell by cell: a visible cell fails only where the grade takes points (the student 22b's P1: a pair in
    # reverse order failed the visible generality with h = 1, while only the contract loses its point)
    de_mas = {gid: texto.splitlines()[0] for gid, (_, texto) in fallan.items()
              if gid in veredictos and veredictos[gid].puntos >= veredictos[gid].maximo}
    assert not de_mas, f"fallan celdas visibles cuya celda de la nota da todos sus puntos: {de_mas}"

    # Spanish first: a failure is its Spanish lines, headline first, and the likely cause right after it
    for gid, (asercion, texto) in fallan.items():
        assert asercion and texto.startswith("✘ "), (gid, texto[:300])
        assert "Traceback" not in texto and 'File "' not in texto, (gid, texto[:300])
        # Python's booleans are not Spanish words (the sixth student's report B4-1: «cabeza 0: False»)
        assert not re.search(r":\s(True|False)\b", texto), (gid, texto)
        lineas = texto.splitlines()
        causa = [i for i, l in enumerate(lineas) if "ausa" in l]
        assert not causa or causa[0] < 6, (gid, texto)

    # a later cell never blames another cause when the maps (the cause) already fail: it points to them,
    # or says the same (an exception), or, for a form mistake, points to the contract's cell, which names it
    mapas, salida = f"{funcion}_mapas", f"{funcion}_salida"
    if mapas in fallan and salida in fallan:
        texto = fallan[salida][1]
        assert ("porque los mapas tampoco" in " ".join(texto.splitlines()[:2]) or texto == fallan[mapas][1]
                or "celda del contrato" in texto and "celda del contrato" in fallan[mapas][1]), (fallan[mapas], texto)

    # points only for work done: the visible cells say so when the grade says so
    for gid, propiedad in ej.propiedades.items():
        sin_trabajo = "Sin trabajo correcto" in veredictos[gid].texto() or (
            "sólo puntúa cuando la función hace su trabajo" in veredictos[gid].texto()
            and veredictos[gid].puntos == 0)
        if sin_trabajo and not propiedad.solo_al_calificar and not archivo.solo_al_calificar:
            # (a function that raises on the visible case fails with its exception before that)
            assert gid in fallan and any(t in fallan[gid][1] for t in (
                "Sin trabajo hecho", " lanzó ", "Aún no has escrito", "aún llega al raise",
                "guarda unas tres cifras")), (gid, fallan.get(gid))     # float16: the cause, named in every cell
        if gid in fallan and "Sin trabajo hecho" in fallan[gid][1]:
            assert veredictos[gid].puntos < veredictos[gid].maximo, (gid, veredictos[gid].texto())


def _plano(texto: str) -> str:
    return " ".join(texto.split()).lower()


def _nombrados(funcion: str) -> list[str]:
    """The known mistakes a checker module names with the grade's words: ``ERRORES_CONOCIDOS``
    (recognised by their table on the visible case) and ``ERRORES_NOMBRADOS`` (by its own test)."""
    import importlib

    modulo = importlib.import_module(f"pruebas_{funcion}")
    return [e for e, _ in getattr(modulo, "ERRORES_CONOCIDOS", ())] + list(getattr(modulo, "ERRORES_NOMBRADOS", ()))


def _reconocibles() -> list:
    """The battery files that make a mistake some checker module names (``_nombrados``)."""
    salida = []
    for funcion, archivo in ARCHIVOS:
        if {e.partition(":")[0] for e in _nombrados(funcion)} & set(archivo.errores):
            salida.append((funcion, archivo))
    return salida


RECONOCIBLES = _reconocibles()


@pytest.mark.parametrize("funcion,archivo", RECONOCIBLES, ids=[f"{f}/{a.nombre}" for f, a in RECONOCIBLES])
def test_un_error_que_la_prueba_visible_reconoce_se_nombra_como_en_la_nota(funcion, archivo):
    """A known mistake the checker module names (``_nombrados``) is named as the grade names it.

    The wording comes from the exercise's catalogue through ``diagnosticos.json``
    (``make release``): when the hidden tests name one of those mistakes and a
    visible cell fails, the first failing cell after the contract carries the same explanation
    when the grade names that mistake and it is the battery file's main one (first in its header).
    """
    from pruebas_visibles import diagnostico

    textos = {e: diagnostico(funcion, e, str(LECCIONES[funcion].carpeta)) for e in _nombrados(funcion)}
    assert all(textos.values()), f"sin explicación en diagnosticos.json: {[e for e, t in textos.items() if not t]}"
    veredictos = bateria.corregir(funcion, bateria.cargar(archivo, funcion))
    nota = _plano(" ".join(v.texto() for v in veredictos.values()))
    # the file's main mistake (the first of its header), when the grade words it as the checker would
    nombrados = [t for e, t in textos.items() if e.partition(":")[0] == archivo.errores[0] and _plano(t) in nota]
    fallan = ejecutar_visibles(funcion, archivo.codigo)
    celda = next((g for g in pruebas_visibles(funcion) if g in fallan and not g.endswith("_contrato")), None)
    if nombrados and celda:
        assert any(_plano(t) in _plano(fallan[celda][1]) for t in nombrados), (nombrados, celda, fallan[celda][1])


def test_las_pruebas_visibles_nombran_el_seno_cambiado_y_el_2_que_falta():
    """The two honest mistakes of the student's report (issue 22): named, not a list of generic causes."""
    for nombre, dice in (("e02_sin_cos_intercambiados", "intercambias seno y coseno"),
                         ("e29_exponente_i", "falta el 2 del exponente")):
        archivo = next(a for f, a in ARCHIVOS if f == "positional_encoding" and a.nombre == nombre)
        fallan = ejecutar_visibles("positional_encoding", archivo.codigo)
        texto = _plano(fallan["positional_encoding_valores"][1])
        assert dice in texto and "causas probables" not in texto, texto


# multi_head that writes into its arguments before using them: the sixth student's report (B3-1) and a
# centring in place
EN_SU_SITIO = {
    "divide_X_y_multiplica_Wq": ("    X /= np.sqrt(d_k) ** 0.5\n    Wq *= np.sqrt(d_k) ** 0.5\n", "`X` y `Wq`"),
    "centra_X": ("    X -= X.mean(axis=0)\n", "`X`"),
}
MULTI_HEAD_EN_SU_SITIO = """import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
{escribe}    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    salidas, mapas = [], []
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, c] @ K[:, c].T / np.sqrt(d_k)
        pesos = np.exp(E - E.max(-1)[:, None])
        mapas.append(pesos / pesos.sum(-1)[:, None])
        salidas.append(mapas[-1] @ V[:, c])
    return np.hstack(salidas) @ Wo, np.stack(mapas)
"""


@pytest.mark.skipif("multi_head" not in LECCIONES, reason="sin la lección de multi_head")
@pytest.mark.parametrize("caso", sorted(EN_SU_SITIO))
def test_escribir_en_los_argumentos_es_la_causa_que_nombra_la_primera_celda_que_falla(caso):
    """A function that changes X in place before using it (issue 22, the sixth student's report B3-1): the
    maps are wrong because of it, and the first failing cell (the maps', before the cell that checks the
    arguments) names that cause first, not the generic causes of wrong maps; the output's cell too."""
    escribe, nombres = EN_SU_SITIO[caso]
    fallan = ejecutar_visibles("multi_head", MULTI_HEAD_EN_SU_SITIO.format(escribe=escribe))
    orden = [g for g in pruebas_visibles("multi_head") if g in fallan]
    assert orden[:2] == ["multi_head_mapas", "multi_head_salida"] and "multi_head_no_modifica" in orden, orden
    for gid in orden[:2]:
        cabeza = _plano(" ".join(fallan[gid][1].splitlines()[:4]))
        assert f"causa probable: tu función cambia {_plano(nombres)} en su sitio" in cabeza, (gid, fallan[gid][1])
    # without the write, the same function is correct: every cell passes
    assert not ejecutar_visibles("multi_head", MULTI_HEAD_EN_SU_SITIO.format(escribe=""))
    # a write after the work is done costs only the cell that checks the arguments, and names no such cause
    despues = MULTI_HEAD_EN_SU_SITIO.format(escribe="").replace("    return np.hstack", "    X *= 2\n    return np.hstack")
    assert list(ejecutar_visibles("multi_head", despues)) == ["multi_head_no_modifica"]


def test_las_pruebas_visibles_de_multi_head_sin_softmax_y_reshape():
    """Raw scores are told «falta la softmax», not a column-wise softmax (issue 19, ninth attack); the reshape
    without transpose and the forgotten softmax fail only the maps and the output, never «Sin trabajo hecho»
    (issue 22, B2-2); maps right next to a zero output are told what is missing."""
    archivos = {a.nombre: a for f, a in ARCHIVOS if f == "multi_head"}
    crudo = ejecutar_visibles("multi_head", archivos["e90_puntuaciones_crudas_salida_cero"].codigo)
    mapas = _plano(crudo["multi_head_mapas"][1])
    assert "falta la softmax" in mapas and "por columnas" not in mapas, mapas
    for nombre in ("e06_reshape_sin_transponer", "e93_reshape_sin_transponer_junta_bien", "e89_sin_softmax"):
        fallan = ejecutar_visibles("multi_head", archivos[nombre].codigo)
        assert sorted(fallan) == ["multi_head_mapas", "multi_head_salida"], (nombre, fallan)
    a_medias = ejecutar_visibles("multi_head", archivos["e92_mapas_bien_salida_cero"].codigo)
    assert "todo ceros" in a_medias["multi_head_salida"][1]
    assert "te falta calcular la salida" in _plano(a_medias["multi_head_no_modifica"][1])


def _plantilla(funcion: str) -> str:
    """The exercise cell as the student receives it (the release's stub: docstring and raise)."""
    cuaderno = RAIZ / "release" / LECCIONES[funcion].carpeta.name / LECCIONES[funcion].cuaderno.name
    nb = nbformat.read(cuaderno, as_version=4)
    return next(c.source for c in nb.cells
                if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == funcion)


@pytest.mark.parametrize("funcion", sorted(LECCIONES))
def test_la_funcion_sin_escribir_falla_con_una_linea_en_cada_celda(funcion):
    """The untouched exercise (fifth student's report, B9): every visible cell the grade marks down fails
    with one Spanish line that says the function is not written yet (not «lanzó NotImplementedError» and
    the traceback, four times); with code above the template's raise left in place, one line says to
    delete it. Validate fails exactly the cells the grade gives no points."""
    plantilla = _plantilla(funcion)
    assert "raise NotImplementedError()" in plantilla
    veredictos = bateria.corregir(funcion, _definir(funcion, plantilla))
    pierde = {g for g, v in veredictos.items() if v.puntos < v.maximo}
    fallan = ejecutar_visibles(funcion, plantilla)
    assert set(fallan) == pierde & set(pruebas_visibles(funcion)), (sorted(fallan), sorted(pierde))
    for gid, (asercion, texto) in fallan.items():
        assert asercion and texto == f"✘ Aún no has escrito `{funcion}`: cambia su raise por tu código.", (gid, texto)
        assert len(texto) <= ANCHO

    a_medias = plantilla.replace("    raise NotImplementedError()", "    x = 1\n    raise NotImplementedError()")
    for gid, (_, texto) in ejecutar_visibles(funcion, a_medias).items():
        assert texto == f"✘ `{funcion}` aún llega al raise NotImplementedError(): bórralo.", (gid, texto)

    # an exception of the student's own (here, with a message) keeps its «lanzó»
    propia = plantilla.replace("raise NotImplementedError()", "raise NotImplementedError('me falta la máscara')")
    for gid, (_, texto) in ejecutar_visibles(funcion, propia).items():
        assert texto.startswith(f"✘ `{funcion}` lanzó NotImplementedError: me falta la máscara"), (gid, texto)


def _definir(funcion: str, codigo: str):
    espacio: dict = {}
    exec(compile(codigo, funcion, "exec"), espacio)
    return espacio[funcion]


# The other three mistakes of the fifth student's report (B8), each written the ways a student writes it.
_PE = """
import math
import numpy as np

def positional_encoding(T, d_model):
    PE = np.zeros((T, d_model))
{cuerpo}
    return PE
"""
VARIANTES_DEL_INFORME = {
    "el índice de pareja i empieza en 1": (
        "    for pos in range(T):\n"
        "        for i in range(1, d_model // 2 + 1):\n"
        "            PE[pos, 2 * (i - 1)] = math.sin(pos / 10000 ** (2 * i / d_model))\n"
        "            PE[pos, 2 * (i - 1) + 1] = math.cos(pos / 10000 ** (2 * i / d_model))",
        "    i = np.arange(1, d_model // 2 + 1)\n"
        "    angulo = np.arange(T)[:, None] / np.power(10000.0, 2 * i / d_model)\n"
        "    PE[:, 0::2], PE[:, 1::2] = np.sin(angulo), np.cos(angulo)"),
    "multiplicas pos por 10000^(2i/d_model)": (
        "    angulo = np.arange(T)[:, None] / 10000 ** (-2 * np.arange(d_model // 2) / d_model)\n"
        "    PE[:, 0::2], PE[:, 1::2] = np.sin(angulo), np.cos(angulo)",
        "    omega = np.exp(np.arange(0, d_model, 2) * math.log(10000.0) / d_model)\n"
        "    PE[:, 0::2] = np.sin(np.arange(T)[:, None] * omega)\n"
        "    PE[:, 1::2] = np.cos(np.arange(T)[:, None] * omega)"),
    "como si estuviera en grados": (
        "    angulo = np.deg2rad(np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model))\n"
        "    PE[:, 0::2], PE[:, 1::2] = np.sin(angulo), np.cos(angulo)",
        "    for pos in range(T):\n"
        "        for i in range(d_model // 2):\n"
        "            a = pos / 10000 ** (2 * i / d_model) * math.pi / 180\n"
        "            PE[pos, 2 * i], PE[pos, 2 * i + 1] = math.sin(a), math.cos(a)"),
}


@pytest.mark.parametrize("dice", sorted(VARIANTES_DEL_INFORME))
def test_las_pruebas_visibles_nombran_la_pareja_desde_1_el_signo_y_los_grados(dice):
    """Pairs from 1, multiplying (the exponent's sign) and degrees (fifth student's report, B8): the values
    cell names each, with the grade's words, in its first lines and without the list of generic causes;
    the grade names the same mistake for the same code."""
    for cuerpo in VARIANTES_DEL_INFORME[dice]:
        codigo = _PE.format(cuerpo=cuerpo)
        fallan = ejecutar_visibles("positional_encoding", codigo)
        texto = fallan["positional_encoding_valores"][1]
        assert dice in _plano(" ".join(texto.splitlines()[:6])), texto
        assert "causas probables" not in _plano(texto), texto
        assert "positional_encoding_contrato" not in fallan, fallan
        veredictos = bateria.corregir("positional_encoding", _definir("positional_encoding", codigo))
        assert dice in _plano(veredictos["positional_encoding_valores"].texto()), cuerpo


def test_diagnosticos_json_tiene_justo_los_errores_que_nombran_las_pruebas_visibles():
    """Each named mistake has its explanation in the assignment's diagnosticos.json, and nothing more of the
    trusted catalogue leaves it (make release reads the ids from the checker's source)."""
    import json

    from scripts.autores import publicar_comprobaciones

    for funcion, leccion in LECCIONES.items():
        nombrados = publicar_comprobaciones.nombrados_por_el_comprobador(leccion.carpeta / f"pruebas_{funcion}.py")
        assert nombrados == _nombrados(funcion), funcion
        ruta = leccion.carpeta / "diagnosticos.json"
        publicados = json.loads(ruta.read_text(encoding="utf-8")).get(funcion, {}) if ruta.exists() else {}
        assert sorted(publicados) == sorted(nombrados), (funcion, sorted(publicados), nombrados)


def _lo_que_imprimen(funcion: str, codigo: str) -> dict[str, str]:
    """{grade_id: what each visible test cell prints} (its ✔ lines included) for ``codigo``."""
    espacio: dict = {"np": np}
    with _en_silencio():
        exec(compile(codigo, funcion, "exec"), espacio)
    impreso = {}
    for gid, fuente in pruebas_visibles(funcion).items():
        salida = io.StringIO()
        with contextlib.redirect_stdout(salida), contextlib.redirect_stderr(io.StringIO()), np.errstate(all="ignore"):
            try:
                exec(compile(fuente, gid, "exec"), dict(espacio))
            except Exception as exc:  # noqa: BLE001 - what the student would see
                print(lo_que_se_ve(exc))
        impreso[gid] = salida.getvalue()
    return impreso


@pytest.mark.parametrize("funcion", sorted(LECCIONES))
def test_una_funcion_correcta_no_recibe_avisos_de_forma(funcion):
    """A right function passes every visible cell with no note about a form it does not have (a reviewer: every
    right positional_encoding was told «Tu tabla llega traspuesta»), and a batch axis is named where it is."""
    correctos = [a for a in EJERCICIOS[funcion].bateria() if a.espera == "completo"][:6]
    assert correctos
    for archivo in correctos:
        for gid, texto in _lo_que_imprimen(funcion, archivo.codigo).items():
            texto = " ".join(texto.split())
            assert "✘" not in texto, (archivo.nombre, gid, texto)
            for aviso in ("traspuesta", "eje de tamaño 1", "ejes en el orden", "llegan con forma"):
                assert aviso not in texto, (archivo.nombre, gid, texto)
    if "eje_de_lote" not in {e.id for e in EJERCICIOS[funcion].errores}:
        return                                       # a lesson made with `make leccion`: no batch-axis mistake
    con_lote = [a for a in EJERCICIOS[funcion].bateria() if "eje_de_lote" in a.errores]
    assert con_lote
    for archivo in con_lote:
        impreso = _lo_que_imprimen(funcion, archivo.codigo)
        impreso = {g: " ".join(t.split()) for g, t in impreso.items()}    # the lines are wrapped at 80
        assert "¿un eje de lote" in impreso[f"{funcion}_contrato"], impreso
        assert sum("(un eje de lote): aquí se lee sin él" in t for t in impreso.values()) >= 1, impreso


# A correct function that uses a module of the student's folder: Validate there would pass, but grading keeps only
# the files the assignment ships, so the visible check says so instead (found by a fresh attacker, issue 19).
_CON_MODULO_PROPIO = {
    "con nombre de módulo de pruebas": "from pruebas_mias import doble\n\ndef f(x):\n    return doble(x)\n",
    "import": "import mis_utilidades\n\ndef f(x):\n    return mis_utilidades.doble(x)\n",
    "from import": "from mis_utilidades import doble\n\ndef f(x):\n    return doble(x)\n",
    "alias dentro de otra función": "import mis_utilidades as mu\n\ndef ayuda(x):\n    return [mu.doble(v) for v in x]\n"
                                     "\ndef f(x):\n    return ayuda(x)\n",
    "paquete": "from paquete_mio.sub import doble\n\ndef f(x):\n    return doble(x)\n",
}
_SIN_MODULO_PROPIO = {
    "numpy": "import numpy as np\n\ndef f(x):\n    return np.asarray(x) * 2\n",
    "módulo de la tarea": "from pruebas_f import doble\nimport explorable_mentira\n\ndef f(x):\n"
                          "    return explorable_mentira.doble(doble(x))\n",
    "importado pero no usado": "import mis_utilidades\n\ndef f(x):\n    return x\n",
}


@pytest.fixture
def carpeta_con_modulos(tmp_path, monkeypatch):
    (tmp_path / "mis_utilidades.py").write_text("def doble(x):\n    return 2 * x\n")
    for nombre in ("pruebas_f", "pruebas_mias", "explorable_mentira"):
        (tmp_path / f"{nombre}.py").write_text("def doble(x):\n    return 2 * x\n")
    (tmp_path / "paquete_mio" / "sub").mkdir(parents=True)
    (tmp_path / "paquete_mio" / "__init__.py").write_text("")
    (tmp_path / "paquete_mio" / "sub" / "__init__.py").write_text("def doble(x):\n    return 2 * x\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for nombre in [m for m in sys.modules if m.split(".")[0] in ("mis_utilidades", "pruebas_f", "pruebas_mias",
                                                                      "explorable_mentira", "paquete_mio")]:
        del sys.modules[nombre]


@pytest.mark.parametrize("como", sorted(_CON_MODULO_PROPIO))
def test_una_funcion_que_usa_un_modulo_de_tu_carpeta_no_pasa_la_prueba_visible(carpeta_con_modulos, como):
    import pruebas_visibles as pv
    espacio: dict = {"__name__": "__main__"}
    exec(compile(_CON_MODULO_PROPIO[como], "celda", "exec"), espacio)
    esperado = {"paquete": "«paquete_mio/sub/__init__.py»",
                "con nombre de módulo de pruebas": "«pruebas_mias.py»"}.get(como, "«mis_utilidades.py»")
    with pytest.raises(pv.PruebaVisibleFallida) as fallo:
        pv.funcion_del_cuaderno(espacio, "f")
    assert f"`f` usa {esperado}, de tu carpeta. al corregir sólo cuenta el cuaderno" in _plano(lo_que_se_ve(fallo.value))


@pytest.mark.parametrize("como", sorted(_SIN_MODULO_PROPIO))
def test_una_funcion_sin_modulos_de_tu_carpeta_pasa(carpeta_con_modulos, como):
    import pruebas_visibles as pv
    espacio: dict = {"__name__": "__main__"}
    exec(compile(_SIN_MODULO_PROPIO[como], "celda", "exec"), espacio)
    assert pv.funcion_del_cuaderno(espacio, "f") is espacio["f"]


def test_los_modulos_que_traen_las_lecciones_no_se_toman_por_modulos_del_alumno():
    """Every .py a lesson ships is one the visible check accepts (a new kind of module needs adding there)."""
    import pruebas_visibles as pv
    for leccion in descubrimiento.lecciones(RAIZ):
        for ruta in sorted(leccion.carpeta.glob("*.py")):
            propios = pv.MODULOS_DE_LA_TAREA | {f"pruebas_{f}.py" for f in leccion.funciones}
            assert ruta.name in propios or pv.EXPLORABLE.match(ruta.name), ruta
