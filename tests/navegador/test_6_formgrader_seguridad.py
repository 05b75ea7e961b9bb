"""The TA grades a hostile submission by hand in formgrader (issue 10).

Uses the hostile battery's graded course (``lote_hostil``): formgrader, run
from the course root as a TA runs it, opens ``c25_html`` (markdown with
``<script>``, event handlers, ``display(HTML/Javascript)``, forged image
outputs, each of which would set ``window.__inyectado`` and call the grading
API).  Checks: the student's text is there and no injected script ran; a
manual score and a comment typed in formgrader are saved, and after
formgrader's «Generate feedback» (its API) they are in the Spanish feedback
and, after ``nbgrader export``, in grades.csv.
"""
from __future__ import annotations

import csv
import json
import os
import shutil
import time

import pytest

from scripts.calificacion import libro_de_notas

from . import laboratorio as lab

TAREA = "02_codificacion_posicional"
ALUMNO = "c25_html"
COMENTARIO = "Comentario manual de la profesora 2718"


def _entrega(curso):
    with libro_de_notas.abrir(curso) as gb:
        nb = gb.find_submission_notebook("codificacion_posicional", TAREA, ALUMNO)
        nota = gb.find_submission(TAREA, ALUMNO).score
        return nb.id, nota


def _estado(curso):
    with libro_de_notas.abrir(curso) as gb:
        nb = gb.find_submission_notebook("codificacion_posicional", TAREA, ALUMNO)
        valores = [g for g in nb.grades if g.name == "positional_encoding_valores"][0]
        comentarios = [c.manual_comment for c in nb.comments if c.manual_comment]
        otras = sorted((s.student.id, s.score) for s in gb.find_assignment(TAREA).submissions
                       if s.student.id != ALUMNO)
        return valores.manual_score, comentarios, otras


def test_formgrader_entrega_hostil_inerte_y_nota_manual(lote_hostil, pagina, captura):
    curso = lote_hostil["curso"]
    id_cuaderno, nota_antes = _entrega(curso)
    _, _, otras_antes = _estado(curso)
    registro = lab.ARTEFACTOS / "servidor-ta-hostil.log"
    registro.unlink(missing_ok=True)
    servidor = lab.ServidorLab(curso, cwd=curso, registro=registro, perfil=lab.PROFESORADO).arrancar()
    try:
        # logged in as a TA is: JupyterLab first (the token sets the session cookie), then formgrader
        pagina.goto(servidor.enlace("lab?reset"))
        lab.esperar_lab(pagina)
        pagina.goto(f"{servidor.url}/formgrader/submissions/{id_cuaderno}/?index=0")
        pagina.locator("input.score").first.wait_for(timeout=60_000)
        pagina.wait_for_timeout(1500)                 # time for anything that would run
        captura("entrega-hostil")
        contenido = pagina.content()
        assert "Texto visible del alumno 4815" in contenido
        assert pagina.evaluate("() => window.__inyectado === undefined"), "un guion del alumno se ejecutó"
        assert pagina.evaluate("""() => Array.from(document.scripts)
            .filter(s => (s.textContent || '').includes('__inyectado')).length""") == 0
        assert pagina.evaluate("""() => Array.from(document.querySelectorAll('*')).filter(e =>
            Array.from(e.attributes).some(a => a.name.startsWith('on') && a.value.includes('__inyectado')
                || /^\\s*javascript:/i.test(a.value))).length""") == 0

        # a manual score for the values cell and a comment on the answer, as a TA types them
        puntos = pagina.locator("input.score#positional_encoding_valores")
        puntos.fill("1")
        puntos.press("Tab")
        comentario = pagina.locator("textarea#positional_encoding-comment")
        comentario.fill(COMENTARIO)
        comentario.press("Tab")
        limite = time.monotonic() + 30
        while time.monotonic() < limite:
            manual, comentarios, _ = _estado(curso)
            if manual == 1 and COMENTARIO in comentarios:
                break
            pagina.wait_for_timeout(300)
        manual, comentarios, otras = _estado(curso)
        assert manual == 1 and COMENTARIO in comentarios, (manual, comentarios)
        assert otras == otras_antes, "cambiaron las notas de otros alumnos"
        captura("nota-manual")

        # formgrader's «Generate feedback» for this student (the button's API call)
        respuesta = pagina.evaluate("""async (url) => {
            const m = document.cookie.match(/_xsrf=([^;]+)/);
            const r = await fetch(url, {method: 'POST',
                headers: m ? {'X-CSRFToken': decodeURIComponent(m[1])} : {}});
            return [r.status, await r.text()]; }""",
            f"{servidor.url}/formgrader/api/assignment/{TAREA}/{ALUMNO}/generate_feedback")
        assert respuesta[0] == 200, respuesta
        assert json.loads(respuesta[1]).get("success"), respuesta[1][-2000:]
    finally:
        servidor.limpiar()

    html = (curso / "feedback" / ALUMNO / TAREA / "codificacion_posicional.html").read_text()
    assert COMENTARIO in html
    assert "Puntos: 1.0 / 3.0" in html and "Respuesta del alumno" in html    # the Spanish template
    assert "<script>window.__inyectado" not in html
    lab.ARTEFACTOS.mkdir(parents=True, exist_ok=True)
    exportar = __import__("curso_temporal").ejecutar(curso, "nbgrader", "export", "--to", str(curso / "grades.csv"))
    assert exportar.returncode == 0
    with open(curso / "grades.csv") as f:
        filas = [r for r in csv.DictReader(f) if r["student_id"] == ALUMNO and r["assignment"] == TAREA]
    assert len(filas) == 1 and float(filas[0]["score"]) == nota_antes - 2, (filas, nota_antes)


