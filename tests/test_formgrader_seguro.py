"""The course's formgrader and feedback pages without a browser (issues 19.3, 21.5, 21.6, 22.8).

Fast: every formgrader page template of the course rendered with hostile values
(student id, names, e-mail, URL segments) must show them escaped and carry no
script without the response's nonce and no inline handler; the submission
page (nbconvert's formgrade template, as formgrader builds it) likewise, with
MathJax from the server; a garbled ``timestamp.txt`` is «fecha ilegible», never
an exception; the feedback's math is MathML (sanitised) and its page runs no
script and loads nothing.  The same pages in Chromium, with hostile students,
crafted links and no network: tests/navegador/test_6_formgrader_seguridad.py.
"""
from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
from nbconvert.exporters import HTMLExporter
from traitlets.config import Config

from conftest import RAIZ
from grader_tests.extensiones_nbgrader import formgrader_seguro as fs
from grader_tests.extensiones_nbgrader import html_seguro as hs

HOSTIL = '<img src=x onerror="window.__xss=1">'
HOSTIL_ATRIBUTO = "x' onmouseover='window.__xss=2' \"><svg onload=window.__xss=3>"
NONCE = "NoNcE123"


class Etiquetas(HTMLParser):
    """Every start tag of a page with its attributes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.etiquetas: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.etiquetas.append((tag, dict(attrs)))


def etiquetas(html: str) -> list[tuple[str, dict]]:
    lector = Etiquetas()
    lector.feed(html)
    return lector.etiquetas


def comprobar_pagina(html: str, nonce: str = NONCE) -> None:
    """No tag the student made, no inline handler, every script ours (nonce) or JSON data."""
    for etiqueta, atributos in etiquetas(html):
        assert etiqueta not in ("img", "svg") or "onerror" not in atributos, (etiqueta, atributos)
        manejadores = [a for a in atributos if a.startswith("on")]
        assert not manejadores, f"<{etiqueta}> con {manejadores}"
        if etiqueta == "script":
            assert atributos.get("nonce") == nonce or atributos.get("type") == "application/json", atributos
            src = atributos.get("src") or ""
            assert not re.match(r"(https?:)?//", src), f"guion de fuera: {src}"
        if etiqueta == "link":
            assert not re.match(r"(https?:)?//", atributos.get("href") or ""), atributos


# ------------------------------------------------------------------ page templates

PAGINAS = sorted(p.name for p in Path(fs.PAGINAS).glob("*.tpl"))


@pytest.fixture(scope="module")
def entorno():
    from nbgrader.server_extensions.formgrader import handlers
    return fs.entorno_jinja(handlers.template_path)


def _contexto(nombre: str) -> dict:
    datos = {"base_url": "/services/curso", "assignment_id": HOSTIL, "notebook_id": HOSTIL_ATRIBUTO,
             "student_id": HOSTIL, "url_prefix": ".", "default_timezone": "+0100"}
    return {**datos, "csp_nonce": NONCE, "curso_pagina": nombre, "curso_datos": dict(datos, pagina=nombre),
            "curso_estaticos": "/services/curso/formgrader/curso/static/", "error_code": 404,
            "razon": "Not Found", "course_id": "c", "exchange": HOSTIL, "exchange_missing": True,
            "current_config": HOSTIL, "windows": False, "course_dir": HOSTIL,
            "resources": {"base_url": "/services/curso", "assignment_id": HOSTIL, "index": 0, "total": 1},
            "notebook_id": HOSTIL_ATRIBUTO, "filename": HOSTIL}


@pytest.mark.parametrize("nombre", PAGINAS)
def test_cada_pagina_escapa_y_solo_lleva_guiones_con_nonce(entorno, nombre):
    html = entorno.get_template(nombre).render(**_contexto(nombre.removesuffix(".tpl")))
    comprobar_pagina(html)
    datos = re.search(r'<script type="application/json" id="curso-datos">(.*?)</script>', html, re.S)
    if nombre != "formgrade_404.tpl":
        assert datos, "la página no lleva sus datos en JSON"
        assert "<" not in datos[1], "el JSON de la página cierra su <script>"


def test_una_entrega_sin_cuaderno_calificado_dice_por_que_en_espanol(entorno):
    """nbgrader's «Submission -1 / 2» and «Submission notebook file not found» for a submission nbgrader
    could not grade (sixth attacker, F5): the course's page says what happened and where the reason is."""
    contexto = _contexto("formgrade_404")
    contexto["resources"] = dict(contexto["resources"], index=-2, total=2, assignment_id="01_atencion_multicabeza")
    html = entorno.get_template("formgrade_404.tpl").render(**contexto)
    comprobar_pagina(html)
    texto = re.sub(r"<[^>]+>", " ", html)
    assert "Entrega sin calificar (2 calificadas)" in texto
    assert "Esta entrega no tiene cuaderno calificado" in texto and "make grade" in texto
    assert "informe/01_atencion_multicabeza/incidencias.csv" in texto
    assert "Submission -" not in texto and "not found" not in texto and "-1" not in texto
    contexto["resources"] = dict(contexto["resources"], index=0)
    assert "Entrega 1 de 2" in entorno.get_template("formgrade_404.tpl").render(**contexto)


