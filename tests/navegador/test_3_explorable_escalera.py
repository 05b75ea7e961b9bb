"""Lesson 2 in the browser: the notebook runs, and the wavelength ladder follows its controls.

Section «El explorable: la escalera de longitudes de onda»: d_model, T and
«pareja i» (each a slider plus a box to type in), the layout toggle
(intercalada / [sin | cos] concatenada), the figure (PE heatmap on the left,
the pair's curves top right, the ladder of wavelengths bottom right) and the
label with λ = 2π·10000^(2i/d_model).  Also: a typed value the explorable does
not offer is refused in Spanish; the layout buttons show their whole text; and
after saving, stopping the kernel and reopening, the cell shows the last
picture with a Spanish hint instead of ipywidgets' English error.
"""
from __future__ import annotations

import base64
import io
import json
import math
import re
import shutil
import urllib.request

from PIL import Image
from playwright.sync_api import expect

from . import laboratorio as lab
from .conftest import TAREAS

TAREA = "02_codificacion_posicional"
CUADERNO = f"reabrir/{TAREA}/{TAREAS[TAREA]}"
IMAGEN = ".explorable-escalera .explorable-escalera-imagen"

# Panels of the figure as fractions of the PNG (left, top, right, bottom), inside the axes of
# explorable_escalera (_POS_MAPA, _POS_ESCALERA): heatmap (left), ladder (bottom right).
MAPA = (0.09, 0.12, 0.40, 0.83)
ESCALERA = (0.58, 0.54, 0.82, 0.88)
ETIQUETA = re.compile(r"Pareja (\d+) · columnas (\d+) \(seno\) y (\d+) \(coseno\) · "
                      r"λ = 2π·10000\^\((\d+)/(\d+)\) ≈ ([\d  ]+\.\d) posiciones")


def _panel(huella: dict, caja: tuple[float, float, float, float]) -> bytes:
    imagen = Image.open(io.BytesIO(base64.b64decode(huella["b64"]))).convert("RGB")
    ancho, alto = imagen.size
    izquierda, arriba, derecha, abajo = caja
    return imagen.crop((int(izquierda * ancho), int(arriba * alto),
                        int(derecha * ancho), int(abajo * alto))).tobytes()


def _cambios(antes: dict, despues: dict) -> dict:
    return {"mapa": _panel(antes, MAPA) != _panel(despues, MAPA),
            "escalera": _panel(antes, ESCALERA) != _panel(despues, ESCALERA)}


def _leer_etiqueta(texto: str) -> dict:
    m = ETIQUETA.search(texto)
    assert m, f"la etiqueta de la longitud de onda no tiene el formato esperado: {texto!r}"
    pareja, seno, coseno, exponente, d_model = (int(g) for g in m.groups()[:5])
    lam = float(re.sub(r"\s", "", m.group(6)))
    return {"pareja": pareja, "seno": seno, "coseno": coseno, "exponente": exponente,
            "d_model": d_model, "lam": lam}


def _comprobar_longitud(etiqueta, pareja: int, d_model: int) -> dict:
    """The label ``etiqueta`` (a locator) once it shows this pair and d_model: ipywidgets may draw the
    label a moment after the figure (CI read it empty once), so its text is waited for, not read once."""
    expect(etiqueta).to_have_text(re.compile(rf"Pareja {pareja} ·.*/{d_model}\)"), timeout=30_000)
    # ... and read in the same poll that matches it: the widget may draw the label again between the wait and
    # a separate read.
    # The text is the node's (text_content), not its rendering (inner_text): JupyterLab's windowed notebook
    # (content-visibility) can skip an off-screen cell's rendering, and Chromium's innerText is then ''
    # for as long as it stays off screen (CI, 3 December: '' for 30 s after to_have_text, which reads the node).
    patron, texto = re.compile(rf"Pareja {pareja} ·.*/{d_model}\)"), ""
    for _ in range(150):
        texto = etiqueta.text_content() or ""
        if patron.search(texto) and ETIQUETA.search(texto):
            break
        etiqueta.page.wait_for_timeout(200)
    leida = _leer_etiqueta(texto)
    assert (leida["pareja"], leida["d_model"], leida["exponente"]) == (pareja, d_model, 2 * pareja)
    esperada = 2 * math.pi * 10000 ** (2 * pareja / d_model)
    assert abs(leida["lam"] - esperada) <= 0.05 + 1e-9, (
        f"λ mostrada {leida['lam']} ≠ 2π·10000^({2 * pareja}/{d_model}) = {esperada:.4f}")
    return leida