# --------------------------------------------------------------------------------------------------
# Student-controlled strings in formgrader's own pages (issue 19.3): ids, roster names and e-mail,
# file names, timestamps and URL segments; and the TA's pages with no network (issue 21.6).

TAREA_H = "02_codificacion_posicional"
CUADERNO_H = "codificacion_posicional"
# Each payload would set window.__xss if the browser ran it.  The ids are folder names (no «/»).
ID_IMG = '<img src=x onerror="window.__xss=1">'
ID_ATRIBUTO = "x' onmouseover='window.__xss=2' \"><svg onload=window.__xss=3>"
ROSTER = {"first_name": "<script>window.__xss=4</script>",
          "last_name": "<img src=x onerror=window.__xss=5>",
          "email": "\"><svg/onload=window.__xss=6>@x.es"}
ARCHIVO_HOSTIL = "<img src=x onerror=window.__xss=7>.txt"
ENLACE_HOSTIL = "<svg onload=window.__xss=8>"
FECHA_ROTA = "2026-13-45 99:99:99 <b onmouseover=window.__xss=9>rota</b>"
ALUMNA_FECHA_ROTA = "con_error"
FECHA_BUENA = "2026-11-30 10:00:00.000000 UTC"
REFLEJADAS = [
    "formgrader/manage_students/<script>window.__xss=10</script>",
    "formgrader/manage_students/a/<img src=x onerror=window.__xss=11>",
    "formgrader/gradebook/<svg onload=window.__xss=12>",
    "formgrader/gradebook/x/<img src=x onerror=window.__xss=13>",
    "formgrader/manage_submissions/<img src=x onerror=window.__xss=14>",
    "formgrader/submissions/<img src=x onerror=window.__xss=15>/next",
]


def _notas_de(curso) -> dict:
    with libro_de_notas.abrir(curso) as gb:
        return {(s.assignment.name, s.student.id): s.score for a in gb.assignments for s in a.submissions}


@pytest.fixture(scope="module")
def curso_hostil(curso_ta, tmp_path_factory):
    """A copy of the graded samples' course plus two students whose ids, roster names, e-mail and
    files are HTML, and one sample whose ``timestamp.txt`` is garbled; its formgrader server."""
    from curso_temporal import ejecutar
    curso = tmp_path_factory.mktemp("formgrader-hostil") / "curso"
    shutil.copytree(curso_ta, curso, symlinks=True)
    with libro_de_notas.abrir(curso) as gb:
        gb.update_or_create_student(ID_IMG, **ROSTER)
        gb.update_or_create_student(ID_ATRIBUTO)
    for alumno in (ID_IMG, ID_ATRIBUTO):
        destino = curso / "submitted" / alumno / TAREA_H
        shutil.copytree(curso / "submitted" / "perfecta" / TAREA_H, destino)
        (destino / "timestamp.txt").write_text(FECHA_BUENA)
        (destino / ARCHIVO_HOSTIL).write_text("notas\n")
        os.symlink("/etc/hostname", destino / ENLACE_HOSTIL)
        ejecutar(curso, "nbgrader", "autograde", TAREA_H, f"--student={alumno}")
        ejecutar(curso, "nbgrader", "generate_feedback", TAREA_H, f"--student={alumno}")
    (curso / "submitted" / ALUMNA_FECHA_ROTA / TAREA_H / "timestamp.txt").write_text(FECHA_ROTA)
    registro = lab.ARTEFACTOS / "servidor-ta-formgrader-hostil.log"
    registro.unlink(missing_ok=True)
    servidor = lab.ServidorLab(curso, cwd=curso, registro=registro, perfil=lab.PROFESORADO).arrancar()
    yield curso, servidor
    servidor.limpiar()