def test_todas_las_paginas_de_nbgrader_tienen_su_version_del_curso():
    """A page nbgrader adds (or the course forgets) would keep its inline scripts: the list is closed."""
    from nbgrader.server_extensions.formgrader import handlers
    de_nbgrader = {p.name for p in Path(handlers.template_path).glob("*.tpl")}
    heredadas_sin_codigo = {"base_403.tpl", "base_500.tpl", "gradebook_base.tpl", "manage_students_base.tpl"}
    assert de_nbgrader - heredadas_sin_codigo <= set(PAGINAS), de_nbgrader - set(PAGINAS)
    for nombre in heredadas_sin_codigo:
        texto = (Path(handlers.template_path) / nombre).read_text()
        assert "<script" not in texto and "onclick" not in texto.lower(), nombre


def test_la_politica_solo_deja_los_guiones_con_nonce():
    politica = fs.politica("abc")
    guiones = re.search(r"script-src ([^;]*)", politica)[1].split()
    assert guiones == ["'nonce-abc'", "'strict-dynamic'"]
    assert "default-src 'none'" in politica and "object-src 'none'" in politica and "base-uri 'none'" in politica
    assert "sandbox" in fs.POLITICA_DATOS and "default-src 'none'" in fs.POLITICA_DATOS


# ------------------------------------------------------------------ the submission page

def _cuaderno_con_nbgrader() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("La atención: $\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})V$."),
        nbformat.v4.new_code_cell("def f():\n    return 1", metadata={"nbgrader": {
            "solution": True, "grade": False, "locked": False, "grade_id": "f", "schema_version": 3}}),
    ]
    return nb


def exportador_de_formgrader() -> HTMLExporter:
    """The exporter formgrader builds (``_init_tornado_settings``) with the course's HTML config."""
    from nbgrader.server_extensions.formgrader import handlers
    config = Config()
    config.HTMLExporter.sanitize_html = True
    config.HTMLExporter.preprocessors = ["grader_tests.extensiones_nbgrader.html_seguro.SanearCuaderno"]
    config.HTMLExporter.filters = {"markdown2html": "grader_tests.extensiones_nbgrader.html_seguro.markdown2html_seguro",
                                   "clean_html": "grader_tests.extensiones_nbgrader.html_seguro.limpiar_html"}
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [fs.PLANTILLAS, handlers.template_path]
    config.HTMLExporter.extra_template_paths = [handlers.template_path]
    return HTMLExporter(config=config)


