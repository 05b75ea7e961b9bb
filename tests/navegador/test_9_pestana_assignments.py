"""The Assignments tab's due-date lines (despliegue/plazos_assignments), in Chromium, without a hub.

The course's extension (``labextension/static/remoteEntry.js``) on a page laid out as nbgrader's
Assignments tab lays out its lists, with the exchange list's answer (``/assignments``) stubbed: two
students whose due date passed an hour ago, one with an on-time submission, one without.  The one
who already handed in on time reads a calm note, not the alarm (fifth TA's report, P6: «⚠ El plazo
terminó hace 12 min… contará como entrega tardía» above «✓ Entregada a tiempo»); the other keeps
the warning.  The end-to-end check on the hub is tests/navegador/test_6_hub.py.
"""
from __future__ import annotations

import datetime as dt
import json

from .laboratorio import RAIZ

EXTENSION = RAIZ / "despliegue" / "plazos_assignments" / "labextension" / "static" / "remoteEntry.js"
CURSO, TAREA = "atencion-y-posicion", "01_atencion_multicabeza"

PAGINA = """<!DOCTYPE html><html><head><meta charset="utf-8">
<script id="jupyter-config-data" type="application/json">{"baseUrl": "/"}</script></head><body>
<div id="released_assignments_list"></div>
<div id="fetched_assignments_list">
  <div class="list_item row"><span class="item_name"><span>%(tarea)s</span></span>
  <span class="item_course">%(curso)s</span></div>
</div>
<div id="submitted_assignments_list"></div>
</body></html>"""


def _respuesta(entregas: list[dict]) -> dict:
    ahora = dt.datetime.now(dt.timezone.utc)
    plazo = {"plazo": (ahora - dt.timedelta(hours=1)).isoformat().replace("+00:00", "Z"), "zona": "Europe/Madrid",
             "prorroga": False, "politica": {"texto": "Cada día de retraso empezado resta el 10 % de la nota.",
                                             "gracia_s": 0}}
    lista = [{"assignment_id": TAREA, "course_id": CURSO, "status": "fetched", "curso_plazo": plazo}]
    if entregas:
        lista.append({"assignment_id": TAREA, "course_id": CURSO, "status": "submitted", "curso_plazo": plazo,
                      "submissions": entregas})
    return {"success": True, "value": lista}


def _aviso(pagina, entregas: list[dict]) -> str:
    pagina.route("**/assignments?course_id=*", lambda ruta: ruta.fulfill(
        status=200, content_type="application/json", body=json.dumps(_respuesta(entregas))))
    pagina.route("**/assignments-tab", lambda ruta: ruta.fulfill(
        status=200, content_type="text/html", body=PAGINA % {"tarea": TAREA, "curso": CURSO}))
    pagina.goto("http://curso.localhost/assignments-tab")
    pagina.add_script_tag(content=EXTENSION.read_text(encoding="utf-8"))
    pagina.evaluate("""() => window._JUPYTERLAB['curso-atencion-plazos'].get('./extension')
        .then(f => { f().default[0].activate(); document.body.appendChild(document.createElement('i')); })""")
    aviso = pagina.locator("#fetched_assignments_list .curso-plazo-vencido")
    aviso.wait_for(timeout=10_000)
    return aviso.inner_text()


def _entrega(segundos_tarde: float) -> dict:
    return {"timestamp": "2026-12-02 06:48:47.000000 UTC", "curso_entregada": "2026-12-02T06:48:47Z",
            "curso_segundos_tarde": segundos_tarde, "curso_fraccion": 0.1 if segundos_tarde > 0 else 0}


def test_quien_ya_entrego_a_tiempo_no_recibe_la_alarma(pagina):
    texto = _aviso(pagina, [_entrega(300), _entrega(0)])          # the newest, on time, is the one graded
    assert texto.startswith("✓ Ya entregaste a tiempo. El plazo terminó hace 1 h"), texto
    # it says that a new submission replaces the on-time one and what the penalty applies to (TA round 7, P4)
    assert ("si vuelves a entregar, la nueva entrega sustituirá a la que entregaste a tiempo, contará como tardía y "
            "será la que se califique, con la penalización sobre toda su nota") in texto
    assert "⚠" not in texto