class Vigilancia:
    """What a page did that it should not: script run by a payload, CSP violations, requests that
    leave the machine (aborted)."""

    def __init__(self, pagina, bloquear_red: bool = False):
        self.pagina = pagina
        self.violaciones: list[str] = []
        self.fuera: list[str] = []
        pagina.on("console", self._consola)
        if bloquear_red:
            pagina.context.route("**/*", self._ruta)

    def _consola(self, mensaje):
        texto = mensaje.text
        # harmless, blocked: MathJax 2 probes web-font support with a font at about:blank; the
        # feedback's inlined bootstrap CSS names its icon font, a file next to the CSS (not there)
        if "Content Security Policy" in texto and "about:blank" not in texto \
                and "glyphicons-halflings" not in texto:
            self.violaciones.append(texto)

    def _ruta(self, ruta):
        url = ruta.request.url
        if url.startswith(("http://127.0.0.1", "data:", "file:", "about:", "blob:")):
            ruta.continue_()
        else:
            self.fuera.append(url)
            ruta.abort()

    def sin_guiones_ajenos(self, donde: str) -> None:
        assert self.pagina.evaluate("() => window.__xss === undefined"), f"{donde}: se ejecutó un guion del alumno"
        assert not self.violaciones, f"{donde}: violaciones de la CSP: {self.violaciones}"


def _entrar(pagina, servidor) -> None:
    """The token's login cookie first (a routed first navigation would not keep it)."""
    pagina.goto(servidor.enlace("api/status"))


