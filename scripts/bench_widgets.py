"""Benchmark (not a test): how fast the two explorables answer (issue 7 §4).

Browser side: a real JupyterLab (the project's environment, the student's
release in a temporary folder) and Debian's Chromium through Playwright.  For
each interaction, the time from the user's event (pointerdown on a button,
keydown on a slider's handle, input on the row selector) to the moment the new
figure is in the ``<img>`` and decoded (ipywidgets Image swaps its ``src``; a
MutationObserver catches it and awaits ``img.decode()``).

Server side: the same update called directly in Python (``Button.click()``,
setting a control's ``value``), which is what the kernel does per event:
compute, draw with matplotlib, encode the PNG.

Targets: median ≤ 300 ms in the browser, ≤ 50 ms on the server.
Usage: ``.venv/bin/python scripts/bench_widgets.py [--repeticiones 10]``.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(RAIZ / "tests"))
sys.path.insert(0, str(RAIZ))

from navegador import laboratorio as lab  # noqa: E402

OBJETIVO_NAVEGADOR_MS = 300
OBJETIVO_SERVIDOR_MS = 50
TAREAS = {
    "01_atencion_multicabeza": ("atencion_multicabeza.ipynb", "explorable_cabezas"),
    "02_codificacion_posicional": ("codificacion_posicional.ipynb", "explorable_escalera"),
}

VIGILAR = """(sel) => {
    const img = document.querySelector(sel);
    window.__bench = {t0: null, t1: null, selector: sel};
    const inicio = () => { if (window.__bench.t0 === null) window.__bench.t0 = performance.now(); };
    for (const ev of ['pointerdown', 'keydown', 'input']) document.addEventListener(ev, inicio, true);
    new MutationObserver(async () => {
        const el = document.querySelector(window.__bench.selector);
        try { await el.decode(); } catch (e) {}
        if (window.__bench.t0 !== null && window.__bench.t1 === null) window.__bench.t1 = performance.now();
    }).observe(img, {attributes: true, attributeFilter: ['src']});
}"""


def release(destino: Path) -> Path:
    if all((RAIZ / "release" / t / nb).exists() for t, (nb, _) in TAREAS.items()):
        return RAIZ / "release"
    from curso_temporal import copiar_curso, ejecutar
    curso = copiar_curso(destino / "curso")
    for tarea in TAREAS:
        ejecutar(curso, "nbgrader", "generate_assignment", tarea, "--force")
    return curso / "release"


def medir(pagina, accion) -> float:
    """ms from the user's event to the decoded new figure."""
    pagina.evaluate("() => { window.__bench.t0 = null; window.__bench.t1 = null; }")
    accion()
    pagina.wait_for_function("() => window.__bench.t1 !== null", timeout=30_000, polling=10)
    ms = pagina.evaluate("() => window.__bench.t1 - window.__bench.t0")
    lab.esperar_nucleo_libre(pagina)      # the label/panel updates of the same event
    pagina.wait_for_timeout(100)
    return ms


def navegador_cabezas(pagina, n: int) -> dict[str, list[float]]:
    caja = pagina.locator(".explorable-cabezas").first
    caja.scroll_into_view_if_needed()
    pagina.evaluate(VIGILAR, ".explorable-cabezas .explorable-cabezas-mapa")
    botones = ["Cabeza 1", "Cabeza 2", "Cabeza 3", "Cabeza 4", "Suma"]
    filas = ["persiguen", "duerme", "ratón", "gatos", "el"]
    tiempos = {"botón (clic)": [], "fila (selector)": []}
    for i in range(n):
        boton = caja.locator(".explorable-cabezas-boton", has_text=botones[i % 5])
        tiempos["botón (clic)"].append(medir(pagina, boton.click))
    selector = caja.locator(".explorable-cabezas-fila select")
    for i in range(n):
        fila = filas[i % 5] if selector.input_value() != filas[i % 5] else filas[(i + 1) % 5]
        tiempos["fila (selector)"].append(medir(pagina, lambda: selector.select_option(fila)))
    return tiempos


def navegador_escalera(pagina, n: int) -> dict[str, list[float]]:
    caja = pagina.locator(".explorable-escalera").first
    caja.scroll_into_view_if_needed()
    pagina.evaluate(VIGILAR, ".explorable-escalera .explorable-escalera-imagen")
    tiempos = {}
    for clase, nombre in (("d-model", "d_model (tecla)"), ("t", "T (tecla)"), ("pareja", "pareja i (tecla)")):
        asa = caja.locator(f".explorable-escalera-{clase} .noUi-handle")
        tiempos[nombre] = []
        for i in range(n):
            tecla = "ArrowRight" if i % 2 == 0 else "ArrowLeft"
            asa.focus()
            tiempos[nombre].append(medir(pagina, lambda: pagina.keyboard.press(tecla)))
    botones = caja.locator(".explorable-escalera-disposicion button")
    tiempos["disposición (clic)"] = []
    for i in range(n):
        boton = botones.nth(1 if i % 2 == 0 else 0)
        tiempos["disposición (clic)"].append(medir(pagina, boton.click))
    return tiempos


def cronometrar(funcion, n: int) -> list[float]:
    tiempos = []
    for i in range(n):
        inicio = time.perf_counter()
        funcion(i)
        tiempos.append((time.perf_counter() - inicio) * 1000)
    return tiempos


