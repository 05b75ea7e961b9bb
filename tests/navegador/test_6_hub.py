"""The course's JupyterHub in Chromium: the student's Assignments tab and the TA's Generate feedback.

As root, with the trial hub (despliegue/hub/prueba.py; accounts made for the
test and removed after): the student logs in through the hub's page, lands in
JupyterLab in Spanish, sees no instructor entry in the Nbgrader menu, opens
the Assignment List, sees the lesson's due date (two hours ago, set by the TA
in the service's plazos.toml) in the browser's time zone (Mexico City
here) and in Madrid's, fetches the lesson, is warned that the due date has
passed, submits it with the tab's buttons and sees the Spanish late warning
with the policy's share; the TA logs in, opens the formgrader service and
clicks «Generate Feedback» in Manage Assignments, then opens the course page.
Steps a person would not click (the TA's release, collect and autograde;
typing the answers) go over HTTP, like tests/test_hub.py, which covers them.
Then, as the TA in Chromium, formgrader's links (the assignment's name, Preview,
«Submission #n» / the student's name) open under the service, not /hub/…
(nbgrader #1034), and the submission page works with every request off the
machine aborted.  Last, attack report A1: a page served from the student's server's
origin (what a student who got her server to serve a page would show the TA)
runs in the TA's Chromium, cannot read the formgrader (another origin) and its
service worker never controls the formgrader's pages; the course page, on the
service's origin too, is opened after it.  Then a resubmission after a manual
grade (issue 21, fresh TA's report): the course page lists it without a reload,
formgrader marks the late score, Generate Feedback says why it refuses in Spanish
and links the submission, whose «Aceptar la nota automática» resolves it; the
course page follows and Generate Feedback goes through.  The student's tab gives
the submission time in her zone, to the second.
"""
from __future__ import annotations

import datetime as dt
import json
import re
import sys
from urllib.parse import quote, urlparse
from zoneinfo import ZoneInfo

import pytest

from . import laboratorio as lab
from .conftest import RAIZ

sys.path.insert(0, str(RAIZ / "tests"))
from hub_cliente import Usuario, escribir_plazos, hub_de_prueba  # noqa: E402

sys.path.insert(0, str(RAIZ))
from scripts.calificacion import samples  # noqa: E402

pytestmark = pytest.mark.slow

TAREA = "02_codificacion_posicional"
CUADERNO = "codificacion_posicional.ipynb"


# the words of nbgrader's Assignments tab in English (its template and its literals)
INGLES_DE_LA_PESTANA = {"released", "downloaded", "submitted", "assignments", "assignment", "fetch", "submit",
                        "feedback", "view", "loading", "please", "wait", "there", "are", "course", "courses",
                        "found", "error", "toggle", "dropdown", "available", "fetching", "submitting", "and", "for"}


def _en_la_maquina(url: str, hub) -> bool:
    """The hub's origins: localhost and its subdomains on the hub's port."""
    partes = urlparse(url)
    return (partes.hostname == "localhost" or (partes.hostname or "").endswith(".localhost")) \
        and partes.port == urlparse(hub.url).port


def _entrar(pagina, hub, nombre: str, siguiente: str = "") -> None:
    """Log in with the hub's form, as a person does."""
    destino = f"{hub.url}/hub/login" + (f"?next={quote(siguiente)}" if siguiente else "")
    pagina.goto(destino)
    formulario = pagina.inner_text("#login-main")          # the hub's own login page, in Spanish (issue 22)
    assert "Contraseña" in formulario and "Entrar" in formulario and "Sign in" not in formulario, formulario
    pagina.fill("#username_input", nombre)
    pagina.fill("#password_input", hub.claves[nombre])
    pagina.click("#login_submit")