def test_formgrader_escapa_lo_que_controla_el_alumno(curso_hostil, pagina, captura):
    curso, servidor = curso_hostil
    notas_antes = _notas_de(curso)
    _entrar(pagina, servidor)
    vigia = Vigilancia(pagina)

    # the pages' own CSP: scripts only with this response's nonce
    respuesta = pagina.goto(f"{servidor.url}/formgrader/manage_students")
    csp = respuesta.headers.get("content-security-policy", "")
    assert "script-src 'nonce-" in csp and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0], csp
    pagina.locator("#main-table td.id", has_text="onerror").first.wait_for(timeout=60_000)
    texto = pagina.locator("#main-table").inner_text()
    for valor in (ID_IMG, ROSTER["first_name"], ROSTER["last_name"], ROSTER["email"]):
        assert valor in texto, f"no se ve como texto: {valor}"
    # the edit dialog names the student in its title
    fila = pagina.locator("#main-table tr", has_text="window.__xss=1")
    fila.locator("td.edit a").click()
    pagina.locator("#edit-student-modal .modal-title", has_text=ID_IMG).wait_for()
    captura("alumnos-hostiles")
    pagina.locator("#edit-student-modal button.btn-danger").click()
    pagina.locator("#edit-student-modal").wait_for(state="detached")
    vigia.sin_guiones_ajenos("Manage Students")

    # the JSON API is served as text, in a sandbox: a TA who opened its URL would not get HTML
    api = pagina.request.get(f"{servidor.url}/formgrader/api/students")
    assert api.ok and ID_IMG in {a["id"] for a in json.loads(api.text())}
    assert api.headers["content-type"].startswith("text/plain"), api.headers
    assert "sandbox" in api.headers["content-security-policy"], api.headers

    # a student's file, as formgrader serves it from the submission: never run in the TA's origin
    from urllib.parse import quote
    with libro_de_notas.abrir(curso) as gb:
        id_hostil = gb.find_submission_notebook(CUADERNO_H, TAREA_H, ID_IMG).id
    archivo = pagina.request.get(f"{servidor.url}/formgrader/submissions/{id_hostil}/{quote(ARCHIVO_HOSTIL)}")
    assert archivo.ok and "sandbox" in archivo.headers["content-security-policy"], archivo.headers
    assert archivo.headers.get("x-content-type-options") == "nosniff"
    assert archivo.headers["content-type"] == "text/plain; charset=utf-8", archivo.headers
    # a kind off the allow-list (the second attack of issue 19: XHTML, RDF, MathML with a script) is never
    # served, even if it reached the TA's copy (an autograded folder from before the allow-list)
    for nombre in ("p.xht", "p.rdf", "p.mml"):
        (curso / "autograded" / ID_IMG / TAREA_H / nombre).write_text(
            '<html xmlns="http://www.w3.org/1999/xhtml"><script>window.__xss=16</script></html>')
        activo = pagina.request.get(f"{servidor.url}/formgrader/submissions/{id_hostil}/{nombre}")
        assert activo.status == 403, (nombre, activo.status, activo.headers)
        abierta = pagina.context.new_page()          # a TA who opens its URL (this page keeps its table)
        abierta.goto(f"{servidor.url}/formgrader/submissions/{id_hostil}/{nombre}")
        assert abierta.evaluate("window.__xss") is None, nombre
        abierta.close()

    # /formgrader?path=<folder> would run that folder's nbgrader_config.py in the TA's process
    # (nbgrader's handler): a submission brings one, and /tmp is anyone's
    marca = curso.parent / "ejecutado-por-el-alumno.txt"
    carpetas = [curso / "submitted" / ID_IMG / TAREA_H, curso.parent / "tmp-del-alumno"]
    for carpeta in carpetas:
        carpeta.mkdir(exist_ok=True)
        (carpeta / "nbgrader_config.py").write_text(f"open({str(marca)!r}, 'w').write('x')\n")
        r = pagina.request.get(f"{servidor.url}/formgrader", params={"path": str(carpeta)}, max_redirects=0)
        assert r.status == 403, (carpeta, r.status)
    assert not marca.exists(), "formgrader ejecutó el nbgrader_config.py de un alumno"
    r = pagina.request.get(f"{servidor.url}/formgrader", params={"path": str(curso)}, max_redirects=0)
    assert r.status == 302 and r.headers["location"].endswith("/formgrader/manage_assignments")

    # the student's own page, by the link in the table (one encoded path segment)
    fila.locator("td.name a").click()
    pagina.locator(".breadcrumb li.active", has_text=ID_IMG).wait_for(timeout=30_000)
    pagina.locator("#main-table td.name a", has_text=TAREA_H).click()
    pagina.locator(".breadcrumb li", has_text=ID_IMG).first.wait_for(timeout=30_000)
    pagina.locator("#main-table td.name a").first.wait_for(timeout=30_000)
    vigia.sin_guiones_ajenos("las entregas de un alumno")

    # the assignment's submissions: every student listed, the garbled timestamp as «fecha ilegible»
    pagina.goto(f"{servidor.url}/formgrader/manage_submissions/{TAREA_H}")
    pagina.locator("#main-table td.student-id", has_text="perfecta").wait_for(timeout=60_000)
    filas = {}
    tabla = pagina.locator("#main-table tr")
    for i in range(tabla.count()):
        celdas = tabla.nth(i)
        filas[celdas.locator("td.student-id").inner_text().strip()] = celdas.locator("td.timestamp").inner_text()
    assert {ID_IMG, ID_ATRIBUTO, "perfecta", ALUMNA_FECHA_ROTA} <= set(filas), filas
    assert filas[ALUMNA_FECHA_ROTA].strip() == "fecha ilegible", filas
    assert all(v.strip() != "fecha ilegible" for k, v in filas.items() if k != ALUMNA_FECHA_ROTA), filas
    assert "2026-11-30" in filas[ID_IMG] and "2026-11-30" in filas[ID_ATRIBUTO], filas
    captura("entregas-hostiles")
    # autograde from the row: the POST goes to this student (encoded URL) and the dialog names it as text
    pagina.locator("#main-table tr", has_text="window.__xss=3").locator("td.autograde a").click()
    pagina.locator("#success-modal .modal-body", has_text=ID_ATRIBUTO).wait_for(timeout=180_000)
    pagina.locator("#success-modal .modal-footer button").click()
    pagina.locator("#success-modal").wait_for(state="detached")
    vigia.sin_guiones_ajenos("Manage Submissions")

    # manual grading: the list with every name shown, then the hostile student's submission page
    pagina.goto(f"{servidor.url}/formgrader/gradebook/{TAREA_H}/{CUADERNO_H}")
    pagina.locator("#main-table td.name a").first.wait_for(timeout=60_000)
    pagina.locator("#toggle_names").click()
    pagina.locator("#main-table a.name-shown", has_text=ROSTER["last_name"]).wait_for()
    pagina.locator("#main-table a.name-shown", has_text=ROSTER["last_name"]).click()
    pagina.locator("input.score").first.wait_for(timeout=60_000)
    pagina.locator("span.glyphicon-eye-open").click()
    nombre = pagina.locator("li.live-notebook a.name-shown")
    assert nombre.inner_text().strip() == f"{ROSTER['last_name']}, {ROSTER['first_name']}"
    captura("entrega-hostil-nombres")
    vigia.sin_guiones_ajenos("la página de la entrega")
    # «Submission #n» and the name open the read-only view: no kernel starts in the student's folder
    for enlace in (nombre, pagina.locator("li.live-notebook a.name-hidden")):
        assert enlace.get_attribute("href").startswith("/formgrader/curso/lectura/"), enlace.get_attribute("href")
    kernels = lambda: json.loads(pagina.request.get(f"{servidor.url}/api/kernels").text())  # noqa: E731
    antes = kernels()
    with pagina.context.expect_page() as nueva:
        nombre.click()
    lectura = nueva.value
    lectura.wait_for_load_state()
    assert "Vista de solo lectura" in lectura.locator("body").inner_text()
    assert lectura.locator("math").count() > 5, "la vista de lectura no dibuja las fórmulas"
    assert "script-src 'nonce-" in pagina.request.get(lectura.url).headers["content-security-policy"]
    assert lectura.evaluate("() => window.__xss === undefined")
    captura.pagina = lectura
    captura("entrega-solo-lectura")
    captura.pagina = pagina
    lectura.close()
    assert kernels() == antes, "abrir la entrega arrancó un kernel"

    # reflected: crafted links
    for ruta in REFLEJADAS:
        pagina.goto(f"{servidor.url}/{ruta}")
        pagina.wait_for_timeout(300)
        vigia.sin_guiones_ajenos(ruta)
    pagina.goto(f"{servidor.url}/{REFLEJADAS[1]}")
    assert "<img src=x onerror=window.__xss=11>" in pagina.locator(".breadcrumb").inner_text()

    # the feedback of the hostile students names their files as text
    html = (curso / "feedback" / ID_IMG / TAREA_H / f"{CUADERNO_H}.html").read_text(encoding="utf-8")
    assert ARCHIVO_HOSTIL not in html and ENLACE_HOSTIL not in html
    pagina.goto((curso / "feedback" / ID_IMG / TAREA_H / f"{CUADERNO_H}.html").as_uri())
    assert ENLACE_HOSTIL in pagina.locator(".avisos-archivos").inner_text()
    vigia.sin_guiones_ajenos("los comentarios")

    assert _notas_de(curso) == notas_antes, "cambiaron notas"


