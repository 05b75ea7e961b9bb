"""The Spanish feedback template reads well (issue 22.8): words wrapped at spaces, no stray score.

``grader_tests/extensiones_nbgrader/retroalimentacion.py`` renders ``plantillas/retroalimentacion``; here a small
graded notebook goes through it without nbgrader.  The browser check of the wrapping, on the
feedback ``make grade`` writes, is ``tests/navegador/test_8_retroalimentacion.py``.
"""
from __future__ import annotations

import re

import nbformat
from nbformat.v4 import new_code_cell, new_notebook, new_output

from grader_tests.extensiones_nbgrader.retroalimentacion import ExportadorRetroalimentacion


def _cuaderno():
    prueba = new_code_cell("assert True", execution_count=7, metadata={"nbgrader": {
        "grade": True, "solution": False, "grade_id": "f_valores", "points": 3, "score": 3,
        "locked": True, "schema_version": 3, "task": False}})
    prueba.outputs = [new_output("stream", name="stdout", text="Valores correctos.\n✔ Puntos: 3 de 3\n"),
                      new_output("execute_result", data={"text/plain": "3"}, execution_count=7)]
    leccion = new_code_cell("1 + 1", execution_count=8)
    leccion.outputs = [new_output("execute_result", data={"text/plain": "2"}, execution_count=8)]
    return new_notebook(cells=[prueba, leccion])


def _html() -> str:
    import os

    import nbgrader.converters.generate_feedback as generate_feedback

    # what nbgrader's GenerateFeedback adds to the exporter: Bootstrap's stylesheet
    bootstrap = os.path.join(os.path.dirname(generate_feedback.__file__), "..", "server_extensions",
                             "formgrader", "static", "node_modules", "bootstrap", "dist", "css")
    recursos = {"nbgrader": {"notebook": "leccion", "score": 3, "max_score": 3, "late_penalty": 0}}
    exportador = ExportadorRetroalimentacion(extra_template_paths=[os.path.abspath(bootstrap)])
    html, _ = exportador.from_notebook_node(_cuaderno(), resources=recursos)
    return html


def test_la_nota_de_una_celda_de_prueba_no_sale_como_out():
    html = _html()
    assert "✔ Puntos: 3 de 3" in html
    assert "Out[7]" not in html, "el número que lee nbgrader no se enseña (ya lo dice el veredicto)"
    assert "Out[8]" in html, "las demás salidas se enseñan como siempre"


def test_las_lineas_largas_se_cortan_en_los_espacios():
    regla = re.search(r"div\.output_area pre \{([^}]*)\}", _html())
    assert regla, "falta la regla de las salidas"
    propiedades = dict(re.findall(r"([\w-]+)\s*:\s*([^;]+);", regla.group(1)))
    assert propiedades.get("white-space") == "pre-wrap"
    assert propiedades.get("word-break") == "normal"            # Bootstrap's pre: break-all
    assert propiedades.get("overflow-wrap") == "break-word"     # only a word longer than the line
    nbformat.validate(_cuaderno())


def test_ninguna_fuente_se_pide_fuera_de_la_pagina():
    """The page's policy allows fonts only as data: URLs; Bootstrap's Glyphicons @font-face pointed at
    ../fonts/ and the browser's console said so on every opening (fifth TA's report, P3)."""
    html = _html()
    cabeza = html[:html.index("</head>")]
    assert "font-src data:" in cabeza
    reglas = re.findall(r"@font-face\s*\{[^{}]*\}", cabeza)
    for regla in reglas:
        assert not re.search(r"url\(\s*(?![\'\"]?data:)", regla), regla
    assert "glyphicons-halflings-regular" not in cabeza
    assert ".glyphicon" in cabeza, "el resto de Bootstrap sigue ahí"


def test_las_tablas_de_la_leccion_tienen_separacion():
    """A student: the lessons' markdown tables ran their columns together in the feedback («determinantelos
    sustantivos»): their cells get padding and borders."""
    html = _html()
    regla = re.search(r"div\.text_cell_render th, div\.text_cell_render td \{([^}]*)\}", html)
    assert regla, "falta la regla de las celdas de las tablas"
    propiedades = dict(re.findall(r"([\w-]+)\s*:\s*([^;]+);", regla.group(1)))
    assert propiedades.get("padding", "0").split()[-1] not in ("0", "0em") and "border" in propiedades
