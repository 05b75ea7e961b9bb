"""The sanitiser of students' HTML (grader_tests/extensiones_nbgrader/html_seguro.py): classes, sizes, missing attachments.

Fast, no browser.  A student's ``class`` would reuse the page's Bootstrap and
scripts (a fake «session expired» dialog, an invisible link over the whole
page, a link in formgrader's Tab order): only the classes the course's own
rendering writes survive, in markdown, HTML outputs and comments, in
formgrader's submission page and in the feedback.  A 30 MiB markdown cell is
cut before rendering, with a Spanish note.  A markdown image naming an
attachment the cell does not have is a note, not an error.  The same cases in
Chromium against a running formgrader: tests/navegador/test_6_formgrader_seguridad.py.
"""
from __future__ import annotations

import re

import nbformat
import pytest

from grader_tests.extensiones_nbgrader import html_seguro as hs
from test_formgrader_seguro import (NONCE, _cuaderno_con_nbgrader, comprobar_pagina, etiquetas,
                                    exportador_de_formgrader)

# Bootstrap 3 (formgrader's and the feedback's CSS) and formgrader's own behaviour
CLASES_HOSTILES = ("modal", "show", "in", "fade", "modal-backdrop", "modal-dialog", "modal-content", "tabbable",
                   "btn", "btn-primary", "navbar-fixed-top", "hidden", "sr-only", "collapse", "tooltip", "popover",
                   "dropdown-menu", "score", "comment", "name-hidden", "jp-Dialog")
HOSTIL = ('<div class="modal show" style="display:block"><div class="modal-dialog"><div class="modal-content">'
          '<a class="btn btn-primary" href="https://ejemplo.org/entrar">Volver a entrar</a></div></div></div>'
          '<a class="modal-backdrop fade in" href="https://ejemplo.org/x">.</a>'
          '<span class="tabbable navbar-fixed-top hidden sr-only collapse tooltip popover dropdown-menu score '
          'comment name-hidden jp-Dialog">t</span>')


def clases_de(html: str) -> set[str]:
    return {c for _, a in etiquetas(html) for c in (a.get("class") or "").split()}


def test_limpiar_html_quita_toda_clase_ajena():
    limpio = hs.limpiar_html(HOSTIL)
    assert not clases_de(limpio) & set(CLASES_HOSTILES), clases_de(limpio)
    assert "Volver a entrar" in limpio                  # the text stays, inert
    assert 'style=' not in limpio


def test_el_resaltado_de_codigo_y_el_tex_sin_convertir_conservan_sus_clases():
    html = hs.markdown2html_seguro({"resources": {}}, "```python\nimport numpy as np  # c\n```\n")
    assert {"highlight", "kn", "nn", "c1"} <= clases_de(html), html
    mathml = hs.markdown2html_seguro({"resources": {hs.CLAVE_MATHML: True}}, "$\\frac{1}{$")
    assert "tex-sin-convertir" in clases_de(mathml) or "<math" in mathml


def test_clases_permitidas():
    assert hs.clases_permitidas("highlight hl-python3 modal") == "highlight hl-python3"
    assert hs.clases_permitidas("modal show") is None
    assert hs.clases_permitidas("hl-<x>") is None


def _cuaderno_hostil(contenido: str = HOSTIL) -> nbformat.NotebookNode:
    """A notebook with ``contenido`` as markdown, as an HTML/markdown output and as the TA's comment."""
    nb = _cuaderno_con_nbgrader()
    nb.cells.append(nbformat.v4.new_markdown_cell(contenido))
    nb.cells.append(nbformat.v4.new_code_cell("x", outputs=[nbformat.v4.new_output(
        "display_data", data={"text/html": contenido, "text/markdown": contenido, "text/plain": "x"})]))
    nb.cells[1].metadata.nbgrader.update(grade=True, points=1, score=1, comment=contenido)
    return nb


def _recursos_de_formgrader() -> dict:
    base = "/services/curso"
    return {"assignment_id": "tarea", "notebook_id": "cuaderno", "submission_id": "abc", "index": 0, "total": 1,
            "base_url": base, "student": "alumna", "last_name": "", "first_name": "",
            "notebook_path": "./autograded/alumna/tarea/cuaderno.ipynb", "csp_nonce": NONCE,
            "curso_datos": {"base_url": base, "pagina": "entrega"}, "curso_estaticos": base + "/static/",
            "curso_mathjax": base + "/mathjax/MathJax.js"}