def test_pagina_de_entrega_escapa_el_nombre_y_carga_mathjax_del_servidor():
    base = "/services/curso"
    recursos = {
        "assignment_id": "tarea", "notebook_id": "cuaderno", "submission_id": "abc", "index": 0, "total": 1,
        "base_url": base, "student": HOSTIL, "last_name": HOSTIL_ATRIBUTO, "first_name": HOSTIL,
        "notebook_path": f"./autograded/{HOSTIL}/tarea/cuaderno.ipynb", "csp_nonce": NONCE,
        "curso_datos": {"base_url": base, "pagina": "entrega", "student_id": HOSTIL},
        "curso_estaticos": base + fs.RUTA_ESTATICOS,
        "curso_mathjax": f"{base}{fs.RUTA_MATHJAX}MathJax.js?config={fs.CONFIG_MATHJAX}",
    }
    html, _ = exportador_de_formgrader().from_notebook_node(_cuaderno_con_nbgrader(), resources=recursos)
    comprobar_pagina(html)
    assert html.count("Submission 1 / 1") == 1, "el marco de la página, dos veces"
    guiones = [a.get("src") for e, a in etiquetas(html) if e == "script" and a.get("src")]
    assert f"{base}/formgrader/curso/mathjax/MathJax.js?config={fs.CONFIG_MATHJAX}" in guiones
    assert not [s for s in guiones if "cdn" in s or "mathjax" in s.lower() and not s.startswith(base)]
    assert "&lt;img src=x onerror=" in html
    assert "\\sqrt{d_k}" in html, "formgrader conserva el TeX para MathJax"
    assert 'id="f-comment"' in html


def test_pagina_de_entrega_sin_la_nota_suelta_de_cada_celda_de_prueba():
    """Manual Grading showed «Out[42]: 1» under every graded test cell (the number nbgrader reads as its
    score; issue 21's TA report): not shown, the cell's header has the score; other outputs are."""
    nb = _cuaderno_con_nbgrader()
    prueba = nbformat.v4.new_code_cell("comprobar()", execution_count=42, metadata={"nbgrader": {
        "solution": False, "grade": True, "locked": True, "grade_id": "f_prueba", "points": 3, "schema_version": 3}})
    prueba.outputs = [nbformat.v4.new_output("stream", text="✔ Puntos: 1 de 3\n"),
                      nbformat.v4.new_output("execute_result", data={"text/plain": "1"}, execution_count=42)]
    libre = nbformat.v4.new_code_cell("2 + 2", execution_count=43)
    libre.outputs = [nbformat.v4.new_output("execute_result", data={"text/plain": "4"}, execution_count=43)]
    nb.cells += [prueba, libre]
    base = "/services/curso"
    recursos = {
        "assignment_id": "tarea", "notebook_id": "cuaderno", "submission_id": "abc", "index": 0, "total": 1,
        "base_url": base, "student": "ana", "last_name": "", "first_name": "", "csp_nonce": NONCE,
        "notebook_path": "./autograded/ana/tarea/cuaderno.ipynb",
        "curso_datos": {"base_url": base, "pagina": "entrega", "student_id": "ana"},
        "curso_estaticos": base + fs.RUTA_ESTATICOS,
        "curso_mathjax": f"{base}{fs.RUTA_MATHJAX}MathJax.js?config={fs.CONFIG_MATHJAX}",
    }
    html, _ = exportador_de_formgrader().from_notebook_node(nb, resources=recursos)
    assert "Puntos: 1 de 3" in html
    assert "Out[42]" not in html, "el número que lee nbgrader no se enseña"
    assert "Out[43]" in html, "las demás salidas se enseñan como siempre"


def test_mathjax_del_entorno_esta_donde_lo_sirve_formgrader():
    raiz = Path(fs.ruta_mathjax())
    assert (raiz / "MathJax.js").is_file()
    assert (raiz / "config" / (fs.CONFIG_MATHJAX.split(",")[0] + ".js")).is_file()
    assert (raiz / "fonts" / "HTML-CSS" / "STIX-Web" / "woff").is_dir()
    configuracion = (Path(fs.ESTATICOS) / "curso_mathjax.js").read_text()
    assert 'webFont: "STIX-Web"' in configuracion


# ------------------------------------------------------------------ timestamps

def _api(tmp_path, zona="Europe/Madrid"):
    from nbgrader.coursedir import CourseDirectory
    coursedir = CourseDirectory(root=str(tmp_path))
    return SimpleNamespace(coursedir=coursedir, timezone=zona, timestamp_format="%Y-%m-%d %H:%M:%S %Z")