def _sin_ingles_fuera_de_los_bloques(navegador, hub) -> None:
    """What a tenth attacker found outside the blocks the course's page.html replaces: the logo's alt and title,
    the error dialog's «OK» / «Close» / «The error», and «JupyterHub requires JavaScript» (with JavaScript off)."""
    for con_js in (True, False):
        contexto = navegador.new_context(locale="es-ES", java_script_enabled=con_js)
        try:
            pagina = contexto.new_page()
            pagina.goto(f"{hub.url}/hub/login")
            pagina.wait_for_selector("#login-main")
            texto = pagina.inner_text("body")
            assert "requires JavaScript" not in texto and "Please enable" not in texto, texto
            assert ("El hub necesita JavaScript" in texto) == (not con_js), texto
            logo = pagina.locator("#jupyterhub-logo img")
            assert (logo.get_attribute("alt"), logo.get_attribute("title")) == ("Logotipo de JupyterHub", "Inicio")
            if con_js:
                dialogo = pagina.evaluate("""() => ({
                    botones: [...document.querySelectorAll('.modal-footer button')].map(b => b.textContent.trim()),
                    cerrar: [...document.querySelectorAll('.modal .btn-close')].map(b => b.getAttribute('aria-label')),
                    error: [...document.querySelectorAll('.ajax-error')].map(c => c.textContent.trim())})""")
                assert dialogo["botones"] and set(dialogo["botones"]) <= {"Aceptar"}, dialogo
                assert dialogo["cerrar"] and set(dialogo["cerrar"]) == {"Cerrar"}, dialogo
                assert dialogo["error"] == [""], dialogo
        finally:
            contexto.close()


def _etiquetas_del_menu(pagina, titulo: str) -> list[str]:
    pagina.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text=titulo).first.click()
    pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel").first.wait_for(state="visible")
    etiquetas = pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel").all_inner_texts()
    pagina.keyboard.press("Escape")
    pagina.wait_for_timeout(300)      # the menu closes; lab.menu reopens until its item shows
    return [e.strip() for e in etiquetas]