def comentarios_de(nb: nbformat.NotebookNode) -> str:
    """The feedback page of ``nb`` as ``generate_feedback`` writes it (the course's exporter and config)."""
    import os
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config
    from grader_tests.extensiones_nbgrader.retroalimentacion import ExportadorRetroalimentacion
    config = Config()
    config.HTMLExporter.extra_template_paths = [
        os.path.join(handlers.static_path, "node_modules", "bootstrap", "dist", "css")]
    config.HTMLExporter.sanitize_html = True
    config.HTMLExporter.preprocessors = ["grader_tests.extensiones_nbgrader.html_seguro.SanearCuaderno"]
    config.HTMLExporter.filters = {"markdown2html": "grader_tests.extensiones_nbgrader.html_seguro.markdown2html_seguro",
                                   "clean_html": "grader_tests.extensiones_nbgrader.html_seguro.limpiar_html"}
    recursos = {"nbgrader": {"notebook": "cuaderno", "score": 1, "max_score": 1, "late_penalty": 0}}
    html, _ = ExportadorRetroalimentacion(config=config).from_notebook_node(nb, resources=recursos)
    return html


def _modales(html: str) -> int:
    """Elements with one of Bootstrap's dialog classes or formgrader's ``tabbable``."""
    return len(re.findall(r'class="[^"]*\b(modal|modal-backdrop|modal-dialog|tabbable)\b', html))


def _clases_del_alumno(html: str, propias: str) -> set[str]:
    """Classes in ``html`` that the page's own template (``propias``, the page of a clean notebook) lacks."""
    return clases_de(html) - clases_de(propias)


def test_ni_formgrader_ni_los_comentarios_dejan_clases_de_bootstrap_del_alumno():
    formgrader = exportador_de_formgrader()
    pagina, _ = formgrader.from_notebook_node(_cuaderno_hostil(), resources=_recursos_de_formgrader())
    limpia, _ = formgrader.from_notebook_node(_cuaderno_hostil("texto"), resources=_recursos_de_formgrader())
    comprobar_pagina(pagina)
    assert "Volver a entrar" in pagina
    assert not _clases_del_alumno(pagina, limpia) & set(CLASES_HOSTILES), _clases_del_alumno(pagina, limpia)
    # the page's own dialogs (formgrader has some) are all there is: none came from the student
    assert _modales(pagina) == _modales(limpia)

    comentarios, limpios = comentarios_de(_cuaderno_hostil()), comentarios_de(_cuaderno_hostil("texto"))
    assert comentarios.count("Volver a entrar") >= 3            # markdown, output and the TA's comment
    assert not _clases_del_alumno(comentarios, limpios) & set(CLASES_HOSTILES)
    assert _modales(comentarios) == _modales(limpios) == 0


# ------------------------------------------------------------------ sizes