@pytest.mark.parametrize("contenido, legible", [
    ("2026-11-30 10:00:00.000000 UTC", True),
    ("2026-13-45 99:99:99", False),
    ("<script>x</script>", False),
    ("", False),
    ("0001-01-01 00:00:00 +1400", False),            # before year 1 in UTC
    ("9999-12-31 23:59:59 -1400", False),            # after year 9999 in UTC
    ("x" * 10_000, False),
])
def test_una_fecha_rota_es_ilegible_y_nunca_lanza(tmp_path, contenido, legible):
    api = _api(tmp_path)
    carpeta = tmp_path / "submitted" / HOSTIL / "tarea"
    carpeta.mkdir(parents=True)
    (carpeta / "timestamp.txt").write_text(contenido)
    ts = fs._get_submitted_timestamp(api, "tarea", HOSTIL)
    assert (ts is not None) == legible
    assert fs.fecha_ilegible(api, "tarea", HOSTIL) == (not legible)
    entrega = fs._marcar(api, "tarea", {"student": HOSTIL, "timestamp": None, "display_timestamp": None})
    assert entrega["display_timestamp"] == (None if legible else fs.FECHA_ILEGIBLE)


def test_un_enlace_o_una_tuberia_como_timestamp_no_se_leen(tmp_path):
    api = _api(tmp_path)
    for alumno, crear in (("enlace", lambda r: os.symlink("/etc/hostname", r)), ("fifo", os.mkfifo)):
        carpeta = tmp_path / "submitted" / alumno / "tarea"
        carpeta.mkdir(parents=True)
        crear(carpeta / "timestamp.txt")
        assert fs._get_submitted_timestamp(api, "tarea", alumno) is None
        assert fs.fecha_ilegible(api, "tarea", alumno)
    assert not fs.fecha_ilegible(api, "tarea", "sin_fecha")


# ------------------------------------------------------------------ feedback: MathML, no script

@pytest.mark.parametrize("tex", [
    r"\text{<script>window.__xss=1</script>}",
    r"\href{javascript:alert(1)}{x}",
    r"\style{background:url(http://x)}{x}",
    r"\color{red\" onmouseover=\"x}{y}",
    r"\hspace{1em\" onload=\"x}",
])
def test_mathml_de_una_formula_hostil_es_inerte(tex):
    html = hs.limpiar_html(hs.tex_a_mathml(tex))
    for etiqueta, atributos in etiquetas(html):
        assert etiqueta != "script" and not any(a.startswith("on") for a in atributos), (etiqueta, atributos)
        assert "href" not in atributos and "style" not in atributos, (etiqueta, atributos)
    assert "http://x" not in html and "javascript" not in html.lower()


def test_el_texto_de_una_formula_se_ve_tal_cual():
    html = hs.limpiar_html(hs.tex_a_mathml(r"\text{a<b & c}"))
    assert "a&lt;b" in html and "&amp;" in html


def test_mathml_escrito_por_el_alumno_pierde_lo_que_no_es_presentacion():
    html = hs.limpiar_html('<math><semantics><annotation-xml encoding="text/html"><img src=x onerror=alert(1)>'
                           '</annotation-xml></semantics><maction actiontype="statusline"><mi href="javascript:1" '
                           'style="x" mathcolor="red">a</mi></maction></math>')
    assert "onerror" not in html and "href" not in html and "style" not in html and "annotation" not in html
    assert "<mi>a</mi>" in html


def test_en_los_comentarios_las_formulas_son_mathml_y_en_formgrader_tex():
    fuente = "Escala: $\\sqrt{d_k}$ y $$\\frac{a}{b}$$ pero no `$x$`."
    comentarios = hs.markdown2html_seguro({"resources": {hs.CLAVE_MATHML: True}}, fuente)
    assert comentarios.count("<math") == 2 and "\\sqrt" not in comentarios and "<code>$x$</code>" in comentarios
    formgrader = hs.markdown2html_seguro({"resources": {}}, fuente)
    assert "<math" not in formgrader and "\\sqrt{d_k}" in formgrader