def test_pestana_assignments_del_alumno_y_generate_feedback_del_profesorado(navegador, captura, tmp_path):
    with hub_de_prueba("hub-navegador", alumnos=1) as hub:
        profesora, alumna = hub.profesorado[0], hub.alumnado[0]
        _sin_ingles_fuera_de_los_bloques(navegador, hub)
        plazo = (dt.datetime.now(ZoneInfo("Europe/Madrid")) - dt.timedelta(hours=2)).strftime("%Y-%m-%d %H:%M%z")
        escribir_plazos(hub, {TAREA: plazo})
        ta = Usuario(hub, profesora).entrar()
        assert ta.abrir_formgrader().status_code == 200
        assert ta.formgrader("POST", f"assignment/{TAREA}/assign")["success"]
        assert ta.formgrader("POST", f"assignment/{TAREA}/release")["success"]

        # --- the student, in Chromium (in Mexico City): log in, JupyterLab in Spanish, the Assignments tab
        contexto = navegador.new_context(viewport={"width": 1400, "height": 1000}, locale="es-ES",
                                         timezone_id="America/Mexico_City")
        contexto.set_default_timeout(30_000)
        pagina = contexto.new_page()
        captura.pagina = pagina
        _entrar(pagina, hub, alumna)
        pagina.wait_for_url(f"**/user/{alumna}/lab**", timeout=150_000)
        pagina.wait_for_selector("#jp-main-dock-panel", timeout=90_000)
        pagina.wait_for_selector("#jp-MainMenu .lm-MenuBar-itemLabel >> text=Archivo", timeout=60_000)
        menu_nbgrader = _etiquetas_del_menu(pagina, "Nbgrader")
        assert "Lista de tareas" in menu_nbgrader, menu_nbgrader
        for solo_profesorado in ("Formgrader", "Lista de cursos", "Crear una tarea", "Course List", "Create assignment"):
            assert solo_profesorado not in menu_nbgrader, f"el alumnado ve «{solo_profesorado}»: {menu_nbgrader}"

        lab.menu(pagina, "Nbgrader", "Lista de tareas")
        publicada = pagina.locator("#released_assignments_list .list_item", has_text=TAREA)
        publicada.wait_for(timeout=60_000)
        aviso_plazo = publicada.locator(".curso-plazo")
        aviso_plazo.wait_for(timeout=60_000)
        texto = aviso_plazo.inner_text()
        assert texto.startswith("Plazo de entrega: ") and "GMT-6" in texto and "(en Madrid: " in texto, texto
        captura("alumna-assignments")
        # the tab in Spanish (ajustes_jupyterlab/labextension): its title, its lists, its buttons
        pagina.locator("#jp-main-dock-panel .lm-TabBar-tab", has_text="Tareas").first.wait_for(timeout=30_000)
        publicada.locator("button", has_text="Recoger").click()
        descargada = pagina.locator("#fetched_assignments_list .list_item", has_text=TAREA)
        descargada.first.wait_for(timeout=60_000)
        vencido = descargada.first.locator(".curso-plazo-vencido")
        vencido.wait_for(timeout=60_000)
        assert "El plazo terminó hace 2 h" in vencido.inner_text(), vencido.inner_text()

        # the student's answers (the perfect sample), saved into the fetched notebook
        alumna_http = Usuario(hub, alumna).entrar()
        assert alumna_http.get("lab").status_code == 200
        samples.build_student("perfecta", samples.RESPUESTAS / "perfecta.py", RAIZ / "release", tmp_path)
        contenido = json.loads((tmp_path / "perfecta" / TAREA / CUADERNO).read_text(encoding="utf-8"))
        guardado = alumna_http.put(f"api/contents/{hub.curso}/{TAREA}/{CUADERNO}",
                                   json={"type": "notebook", "format": "json", "content": contenido})
        assert guardado.status_code in (200, 201), guardado.text[:300]

        descargada.first.locator("button", has_text="Entregar").click()
        entregada = pagina.locator("#submitted_assignments_list .list_item", has_text=TAREA).first
        entregada.wait_for(timeout=120_000)
        tardia = entregada.locator(".curso-tarde")
        tardia.wait_for(timeout=60_000)
        assert "Entrega tardía: 2 h" in tardia.inner_text() and "10 %" in tardia.inner_text(), tardia.inner_text()
        # when it was sent, in her zone (and Madrid's), to the second: not nbgrader's UTC with microseconds
        hora = entregada.locator(".curso-entregada")
        hora.wait_for(timeout=60_000)
        instante = dt.datetime.fromisoformat(
            alumna_http.tareas()[TAREA]["submissions"][-1]["curso_entregada"].replace("Z", "+00:00"))
        en_mexico = instante.astimezone(ZoneInfo("America/Mexico_City")).strftime("%H:%M:%S")
        en_madrid = instante.astimezone(ZoneInfo("Europe/Madrid")).strftime("%H:%M:%S")
        assert re.fullmatch(rf"Entregada el \w+, \d+ de \w+ de \d{{4}}, {en_mexico} GMT-6 "
                            rf"\(en Madrid: .*, {en_madrid} CES?T\)\.", hora.inner_text()), hora.inner_text()
        captura("alumna-entregada")
        # no English left in the tab (the names of the course, the assignment and the notebook aside)
        pestana = pagina.locator(".nbgrader-mainarea-widget").inner_text()
        for nombre in (hub.curso, TAREA, CUADERNO, "Validate"):
            pestana = pestana.replace(nombre, " ")
        en_ingles = sorted({p.lower() for p in re.findall(r"[^\W\d_]{2,}", pestana)} & INGLES_DE_LA_PESTANA)
        assert not en_ingles, f"la pestaña Tareas tiene inglés ({en_ingles}):\n{pestana}"
        assert alumna_http.tareas()[TAREA]["status"] == "submitted"

        # --- the TA collects and autogrades (HTTP), then clicks Generate Feedback in Chromium
        assert ta.formgrader("POST", f"assignment/{TAREA}/collect")["success"]
        autograde = ta.formgrader("POST", f"submission/{TAREA}/{alumna}/autograde")
        assert autograde["success"], autograde.get("error") or autograde

        pagina_ta = lab.nueva_pagina(navegador)
        captura.pagina = pagina_ta
        formgrader = hub.url_del_formgrader()                 # its own origin
        origen_fg = formgrader.split("/services/")[0]
        # (the hub's ?next= keeps only the path of a subdomain's URL: go there after logging in)
        _entrar(pagina_ta, hub, profesora)
        pagina_ta.wait_for_url("**/hub/**", timeout=60_000)
        pagina_ta.goto(f"{formgrader}formgrader")
        pagina_ta.wait_for_url(f"**/services/{hub.curso}/formgrader**", timeout=60_000)
        fila = pagina_ta.locator("tr", has_text=TAREA)
        fila.first.wait_for(timeout=60_000)
        captura("profesora-formgrader")
        fila.first.locator("td.generate-feedback a").click()
        modal = pagina_ta.locator("#success-modal, #error-modal")
        modal.first.wait_for(timeout=300_000)
        captura("profesora-generate-feedback")
        texto = modal.first.inner_text()
        assert pagina_ta.locator("#success-modal").count() == 1, f"Generate Feedback falló:\n{texto[:3000]}"

        comentarios = list((hub.raiz_curso / "feedback" / alumna / TAREA).glob("*.html"))
        assert comentarios, "Generate Feedback no escribió los comentarios"
        html = comentarios[0].read_text(encoding="utf-8")
        assert "Puntos:" in html and "BEGIN HIDDEN TESTS" not in html
        assert "Penalización por entrega tardía" in html and "Entregaste 2 h" in html

        pagina_ta.keyboard.press("Escape")

        # --- formgrader's links open under the service (not /hub/tree/..., nbgrader #1034)
        servicio = f"/services/{hub.curso}"
        enlaces = {"nombre de la tarea": fila.first.locator("td.name a").get_attribute("href"),
                   "Preview": fila.first.locator("td.preview a").get_attribute("href")}
        pagina_ta.goto(f"{origen_fg}{servicio}/formgrader/gradebook/{TAREA}/{CUADERNO.removesuffix('.ipynb')}")
        entrega = pagina_ta.locator("#main-table td.name a.name-hidden").first
        entrega.wait_for(state="attached", timeout=60_000)
        # the submission page, with everything off the machine aborted (MathJax comes from the service)
        fuera = []
        pagina_ta.context.route("**/*", lambda r: r.continue_() if _en_la_maquina(r.request.url, hub)
                                else (fuera.append(r.request.url), r.abort()))
        pagina_ta.goto(origen_fg + entrega.get_attribute("href"))
        pagina_ta.wait_for_function("() => window.formgrader && formgrader.loaded && MathJax.loaded",
                                    timeout=90_000)
        assert pagina_ta.locator("#notebook-container .MathJax").count() > 20
        # the late note above the notebook, from the course's endpoint under the service
        assert "Entregada 2 h" in pagina_ta.locator("#curso-retraso").inner_text(timeout=60_000)
        assert not fuera, f"la página de la entrega pide fuera de la máquina: {fuera}"
        captura("profesora-entrega-sin-red")
        enlaces["Submission #1"] = pagina_ta.locator("li.live-notebook a.name-hidden").get_attribute("href")
        enlaces["nombre de la alumna"] = pagina_ta.locator("li.live-notebook a.name-shown").get_attribute("href")
        for que, href in enlaces.items():
            # the submission's links open its read-only view (no kernel, attack report A2)
            esperada = f"{servicio}/formgrader/curso/lectura/" if que in ("Submission #1", "nombre de la alumna") \
                else f"{servicio}/lab/tree/"
            assert href and href.startswith(esperada), f"{que}: {href}"
            # in the browser (Chromium resolves *.localhost; Playwright's own HTTP client does not)
            respuesta = pagina_ta.goto(origen_fg + href)
            assert respuesta.status == 200 and "/hub/" not in pagina_ta.url, \
                f"{que}: {href} → {respuesta.status} {pagina_ta.url}"

        # --- attack report A1: a page on the student's server's origin, opened by the TA
        pagina_ta.context.unroute("**/*")
        origen_alumna = hub.url_de_usuario(alumna).split("/user/")[0]
        assert len({origen_alumna, origen_fg, hub.url}) == 3
        ataque = f"{origen_alumna}/user/{alumna}/static/demo.html"
        trabajador = ("self.addEventListener('fetch', e => e.respondWith(new Response("
                      "'<h1>formgrader secuestrado</h1>', {headers: {'Content-Type': 'text/html'}})));")
        pagina_ta.context.route(f"{origen_alumna}/**", lambda r: r.fulfill(
            status=200, headers={"Service-Worker-Allowed": "/"},
            content_type="application/javascript" if r.request.url.endswith(".js") else "text/html",
            body=trabajador if r.request.url.endswith(".js") else "<!doctype html><p>Sesión caducada</p>"))
        pagina_ta.goto(ataque)
        resultado = pagina_ta.evaluate("""async (fg) => {
            const r = {origen: location.origin};
            try {
                const x = await fetch(fg + 'formgrader/api/students', {credentials: 'include'});
                r.leido = await x.text();
            } catch (e) { r.error = String(e); }
            try {
                const reg = await navigator.serviceWorker.register('/sw.js', {scope: '/'});
                r.ambito = reg.scope;
            } catch (e) { r.error_sw = String(e); }
            return r; }""", formgrader)
        assert resultado["origen"] == origen_alumna, resultado
        assert "leido" not in resultado and "Failed to fetch" in resultado.get("error", ""), resultado
        # whether or not the worker registers, its scope can only be the student's origin
        assert "ambito" not in resultado or resultado["ambito"].startswith(origen_alumna + "/"), resultado
        pagina_ta.context.unroute(f"{origen_alumna}/**")
        pagina_ta.goto(f"{formgrader}formgrader/manage_assignments")
        pagina_ta.locator("tr", has_text=TAREA).first.wait_for(timeout=60_000)
        assert pagina_ta.evaluate("() => navigator.serviceWorker.controller === null")
        assert "secuestrado" not in pagina_ta.content()
        captura("profesora-formgrader-tras-la-pagina-de-la-alumna")

        # --- the course page (the service's, on the formgrader's origin): the whole class without a terminal
        pagina_ta.goto(f"{formgrader}curso/")
        pagina_ta.locator("button#calificar").wait_for(timeout=60_000)
        assert pagina_ta.locator("a#notas").inner_text() == "Descargar grades.csv"
        # the page's script reads the grading status (with the XSRF token JupyterHub asks of a script)
        pagina_ta.wait_for_function("() => document.body.dataset.estado", timeout=60_000)
        assert pagina_ta.evaluate("() => document.body.dataset.estado") == "consultado", \
            pagina_ta.locator("#estado").inner_text()
        assert not pagina_ta.locator("button#calificar").is_disabled()
        assert pagina_ta.evaluate("() => navigator.serviceWorker.controller === null")
        captura("profesora-pagina-del-curso")
        # «Pendientes de revisión»: none yet
        assert pagina_ta.locator("#pendientes").inner_text().strip() == "Ninguna."

        # --- a manual grade, then a resubmission: held for review (issue 21, fresh TA's report)
        cuaderno = CUADERNO.removesuffix(".ipynb")
        [enviado] = [e for e in ta.formgrader("GET", f"submitted_notebooks/{TAREA}/{cuaderno}")
                     if e["student"] == alumna]
        [celda] = [g for g in ta.formgrader("GET", f"grades?submission_id={enviado['id']}")
                   if g["name"] == "positional_encoding_valores"]
        ta.formgrader("PUT", f"grade/{celda['id']}", json={"manual_score": 1, "extra_credit": None})
        for c in contenido["cells"]:
            if c["metadata"].get("nbgrader", {}).get("grade_id") == "positional_encoding":
                c["source"] = "".join(c["source"]) + "\n# segunda entrega, corregida\n"
        guardado = alumna_http.put(f"api/contents/{hub.curso}/{TAREA}/{CUADERNO}",
                                   json={"type": "notebook", "format": "json", "content": contenido})
        assert guardado.status_code in (200, 201), guardado.text[:300]
        alumna_http.accion("submit", TAREA)
        assert ta.formgrader("POST", f"assignment/{TAREA}/collect")["success"]
        autograde = ta.formgrader("POST", f"submission/{TAREA}/{alumna}/autograde")
        assert autograde["success"], autograde.get("error") or autograde
        # the course page lists it without a reload
        pagina_ta.bring_to_front()
        pagina_ta.locator("#pendientes li", has_text=f"{alumna} / {TAREA}").wait_for(timeout=60_000)
        # as a link to the submission in the formgrader (where it is reviewed), drawn by the page's script
        enlace_pendiente = pagina_ta.locator("#pendientes li a", has_text=f"{alumna} / {TAREA}").get_attribute("href")
        captura("profesora-pagina-del-curso-pendiente")

        # formgrader, in another tab: the late mark on the assignment's submissions
        pagina_fg = pagina_ta.context.new_page()
        captura.pagina = pagina_fg
        pagina_fg.goto(f"{formgrader}formgrader/manage_submissions/{TAREA}")
        marca = pagina_fg.locator("#main-table tr", has_text=alumna).locator(".curso-tarde")
        assert marca.inner_text(timeout=60_000).startswith("⚠ tarde: −"), marca.inner_text()
        # Generate Feedback refused: the Spanish reason and a link to the submission, nothing else
        pagina_fg.goto(f"{formgrader}formgrader/manage_assignments")
        pagina_fg.locator("tr", has_text=TAREA).first.locator("td.generate-feedback a").click()
        dialogo = pagina_fg.locator("#error-modal")
        dialogo.locator(".modal-title", has_text="pendientes de revisión").wait_for(timeout=300_000)
        texto = dialogo.inner_text()
        assert f"No se generaron los comentarios de este alumno en «{TAREA}»: {alumna}." in texto, texto
        for ruido in ("Traceback", "Template paths", "[DEBUG]", "Log Output", "/tmp/"):
            assert ruido not in texto, f"el diálogo enseña «{ruido}»: {texto}"
        captura("profesora-comentarios-negados")
        href = dialogo.locator("a", has_text=alumna).get_attribute("href")
        assert href.startswith(f"{servicio}/formgrader/submissions/"), href
        assert enlace_pendiente == f"{servicio}/formgrader/submissions/{href.rsplit('/', 1)[1]}", enlace_pendiente
        # the submission page: «Aceptar la nota automática» resolves it
        pagina_fg.goto(origen_fg + href)
        pagina_fg.wait_for_function("() => window.formgrader && formgrader.loaded", timeout=90_000)
        caja = pagina_fg.locator("#curso-revision")
        assert "positional_encoding_valores" in caja.inner_text(timeout=60_000)
        pagina_fg.locator("#curso-aceptar").click()
        pagina_fg.locator("#curso-revision.alert-success", has_text="Revisada").wait_for(timeout=60_000)
        captura("profesora-revisada")
        nota = [g for g in ta.formgrader("GET", f"grades?submission_id={enviado['id']}")
                if g["name"] == "positional_encoding_valores"][0]
        assert nota["manual_score"] is None and not nota["needs_manual_grade"], nota
        # the course page's box follows, without a reload
        pagina_ta.bring_to_front()
        pagina_ta.wait_for_function("() => document.getElementById('pendientes').innerText.trim() === 'Ninguna.'",
                                    timeout=60_000)
        # and Generate Feedback goes through
        pagina_fg.bring_to_front()
        pagina_fg.goto(f"{formgrader}formgrader/manage_assignments")
        pagina_fg.locator("tr", has_text=TAREA).first.locator("td.generate-feedback a").click()
        pagina_fg.locator("#success-modal, #error-modal").first.wait_for(timeout=300_000)
        assert pagina_fg.locator("#success-modal").count() == 1, pagina_fg.locator("#error-modal").inner_text()