def test_entrega_y_comentarios_sin_red(curso_hostil, pagina, captura):
    """With every request off the machine aborted: the submission page typesets its math (MathJax
    from this server), registers its shortcuts (a comment saved with Escape is kept), and a feedback
    page, opened from disk or through the server, shows its math as MathML and runs nothing."""
    curso, servidor = curso_hostil
    _entrar(pagina, servidor)
    vigia = Vigilancia(pagina, bloquear_red=True)
    with libro_de_notas.abrir(curso) as gb:
        id_cuaderno = gb.find_submission_notebook(CUADERNO_H, TAREA_H, "perfecta").id
    fallidas = []        # the course's own resources that fail (MathJax asking for fonts it lacks was one)
    pagina.on("response", lambda r: fallidas.append(f"{r.status} {r.url}")
              if r.url.startswith(servidor.url) and r.status >= 400 else None)
    pagina.goto(f"{servidor.url}/formgrader/submissions/{id_cuaderno}/?index=0")
    pagina.wait_for_function("() => window.formgrader && formgrader.loaded && window.MathJax && MathJax.loaded",
                             timeout=90_000)
    assert pagina.locator("#notebook-container .MathJax").count() > 20
    # HTML-CSS with the STIX-Web fonts the environment ships (NativeMML's @font-face wants TeX .otf
    # fonts that are not there: 404s as soon as a formula uses \mathbb)
    assert pagina.evaluate("() => MathJax.Hub.outputJax['jax/mml'][0].id") == "HTML-CSS"
    pagina.wait_for_load_state("networkidle")
    assert fallidas == []
    comentario = "Guardado con Escape, sin red 1618"
    caja = pagina.locator("textarea#positional_encoding-comment")
    caja.click()
    caja.fill(comentario)
    caja.press("Escape")
    limite = time.monotonic() + 30
    guardado = []
    while time.monotonic() < limite:
        with libro_de_notas.abrir(curso) as gb:
            nb = gb.find_submission_notebook(CUADERNO_H, TAREA_H, "perfecta")
            guardado = [c.manual_comment for c in nb.comments if c.manual_comment]
        if comentario in guardado:
            break
        pagina.wait_for_timeout(300)
    assert comentario in guardado, guardado
    captura("entrega-sin-red")
    vigia.sin_guiones_ajenos("la entrega sin red")

    ruta = curso / "feedback" / "perfecta" / TAREA_H / f"{CUADERNO_H}.html"
    for url in (f"{servidor.url}/files/feedback/perfecta/{TAREA_H}/{CUADERNO_H}.html", ruta.as_uri()):
        # through the server as JupyterLab's «Open in New Browser Tab» does (a same-origin referer)
        pagina.goto(url, referer=f"{servidor.url}/lab")
        pagina.locator("math").first.wait_for(timeout=30_000)
        assert pagina.locator("math").count() > 20, url
        assert pagina.evaluate("() => document.querySelector('msqrt, mfrac').getBoundingClientRect().width") > 0
        texto = pagina.locator("body").inner_text()
        for tex in ("\\frac", "\\sqrt", "\\mathrm", "$$"):
            assert tex not in texto, f"{url}: TeX sin dibujar ({tex})"
        assert pagina.evaluate("() => document.scripts.length") == 0
        captura("comentarios-sin-red")
    assert not vigia.fuera, f"peticiones fuera de la máquina: {vigia.fuera}"
    vigia.sin_guiones_ajenos("los comentarios sin red")


