"""The hub's course page (scripts/calificacion/servicio_del_curso.py) in Chromium, without a hub.

The page as the service renders it, with its requests stubbed: «Descargar grades.csv» says that it is
exporting until the file arrives (it took 13.5 s under load with no sign: sixth TA report, P3-3), then
downloads it and says when; a failed export says why.  «Informe de la clase» says it is being prepared.
The end-to-end check on a real hub is tests/test_hub.py.
"""
from __future__ import annotations

import json
import time

from scripts.calificacion import servicio_del_curso as servicio

ESTADO = {"en_marcha": False, "codigo": None, "inicio": None, "fin": None, "salida": "",
          "pendientes": {"entregas": [], "desactualizados": []}}


NONCE = "nonce-de-prueba-123"
# what would run if a student's text got through the escaping: the page's policy runs no script but its own
INYECTADO = ('<p>Ninguna.</p><script>document.title = "INYECTADO"</script>'
             '<img src="data:," onerror="document.title = \'INYECTADO\'">')


def _abrir(pagina, respuesta_csv):
    html = servicio.PAGINA.format(
        nonce=NONCE, base="/", curso="atencion-y-posicion", plazos="<p>sin plazos</p>", pendientes=INYECTADO,
        zona_js=servicio._en_guion(servicio.ZONA), lugar_js=servicio.LUGAR,
        desactualizados="<p>Ninguno.</p>", intro_pendientes=servicio._en_guion(servicio.INTRO_PENDIENTES),
        intro_desactualizados=servicio._en_guion(servicio.INTRO_DESACTUALIZADOS),
        nota_pendientes=servicio._en_guion(servicio.NOTA_PENDIENTES),
        ninguno_salvo_pendientes=servicio._en_guion(servicio.NINGUNO_SALVO_PENDIENTES),
        intervalo_s="10", intervalo_ms=10000)
    pagina.route("**/curso/", lambda ruta: ruta.fulfill(
        status=200, content_type="text/html", body=html,
        headers={"Content-Security-Policy": servicio.politica_de_pagina(NONCE)}))
    pagina.route("**/curso/estado", lambda ruta: ruta.fulfill(status=200, content_type="application/json",
                                                                body=json.dumps(ESTADO)))
    pagina.route("**/curso/grades.csv", respuesta_csv)
    pagina.route("**/curso/informe", lambda ruta: ruta.fulfill(status=200, content_type="text/html",
                                                                 body="<p>informe</p>"))
    pagina.goto("http://curso.localhost/curso/")


def test_descargar_grades_csv_dice_que_exporta_y_cuando_termina(pagina, tmp_path):
    def lento(ruta):
        time.sleep(1.5)
        ruta.fulfill(status=200, content_type="text/csv", body="assignment,student_id\nt,ana\n")
    _abrir(pagina, lento)
    aviso = pagina.locator("#aviso-descarga")
    pagina.evaluate("""() => { window.historial = []; var a = document.getElementById('aviso-descarga');
        new MutationObserver(function () { window.historial.push(a.textContent); })
            .observe(a, {childList: true, characterData: true, subtree: true}); }""")
    with pagina.expect_download(timeout=30_000) as descarga:
        pagina.locator("#notas").click()
    ruta = tmp_path / "grades.csv"
    descarga.value.save_as(ruta)
    assert ruta.read_text() == "assignment,student_id\nt,ana\n" and descarga.value.suggested_filename == "grades.csv"
    pagina.wait_for_function("() => document.getElementById('aviso-descarga').textContent.indexOf('descargado') >= 0")
    assert aviso.inner_text().startswith("grades.csv descargado a las ")
    assert aviso.inner_text().endswith(" (hora de Madrid).")          # every time on the page, labelled
    historial = pagina.evaluate("() => window.historial")
    assert historial[0].startswith("Exportando grades.csv (nbgrader export)…"), historial
    # the page's own script ran (all of the above), and nothing else did
    assert pagina.title() != "INYECTADO"


def test_una_exportacion_fallida_dice_por_que_y_el_informe_avisa(pagina):
    _abrir(pagina, lambda ruta: ruta.fulfill(status=500, content_type="text/plain",
                                            body="No se puede exportar: plazos.toml no es TOML válido"))
    pagina.locator("#notas").click()
    pagina.wait_for_function("() => document.getElementById('aviso-descarga').textContent.indexOf('No se pudo') >= 0")
    assert pagina.locator("#aviso-descarga").inner_text() == \
        "No se pudo exportar grades.csv: No se puede exportar: plazos.toml no es TOML válido"
    with pagina.context.expect_page() as nueva:
        pagina.locator("#informe").click()
    nueva.value.close()
    assert pagina.locator("#aviso-descarga").inner_text().startswith("Preparando el informe de la clase")
