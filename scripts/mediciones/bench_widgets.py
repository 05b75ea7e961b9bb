"""Benchmark (not a test): how fast the explorables answer, first visit and cached (issue 13).

The lessons and their explorables are found in ``source/`` (one
``explorable_*.py`` per lesson).  Every interaction kind of an explorable
with a scripted walk here (``RECORRIDOS``) is measured twice over the same
walk, once in the browser and once in Python:

- **navegador**: a real JupyterLab (the project's environment, the student's
  release in a temporary folder) and Debian's Chromium through Playwright.
  Time from the user's event (pointerdown on a button, keydown on a slider's
  handle or on Enter in a box, input on the row selector) to the moment the new
  figure is in the ``<img>`` and decoded (ipywidgets Image swaps its ``src``; a
  MutationObserver catches it and awaits ``img.decode()``).
- **núcleo**: the same update called directly in Python (``Button.click()``,
  setting a control's ``value``), which is what the kernel does per event:
  compute, draw with matplotlib, encode the PNG, update the labels and the
  static fallback (serialised as the kernel would send it).

Each kind is measured on **first visits** (states the explorable has never
drawn: the walk starts from a freshly created explorable and only moves to new
states) and **cached** (alternating between two states already drawn).  A
slider dragged with the mouse is timed from the pointer move that changes its
value (its box and the picture follow the drag: ``continuous_update``).

**First picture** (``primera imagen``): running the explorable's cell, from the
run command to its first picture decoded in the page; in the kernel, the cell's
own work (``crear_explorable``).  Three ways: again, in the kernel where the
lesson's cells ran (``celda``: what a kernel keeps from an earlier run counts);
in a new kernel where the cells above it ran first, as a student reading the
lesson from the top gets there (``celda, tras las anteriores``: after a restart,
*Run all above*, the kernel idle, then the cell; in Python, a new process that
imports the module, runs what the kernel does once idle, then creates it); and
in a new kernel, the cell alone (``celda, núcleo nuevo``: after a restart; in
Python, a new process that imports and creates it).
Reported: median and p95 per row.  Targets (issues 13 and 22): in the browser,
median ≤ 150 ms per interaction and ≤ 1 s for the first picture; in the kernel,
p95 ≤ 50 ms per interaction, on a machine with no other load: the
script prints the load average before and after, so a run on a busy machine
shows it.  An explorable without a scripted walk (a new lesson) is measured
in the kernel only, with a generic walk: each of its controls takes new
values in turn, then alternates between two of them.

Usage: ``.venv/bin/python scripts/mediciones/bench_widgets.py [--repeticiones 20] [--release DIR] [--solo-nucleo]``
(``--release`` measures another version, e.g. ``git worktree``'s copy of an older release/).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

RAIZ = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(RAIZ / "tests"))
sys.path.insert(0, str(RAIZ))

from navegador import laboratorio as lab  # noqa: E402

OBJETIVO_NAVEGADOR_MS = 150
OBJETIVO_NUCLEO_MS = 50
OBJETIVO_PRIMERA_MS = 1000          # the first picture after running the explorable's cell


def _tareas() -> dict[str, tuple[str, str]]:
    """assignment -> (notebook file, explorable module), for every lesson of source/."""
    from grader_tests.juez.descubrimiento import lecciones
    return {l.tarea: (l.cuaderno.name, e.stem) for l in lecciones(RAIZ) for e in l.explorables[:1]}


TAREAS = _tareas()
SELECTOR_IMAGEN = {
    "explorable_cabezas": ".explorable-cabezas .explorable-cabezas-mapa",
    "explorable_escalera": ".explorable-escalera .explorable-escalera-imagen",
}

VIGILAR = """(sel) => {
    const img = document.querySelector(sel);
    window.__bench = {t0: null, t1: null, selector: sel};
    if (!window.__benchOyentes) {
        const inicio = () => { if (window.__bench.t0 === null) window.__bench.t0 = performance.now(); };
        for (const ev of ['pointerdown', 'keydown', 'input']) document.addEventListener(ev, inicio, true);
        document.addEventListener('pointermove', (e) => { if (e.buttons & 1) inicio(); }, true);
        window.__benchOyentes = true;
    }
    new MutationObserver(async () => {
        const el = document.querySelector(window.__bench.selector);
        try { await el.decode(); } catch (e) {}
        if (window.__bench.t0 !== null && window.__bench.t1 === null) window.__bench.t1 = performance.now();
    }).observe(img, {attributes: true, attributeFilter: ['src']});
}"""


@dataclass
class Paso:
    """One step of a walk: the same action for the browser and for the Python replica."""
    tipo: str                          # interaction kind ("" for an untimed step)
    visita: str                        # "primera" or "repetida"
    navegador: Callable | None = None  # (pagina, caja) -> None: the timed event
    preparar: Callable | None = None   # (pagina, caja) -> None: before the clock starts
    nucleo: Callable | None = None     # (caja) -> None
    reinicio: bool = False             # a fresh explorable (re-run its cell)
    sin_imagen: bool = False           # an untimed step that draws nothing (releasing the mouse)


class Recorrido:
    """Builds a walk and labels each step by whether its state was already drawn."""

    def __init__(self):
        self.pasos: list[Paso] = []
        self.vistos: set = set()

    def reiniciar(self, estado) -> None:
        self.pasos.append(Paso("", "", reinicio=True))
        self.vistos = {estado}

    def paso(self, tipo, estado, navegador, nucleo, preparar=None, medir=True) -> None:
        visita = "repetida" if estado in self.vistos else "primera"
        self.vistos.add(estado)
        self.pasos.append(Paso(tipo if medir else "", visita, navegador, preparar, nucleo))


# ----------------------------------------------------------------------------- lesson 1

def recorrido_cabezas(n: int) -> list[Paso]:
    mapas = ["Cabeza 1", "Cabeza 2", "Cabeza 3", "Cabeza 4", "Suma"]
    filas = ["duerme", "persiguen", "ratón", "gatos", "el", "pequeño", "que", "los"]
    r = Recorrido()

    def boton(nombre):
        return (lambda p, c: c.locator(".explorable-cabezas-boton", has_text=nombre).click(),
                lambda caja: caja.botones[nombre].click())

    def fila(nombre):
        return (lambda p, c: c.locator(".explorable-cabezas-fila select").select_option(nombre),
                lambda caja: setattr(caja.selector_fila, "value", nombre))

    # Buttons, first visits: every map of one row, then the next row (untimed), and so on.
    r.reiniciar(("Suma", "duerme"))
    mapa, fila_actual, hechos = "Suma", "duerme", 0
    for f in filas:
        if hechos == n:
            break
        if f != fila_actual:
            r.paso("", (mapa, f), *fila(f), medir=False)
            fila_actual = f
        for m in mapas:
            if (m, f) not in r.vistos and hechos < n:
                r.paso("botón (clic)", (m, f), *boton(m))
                mapa, hechos = m, hechos + 1
    for _ in range(n):                          # cached: two maps already drawn on this row
        m = next(x for x in mapas if x != mapa and (x, fila_actual) in r.vistos)
        r.paso("botón (clic)", (m, fila_actual), *boton(m))
        mapa = m
    # Rows, first visits: every row of one map, then the next map (untimed).
    r.reiniciar(("Suma", "duerme"))
    mapa, fila_actual, hechos = "Suma", "duerme", 0
    for m in ["Suma"] + mapas[:4]:
        if hechos == n:
            break
        if m != mapa:
            r.paso("", (m, fila_actual), *boton(m), medir=False)
            mapa = m
        for f in filas:
            if (m, f) not in r.vistos and hechos < n:
                r.paso("fila (selector)", (m, f), *fila(f))
                fila_actual, hechos = f, hechos + 1
    for _ in range(n):
        f = next(x for x in filas if x != fila_actual and (mapa, x) in r.vistos)
        r.paso("fila (selector)", (mapa, f), *fila(f))
        fila_actual = f
    return r.pasos


# ----------------------------------------------------------------------------- lesson 2

def recorrido_escalera(n: int, con_casillas: bool = True) -> list[Paso]:
    r = Recorrido()
    inicial = {"T": 64, "d": 32, "i": 0, "disp": "intercalada"}
    estado = dict(inicial)
    clave = lambda: (estado["T"], estado["d"], estado["i"], estado["disp"])  # noqa: E731
    controles = {"d": ("d-model", "control_d_model", 2), "T": ("t", "control_T", 1),
                 "i": ("pareja", "control_pareja", 1)}

    def tecla(que, sentido, tipo, medir=True):
        clase, atributo, paso = controles[que]
        estado[que] += sentido * paso
        boton = "ArrowRight" if sentido > 0 else "ArrowLeft"
        r.paso(tipo, clave(),
               lambda p, c: p.keyboard.press(boton),
               lambda caja: setattr(getattr(caja, atributo), "value",
                                    getattr(caja, atributo).value + sentido * paso),
               preparar=lambda p, c: c.locator(f".explorable-escalera-{clase} .noUi-handle").focus(),
               medir=medir)

    def teclear(que, valor, tipo, medir=True):
        clase, atributo, _ = controles[que]
        estado[que] = valor
        casilla = atributo.replace("control_", "texto_")
        r.paso(tipo, clave(),
               lambda p, c: c.locator(f".explorable-escalera-{clase}-texto input").press("Enter"),
               lambda caja: setattr(getattr(caja, casilla), "value", str(valor)),
               preparar=lambda p, c: c.locator(f".explorable-escalera-{clase}-texto input").fill(str(valor)),
               medir=medir)

    def disposicion(valor, medir=True):
        estado["disp"] = valor
        r.paso("disposición (clic)", clave(),
               lambda p, c: c.locator(".explorable-escalera-disposicion button",
                                      has_text="concatenada" if valor == "concatenada" else "intercalada").click(),
               lambda caja: setattr(caja.control_disposicion, "value", valor), medir=medir)

    def reiniciar():
        estado.update(inicial)
        r.reiniciar(clave())

    for que, tipo in (("d", "d_model (tecla)"), ("T", "T (tecla)"), ("i", "pareja i (tecla)")):
        reiniciar()
        if que == "i":
            for _ in range(16):                      # d_model 64: 32 pairs, room for n new ones
                tecla("d", +1, "", medir=False)
        for _ in range(n):
            tecla(que, +1, tipo)
        for k in range(n):
            tecla(que, -1 if k % 2 == 0 else +1, tipo)
    reiniciar()
    for k in range(n):                               # every click lands on a heatmap never drawn
        tecla("T", +1, "", medir=False)
        disposicion("concatenada" if estado["disp"] == "intercalada" else "intercalada")
    for k in range(n):
        disposicion("concatenada" if estado["disp"] == "intercalada" else "intercalada")
    if con_casillas:
        reiniciar()
        for k in range(n):
            teclear("d", 34 + 2 * k, "d_model (casilla)")
        for k in range(n):
            teclear("d", 32 + 2 * n - (2 if k % 2 == 0 else 0), "d_model (casilla)")
        reiniciar()
        for k in range(n):
            teclear("T", 65 + k, "T (casilla)")
        for k in range(n):
            teclear("T", 64 + n - (1 if k % 2 == 0 else 0), "T (casilla)")
        reiniciar()
        teclear("d", 128, "", medir=False)             # 64 pairs: room for n new ones
        for k in range(n):
            teclear("i", 1 + k, "pareja i (casilla)")
        for k in range(n):
            teclear("i", n - (1 if k % 2 == 0 else 0), "pareja i (casilla)")

    # T dragged with the mouse: the button stays down; each step moves the handle by two values.
    reiniciar()
    arrastre = {"x": None, "y": None, "px": None}

    def agarrar(p, c):
        asa = c.locator(".explorable-escalera-t .noUi-handle")
        borde = asa.bounding_box()
        pista = c.locator(".explorable-escalera-t .noUi-target").bounding_box()
        arrastre.update(x=borde["x"] + borde["width"] / 2, y=borde["y"] + borde["height"] / 2,
                        px=pista["width"] / (200 - 1))
        p.mouse.move(arrastre["x"], arrastre["y"])
        p.mouse.down()

    def mover(valores):
        def accion(p, c):
            arrastre["x"] += valores * arrastre["px"]
            p.mouse.move(arrastre["x"], arrastre["y"])
        return accion

    def arrastrar(valores, preparar=None):
        estado["T"] += valores
        r.paso("T (arrastre)", clave(), mover(valores),
               lambda caja, v=estado["T"]: setattr(caja.control_T, "value", v), preparar=preparar)

    for k in range(n):
        arrastrar(+2, preparar=agarrar if k == 0 else None)
    for k in range(n):
        arrastrar(-2 if k % 2 == 0 else +2)
    r.pasos.append(Paso("", "", lambda p, c: p.mouse.up(), nucleo=lambda caja: None, sin_imagen=True))
    return r.pasos


# ----------------------------------------------------------------------------- any explorable

def _controles(caja) -> list:
    """The explorable's controls (widgets whose value a student changes), depth first."""
    import ipywidgets as widgets
    encontrados, pendientes = [], [caja]
    while pendientes:
        w = pendientes.pop(0)
        if isinstance(w, widgets.Box):
            pendientes = list(w.children) + pendientes
        elif isinstance(w, (widgets.widgets.widget_selection._Selection, widgets.Checkbox,
                            widgets.widgets.widget_int._BoundedInt)):
            encontrados.append(w)
    return encontrados