def test_todas_las_formulas_de_las_lecciones_se_convierten():
    from grader_tests.juez.descubrimiento import lecciones
    sin_convertir = []
    for leccion in lecciones(RAIZ):
        nb = nbformat.read(leccion.cuaderno, as_version=4)
        for celda in nb.cells:
            if celda.cell_type == "markdown":
                html = hs.markdown2html_seguro({"resources": {hs.CLAVE_MATHML: True}}, celda.source)
                sin_convertir += re.findall(r'<span class="tex-sin-convertir">(.*?)</span>', html)
    assert not sin_convertir, sin_convertir[:5]


def test_latex_de_una_salida_solo_es_mathml_en_los_comentarios():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x", outputs=[nbformat.v4.new_output(
        "display_data", data={"text/latex": "$$x^2$$", "text/plain": "x"})])]
    for bandera, esperado in ((True, "text/html"), (False, "text/latex")):
        limpio, _ = hs.SanearCuaderno().preprocess(nbformat.from_dict(nb), {hs.CLAVE_MATHML: bandera} if bandera else {})
        assert esperado in limpio.cells[0].outputs[0].data


def test_la_pagina_de_comentarios_no_tiene_guiones_ni_carga_nada_de_fuera():
    from nbgrader.server_extensions.formgrader import handlers
    from grader_tests.extensiones_nbgrader.retroalimentacion import ExportadorRetroalimentacion
    config = Config()
    # what nbgrader's generate_feedback adds: its templates and the folder of bootstrap's CSS
    config.HTMLExporter.extra_template_paths = [
        os.path.join(handlers.static_path, "node_modules", "bootstrap", "dist", "css")]
    config.HTMLExporter.sanitize_html = True
    config.HTMLExporter.preprocessors = ["grader_tests.extensiones_nbgrader.html_seguro.SanearCuaderno"]
    config.HTMLExporter.filters = {"markdown2html": "grader_tests.extensiones_nbgrader.html_seguro.markdown2html_seguro",
                                   "clean_html": "grader_tests.extensiones_nbgrader.html_seguro.limpiar_html"}
    nb = _cuaderno_con_nbgrader()
    nb.cells[1].metadata.nbgrader.update(grade=True, points=1, score=1, comment=f"$x$ {HOSTIL}")
    recursos = {"nbgrader": {"notebook": "cuaderno", "score": 1, "max_score": 1, "late_penalty": 0}}
    html, _ = ExportadorRetroalimentacion(config=config).from_notebook_node(nb, resources=recursos)
    politicas = [a.get("content", "") for e, a in etiquetas(html)
                 if e == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy"]
    assert len(politicas) == 1 and "default-src 'none'" in politicas[0] and "script" not in politicas[0], politicas
    assert "<script" not in html.lower()
    assert html.count("<math") >= 2 and "\\sqrt" not in html
    for etiqueta, atributos in etiquetas(html):
        for clave in ("src", "href"):
            valor = atributos.get(clave) or ""
            assert not (etiqueta in ("img", "link", "script", "iframe") and re.match(r"(https?:)?//", valor)), \
                (etiqueta, atributos)
    assert "onerror" not in html.replace("onerror=&#34;", "").replace("onerror=&quot;", "")


def test_un_enlace_del_alumno_nunca_navega_la_pagina_en_la_que_esta():
    """In JupyterLab's Formgrader panel (an iframe whose messages JupyterLab runs as commands) a
    student's page loaded there could drive the TA's JupyterLab: links open elsewhere, or not at all."""
    html = hs.markdown2html_seguro({"resources": {}}, "[mira](https://ejemplo.org/x) <a href='https://e.org' target='_self'>y</a>")
    enlaces = [a for e, a in etiquetas(html) if e == "a"]
    assert len(enlaces) == 2 and all(a.get("target") == "_blank" and "noopener" in a.get("rel", "") for a in enlaces)


def test_la_vista_de_solo_lectura_no_lleva_guiones_y_avisa(tmp_path):
    """«Submission #n» opens this view (attack report A2): the notebook as a page, no kernel, no script."""
    config = Config()
    config.HTMLExporter.sanitize_html = True
    config.HTMLExporter.preprocessors = ["grader_tests.extensiones_nbgrader.html_seguro.SanearCuaderno"]
    config.HTMLExporter.filters = {"markdown2html": "grader_tests.extensiones_nbgrader.html_seguro.markdown2html_seguro",
                                   "clean_html": "grader_tests.extensiones_nbgrader.html_seguro.limpiar_html"}
    nb = _cuaderno_con_nbgrader()
    nb.cells.append(nbformat.v4.new_markdown_cell(f"{HOSTIL} <script>window.__xss=1</script> $\\sqrt{{x}}$"))
    ruta = tmp_path / "cuaderno.ipynb"
    nbformat.write(nb, ruta)
    html = fs._lectura(fs.exportador_de_lectura(config), str(ruta), "cuaderno")
    assert fs.AVISO_LECTURA in html and "<script" not in html.lower()
    assert "<math" in html and "onerror" not in html.replace("onerror=&quot;", "").replace('onerror="window', "")
    assert not [a for _, a in etiquetas(html) if any(k.startswith("on") for k in a)]


# the files of a submission formgrader serves (SubmissionFilesHandler with the course's mixin)
SERVIDOS = {"notas.txt": "text/plain; charset=utf-8", "modulo.py": "text/plain; charset=utf-8",
            "figura.png": "image/png", "foto.JPG": "image/jpeg", "matriz.npy": "application/octet-stream"}
NO_SERVIDOS = ("p.html", "p.xht", "p.xhtml", "p.rdf", "p.mml", "p.svg", "p.xml", "p.xsl", "p.pdf", "p.js",
               "sin_extension", "p.txt.html")


def test_formgrader_solo_sirve_los_tipos_de_la_lista_blanca(tmp_path):
    """A student's file is served only for a kind of the allow-list, with the list's type (never one
    a browser runs, whatever the name or content says), nosniff and a sandbox; the rest is 403."""
    import asyncio
    import concurrent.futures
    import socket

    from tornado import httpclient, httpserver, web

    contenido = b'<html xmlns="http://www.w3.org/1999/xhtml"><script>window.__xss=1</script></html>'
    for nombre in (*SERVIDOS, *NO_SERVIDOS):
        (tmp_path / nombre).write_bytes(contenido)

    class ComoJupyter(web.StaticFileHandler):
        """What jupyter_server's handlers do with ``content_security_policy``."""

        def set_default_headers(self):
            super().set_default_headers()
            self.set_header("Content-Security-Policy", self.content_security_policy)

    Archivos = type("Archivos", (fs.ArchivosSeguros, ComoJupyter), {})

    async def pedir() -> dict:
        app = web.Application([(r"/(.*)", Archivos, {"path": str(tmp_path)})])
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            puerto = s.getsockname()[1]
        servidor = httpserver.HTTPServer(app)
        servidor.listen(puerto, "127.0.0.1")
        cliente = httpclient.AsyncHTTPClient()
        respuestas = {}
        try:
            for nombre in (*SERVIDOS, *NO_SERVIDOS):
                respuestas[nombre] = await cliente.fetch(f"http://127.0.0.1:{puerto}/{nombre}", raise_error=False)
        finally:
            servidor.stop()
        return respuestas

    # in a thread of its own: the browser tests' Playwright keeps an event loop running in this one
    with concurrent.futures.ThreadPoolExecutor(1) as hilo:
        respuestas = hilo.submit(asyncio.run, pedir()).result()
    for nombre, tipo in SERVIDOS.items():
        r = respuestas[nombre]
        assert r.code == 200 and r.headers["Content-Type"] == tipo, (nombre, r.code, r.headers)
        assert r.headers["X-Content-Type-Options"] == "nosniff" and "sandbox" in r.headers["Content-Security-Policy"]
        assert ("attachment" in r.headers.get("Content-Disposition", "")) == (tipo == "application/octet-stream")
    for nombre in NO_SERVIDOS:
        assert respuestas[nombre].code == 403, (nombre, respuestas[nombre].code)
    # one list for what the copies keep and what formgrader serves
    from grader_tests.caja import archivos_alumno as aa
    for extension in aa.TIPOS_CONSERVADOS:
        assert fs.tipo_servido(f"x{extension}") is not None


def test_los_dialogos_del_formgrader_no_traen_registros_de_depuracion(monkeypatch):
    """TA round 7, P4: Generate's dialog brought ~150 «[DEBUG] Checksum for code cell…» lines; every formgrader
    action whose log it shows (generate, release, collect, autograde…) keeps INFO and above only."""
    from grader_tests.extensiones_nbgrader import formgrader_seguro as fs
    log = "[INFO] a\n[DEBUG] Checksum for code cell x\n  sigue\n[WARNING] b\n  detalle\n"
    for nombre in fs.CON_REGISTRO:
        monkeypatch.setitem(fs._originales, f"NbGraderAPI.{nombre}",
                            lambda self, *a, **k: {"success": True, "log": log})
        assert fs._sin_ruido(nombre)(None, "t") == {"success": True, "log": "[INFO] a\n[WARNING] b\n  detalle\n"}


def test_aplicar_envuelve_las_acciones_con_registro():
    import subprocess
    import sys
    codigo = ("from grader_tests.extensiones_nbgrader import formgrader_seguro as fs; fs.aplicar(); "
              "from nbgrader.apps import api; "
              "print(all(getattr(api.NbGraderAPI, n).__module__ == fs.__name__ for n in fs.CON_REGISTRO))")
    from conftest import RAIZ
    salida = subprocess.run([sys.executable, "-c", codigo], cwd=RAIZ, capture_output=True, text=True, check=True)
    assert salida.stdout.strip() == "True", salida


def test_las_fechas_de_formgrader_son_exactas_en_el_cambio_de_hora():
    """Manage Assignments and the submissions show a naive UTC date in the course's zone, exact on the night of the
    October change (a TA tester, issue 21: nbgrader 0.9.6 turned 02:30+01:00, 01:30 UTC, into «03:30 CET»)."""
    import datetime as dt

    from nbgrader.apps import api as nbgrader_api

    from grader_tests.extensiones_nbgrader import formgrader_seguro
    formgrader_seguro.aplicar()
    formato = "%Y-%m-%d %H:%M:%S %Z"
    for utc, esperada in ((dt.datetime(2026, 10, 25, 0, 30), "2026-10-25 02:30:00 CEST"),
                          (dt.datetime(2026, 10, 25, 1, 30), "2026-10-25 02:30:00 CET"),
                          (dt.datetime(2026, 3, 29, 0, 59, 59), "2026-03-29 01:59:59 CET"),
                          (dt.datetime(2026, 3, 29, 1, 0), "2026-03-29 03:00:00 CEST")):
        assert nbgrader_api.as_timezone(utc, "Europe/Madrid").strftime(formato) == esperada, utc
    assert nbgrader_api.as_timezone(dt.datetime(2026, 1, 1), None) == dt.datetime(2026, 1, 1)


def test_abrir_un_libro_de_notas_nuevo_a_la_vez_no_falla(tmp_path, monkeypatch):
    """Two formgrader requests that open a brand-new gradebook at once race in nbgrader's create_all (a hub TA's
    log: «table base_cell already exists»): the loser opens it again once the tables exist."""
    from nbgrader import api
    from sqlalchemy.exc import OperationalError

    from grader_tests.extensiones_nbgrader.formgrader_avisos import libro_de_notas

    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    original, llamadas = api.Gradebook, []

    def carrera(*args, **kwargs):
        llamadas.append(args)
        if len(llamadas) == 1:
            original(*args, **kwargs).close()          # the other request created the tables meanwhile
            raise OperationalError("CREATE TABLE base_cell", {}, Exception("table base_cell already exists"))
        return original(*args, **kwargs)
    monkeypatch.setattr(api, "Gradebook", carrera)
    with libro_de_notas(url, "curso") as gb:
        assert gb.assignments == []
    assert len(llamadas) == 2

    def otro_error(*args, **kwargs):
        raise OperationalError("SELECT", {}, Exception("database is locked"))
    monkeypatch.setattr(api, "Gradebook", otro_error)
    with pytest.raises(OperationalError):
        libro_de_notas(url, "curso")
