"""A cell that runs out of time keeps the student's code and says why (issue 11).

The sandboxed executor (``grader_tests.caja.aislamiento.EjecucionAislada``) runs
a small notebook with a 3 s limit: a slow solution cell, a slow graded test
cell and a quick cell after them.  The timed-out cells keep their source,
metadata and grade_id, show "se agotó el tiempo (3 s)", the test cell scores
0 with that reason (never "needs manual grading"), and the quick cell still runs.
"""
from __future__ import annotations

import os
import shutil

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook
from traitlets.config import Config

from conftest import RAIZ
from grader_tests.caja.aislamiento import EjecucionAislada
from grader_tests.extensiones_nbgrader.nbgrader_juez import JuzgarEvidencias

pytestmark = pytest.mark.slow

LENTA = "import time\nwhile True:\n    time.sleep(0.1)"


def _meta(grade_id, **banderas):
    return {"nbgrader": {"grade_id": grade_id, "grade": False, "solution": False, "locked": False,
                         "schema_version": 3, **banderas}}


@pytest.fixture(scope="module")
def ejecutado(tmp_path_factory):
    if shutil.which("bwrap") is None and os.environ.get("CURSO_SIN_AISLAMIENTO") != "1":
        pytest.skip("sin bubblewrap")
    carpeta = tmp_path_factory.mktemp("tiempo")
    nb = new_notebook(cells=[
        new_code_cell("import numpy as np\n" + LENTA, metadata=_meta("positional_encoding", solution=True)),
        new_code_cell('"""Valores."""\n' + 'import time\nwhile True:\n    time.sleep(0.1)',
                      metadata=_meta("positional_encoding_valores", grade=True, locked=True, points=3)),
        new_code_cell("print('sigue')"),
    ])
    config = Config()
    config.Execute.timeout = 3
    config.KernelAislado.raiz = str(RAIZ)
    config.EjecucionAislada.espera_sonda = 5
    recursos = {"metadata": {"path": str(carpeta)}, "nbgrader": {"notebook": "prueba"}}
    nb, recursos = EjecucionAislada(config=config).preprocess(nb, recursos)
    antes = nbformat.from_dict(nbformat.reads(nbformat.writes(nb), as_version=4))
    nb, recursos = JuzgarEvidencias(config=config).preprocess(nb, recursos)
    return antes, nb


def test_la_celda_agotada_conserva_el_codigo_del_alumno(ejecutado):
    antes, _ = ejecutado
    solucion, prueba, siguiente = antes.cells
    assert LENTA in solucion.source and solucion.metadata.nbgrader.grade_id == "positional_encoding"
    assert prueba.metadata.nbgrader.grade_id == "positional_encoding_valores"
    for celda in (solucion, prueba):
        errores = [s for s in celda.outputs if s.output_type == "error"]
        assert errores and errores[-1].evalue == "se agotó el tiempo (3 s)", celda.outputs
        assert "se agotó el tiempo (3 s)" in "\n".join(errores[-1].traceback)
    assert "pass" != solucion.source.strip()
    assert any("sigue" in s.get("text", "") for s in siguiente.outputs), siguiente.outputs


def test_la_prueba_agotada_vale_cero_con_su_motivo(ejecutado):
    _, nb = ejecutado
    prueba = nb.cells[1]
    texto = "".join(s.get("text", "") for s in prueba.outputs)
    puntos = [s for s in prueba.outputs if s.output_type == "execute_result"]
    assert "se agotó el tiempo (3 s)" in texto, texto
    assert puntos and puntos[0].data["text/plain"] == "0"