def _valores(control) -> list:
    import ipywidgets as widgets
    if isinstance(control, widgets.Checkbox):
        return [False, True]
    if isinstance(control, widgets.widgets.widget_selection._Selection):
        return list(control._options_values)
    return list(range(control.min, control.max + 1, max(1, control.step)))


def recorrido_generico(n: int, modulo) -> list[Paso]:
    """Kernel only: each control of a fresh explorable takes up to n new values, then alternates."""
    caja = modulo.crear_explorable()
    r = Recorrido()
    for indice, control in enumerate(_controles(caja)):
        tipo = f"{control.description or type(control).__name__} (núcleo)"
        valores = [v for v in _valores(control) if v != control.value][:n]
        if not valores:
            continue
        r.reiniciar((indice, control.value))
        inicial = control.value

        def poner(valor, i=indice):
            return lambda c: setattr(_controles(c)[i], "value", valor)
        for v in valores:
            r.paso(tipo, (indice, v), None, poner(v))
        for k in range(n):
            v = inicial if k % 2 == 0 else valores[0]
            r.paso(tipo, (indice, v), None, poner(v))
    return r.pasos


RECORRIDOS = {
    "explorable_cabezas": lambda n, mod: recorrido_cabezas(n),
    "explorable_escalera": lambda n, mod: recorrido_escalera(n, con_casillas=hasattr(mod, "revisar_valor")),
}


