"""The TA's view: after ``python scripts/calificacion/grade.py``, nbgrader's formgrader lists everything.

JupyterLab runs from the (temporary) course root, where ``nbgrader_config.py``
and ``gradebook.db`` are; the formgrader is opened the way a TA does it, from
the «Nbgrader» menu, and shows inside its JupyterLab panel (an iframe on
``/formgrader``).
"""
from __future__ import annotations

import sys

from . import laboratorio as lab
from .conftest import RAIZ, TAREAS


def _notas(curso) -> dict[str, dict[str, str]]:
    """``{tarea: {alumno: "score / max"}}`` from the gradebook the TA's run wrote."""
    from scripts.calificacion import libro_de_notas
    notas: dict[str, dict[str, str]] = {}
    with libro_de_notas.abrir(curso) as gb:
        for tarea in TAREAS:
            for entrega in gb.find_assignment(tarea).submissions:
                notas.setdefault(tarea, {})[entrega.student.id] = (
                    f"{entrega.score:g} / {entrega.max_score:g}")
    return notas


def _marco(pagina, fragmento: str):
    for marco in pagina.frames:
        if fragmento in marco.url:
            return marco
    raise AssertionError(f"no hay ningún marco en {fragmento}: {[m.url for m in pagina.frames]}")


def test_formgrader_lista_tareas_y_entregas_calificadas(servidor_ta, curso_ta, pagina, captura):
    sys.path.insert(0, str(RAIZ))
    from scripts.calificacion import samples
    muestras = samples.sample_students()
    notas = _notas(curso_ta)
    for tarea in TAREAS:
        assert sorted(notas.get(tarea, {})) == sorted(muestras), f"gradebook de {tarea}: {notas.get(tarea)}"

    # nothing the TA's JupyterLab and its formgrader load leaves the machine (aborted and listed)
    fuera = []
    pagina.goto(servidor_ta.enlace("api/status"))
    pagina.context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(servidor_ta.url)
                         or r.request.url.startswith("data:") else (fuera.append(r.request.url), r.abort()))
    pagina.goto(servidor_ta.enlace("lab?reset"))
    lab.esperar_lab(pagina)
    # make lab's JupyterLab (ajustes_jupyterlab/profesorado) keeps the teacher's tools the
    # student's environment turns off: Create Assignment in the right sidebar, Formgrader.
    comandos = pagina.evaluate("() => window.jupyterapp.commands.listCommands()")
    assert {"nbgrader:open-formgrader", "nbgrader:open-create-assignment"} <= set(comandos)
    assert pagina.locator("#nbgrader-create_assignemnt").count() == 1
    lab.menu(pagina, "Nbgrader", "Formgrader")
    marco = pagina.frame_locator("iframe[src*='formgrader']")

    # Manage Assignments: both lessons, each with every sample submitted.
    for tarea in TAREAS:
        fila = marco.locator("tr", has_text=tarea)
        fila.first.wait_for(timeout=60_000)
        assert fila.locator("td").nth(0).inner_text().strip() == tarea
        enviados = fila.locator("td").filter(has_text=str(len(muestras))).count()
        assert enviados >= 1, f"{tarea}: la columna de entregas no dice {len(muestras)}"
    captura("gestionar-tareas")
    # the course's due dates are set in plazos.toml: the page and the Edit dialog say so (a date
    # typed there is replaced, issue 21's TA report)
    assert "plazos.toml" in marco.locator("#curso-aviso-plazos").inner_text()
    marco.locator("tr", has_text=sorted(TAREAS)[0]).locator("td.edit a").first.click()
    dialogo = marco.locator("#edit-assignment-modal .modal-body")
    dialogo.locator(".curso-aviso-plazos").wait_for(timeout=15_000)
    assert "[prorrogas.<tarea>]" in dialogo.locator(".curso-aviso-plazos").inner_text()
    captura("editar-plazo")
    marco.locator("#edit-assignment-modal .modal-footer button", has_text="Cancel").first.click()
    marco.locator("#edit-assignment-modal").wait_for(state="detached", timeout=15_000)

    # Each assignment's submissions: every sample, graded, with the gradebook's score.
    for tarea in TAREAS:
        marco.locator("tr", has_text=tarea).locator("a", has_text=str(len(muestras))).click()
        marco.locator("#main-table td.student-id", has_text="perfecta").wait_for(timeout=60_000)
        tabla = _marco(pagina, f"/formgrader/manage_submissions/{tarea}").locator("#main-table tr")
        vistas = {}
        for i in range(tabla.count()):
            fila = tabla.nth(i)
            vistas[fila.locator("td.student-id").inner_text().strip()] = (
                fila.locator("td.status").inner_text().strip(), fila.locator("td.score").inner_text().strip())
            # the samples have no names (as on the hub): the id, never «None, None» (issue 21's TA report)
            assert fila.locator("td.student-name").inner_text().strip() == \
                fila.locator("td.student-id").inner_text().strip()
        assert sorted(vistas) == sorted(muestras), vistas
        for alumno, (estado, nota) in vistas.items():
            assert estado == "graded", f"{tarea}/{alumno}: {estado}"
            assert nota == notas[tarea][alumno], f"{tarea}/{alumno}: {nota} ≠ {notas[tarea][alumno]}"
        nota_perfecta, maximo = vistas["perfecta"][1].split(" / ")
        assert nota_perfecta == maximo, f"{tarea}: la muestra perfecta no tiene la nota máxima"
        assert vistas["en_blanco"][1].startswith("0 /")
        captura(f"entregas-{tarea}")
        marco.locator("a", has_text="Manage Assignments").click()
        marco.locator("tr", has_text=tarea).first.wait_for()

    # Manage Students: every sample student with an overall score.
    marco.locator("a", has_text="Manage Students").click()
    marco.locator("td", has_text="perfecta").first.wait_for(timeout=60_000)
    texto = _marco(pagina, "/formgrader/manage_students").locator("table").first.inner_text()
    for alumno in muestras:
        assert alumno in texto
    # without names or email: the id and «—», never «None»
    assert "None" not in texto, texto
    fila = _marco(pagina, "/formgrader/manage_students").locator("#main-table tr", has_text="perfecta").first
    assert fila.locator("td.name").inner_text().strip() == "perfecta"
    assert fila.locator("td.email").inner_text().strip() == "—"
    captura("gestionar-alumnos")
    assert not fuera, f"JupyterLab o formgrader piden fuera de la máquina: {fuera}"