def servidor_cabezas(modulo, n: int) -> dict[str, list[float]]:
    caja = modulo.crear_explorable()
    botones = list(caja.botones.values())
    filas = ["persiguen", "duerme", "ratón", "gatos", "el"]
    return {
        "botón (clic)": cronometrar(lambda i: botones[i % 5].click(), n),
        "fila (selector)": cronometrar(
            lambda i: setattr(caja.selector_fila, "value", filas[i % 5]), n),
    }


def servidor_escalera(modulo, n: int) -> dict[str, list[float]]:
    caja = modulo.crear_explorable()

    def mover(control, paso):
        return lambda i: setattr(control, "value", control.value + (paso if i % 2 == 0 else -paso))

    return {
        "d_model (tecla)": cronometrar(mover(caja.control_d_model, 2), n),
        "T (tecla)": cronometrar(mover(caja.control_T, 1), n),
        "pareja i (tecla)": cronometrar(mover(caja.control_pareja, 1), n),
        "disposición (clic)": cronometrar(lambda i: setattr(
            caja.control_disposicion, "value", "concatenada" if i % 2 == 0 else "intercalada"), n),
    }


def solo_dibujo(modulo, n: int) -> list[float]:
    """ms of matplotlib alone (draw + PNG encode) for one update, the bulk of the server time."""
    if hasattr(modulo, "dibujar_mapa"):
        fig, ax = modulo.nueva_figura()
        mapas = modulo.calcular_mapas()
        nombres = list(mapas)

        def una(i):
            modulo.dibujar_mapa(ax, mapas[nombres[i % 5]], nombres[i % 5], "duerme")
            modulo.figura_a_png(fig)
        return cronometrar(una, n)
    return cronometrar(lambda i: modulo.figura_a_png(modulo.dibujar(64 + i % 2, 32, i % 4, "intercalada")), n)


def cargar(carpeta: Path, nombre: str):
    from conftest import cargar_modulo
    return cargar_modulo(carpeta / f"{nombre}.py", nombre)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeticiones", type=int, default=10)
    args = parser.parse_args(argv)
    n = args.repeticiones
    faltas = lab.faltas_del_navegador()
    if faltas:
        print(f"No se puede medir en el navegador: {faltas}. {lab.COMO_ACTIVARLAS}")
        return 1

    import matplotlib
    matplotlib.use("Agg")
    from playwright.sync_api import sync_playwright

    base = Path(tempfile.mkdtemp(prefix="bench-widgets-"))
    filas = []
    try:
        origen = release(base)
        alumno = base / "alumno"
        for tarea in TAREAS:
            shutil.copytree(origen / tarea, alumno / tarea)

        servidor, dibujo = {}, {}
        for tarea, (_, modulo) in TAREAS.items():
            mod = cargar(alumno / tarea, modulo)
            servidor[tarea] = (servidor_cabezas if modulo == "explorable_cabezas" else servidor_escalera)(mod, n)
            dibujo[tarea] = statistics.median(solo_dibujo(mod, n))

        navegador = {}
        with lab.ServidorLab(alumno, registro=base / "servidor.log") as lab_servidor, sync_playwright() as pw:
            chromium = lab.lanzar_chromium(pw)
            pagina = lab.nueva_pagina(chromium, 1300, 1500)
            for tarea, (cuaderno, modulo) in TAREAS.items():
                lab.ejecutar_leccion(pagina, lab_servidor, f"{tarea}/{cuaderno}")
                medidor = navegador_cabezas if modulo == "explorable_cabezas" else navegador_escalera
                navegador[tarea] = medidor(pagina, n)
            chromium.close()

        for tarea, (_, modulo) in TAREAS.items():
            for interaccion, tiempos in navegador[tarea].items():
                del_servidor = servidor[tarea][interaccion]
                filas.append((modulo, interaccion, statistics.median(tiempos), max(tiempos),
                              statistics.median(del_servidor), max(del_servidor)))
    finally:
        shutil.rmtree(base, ignore_errors=True)

    cabecera = ("explorable", "interacción", "navegador mediana", "máx", "servidor mediana", "máx")
    texto = [(a, b, f"{c:.0f} ms", f"{d:.0f} ms", f"{e:.1f} ms", f"{f:.1f} ms") for a, b, c, d, e, f in filas]
    anchos = [max(len(str(x)) for x in col) for col in zip(cabecera, *texto)]
    print(f"Respuesta de los explorables ({n} interacciones por fila; objetivo: mediana ≤ "
          f"{OBJETIVO_NAVEGADOR_MS} ms en el navegador, ≤ {OBJETIVO_SERVIDOR_MS} ms en el servidor)")
    print("  ".join(h.ljust(w) for h, w in zip(cabecera, anchos)))
    print("  ".join("-" * w for w in anchos))
    for fila, (_, _, c, _, e, _) in zip(texto, filas):
        marcas = ("" if c <= OBJETIVO_NAVEGADOR_MS else "  ← navegador por encima del objetivo") + (
            "" if e <= OBJETIVO_SERVIDOR_MS else "  ← servidor por encima del objetivo")
        print("  ".join(x.ljust(w) for x, w in zip(fila, anchos)) + marcas)
    print()
    for tarea, (_, modulo) in TAREAS.items():
        print(f"{modulo}: sólo matplotlib (dibujar la figura y codificar el PNG), mediana "
              f"{dibujo[tarea]:.1f} ms por actualización")
    return 0


if __name__ == "__main__":
    sys.exit(main())
