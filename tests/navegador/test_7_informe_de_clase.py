"""The class report opens in Chromium: Spanish, charts drawn, nothing loaded from the network (issue 15).

Uses the report that ``python scripts/calificacion/grade.py`` wrote at the end in the
session's graded course (``curso_ta``).  Every request the page makes is
recorded: the only one allowed is the report file itself (the charts are
``data:`` URIs).  Screenshots: the top with «Qué repasar», and the whole page
as printed on A4 (``test-artifacts/navegador/test_el_informe_*``).
"""
from __future__ import annotations

from . import laboratorio as lab


def test_el_informe_se_ve_con_sus_graficos_y_sin_red(navegador, captura, curso_ta):
    ruta = curso_ta / "informe" / "informe.html"
    assert ruta.is_file(), "make grade no escribió informe/informe.html"
    pagina = lab.nueva_pagina(navegador, ancho=1200, alto=900)
    captura.pagina = pagina
    peticiones: list[str] = []
    pagina.on("request", lambda p: peticiones.append(p.url))
    try:
        pagina.goto(ruta.as_uri(), wait_until="load")
        assert pagina.locator("h1").inner_text() == "Informe de la clase"
        assert "Sólo para el profesorado" in pagina.locator(".aviso").inner_text()
        assert pagina.locator(".repasar li").count() > 0
        # the rule of the rates is said; blank and crashed samples are not counted as wrong answers
        repasar = pagina.locator(".repasar").inner_text()
        assert "cuentan sólo a quienes lo intentaron" in repasar and "no escribir en los argumentos" not in repasar
        assert "naranja: menos del 70" in pagina.locator("figcaption").nth(1).inner_text()
        imagenes = pagina.locator("figure img")
        assert imagenes.count() >= 4          # per assignment: histogram, properties, quiz
        for i in range(imagenes.count()):
            imagen = imagenes.nth(i)
            imagen.scroll_into_view_if_needed()
            ancho, alto = imagen.evaluate("i => [i.naturalWidth, i.naturalHeight]")
            caja = imagen.bounding_box()
            assert ancho > 100 and alto > 50 and caja and caja["width"] > 300, (i, ancho, alto, caja)
        pagina.evaluate("window.scrollTo(0, 0)")
        captura("arriba")
        primera = imagenes.nth(0)
        captura("histograma", objetivo=primera)
        assert "escala √d_model" in pagina.locator("body").inner_text()
        pagina.emulate_media(media="print")
        pdf = lab.ARTEFACTOS / f"{captura.prefijo}-impreso.pdf"
        pagina.pdf(path=str(pdf), format="A4", print_background=True)
        assert pdf.stat().st_size > 10_000
    finally:
        pagina.context.close()
    assert peticiones == [ruta.as_uri()], peticiones