def _teclear(caja, clase: str, valor: int) -> None:
    """Type a value into a control's box and press Enter (as a student can)."""
    casilla = caja.locator(f".explorable-escalera-{clase}-texto input")
    casilla.fill(str(valor))
    casilla.press("Enter")


def _cerrar_nucleos(servidor) -> None:
    with urllib.request.urlopen(servidor.enlace("api/sessions"), timeout=10) as r:
        sesiones = json.load(r)
    for sesion in sesiones:
        peticion = urllib.request.Request(servidor.enlace(f"api/sessions/{sesion['id']}"), method="DELETE")
        urllib.request.urlopen(peticion, timeout=30).close()


def test_explorable_escalera_controles(servidor_alumno, carpeta_alumno, pagina, captura):
    shutil.copytree(carpeta_alumno / TAREA, carpeta_alumno / "reabrir" / TAREA, dirs_exist_ok=True)
    pagina.set_viewport_size({"width": 1300, "height": 1500})
    lab.ejecutar_leccion(pagina, servidor_alumno, CUADERNO)
    caja = pagina.locator(".explorable-escalera").first
    caja.scroll_into_view_if_needed()
    etiqueta = caja.locator(".explorable-escalera-longitud")
    aviso = caja.locator(".explorable-escalera-aviso")
    casilla = lambda clase: int(caja.locator(f".explorable-escalera-{clase}-texto input").input_value())  # noqa: E731
    captura("cuaderno-ejecutado")

    # As the lesson starts: d_model = 32, T = 64, pair 0, the paper's layout.
    assert (casilla("d-model"), casilla("t"), casilla("pareja")) == (32, 64, 0)
    _comprobar_longitud(etiqueta, 0, 32)
    imagen = lab.huella_imagen(pagina, IMAGEN)
    assert imagen and imagen["bytes"] > 5000
    assert pagina.locator(".explorable-respaldo").first.is_hidden(), "la salida fija no se ve en vivo"
    # each slider's handle is named by its row's label (screen readers; ajustes_jupyterlab/labextension)
    for clase, rotulo in (("d-model", "d_model (par)"), ("t", "T (posiciones)"), ("pareja", "pareja i")):
        asa = caja.locator(f".explorable-escalera-{clase} .noUi-handle")
        pagina.wait_for_function("([e, r]) => e.getAttribute('aria-label') === r",
                                 arg=[asa.element_handle(), rotulo], timeout=10_000)
    captura("inicial-d32-T64-pareja0", caja)

    # The layout buttons show their whole label (they used to be cut: «intercalada (artíc…»). The
    # labels are waited for first: ipywidgets may draw the buttons a moment before their text (CI saw
    # two empty labels once), and an empty button would make the width check pass for nothing.
    botones = caja.locator(".explorable-escalera-disposicion button")
    expect(botones).to_have_text(["intercalada (artículo)", "[sin | cos] concatenada"])
    for boton in botones.all():
        ancho = boton.evaluate("b => [b.scrollWidth, b.clientWidth]")
        assert ancho[0] <= ancho[1], f"el botón «{boton.inner_text()}» no cabe: {ancho}"
    etiquetas = caja.locator(".explorable-escalera-controles .widget-label:visible")
    bordes = [e.evaluate("e => e.getBoundingClientRect().right") for e in etiquetas.all()]
    assert len(bordes) == 4 and max(bordes) - min(bordes) <= 4, f"etiquetas desalineadas: {bordes}"
    captura("controles", caja.locator(".explorable-escalera-controles"))

    # A d_model the explorable does not offer: refused in Spanish, nothing changes, and the box goes
    # back to the value in force, the one the picture and the warning show («Sigue d_model = 32»).
    for valor, motivo in ((33, "tiene que ser par"), (512, "aquí va de 2 a 128")):
        _teclear(caja, "d-model", valor)
        aviso.filter(has_text=f"d_model = {valor} no vale").wait_for()
        assert motivo in aviso.inner_text() and "Sigue d_model = 32" in aviso.inner_text()
        lab.esperar_nucleo_libre(pagina)
        pagina.wait_for_function("(e) => e.value === '32'",
                                 arg=caja.locator(".explorable-escalera-d-model-texto input").element_handle())
        assert lab.huella_imagen(pagina, IMAGEN)["sha"] == imagen["sha"], "un valor rechazado no redibuja"
        captura(f"rechazo-d{valor}", caja.locator(".explorable-escalera-controles"))
    # The same for T, and the next value used clears the warning (no stale warning).
    _teclear(caja, "t", 100000)
    aviso.filter(has_text="T = 100000 no vale").wait_for()
    lab.esperar_nucleo_libre(pagina)
    pagina.wait_for_function("(e) => e.value === '64'",
                             arg=caja.locator(".explorable-escalera-t-texto input").element_handle())
    assert "Sigue T = 64" in aviso.inner_text()
    # Re-typing the value in use clears it too (only Enter reaches the kernel: the box already says 64),
    # and so does re-typing another box's value in use (issue 22, fifth student's report, M3).
    _teclear(caja, "t", 64)
    expect(aviso).not_to_contain_text("no vale")
    _teclear(caja, "t", 0)
    aviso.filter(has_text="T = 0 no vale").wait_for()
    lab.esperar_nucleo_libre(pagina)
    pagina.wait_for_function("(e) => e.value === '64'",
                             arg=caja.locator(".explorable-escalera-t-texto input").element_handle())
    _teclear(caja, "d-model", 32)
    expect(aviso).not_to_contain_text("no vale")
    assert lab.huella_imagen(pagina, IMAGEN)["sha"] == imagen["sha"], "volver a escribir un valor no redibuja"

    # d_model typed: 32 -> 64 (more rungs, the heatmap gets twice the columns); the warning goes.
    _teclear(caja, "d-model", 64)
    nueva = lab.esperar_imagen_tras_accion(pagina, IMAGEN, imagen)
    assert casilla("d-model") == 64 and aviso.inner_text().strip() == ""
    assert _cambios(imagen, nueva) == {"mapa": True, "escalera": True}
    _comprobar_longitud(etiqueta, 0, 64)
    imagen = nueva
    captura("d64", caja)

    # Ctrl+S with the focus still in the box just typed in saves the notebook (issue 22, the seventh
    # student's report B2-2: ipywidgets' number boxes keep their keys, so Ctrl+S never reached JupyterLab
    # and the browser's «Save as…» got it; ajustes_jupyterlab/labextension hands it over). Unsaved changes
    # first, whatever the autosave did meanwhile; the box keeps its value and the focus, and Ctrl+A still
    # selects the box's text (a text-editing key stays the box's).
    caja_d = caja.locator(".explorable-escalera-d-model-texto input")
    assert caja_d.evaluate("e => e === document.activeElement"), "el foco tenía que seguir en la casilla"
    pagina.evaluate("() => { window.jupyterapp.shell.currentWidget.context.model.dirty = true; }")
    pagina.keyboard.press("Control+s")
    pagina.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=15_000)
    assert caja_d.evaluate("e => e === document.activeElement"), "Ctrl+S no debe sacar el foco de la casilla"
    assert casilla("d-model") == 64
    pagina.keyboard.press("Control+a")
    pagina.keyboard.type("64")
    assert caja_d.input_value() == "64", f"Ctrl+A tenía que seleccionar el texto de la casilla: {caja_d.input_value()}"
    caja_d.press("Enter")
    lab.esperar_nucleo_libre(pagina)
    assert lab.huella_imagen(pagina, IMAGEN)["sha"] == imagen["sha"]

    # The mouse wheel over a focused box scrolls the page and leaves the number alone (a focused
    # <input type="number"> took 64 to 63 while the picture stayed at 64; student's report 4, issue 22).
    caja_T = caja.locator(".explorable-escalera-t-texto input")
    caja_T.click()
    caja_T.hover()
    for _ in range(3):
        pagina.mouse.wheel(0, -120)
    pagina.wait_for_timeout(300)
    assert caja_T.input_value() == "64", caja_T.input_value()
    caja_T.press("Tab")
    lab.esperar_nucleo_libre(pagina)
    assert casilla("t") == 64 and lab.huella_imagen(pagina, IMAGEN)["sha"] == imagen["sha"]

    # T: drag the slider's handle to the right with the mouse. Before the button is released,
    # the box and the picture already follow the handle.
    asa = caja.locator(".explorable-escalera-t .noUi-handle")
    borde = asa.bounding_box()
    x, y = borde["x"] + borde["width"] / 2, borde["y"] + borde["height"] / 2
    pagina.mouse.move(x, y)
    pagina.mouse.down()
    pagina.mouse.move(x + 45, y, steps=6)
    pagina.wait_for_function("(e) => Number(e.value) > 64",
                             arg=caja.locator(".explorable-escalera-t-texto input").element_handle())
    lab.esperar_imagen_nueva(pagina, IMAGEN, imagen)
    captura("arrastrando-T", caja.locator(".explorable-escalera-controles"))
    pagina.mouse.up()
    nueva = lab.esperar_imagen_tras_accion(pagina, IMAGEN, imagen)
    T = casilla("t")
    assert T > 64, f"arrastrar el asa a la derecha tenía que subir T; vale {T}"
    assert _cambios(imagen, nueva) == {"mapa": True, "escalera": True}  # rows; the T line
    imagen = nueva
    captura(f"d64-T{T}", caja)

    # The pair typed: 5 -> columns 10 and 11, λ = 2π·10000^(10/64).
    _teclear(caja, "pareja", 5)
    nueva = lab.esperar_imagen_tras_accion(pagina, IMAGEN, imagen)
    assert casilla("pareja") == 5
    assert _cambios(imagen, nueva) == {"mapa": True, "escalera": True}  # frames; the circled rung
    leida = _comprobar_longitud(etiqueta, 5, 64)
    assert (leida["seno"], leida["coseno"]) == (10, 11)
    imagen = nueva
    captura(f"d64-T{T}-pareja5-intercalada", caja)

    # Layout toggle: [sin | cos] moves the columns (5 and 37) but not a single rung.
    caja.locator(".explorable-escalera-disposicion button", has_text="concatenada").click()
    nueva = lab.esperar_imagen_tras_accion(pagina, IMAGEN, imagen)
    assert _cambios(imagen, nueva) == {"mapa": True, "escalera": False}
    leida = _comprobar_longitud(etiqueta, 5, 64)
    assert (leida["seno"], leida["coseno"]) == (5, 37)
    assert "Disposición concatenada" in caja.locator(".explorable-escalera-nota").inner_text()
    imagen = nueva
    captura(f"d64-T{T}-pareja5-concatenada", caja)

    # A last pair in the other layout, moved with the keyboard on the slider.
    caja.locator(".explorable-escalera-pareja .noUi-handle").focus()
    pagina.keyboard.press("ArrowRight")
    nueva = lab.esperar_imagen_tras_accion(pagina, IMAGEN, imagen)
    assert casilla("pareja") == 6
    leida = _comprobar_longitud(etiqueta, 6, 64)
    assert (leida["seno"], leida["coseno"]) == (6, 38)
    assert _cambios(imagen, nueva)["escalera"]
    imagen = nueva
    captura(f"d64-T{T}-pareja6-concatenada", caja)

    # Save, stop the kernel, reopen: the last picture with a Spanish hint, not ipywidgets' error.
    pagina.wait_for_function("""(fin) => {
        const r = document.querySelector('.explorable-respaldo img');
        return r && r.src.endsWith(fin); }""", arg=imagen["b64"][-200:], timeout=30_000)
    pagina.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    pagina.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
    _cerrar_nucleos(servidor_alumno)
    lab.abrir_cuaderno(pagina, servidor_alumno, CUADERNO)
    lab.cerrar_dialogos(pagina)
    # the reopened notebook's fallback with its Spanish hint (waited for: the hint can be laid out a
    # moment after the picture; an element of the closed view may still be first in the page)
    respaldo = pagina.locator(".explorable-respaldo", has_text="ejecuta esta celda otra vez").first
    respaldo.scroll_into_view_if_needed(timeout=30_000)
    respaldo.wait_for(state="visible", timeout=30_000)
    assert "ejecuta esta celda otra vez" in respaldo.inner_text()
    guardada = respaldo.locator("img").get_attribute("src").split(",", 1)[1]
    assert guardada == imagen["b64"], "la salida fija tiene que ser la última imagen que se vio"
    salida = respaldo.locator("xpath=ancestor::div[contains(@class, 'jp-OutputArea')][1]")
    assert "Error displaying widget" not in salida.inner_text()
    captura("reabierto-sin-nucleo", salida)

    # «Ejecuta esta celda otra vez»: only that cell, in the reopened notebook's new kernel (no
    # earlier cell has run): the explorable is alive again and the fallback hides.
    lab.ejecutar_celda_del_explorable(pagina)
    salida = lab.salidas_de_la_celda_del_explorable(pagina)
    viva = salida.locator(".explorable-escalera.explorable-vivo")
    viva.wait_for(state="visible", timeout=30_000)
    assert lab.huella_imagen(pagina, IMAGEN)["bytes"] > 5000
    assert salida.locator(".explorable-respaldo").first.is_hidden()
    assert salida.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    assert not lab.errores_de_la_celda_del_explorable(pagina)
    captura("reabierto-y-reejecutada", salida)