# ----------------------------------------------------------------------------- running a walk

class _RespaldoSerializado:
    """Stands in for the kernel's display handle: serialises the fallback as a message would."""

    def update(self, datos, **kwargs):
        json.dumps({"data": datos, "metadata": kwargs.get("metadata")})


OLVIDAR = "_PINTORES"
"""A module-level cache of drawn pictures, per kernel (lesson 1's): emptied before each fresh explorable
of a walk, or its "first visits" would be states an earlier explorable of the same kernel drew."""


def _olvidar_lo_dibujado(modulo) -> None:
    cache = getattr(modulo, OLVIDAR, None)
    if cache is not None:
        cache.clear()


def en_nucleo(modulo, pasos: list[Paso]) -> list[tuple[str, str, float]]:
    medidas, caja = [], None
    for paso in pasos:
        if paso.reinicio:
            _olvidar_lo_dibujado(modulo)
            caja = modulo.crear_explorable()
            caja._respaldo = _RespaldoSerializado()
            continue
        inicio = time.perf_counter()
        paso.nucleo(caja)
        if paso.tipo:
            medidas.append((paso.tipo, paso.visita, (time.perf_counter() - inicio) * 1000))
    return medidas


def _reejecutar_explorable(pagina, selector: str, modulo: str) -> None:
    """Run the explorable's cell again (a fresh explorable, nothing drawn yet), wait for it."""
    pagina.evaluate("""async (codigo) => {
        const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
        await k.requestExecute({code: codigo, silent: true, store_history: false}).done;
    }""", f"import sys; getattr(sys.modules.get({modulo!r}), {OLVIDAR!r}, {{}}).clear()")
    pagina.evaluate("""() => {
        const p = window.jupyterapp.shell.currentWidget;
        const i = p.content.widgets.findIndex(c => c.model.type === 'code' &&
            c.model.sharedModel.getSource().includes('crear_explorable('));
        p.content.activeCellIndex = i;
        return window.jupyterapp.commands.execute('notebook:run-cell');
    }""")
    pagina.wait_for_timeout(300)
    lab.esperar_nucleo_libre(pagina)
    pagina.wait_for_selector(selector)
    pagina.wait_for_timeout(300)