def test_una_celda_de_30_mib_no_bloquea_formgrader(curso_hostil, pagina, captura):
    """Attack report A4: a 30 MiB markdown cell in a submission.  Its page answers with the cell cut
    and a Spanish note, and while it is being rendered the rest of the server keeps answering
    (the page is rendered off the event loop)."""
    import threading
    import urllib.request
    import nbformat
    curso, servidor = curso_hostil
    ruta = curso / "autograded" / ALUMNA_FECHA_ROTA / TAREA_H / f"{CUADERNO_H}.ipynb"
    nb = nbformat.read(ruta, as_version=4)
    nb.cells.insert(1, nbformat.v4.new_markdown_cell(("Celda enorme $x_i$ del alumno. " * 1000)
                                                     * (30 * 1024 * 1024 // 31000)))
    nbformat.write(nb, ruta)
    with libro_de_notas.abrir(curso) as gb:
        id_cuaderno = gb.find_submission_notebook(CUADERNO_H, TAREA_H, ALUMNA_FECHA_ROTA).id
    cabecera = {"Authorization": f"token {servidor.token}"}

    def pedir(ruta_url: str, resultado: dict) -> None:
        inicio = time.monotonic()
        with urllib.request.urlopen(urllib.request.Request(f"{servidor.url}/{ruta_url}", headers=cabecera),
                                    timeout=120) as r:
            resultado.update(estado=r.status, cuerpo=r.read(), fin=time.monotonic(), segundos=time.monotonic() - inicio)

    pagina_grande: dict = {}
    hilo = threading.Thread(target=pedir, args=(f"formgrader/submissions/{id_cuaderno}/?index=0", pagina_grande))
    hilo.start()
    estados = []
    while hilo.is_alive() and len(estados) < 50:
        estado: dict = {}
        pedir("formgrader/api/status", estado)
        estados.append(estado)
        time.sleep(0.05)
    hilo.join(120)
    assert pagina_grande.get("estado") == 200, pagina_grande.get("estado")
    html = pagina_grande["cuerpo"].decode("utf-8")
    assert "recortado al mostrarlo" in html and len(html) < 3_000_000, len(html)
    # the server answered other requests while the page was rendered (figures in the artifacts,
    # measured on a loaded machine: no timing is asserted beyond «not blocked for the whole render»)
    assert all(e["estado"] == 200 for e in estados)
    if pagina_grande["segundos"] > 2:
        # a slow render (loaded machine): the server still answered during it, not only after
        assert any(e["fin"] < pagina_grande["fin"] - 0.5 for e in estados), (
            [round(e["segundos"], 2) for e in estados], round(pagina_grande["segundos"], 2))
    lab.ARTEFACTOS.mkdir(parents=True, exist_ok=True)
    (lab.ARTEFACTOS / "formgrader-celda-enorme.txt").write_text(
        f"página: {pagina_grande['segundos']:.2f} s, {len(html)} caracteres; "
        f"api/status durante el render: {[round(e['segundos'], 2) for e in estados]}\n")
    _entrar(pagina, servidor)
    pagina.goto(f"{servidor.url}/formgrader/submissions/{id_cuaderno}/?index=0")
    pagina.locator("input.score").first.wait_for(timeout=60_000)
    assert pagina.locator("text=recortado al mostrarlo").count() >= 1
    captura("entrega-celda-enorme")


# --------------------------------------------------------------------------------------------------
# Late work and held reviews on formgrader's pages (issue 21, TA report): the hostile students are late
# (the TA sets a due date in nbgrader_config.py, as the docs say), and one of them resubmitted after a
# manual grade.  Every page that shows a score marks the lateness with the penalty and the score after
# it; the submission page resolves the review with «Aceptar la nota automática» (one held cell) and a
# different score typed by hand (the other); Generate Feedback refused meanwhile says why in Spanish.

PLAZO_H = "2026-11-30 10:30"          # Madrid (CET): 09:30 UTC, half an hour before FECHA_BUENA
COMENTARIO_HOSTIL = "<img src=x onerror=window.__xss=20> corrige la escala"


def _js(x: float) -> str:
    """A number as the course's scripts write it (two decimals at most, JavaScript's String)."""
    return f"{round(x, 2):g}"


def _retener(curso, alumno: str, notas: dict, comentario: str) -> None:
    """The TA grades ``notas`` by hand with a comment, then the student resubmits: the course's autograde
    holds them (``GuardarNotasAutomaticas`` on the autograded notebook, as autograde runs it; no kernel)."""
    import nbformat
    from traitlets.config import Config
    from grader_tests.extensiones_nbgrader import revision
    url = libro_de_notas.url_del_curso(curso)
    with libro_de_notas.abrir(curso) as gb:
        nb = gb.find_submission_notebook(CUADERNO_H, TAREA_H, alumno)
        for g in nb.grades:
            if g.name in notas:
                g.manual_score, g.needs_manual_grade = notas[g.name], False
        [caja] = [c for c in nb.comments if c.name == "positional_encoding"]
        caja.manual_comment = comentario
        gb.db.commit()
    enviado = curso / "submitted" / alumno / TAREA_H / f"{CUADERNO_H}.ipynb"
    enviado.write_text(enviado.read_text(encoding="utf-8") + "\n", encoding="utf-8")     # another notebook
    cuaderno = nbformat.read(curso / "autograded" / alumno / TAREA_H / f"{CUADERNO_H}.ipynb", as_version=4)
    revision.GuardarNotasAutomaticas(config=Config({"CourseDirectory": {"root": str(curso), "db_url": url}})).preprocess(
        cuaderno, {"nbgrader": {"assignment": TAREA_H, "student": alumno, "notebook": CUADERNO_H, "db_url": url}})


def _celda(curso, alumno: str, nombre: str):
    with libro_de_notas.abrir(curso) as gb:
        nb = gb.find_submission_notebook(CUADERNO_H, TAREA_H, alumno)
        g = [g for g in nb.grades if g.name == nombre][0]
        [caja] = [c for c in nb.comments if c.name == "positional_encoding"]
        return g.auto_score, g.manual_score, g.needs_manual_grade, caja.manual_comment


def _marca(pagina, fila) -> str:
    marca = fila.locator(".curso-tarde")
    marca.wait_for(timeout=60_000)
    return marca.inner_text().strip()


def test_formgrader_marca_el_retraso_y_resuelve_la_revision(curso_hostil, pagina, captura):
    from grader_tests.extensiones_nbgrader import revision
    curso, servidor = curso_hostil
    config = curso / "nbgrader_config.py"
    original = config.read_text(encoding="utf-8")
    config.write_text(original + f"\nc.PlazosDelCurso.fechas = {{{TAREA_H!r}: {PLAZO_H!r}}}\n", encoding="utf-8")
    celdas = ("positional_encoding_valores", "positional_encoding_robustez")
    try:
        _entrar(pagina, servidor)
        vigia = Vigilancia(pagina)
        # Manage Students: the late student's overall score, with the penalty and the score after it
        pagina.goto(f"{servidor.url}/formgrader/manage_students")
        fila = pagina.locator("#main-table tr", has_text="window.__xss=1")
        marca = _marca(pagina, fila)
        with libro_de_notas.abrir(curso) as gb:
            alumna = gb.find_student(ID_IMG)
            entrega = gb.find_submission(TAREA_H, ID_IMG)
            bruta, penal, maximo = entrega.score, sum(nb.late_submission_penalty or 0 for nb in entrega.notebooks), \
                entrega.max_score
            total, total_max = alumna.score, alumna.max_score
            assert gb.find_assignment(TAREA_H).duedate.isoformat() == "2026-11-30T09:30:00"
            a_tiempo = gb.find_submission(TAREA_H, "perfecta").total_seconds_late
        assert penal == pytest.approx(0.1 * bruta) and a_tiempo == 0        # 30 min late: 10 %
        assert marca == f"⚠ tarde: −{_js(penal)} → {_js(total - penal)} / {_js(total_max)}", marca
        assert "30 min después del plazo del lunes 30/11/2026 10:30 (hora de Madrid)" in \
            fila.locator(".curso-tarde").get_attribute("title")
        assert pagina.locator("#main-table tr", has_text="perfecta").locator(".curso-tarde").count() == 0
        captura("retraso-alumnos")
        # the student's assignments and notebooks
        fila.locator("td.name a").click()
        fila = pagina.locator("#main-table tr", has_text=TAREA_H)
        assert _marca(pagina, fila) == f"⚠ tarde: −{_js(penal)} → {_js(bruta - penal)} / {_js(maximo)}"
        fila.locator("td.name a").click()
        fila = pagina.locator("#main-table tr", has_text=CUADERNO_H)
        assert _marca(pagina, fila) == f"⚠ tarde: −{_js(penal)} → {_js(bruta - penal)} / {_js(maximo)}"
        # the assignment's submissions: both hostile students, nobody else
        pagina.goto(f"{servidor.url}/formgrader/manage_submissions/{TAREA_H}")
        pagina.locator("#main-table td.student-id", has_text="perfecta").wait_for(timeout=60_000)
        marcadas = pagina.locator("#main-table tr", has=pagina.locator(".curso-tarde"))
        marcadas.nth(1).wait_for(timeout=60_000)
        assert sorted(marcadas.locator("td.student-id").all_inner_texts()) == sorted([ID_IMG, ID_ATRIBUTO])
        # Manual Grading's list of submissions
        pagina.goto(f"{servidor.url}/formgrader/gradebook/{TAREA_H}/{CUADERNO_H}")
        pagina.locator("#main-table td.name a").first.wait_for(timeout=60_000)
        marcadas = pagina.locator("#main-table tr", has=pagina.locator(".curso-tarde"))
        marcadas.nth(1).wait_for(timeout=60_000)
        assert marcadas.count() == 2
        captura("retraso-calificacion-manual")
        vigia.sin_guiones_ajenos("las listas con retrasos")

        # the student resubmits after a manual grade of two cells: held for review
        _retener(curso, ID_IMG, dict.fromkeys(celdas, 0.5), COMENTARIO_HOSTIL)
        with libro_de_notas.abrir(curso) as gb:
            id_cuaderno = gb.find_submission_notebook(CUADERNO_H, TAREA_H, ID_IMG).id
        assert all(_celda(curso, ID_IMG, n)[1:3] == (None, True) for n in celdas)
        # Generate Feedback for that student (its row's button): the Spanish reason alone, with a link
        pagina.goto(f"{servidor.url}/formgrader/manage_submissions/{TAREA_H}")
        pagina.locator("#main-table tr", has_text="window.__xss=1").locator("td.generate-feedback a").click()
        dialogo = pagina.locator("#error-modal")
        dialogo.locator(".modal-title", has_text="pendientes de revisión").wait_for(timeout=180_000)
        texto = dialogo.inner_text()
        assert f"No se generaron los comentarios de este alumno en «{TAREA_H}»: {ID_IMG}." in texto, texto
        assert "Aceptar la nota automática" in texto
        for ruido in ("Traceback", "Template paths", "[DEBUG]", "[ERROR]", "Log Output", str(curso)):
            assert ruido not in texto, f"el diálogo enseña «{ruido}»: {texto}"
        enlace = dialogo.locator("a", has_text=ID_IMG)
        assert enlace.get_attribute("href") == f"/formgrader/submissions/{id_cuaderno}"
        captura("comentarios-negados")
        dialogo.locator(".modal-footer button").click()
        dialogo.wait_for(state="detached")

        # the submission page: late note and the review box, everything as text
        pagina.goto(f"{servidor.url}/formgrader/submissions/{id_cuaderno}/?index=0")
        pagina.wait_for_function("() => window.formgrader && formgrader.loaded", timeout=90_000)
        retraso = pagina.locator("#curso-retraso")
        retraso.wait_for(timeout=60_000)
        assert f"{_js(bruta)} / {_js(maximo)} en el Formgrader" in retraso.inner_text()
        caja = pagina.locator("#curso-revision")
        caja.wait_for(timeout=60_000)
        texto = caja.inner_text()
        assert texto.startswith(revision.MARCA) and COMENTARIO_HOSTIL in texto, texto
        assert all(n in texto for n in celdas) and "antes 0.5 a mano" in texto
        captura("revision-pendiente")
        # the other way, for one cell: a different score typed by hand (saved on leaving the box)
        casilla = pagina.locator(f"input.score#{celdas[0]}")
        casilla.fill("1")
        casilla.press("Tab")
        pagina.wait_for_function(f"() => !formgrader.grades.findWhere({{name: '{celdas[0]}'}}).get('needs_manual_grade')",
                                 timeout=30_000)
        assert pagina.locator("body[data-curso-avisos='pendiente']").count() == 1
        # ... and «Aceptar la nota automática» for the rest (the other cell, the note in the comment box)
        pagina.locator("#curso-aceptar").click()
        pagina.locator("#curso-revision.alert-success", has_text="Revisada").wait_for(timeout=30_000)
        captura("revision-resuelta")
        auto, manual, necesita, comentario = _celda(curso, ID_IMG, celdas[1])
        assert (manual, necesita, comentario) == (None, False, "")
        assert _celda(curso, ID_IMG, celdas[0])[1:3] == (1, False)
        assert pagina.locator(f"textarea#positional_encoding-comment").input_value() == ""
        with libro_de_notas.abrir(curso) as gb:
            assert revision.pendientes(gb, str(curso / revision.CARPETA), TAREA_H, ID_IMG) == []
        # the late note follows the new score (a manual grade changes the penalty)
        with libro_de_notas.abrir(curso) as gb:
            nueva = gb.find_submission(TAREA_H, ID_IMG).score
        pagina.locator("#curso-retraso", has_text=f"{_js(nueva)} / {_js(maximo)} en el Formgrader").wait_for(
            timeout=30_000)
        vigia.sin_guiones_ajenos("la revisión en la página de la entrega")

        # now Generate Feedback goes through for that student
        pagina.goto(f"{servidor.url}/formgrader/manage_submissions/{TAREA_H}")
        pagina.locator("#main-table tr", has_text="window.__xss=1").locator("td.generate-feedback a").click()
        pagina.locator("#success-modal, #error-modal").first.wait_for(timeout=180_000)
        assert pagina.locator("#success-modal").count() == 1, pagina.locator("#error-modal").inner_text()
        assert "Template paths" not in pagina.locator("#success-modal").inner_text()
        vigia.sin_guiones_ajenos("Generate Feedback tras la revisión")
    finally:
        config.write_text(original, encoding="utf-8")