def _pulsar(pagina, caja, clase: str, tecla: str, esperado: int) -> None:
    """Press a key on a slider's handle; wait until its box shows ``esperado`` and the kernel is idle."""
    caja.locator(f".explorable-escalera-{clase} .noUi-handle").focus()
    pagina.keyboard.press(tecla)
    pagina.wait_for_function(
        "([e, v]) => Number(e.value) === v",
        arg=[caja.locator(f".explorable-escalera-{clase}-texto input").element_handle(), esperado],
        timeout=30_000)
    lab.esperar_nucleo_libre(pagina)


def test_teclado_en_cada_deslizador_con_cada_d_model(servidor_alumno, carpeta_alumno, pagina, captura):
    """Home/End/PageUp/PageDown/arrows reach the same values as the mouse, within the current range.

    With every d_model (2 … 128), End on «pareja i» goes to its last pair d_model/2 − 1 and
    draws it (it used to stop at the last pair of the d_model the slider was created with:
    15 with d_model = 128); Home goes back to 0. Only the explorable's cell is run.
    """
    shutil.copytree(carpeta_alumno / TAREA, carpeta_alumno / "teclado" / TAREA, dirs_exist_ok=True)
    pagina.set_viewport_size({"width": 1300, "height": 1300})
    lab.abrir_cuaderno(pagina, servidor_alumno, f"teclado/{TAREA}/{TAREAS[TAREA]}")
    lab.cerrar_dialogos(pagina)
    lab.ocultar_barra_lateral(pagina)
    lab.ejecutar_celda_del_explorable(pagina)
    caja = pagina.locator(".explorable-escalera").first
    caja.wait_for()
    caja.scroll_into_view_if_needed()
    etiqueta = caja.locator(".explorable-escalera-longitud")

    _pulsar(pagina, caja, "t", "End", 200)
    _pulsar(pagina, caja, "t", "PageDown", 195)
    _pulsar(pagina, caja, "t", "Home", 1)
    _pulsar(pagina, caja, "t", "ArrowRight", 2)
    _pulsar(pagina, caja, "d-model", "End", 128)
    _pulsar(pagina, caja, "d-model", "PageDown", 118)
    _pulsar(pagina, caja, "d-model", "Home", 2)
    for d_model in range(2, 130, 2):
        if d_model > 2:
            _pulsar(pagina, caja, "d-model", "ArrowRight", d_model)
        ultima = d_model // 2 - 1
        _pulsar(pagina, caja, "pareja", "End", ultima)
        _comprobar_longitud(etiqueta, ultima, d_model)
        if d_model in (32, 128):
            captura(f"d{d_model}-fin", caja)
            _pulsar(pagina, caja, "pareja", "PageDown", max(0, ultima - 5))
            _pulsar(pagina, caja, "pareja", "PageUp", ultima)
            _pulsar(pagina, caja, "pareja", "ArrowLeft", ultima - 1)
        _pulsar(pagina, caja, "pareja", "Home", 0)
        _comprobar_longitud(etiqueta, 0, d_model)
    assert caja.locator(".explorable-escalera-aviso").inner_text().strip() == ""