def en_navegador(pagina, modulo: str, pasos: list[Paso]) -> list[tuple[str, str, float]]:
    selector = SELECTOR_IMAGEN[modulo]
    clase_caja = selector.split()[0]
    medidas = []
    for paso in pasos:
        caja = pagina.locator(clase_caja).first
        if paso.reinicio:
            _reejecutar_explorable(pagina, selector, modulo)
            caja = pagina.locator(clase_caja).first
            caja.scroll_into_view_if_needed()
            pagina.evaluate(VIGILAR, selector)
            continue
        if paso.preparar:
            paso.preparar(pagina, caja)
        pagina.evaluate("() => { window.__bench.t0 = null; window.__bench.t1 = null; }")
        paso.navegador(pagina, caja)
        if paso.sin_imagen:
            continue
        pagina.wait_for_function("() => window.__bench.t1 !== null", timeout=30_000, polling=10)
        ms = pagina.evaluate("() => window.__bench.t1 - window.__bench.t0")
        lab.esperar_nucleo_libre(pagina)      # the label/panel/fallback updates of the same event
        pagina.wait_for_timeout(100)
        if paso.tipo:
            medidas.append((paso.tipo, paso.visita, ms))
    return medidas


# ----------------------------------------------------------------------------- first picture

PRIMERA = "primera imagen (celda)"
PRIMERA_LEIDA = "primera imagen (celda, tras las anteriores)"
PRIMERA_NUEVO = "primera imagen (celda, núcleo nuevo)"
PRIMERAS = (PRIMERA, PRIMERA_LEIDA, PRIMERA_NUEVO)