def test_mathjax_de_la_entrega_no_pide_fuentes_que_no_estan(pagina):
    """Every formula of every lesson, typeset by the submission page's MathJax as formgrader serves it
    (the course's config and the environment's MathJax on formgrader's routes, under a hub service's
    base URL): no request fails.  The -full config's NativeMML styles asked for TeX .otf fonts
    (``…/formgrader/curso/mathjax/fonts/HTML-CSS/TeX/otf/MathJax_AMS-Regular.otf``: 404 in the
    issue 21 TA report) for the hidden MathML of screen readers as soon as a formula used \\mathbb."""
    import asyncio
    import html
    import threading

    import nbformat
    import tornado.web
    from grader_tests.extensiones_nbgrader import formgrader_seguro as fs

    base = "/services/curso"
    formulas = []
    for tarea, cuaderno in TAREAS.items():
        nb = nbformat.read(RAIZ / "release" / tarea / cuaderno, as_version=4)
        formulas += [c.source for c in nb.cells if c.cell_type == "markdown" and "$" in c.source]
    assert any("\\mathbb" in f for f in formulas), "ninguna lección usa \\mathbb: la prueba no vería el fallo"
    cuerpo = "".join(f"<div>{html.escape(f)}</div>" for f in formulas)
    documento = ('<!DOCTYPE html><html><head><meta charset="utf-8">'
                 f'<script src="{base}{fs.RUTA_ESTATICOS}curso_mathjax.js"></script>'
                 f'<script src="{base}{fs.RUTA_MATHJAX}MathJax.js?config={fs.CONFIG_MATHJAX}"></script>'
                 f'</head><body>{cuerpo}</body></html>')

    class Pagina(tornado.web.RequestHandler):
        def get(self):
            self.write(documento)

    puerto = lab.puerto_libre()
    listo, bucle = threading.Event(), []

    def servir():
        asyncio.set_event_loop(asyncio.new_event_loop())
        app = tornado.web.Application([
            (f"{base}/", Pagina),
            (f"{base}{fs.RUTA_ESTATICOS}(.*)", fs.EstaticosDelCurso, {"path": fs.ESTATICOS}),
            (f"{base}{fs.RUTA_MATHJAX}(.*)", fs.EstaticosDelCurso, {"path": fs.ruta_mathjax()})])
        app.listen(puerto, "127.0.0.1")
        bucle.append(asyncio.get_event_loop())
        listo.set()
        bucle[0].run_forever()

    hilo = threading.Thread(target=servir, daemon=True)
    hilo.start()
    assert listo.wait(30)
    try:
        fallidas = []
        pagina.on("response", lambda r: fallidas.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        # about:blank too: MathJax's web-font probe asked for a face there, which the submission page's CSP
        # (font-src 'self' data:) blocked with an error in the console (fifth TA's report, P3)
        pagina.on("requestfailed", lambda r: fallidas.append(f"{r.failure} {r.url}"))
        pagina.on("request", lambda r: fallidas.append(f"fuente {r.url}")
                  if r.url.startswith("about:") and r.resource_type == "font" else None)
        pagina.goto(f"http://127.0.0.1:{puerto}{base}/")
        pagina.wait_for_function("() => window.MathJax && MathJax.isReady && MathJax.Hub.queue.pending === 0",
                                 timeout=90_000)
        assert pagina.locator(".MathJax").count() > 20
        assert pagina.locator(".MJX_Assistive_MathML [mathvariant='double-struck']").count() > 0
        pagina.wait_for_load_state("networkidle")
        pagina.wait_for_timeout(500)
        assert fallidas == [], fallidas
    finally:
        bucle[0].call_soon_threadsafe(bucle[0].stop)
        hilo.join(10)
