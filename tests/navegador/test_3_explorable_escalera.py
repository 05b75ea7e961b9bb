"""Lesson 2 in the browser: the notebook runs, and the wavelength ladder follows its controls.

Section «El explorable: la escalera de longitudes de onda»: sliders d_model,
T and «pareja i», the layout toggle (intercalada / [sin | cos] concatenada),
the figure (PE heatmap on the left, the pair's curves top right, the ladder of
wavelengths bottom right) and the label with λ = 2π·10000^(2i/d_model).
"""
from __future__ import annotations

import base64
import io
import math
import re

from PIL import Image

from . import laboratorio as lab

CUADERNO = "02_codificacion_posicional/codificacion_posicional.ipynb"
IMAGEN = ".explorable-escalera .explorable-escalera-imagen"

# Panels of the figure as fractions of the PNG (left, top, right, bottom), inside
# the axes of explorable_escalera.dibujar: heatmap (left), ladder (bottom right).
MAPA = (0.07, 0.07, 0.42, 0.89)
ESCALERA = (0.62, 0.58, 0.98, 0.89)
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


def _comprobar_longitud(texto: str, pareja: int, d_model: int) -> dict:
    leida = _leer_etiqueta(texto)
    assert (leida["pareja"], leida["d_model"], leida["exponente"]) == (pareja, d_model, 2 * pareja)
    esperada = 2 * math.pi * 10000 ** (2 * pareja / d_model)
    assert abs(leida["lam"] - esperada) <= 0.05 + 1e-9, (
        f"λ mostrada {leida['lam']} ≠ 2π·10000^({2 * pareja}/{d_model}) = {esperada:.4f}")
    return leida


def _escribir_en_lectura(caja, clase: str, valor: int) -> None:
    """Type a value into a slider's readout and press Enter (as a student can)."""
    lectura = caja.locator(f".explorable-escalera-{clase} .widget-readout")
    lectura.click()
    lectura.press("Control+a")
    lectura.type(str(valor))
    lectura.press("Enter")


def test_explorable_escalera_controles(servidor_alumno, pagina, captura):
    pagina.set_viewport_size({"width": 1300, "height": 1500})
    lab.ejecutar_leccion(pagina, servidor_alumno, CUADERNO)
    caja = pagina.locator(".explorable-escalera").first
    caja.scroll_into_view_if_needed()
    etiqueta = caja.locator(".explorable-escalera-longitud")
    lectura = lambda clase: int(caja.locator(f".explorable-escalera-{clase} .widget-readout").inner_text())  # noqa: E731
    captura("cuaderno-ejecutado")

    # As the lesson starts: d_model = 32, T = 64, pair 0, the paper's layout.
    assert (lectura("d-model"), lectura("t"), lectura("pareja")) == (32, 64, 0)
    _comprobar_longitud(etiqueta.inner_text(), 0, 32)
    imagen = lab.huella_imagen(pagina, IMAGEN)
    assert imagen and imagen["bytes"] > 5000
    captura("inicial-d32-T64-pareja0", caja)

    # d_model: 32 -> 64 (more rungs, the heatmap gets twice the columns).
    _escribir_en_lectura(caja, "d-model", 64)
    nueva = lab.esperar_imagen_tras_accion(pagina, IMAGEN, imagen)
    assert lectura("d-model") == 64
    assert _cambios(imagen, nueva) == {"mapa": True, "escalera": True}
    _comprobar_longitud(etiqueta.inner_text(), 0, 64)
    imagen = nueva
    captura("d64", caja)

    # T: drag the slider's handle to the right with the mouse.
    asa = caja.locator(".explorable-escalera-t .noUi-handle")
    borde = asa.bounding_box()
    x, y = borde["x"] + borde["width"] / 2, borde["y"] + borde["height"] / 2
    pagina.mouse.move(x, y)
    pagina.mouse.down()
    pagina.mouse.move(x + 45, y, steps=6)
    pagina.mouse.up()
    nueva = lab.esperar_imagen_tras_accion(pagina, IMAGEN, imagen)
    T = lectura("t")
    assert T > 64, f"arrastrar el asa a la derecha tenía que subir T; vale {T}"
    assert _cambios(imagen, nueva) == {"mapa": True, "escalera": True}  # rows; the T line
    imagen = nueva
    captura(f"d64-T{T}", caja)

    # The pair: 5 -> columns 10 and 11, λ = 2π·10000^(10/64).
    _escribir_en_lectura(caja, "pareja", 5)
    nueva = lab.esperar_imagen_tras_accion(pagina, IMAGEN, imagen)
    assert lectura("pareja") == 5
    assert _cambios(imagen, nueva) == {"mapa": True, "escalera": True}  # frames; the circled rung
    leida = _comprobar_longitud(etiqueta.inner_text(), 5, 64)
    assert (leida["seno"], leida["coseno"]) == (10, 11)
    imagen = nueva
    captura(f"d64-T{T}-pareja5-intercalada", caja)

    # Layout toggle: [sin | cos] moves the columns (5 and 37) but not a single rung.
    caja.locator(".explorable-escalera-disposicion button", has_text="concatenada").click()
    nueva = lab.esperar_imagen_tras_accion(pagina, IMAGEN, imagen)
    assert _cambios(imagen, nueva) == {"mapa": True, "escalera": False}
    leida = _comprobar_longitud(etiqueta.inner_text(), 5, 64)
    assert (leida["seno"], leida["coseno"]) == (5, 37)
    assert "Disposición concatenada" in caja.locator(".explorable-escalera-nota").inner_text()
    imagen = nueva
    captura(f"d64-T{T}-pareja5-concatenada", caja)

    # A last pair in the other layout, moved with the keyboard on the slider.
    caja.locator(".explorable-escalera-pareja .noUi-handle").focus()
    pagina.keyboard.press("ArrowRight")
    nueva = lab.esperar_imagen_tras_accion(pagina, IMAGEN, imagen)
    assert lectura("pareja") == 6
    leida = _comprobar_longitud(etiqueta.inner_text(), 6, 64)
    assert (leida["seno"], leida["coseno"]) == (6, 38)
    assert _cambios(imagen, nueva)["escalera"]
    captura(f"d64-T{T}-pareja6-concatenada", caja)