MEDIR_CELDA = """async (sel) => {
    const p = window.jupyterapp.shell.currentWidget;
    const i = p.content.widgets.findIndex(c => c.model.type === 'code' &&
        c.model.sharedModel.getSource().includes('crear_explorable('));
    const celda = p.content.widgets[i];
    const viejas = new Set(celda.node.querySelectorAll(sel));
    p.content.activeCellIndex = i;
    const t0 = performance.now();
    window.jupyterapp.commands.execute('notebook:run-cell');
    return await new Promise((resolver, fallar) => {
        const limite = t0 + 60000;
        const mirar = async () => {
            const img = Array.from(celda.node.querySelectorAll(sel)).find(e => !viejas.has(e) && e.src);
            if (img) {
                try { await img.decode(); } catch (e) {}
                if (img.naturalWidth > 0) return resolver(performance.now() - t0);
            }
            if (performance.now() > limite) return fallar('sin imagen en 60 s');
            requestAnimationFrame(mirar);
        };
        mirar();
    });
}"""


EJECUTAR_LAS_ANTERIORES = """() => {
    const p = window.jupyterapp.shell.currentWidget;
    p.content.activeCellIndex = p.content.widgets.findIndex(c => c.model.type === 'code' &&
        c.model.sharedModel.getSource().includes('crear_explorable('));
    return window.jupyterapp.commands.execute('notebook:run-all-above');
}"""


def primera_imagen_en_navegador(pagina, modulo: str, n: int, n_nuevo: int) -> dict:
    """Run the explorable's cell n times; then, n_nuevo times each, right after a kernel restart
    and the cells above it, and right after a kernel restart alone."""
    selector = SELECTOR_IMAGEN[modulo]
    medidas = {(tipo, "primera"): [] for tipo in PRIMERAS}
    for clave, veces in (((PRIMERA, "primera"), n), ((PRIMERA_LEIDA, "primera"), n_nuevo),
                         ((PRIMERA_NUEVO, "primera"), n_nuevo)):
        for _ in range(veces):
            if clave[0] != PRIMERA:
                lab.reiniciar_nucleo(pagina)
            if clave[0] == PRIMERA_LEIDA:
                pagina.evaluate(EJECUTAR_LAS_ANTERIORES)
                pagina.wait_for_timeout(300)
                lab.esperar_nucleo_libre(pagina)
                pagina.wait_for_timeout(300)
            medidas[clave].append(pagina.evaluate(MEDIR_CELDA, selector))
            lab.esperar_nucleo_libre(pagina)
            pagina.wait_for_timeout(300)        # lesson 1 paints its other maps after the cell
    return medidas


_CELDA_EN_PROCESO_NUEVO = """
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, sys.argv[1])
import matplotlib
matplotlib.use("Agg")
import respaldo_explorable
ocioso = []                              # what the module asks the kernel to do once idle
respaldo_explorable.mas_tarde = lambda funcion, segundos, sin_nucleo=True: ocioso.append(funcion)
import {modulo} as explorable
if sys.argv[2] == "leida":               # the cells above ran, and the kernel was idle after them
    for funcion in ocioso:
        funcion()
    t0 = time.perf_counter()
explorable._mas_tarde = lambda funcion, segundos, sin_nucleo=True: None   # what a kernel does after the cell
caja = explorable.crear_explorable()
caja.datos_respaldo()
print((time.perf_counter() - t0) * 1000)
"""