def test_sin_entrega_a_tiempo_el_aviso_sigue(pagina):
    for entregas in ([], [_entrega(0), _entrega(64)]):           # nothing handed in; the newest was late
        pagina.unroute_all()
        texto = _aviso(pagina, entregas)
        assert texto.startswith("⚠ El plazo terminó hace 1 h: lo que entregues ahora contará como entrega "
                                "tardía"), (entregas, texto)
        assert ("sustituirá a tu entrega anterior (se califica siempre la última" in texto) == bool(entregas), texto


PAGINA_ENTREGADA = """<!DOCTYPE html><html><head><meta charset="utf-8">
<script id="jupyter-config-data" type="application/json">{"baseUrl": "/"}</script></head><body>
<div id="released_assignments_list"></div>
<div id="submitted_assignments_list">
  <div class="list_item row"><span class="item_name"><span>%(tarea)s</span></span>
  <span class="item_course">%(curso)s</span>
  %(filas)s</div>
</div>
</body></html>"""


def test_los_comentarios_de_una_entrega_anterior_se_marcan_como_viejos(pagina):
    """nbgrader keeps every submission's feedback in the tab; the course marks an older one's as no longer
    valid (sixth TA report, P3-2: the 17/18 feedback of the first submission beside the graded 18/18)."""
    marcas = ["2026-12-02 09:35:52.000000 UTC", "2026-12-02 10:40:11.000000 UTC"]
    for con_nuevos in (True, False):
        entregas = [dict(_entrega(0), timestamp=m, curso_entregada=m[:19].replace(" ", "T") + "Z",
                         has_local_feedback=True) for m in marcas]
        entregas[-1]["has_local_feedback"] = con_nuevos
        filas = "".join(f'<div class="nested_list_item"><span class="item_name">{m} (view feedback)</span></div>'
                        for m in marcas)
        pagina.unroute_all()
        pagina.route("**/assignments?course_id=*", lambda ruta, _peticion=None, e=entregas: ruta.fulfill(
            status=200, content_type="application/json", body=json.dumps(
                {"success": True, "value": [dict(_respuesta(e)["value"][1])]})))
        pagina.route("**/assignments-tab", lambda ruta, _peticion=None, f=filas: ruta.fulfill(
            status=200, content_type="text/html", body=PAGINA_ENTREGADA % {"tarea": TAREA, "curso": CURSO, "filas": f}))
        pagina.goto("http://curso.localhost/assignments-tab")
        pagina.add_script_tag(content=EXTENSION.read_text(encoding="utf-8"))
        pagina.evaluate("""() => window._JUPYTERLAB['curso-atencion-plazos'].get('./extension')
            .then(f => { f().default[0].activate(); document.body.appendChild(document.createElement('i')); })""")
        pagina.locator(".curso-a-tiempo").nth(1).wait_for(timeout=10_000)
        viejos = pagina.locator(".nested_list_item").nth(0).locator(".curso-comentarios-viejos")
        assert viejos.inner_text().startswith("⚠ Estos comentarios son de una entrega anterior y ya no valen")
        assert ("mira sus comentarios" if con_nuevos else "pulsa «Recoger comentarios»") in viejos.inner_text()
        assert pagina.locator(".nested_list_item").nth(1).locator(".curso-comentarios-viejos").count() == 0
        assert "Es la última: la que se califica" in pagina.locator(".nested_list_item").nth(1).inner_text()