def test_una_celda_de_30_mib_se_recorta_con_una_nota_antes_de_renderizar():
    nb = _cuaderno_con_nbgrader()
    enorme = ("Texto del alumno $x^2$ " * 8)[:150] * (30 * 1024 * 1024 // 150)
    nb.cells.append(nbformat.v4.new_markdown_cell(enorme))
    nb.cells.append(nbformat.v4.new_markdown_cell("Después de la celda grande 4242"))
    limpio, _ = hs.SanearCuaderno().preprocess(nb, {})
    fuente = limpio.cells[2].source
    assert len(fuente) < hs.MAX_FUENTE + 200
    assert fuente.endswith(hs.nota_de_recorte(len(enorme), hs.MAX_FUENTE))
    assert "recortado al mostrarlo" in fuente and f"{len(enorme):,}".replace(",", ".") in fuente
    assert limpio.cells[3].source == "Después de la celda grande 4242"
    html, _ = exportador_de_formgrader().from_notebook_node(_cuaderno_con_nbgrader(), resources=_recursos_de_formgrader())
    assert html


def test_el_presupuesto_del_cuaderno_acota_muchas_celdas_y_salidas():
    nb = nbformat.v4.new_notebook()
    for _ in range(40):
        nb.cells.append(nbformat.v4.new_markdown_cell("a" * (hs.MAX_FUENTE * 2)))
        nb.cells.append(nbformat.v4.new_code_cell("print()", outputs=[
            nbformat.v4.new_output("stream", name="stdout", text="b" * hs.MAX_TEXTO)]))
    limpio, _ = hs.SanearCuaderno().preprocess(nb, {})
    fuentes = sum(len(c.source) for c in limpio.cells)
    salidas = sum(len(o.get("text", "")) for c in limpio.cells if c.cell_type == "code" for o in c.outputs)
    assert fuentes <= hs.MAX_FUENTES + 80 * 200
    assert salidas <= hs.MAX_SALIDAS + 40 * 200
    assert "contenido omitido al mostrarlo" in limpio.cells[-2].source
    assert "contenido omitido al mostrarlo" in limpio.cells[-1].outputs[0].text


def test_miles_de_formulas_de_un_alumno_no_hinchan_sus_comentarios():
    """A fresh attacker's output: ``display(Markdown(...))`` of tens of thousands of formulas grew into
    gigabytes of MathML in the TA's generate_feedback.  The page typesets up to the budget, then
    shows TeX after one Spanish note; the next page has a budget of its own."""
    formula = "$" + "x_{0}+" * 20 + "y$ "
    markdown = formula * (1_000_000 // len(formula))               # ~7 800 formulas, 1 MB
    distintas = " ".join(f"$a_{{{n}}}$" for n in range(3000))      # distinct ones (no cache)
    nb = _cuaderno_con_nbgrader()
    nb.cells.append(nbformat.v4.new_markdown_cell(distintas))
    nb.cells.append(nbformat.v4.new_code_cell("display(Markdown(f))", outputs=[nbformat.v4.new_output(
        "display_data", data={"text/markdown": markdown, "text/plain": "<Markdown>"})]))
    html = comentarios_de(nb)
    assert html.count("<math") <= hs.MAX_FORMULAS
    assert html.count("Hay demasiadas fórmulas para estos comentarios") == 1
    assert "x_{0}+x_{0}" in html and "tex-sin-convertir" in html          # the rest, as TeX text
    assert len(html) < 6 * len(markdown)                                   # not tens of MB of MathML
    otra = _cuaderno_con_nbgrader()
    otra.cells.append(nbformat.v4.new_markdown_cell("La fórmula $\\frac{QK^T}{\\sqrt{d_k}}$."))
    assert "<math" in comentarios_de(otra) and "demasiadas fórmulas" not in comentarios_de(otra)


def test_las_lecciones_caben_en_el_presupuesto_de_formulas():
    from conftest import RAIZ
    for cuaderno in sorted((RAIZ / "source").glob("*/*.ipynb")):
        nb = nbformat.read(cuaderno, as_version=4)
        for celda in nb.cells:              # the math of the lesson, without the grading cells' fields
            celda.metadata.pop("nbgrader", None)
        html = comentarios_de(nb)
        assert "demasiadas fórmulas" not in html, cuaderno
        assert 100 < html.count("<math") < hs.MAX_FORMULAS // 2, cuaderno


def test_las_lecciones_no_se_recortan():
    from conftest import RAIZ
    for cuaderno in sorted((RAIZ / "source").glob("*/*.ipynb")):
        nb = nbformat.read(cuaderno, as_version=4)
        antes = [c.source for c in nb.cells]
        limpio, _ = hs.SanearCuaderno().preprocess(nb, {})
        assert [c.source for c in limpio.cells] == antes, cuaderno


# ------------------------------------------------------------------ attachments

@pytest.mark.parametrize("adjuntos", [None, {}, {"dibujo.svg": {"image/svg+xml": "PHN2Zz48L3N2Zz4="}},
                                      {"otro.png": {"image/png": "iVBORw0KGgo="}}])
def test_un_adjunto_que_falta_es_una_nota_no_un_error(adjuntos):
    nb = _cuaderno_con_nbgrader()
    celda = nbformat.v4.new_markdown_cell("Antes ![x](attachment:dibujo.svg) ![y](attachment:<b>z</b>) después 5151")
    if adjuntos is not None:
        celda["attachments"] = adjuntos
    nb.cells.append(celda)
    html, _ = exportador_de_formgrader().from_notebook_node(nb, resources=_recursos_de_formgrader())
    assert "después 5151" in html and "imagen adjunta no disponible: dibujo.svg" in html
    assert "<b>z</b>" not in html
    comentarios = comentarios_de(nb)
    assert "después 5151" in comentarios and "imagen adjunta no disponible" in comentarios


def test_una_imagen_sin_descripcion_la_tiene_en_español():
    """TA round 7, P4: nbconvert wrote «No description has been provided for this image» on a student's image."""
    from grader_tests.extensiones_nbgrader.html_seguro import SIN_DESCRIPCION, limpiar_html
    limpio = limpiar_html('<p><img src=x onerror="alert(1)"> y <img alt="mi dibujo" src="data:image/png;base64,AA=="></p>')
    assert f'<img alt="{SIN_DESCRIPCION}"' in limpio and 'alt="mi dibujo"' in limpio, limpio
    assert limpio.count("alt=") == 2 and "onerror" not in limpio