def primera_imagen_en_nucleo(modulo, carpeta: Path, n: int, n_nuevo: int) -> dict:
    """The cell's own work: in a warm process (n times) and in new processes (n_nuevo times each:
    the module imported and the kernel idle before the cell, and the cell alone)."""
    import subprocess

    en_caliente = []
    despues = getattr(modulo, "_mas_tarde", None)
    if despues is not None:              # work a kernel does once the cell is done is not the cell's
        modulo._mas_tarde = lambda funcion, segundos, sin_nucleo=True: None
    try:
        for _ in range(n):
            inicio = time.perf_counter()
            caja = modulo.crear_explorable()
            caja.datos_respaldo()
            en_caliente.append((time.perf_counter() - inicio) * 1000)
    finally:
        if despues is not None:
            modulo._mas_tarde = despues
    codigo = _CELDA_EN_PROCESO_NUEVO.replace("{modulo}", modulo.__name__)
    nuevos = {PRIMERA_LEIDA: [], PRIMERA_NUEVO: []}
    for _ in range(n_nuevo):
        for tipo, modo in ((PRIMERA_LEIDA, "leida"), (PRIMERA_NUEVO, "sola")):
            salida = subprocess.run([sys.executable, "-c", codigo, str(carpeta), modo], capture_output=True,
                                    text=True, check=True, cwd=carpeta,
                                    env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
            nuevos[tipo].append(float(salida.stdout.strip().splitlines()[-1]))
    return {(PRIMERA, "primera"): en_caliente, **{(tipo, "primera"): v for tipo, v in nuevos.items()}}


# ----------------------------------------------------------------------------- report

def percentil(datos: list[float], p: float) -> float:
    """The p-th percentile (0-100), linear between order statistics."""
    ordenados = sorted(datos)
    posicion = (len(ordenados) - 1) * p / 100
    abajo = int(posicion)
    arriba = min(abajo + 1, len(ordenados) - 1)
    return ordenados[abajo] + (ordenados[arriba] - ordenados[abajo]) * (posicion - abajo)


def agrupar(medidas):
    grupos: dict = {}
    for tipo, visita, ms in medidas:
        grupos.setdefault((tipo, visita), []).append(ms)
    return grupos


def release(destino: Path) -> Path:
    if all((RAIZ / "release" / t / nb).exists() for t, (nb, _) in TAREAS.items()):
        return RAIZ / "release"
    from curso_temporal import copiar_curso, ejecutar
    curso = copiar_curso(destino / "curso")
    for tarea in TAREAS:
        ejecutar(curso, "nbgrader", "generate_assignment", tarea, "--force")
    return curso / "release"


def cargar(carpeta: Path, nombre: str):
    from conftest import cargar_modulo
    return cargar_modulo(carpeta / f"{nombre}.py", nombre)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeticiones", type=int, default=20,
                        help="interacciones por fila (primera visita y repetida); por defecto 20")
    parser.add_argument("--release", type=Path, default=None,
                        help="carpeta con las tareas publicadas que se miden (por defecto, release/); "
                             "sirve para medir una versión anterior")
    parser.add_argument("--solo-nucleo", action="store_true", help="sin navegador: sólo el núcleo")
    args = parser.parse_args(argv)
    n = args.repeticiones
    n_nuevo = max(1, min(n, 5))          # restarting a kernel takes seconds
    faltas = None if args.solo_nucleo else lab.faltas_del_navegador()
    if faltas:
        print(f"No se puede medir en el navegador: {faltas}. {lab.COMO_ACTIVARLAS}")
        return 1

    import matplotlib
    matplotlib.use("Agg")

    carga_antes = os.getloadavg()
    base = Path(tempfile.mkdtemp(prefix="bench-widgets-"))
    nucleo, navegador, recorridos = {}, {}, {}
    try:
        origen = args.release.resolve() if args.release else release(base)
        alumno = base / "alumno"
        for tarea in TAREAS:
            shutil.copytree(origen / tarea, alumno / tarea)
        for tarea, (_, modulo) in TAREAS.items():
            mod = cargar(alumno / tarea, modulo)
            recorridos[modulo] = RECORRIDOS.get(modulo, recorrido_generico)(n, mod)
            nucleo[modulo] = agrupar(en_nucleo(mod, recorridos[modulo]))
            nucleo[modulo].update(primera_imagen_en_nucleo(mod, alumno / tarea, n, n_nuevo))
        if args.solo_nucleo:
            navegador = {m: {clave: [] for clave in medidas} for m, medidas in nucleo.items()}
        else:
            navegador = medir_en_navegador(alumno, base, recorridos, n, n_nuevo)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    carga_despues = os.getloadavg()
    imprimir(n, origen, recorridos, nucleo, navegador, carga_antes, carga_despues)
    return 0