def test_los_comentarios_que_ya_no_dicen_la_nota_se_marcan(pagina):
    """The service found the released feedback stale (an extension or a review since): the newest
    submission's feedback is marked (sixth TA report, P3-2: «✓ Entregada a tiempo» beside a late penalty)."""
    marca = "2026-12-02 10:40:11.000000 UTC"
    entrega = dict(_entrega(0), timestamp=marca, curso_entregada="2026-12-02T10:40:11Z", has_local_feedback=True)
    respuesta = _respuesta([entrega])["value"][1]
    respuesta["curso_plazo"] = dict(respuesta["curso_plazo"], comentarios_desactualizados=True)
    fila = f'<div class="nested_list_item"><span class="item_name">{marca} (view feedback)</span></div>'
    pagina.route("**/assignments?course_id=*", lambda ruta: ruta.fulfill(
        status=200, content_type="application/json", body=json.dumps({"success": True, "value": [respuesta]})))
    pagina.route("**/assignments-tab", lambda ruta: ruta.fulfill(
        status=200, content_type="text/html", body=PAGINA_ENTREGADA % {"tarea": TAREA, "curso": CURSO, "filas": fila}))
    pagina.goto("http://curso.localhost/assignments-tab")
    pagina.add_script_tag(content=EXTENSION.read_text(encoding="utf-8"))
    pagina.evaluate("""() => window._JUPYTERLAB['curso-atencion-plazos'].get('./extension')
        .then(f => { f().default[0].activate(); document.body.appendChild(document.createElement('i')); })""")
    viejos = pagina.locator(".nested_list_item .curso-comentarios-viejos")
    viejos.wait_for(timeout=10_000)
    assert viejos.inner_text().startswith("⚠ Estos comentarios ya no dicen tu nota actual")
    assert "pulsa «Recoger comentarios»" in viejos.inner_text()
    assert "✓ Entregada a tiempo." in pagina.locator(".nested_list_item").inner_text()


def test_lo_que_no_se_entrego_se_nombra_bajo_la_entrega(pagina):
    """TA round 7, P2-2: links and special files the hub's submit left out are named under the submission,
    as text (a hostile name stays inert), with what to do."""
    marca = "2026-12-02 10:40:11.000000 UTC"
    entrega = dict(_entrega(0), timestamp=marca, curso_entregada="2026-12-02T10:40:11Z",
                   curso_omitidos=[{"ruta": "datos", "motivo": "enlace simbólico"},
                                   {"ruta": "<img src=x onerror=alert(1)>", "motivo": "tubería con nombre (FIFO)"}],
                   curso_omitidos_mas=3)
    respuesta = _respuesta([entrega])["value"][1]
    fila = f'<div class="nested_list_item"><span class="item_name">{marca}</span></div>'
    pagina.route("**/assignments?course_id=*", lambda ruta: ruta.fulfill(
        status=200, content_type="application/json", body=json.dumps({"success": True, "value": [respuesta]})))
    pagina.route("**/assignments-tab", lambda ruta: ruta.fulfill(
        status=200, content_type="text/html", body=PAGINA_ENTREGADA % {"tarea": TAREA, "curso": CURSO, "filas": fila}))
    pagina.goto("http://curso.localhost/assignments-tab")
    pagina.add_script_tag(content=EXTENSION.read_text(encoding="utf-8"))
    pagina.evaluate("""() => window._JUPYTERLAB['curso-atencion-plazos'].get('./extension')
        .then(f => { f().default[0].activate(); document.body.appendChild(document.createElement('i')); })""")
    omitidos = pagina.locator(".nested_list_item .curso-omitidos")
    omitidos.wait_for(timeout=10_000)
    texto = omitidos.inner_text()
    assert texto.startswith("⚠ No se entregó: «datos» (enlace simbólico), «<img src=x onerror=alert(1)>» "
                            "(tubería con nombre (FIFO)) y 3 más."), texto
    assert "pon una copia normal en su lugar y vuelve a entregar" in texto
    assert pagina.locator(".nested_list_item img").count() == 0


# ------------------------------------------------------- the tab in Spanish (ajustes_jupyterlab/labextension)
INTERFAZ = RAIZ / "ajustes_jupyterlab" / "labextension" / "static" / "remoteEntry.js"