def medir_en_navegador(alumno: Path, base: Path, recorridos: dict, n: int, n_nuevo: int) -> dict:
    from playwright.sync_api import sync_playwright

    navegador = {}
    with lab.ServidorLab(alumno, registro=base / "servidor.log") as servidor, sync_playwright() as pw:
        chromium = lab.lanzar_chromium(pw)
        pagina = lab.nueva_pagina(chromium, 1300, 1500)
        for tarea, (cuaderno, modulo) in TAREAS.items():
            if modulo not in SELECTOR_IMAGEN:        # no scripted walk: kernel only
                navegador[modulo] = {clave: [] for clave in agrupar(
                    (p.tipo, p.visita, 0.0) for p in recorridos[modulo] if p.tipo)}
                continue
            lab.ejecutar_leccion(pagina, servidor, f"{tarea}/{cuaderno}")
            navegador[modulo] = agrupar(en_navegador(pagina, modulo, recorridos[modulo]))
            navegador[modulo].update(primera_imagen_en_navegador(pagina, modulo, n, n_nuevo))
        chromium.close()
    return navegador


def imprimir(n, origen, recorridos, nucleo, navegador, carga_antes, carga_despues) -> None:
    cabecera = ("explorable", "interacción", "visita", "n", "navegador mediana", "p95",
                "núcleo mediana", "p95")
    filas, avisos = [], []
    for modulo in recorridos:
        for (tipo, visita), del_nucleo in nucleo[modulo].items():
            tiempos = navegador[modulo].get((tipo, visita), [])
            nuc_med = statistics.median(del_nucleo)
            nav_med = statistics.median(tiempos) if tiempos else None
            primera = tipo in PRIMERAS
            objetivo_nav = OBJETIVO_PRIMERA_MS if primera else OBJETIVO_NAVEGADOR_MS
            objetivo_nuc = OBJETIVO_PRIMERA_MS if primera else OBJETIVO_NUCLEO_MS
            filas.append((modulo, tipo, visita, str(len(del_nucleo)),
                          "—" if nav_med is None else f"{nav_med:.0f} ms",
                          "—" if nav_med is None else f"{percentil(tiempos, 95):.0f} ms",
                          f"{nuc_med:.1f} ms", f"{percentil(del_nucleo, 95):.1f} ms"))
            avisos.append(("" if nav_med is None or nav_med <= objetivo_nav
                           else "  ← navegador por encima del objetivo")
                          + ("" if percentil(del_nucleo, 95) <= objetivo_nuc
                             else "  ← núcleo por encima del objetivo"))
    anchos = [max(len(str(x)) for x in col) for col in zip(cabecera, *filas)]
    print(f"Respuesta de los explorables de {origen} ({n} interacciones por fila; objetivos: mediana ≤ "
          f"{OBJETIVO_NAVEGADOR_MS} ms en el navegador y p95 ≤ {OBJETIVO_NUCLEO_MS} ms en el núcleo; "
          f"primera imagen ≤ {OBJETIVO_PRIMERA_MS} ms)")
    print(f"carga media de la máquina (1, 5, 15 min): antes {', '.join(f'{x:.2f}' for x in carga_antes)}; "
          f"después {', '.join(f'{x:.2f}' for x in carga_despues)}; {os.cpu_count()} núcleos")
    print("  ".join(h.ljust(w) for h, w in zip(cabecera, anchos)))
    print("  ".join("-" * w for w in anchos))
    for fila, aviso in zip(filas, avisos):
        print("  ".join(x.ljust(w) for x, w in zip(fila, anchos)) + aviso)


if __name__ == "__main__":
    sys.exit(main())