def _plantilla_de_nbgrader() -> str:
    """The Assignments tab's HTML as the installed nbgrader labextension writes it (its own template literal)."""
    import sys
    from pathlib import Path

    estaticos = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyter" / "nbgrader" / "static"
    for js in sorted(estaticos.glob("*.js")):
        texto = js.read_text(encoding="utf-8")
        inicio = texto.find('<div id="assignments" class="tab-pane">')
        if inicio >= 0:
            return texto[inicio:texto.index("`", inicio)].replace("\\n", "\n")
    raise AssertionError(f"no encuentro la plantilla de la pestaña Assignments en {estaticos}")


def test_la_pestana_de_tareas_en_espanol_sin_tocar_los_nombres(pagina):
    """nbgrader's literals become Spanish (issue 22: the Assignments tab was the English left on the hub);
    a course, an assignment and a notebook whose names are those very literals keep their names."""
    filas = """
      <div class="list_item row"><div class="col-md-12">
        <span class="item_name col-sm-6"><span>Fetch</span></span>
        <span class="item_course col-sm-2">Submit</span>
        <span class="item_status col-sm-4"><button class="btn btn-primary btn-xs">Fetch</button></span></div></div>"""
    entregadas = """
      <div class="list_item row"><div class="col-md-12">
        <span class="item_name col-sm-6"><span>Fetch Feedback</span></span>
        <span class="item_course col-sm-2">Fetch</span>
        <span class="item_status col-sm-4"><button class="btn btn-primary btn-xs">Fetch Feedback</button></span></div>
        <div class="list_item row nested_list_item"><div class="col-md-12"><span class="item_name col-sm-6">
          Submit<a> (view feedback)</a></span></div></div></div>"""
    html = _plantilla_de_nbgrader()
    html = html.replace('<div id="released_assignments_list" class="list_container">',
                        '<div id="released_assignments_list" class="list_container">' + filas, 1)
    html = html.replace('<div id="submitted_assignments_list" class="list_container">',
                        '<div id="submitted_assignments_list" class="list_container">' + entregadas, 1)
    html = html.replace('<ul class="dropdown-menu" id="course_list">',
                        '<ul class="dropdown-menu" id="course_list"><li><a href="#">Submit</a></li>', 1)
    pagina.route("**/tareas", lambda ruta: ruta.fulfill(status=200, content_type="text/html", body=(
        '<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"></head><body>'
        f'<div class="nbgrader-mainarea-widget">{html}</div></body></html>')))
    pagina.goto("http://curso.localhost/tareas")
    pagina.add_script_tag(content=INTERFAZ.read_text(encoding="utf-8"))
    pagina.evaluate("""() => window._JUPYTERLAB['curso-atencion-interfaz'].get('./extension')
        .then(f => f().default[0].activate(null))""")
    pagina.wait_for_function("() => document.body.innerText.includes('Tareas publicadas')", timeout=10_000)
    texto = pagina.locator(".nbgrader-mainarea-widget").inner_text()
    for espanol in ("Tareas publicadas, descargadas y entregadas del curso:", "Cargando…", "Tareas publicadas",
                    "No hay tareas descargadas.", "Tareas entregadas", "Recoger", "Recoger comentarios",
                    "(ver comentarios)"):
        assert espanol in texto, (espanol, texto)
    assert pagina.locator("#refresh_assignments_list").get_attribute("title") == "Actualizar la lista de tareas"
    # the names, where nbgrader writes them, are left as they are
    assert pagina.locator("#released_assignments_list .item_name").inner_text() == "Fetch"
    assert pagina.locator("#released_assignments_list .item_course").inner_text() == "Submit"
    assert pagina.locator("#released_assignments_list button").inner_text() == "Recoger"
    assert pagina.locator("#submitted_assignments_list .item_name").first.inner_text() == "Fetch Feedback"
    assert pagina.locator("#submitted_assignments_list button").inner_text() == "Recoger comentarios"
    assert pagina.locator(".nested_list_item .item_name").inner_text().startswith("Submit")
    assert pagina.locator("ul#course_list a").inner_text() == "Submit"
    # and no English literal of nbgrader's is left
    ingles = ("Released", "Downloaded", "Submitted", "There are no", "Loading", "view feedback", "Toggle")
    assert not [i for i in ingles if i in texto], texto
