"""Sanitize-step helpers and the TA table's observations, without running nbgrader (issue 11)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from conftest import RAIZ
from grader_tests.extensiones_nbgrader.saneamiento import CLAVE, archivos_modificados, nota_de_archivos
from scripts.calificacion import observaciones


def _tarea(tmp_path):
    origen, entrega = tmp_path / "source" / "t", tmp_path / "submitted" / "ana" / "t"
    for carpeta in (origen, entrega):
        (carpeta / "datos").mkdir(parents=True)
        (carpeta / "modulo.py").write_text("def f():\n    return 1\n")
        (carpeta / "datos" / "tabla.csv").write_text("a,b\n1,2\n")
        (carpeta / "cuaderno.ipynb").write_text("{}")
    (origen / "nbgrader_config.py").write_text("c = get_config()\n")
    return origen, entrega


def test_archivos_intactos_o_borrados_no_se_senalan(tmp_path):
    origen, entrega = _tarea(tmp_path)
    assert archivos_modificados(str(origen), str(entrega)) == []   # nbgrader_config.py missing: not a change


def test_cada_forma_de_modificar_un_archivo_se_senala(tmp_path):
    origen, entrega = _tarea(tmp_path)
    (entrega / "modulo.py").write_text("def f():\n    return 2\n")              # same size, other bytes
    (entrega / "datos" / "tabla.csv").write_text("a,b\n1,2\n3,4\n")            # longer
    (entrega / "cuaderno.ipynb").write_text("[]")                              # notebooks are not files of the course
    os.symlink("/etc/passwd", entrega / "nbgrader_config.py")                  # a link: never followed
    assert archivos_modificados(str(origen), str(entrega)) == [
        os.path.join("datos", "tabla.csv"), "modulo.py", "nbgrader_config.py"]
    # what autograde does not overwrite is the student's own
    assert archivos_modificados(str(origen), str(entrega), excluidos=["modulo.py"]) == [
        os.path.join("datos", "tabla.csv"), "nbgrader_config.py"]
    assert archivos_modificados(str(origen), str(entrega), ignorar=["datos"]) == ["modulo.py", "nbgrader_config.py"]


def test_una_carpeta_en_lugar_del_archivo_se_senala(tmp_path):
    origen, entrega = _tarea(tmp_path)
    (entrega / "modulo.py").unlink()
    (entrega / "modulo.py").mkdir()
    assert archivos_modificados(str(origen), str(entrega)) == ["modulo.py"]


def test_la_nota_nombra_los_archivos():
    assert "`modulo.py`" in nota_de_archivos(["modulo.py"]) and "modificado " in nota_de_archivos(["modulo.py"])
    assert "modificados `a.py`, `b.py`" in nota_de_archivos(["a.py", "b.py"])


def test_observaciones_del_log_de_nbgrader():
    linea = ("[AutogradeApp | WARNING] Attribute 'checksum' for cell positional_encoding_valores has "
             "changed! (should be: 1, got: 2)")
    assert observaciones.del_log(linea) == [
        "la celda de prueba positional_encoding_valores estaba modificada en la entrega: se ha "
        "calificado con la original"]
    assert "puntos" in observaciones.del_log(linea.replace("'checksum'", "'points'"))[0]
    assert observaciones.del_log("[AutogradeApp | INFO] Writing 3 bytes") == []


def test_observaciones_del_cuaderno():
    agotada = new_output("error", ename="CellTimeoutError", evalue="se agotó el tiempo (60 s)", traceback=[])
    nb = new_notebook(cells=[
        new_markdown_cell("aviso", metadata={CLAVE: {"archivos_modificados": ["explorable.py"]}}),
        new_code_cell("while True: pass", outputs=[agotada]),
        new_code_cell("print(1)"),
        new_code_cell("while True: pass", outputs=[agotada], metadata={"nbgrader": {"grade_id": "f"}}),
    ])
    assert observaciones.del_cuaderno(nb) == [
        "modificó archivos que vienen con la tarea (explorable.py): se han calificado con los del curso "
        "y sus comentarios lo dicen",
        "se agotó el tiempo (60 s) en la celda 2 de la lección (no calificadas)"]
    assert observaciones.de_respuesta("f", agotada) == "la celda de respuesta f: se agotó el tiempo (60 s)"
    error = new_output("error", ename="NameError", evalue="name 'x' is not defined", traceback=[])
    assert observaciones.de_respuesta("f", error) == "la celda de respuesta f lanzó NameError: name 'x' is not defined"


def test_la_salida_se_degrada_en_un_terminal_ascii():
    codigo = ("from scripts.calificacion import observaciones; observaciones.preparar_salida(); "
              "print('Observación — ñandú ✔ √d_k «x» 3 × 4')")
    for codificacion in ("ascii", "latin-1"):
        proceso = subprocess.run([sys.executable, "-c", codigo], cwd=RAIZ, capture_output=True,
                                 env={**os.environ, "PYTHONIOENCODING": codificacion})
        assert proceso.returncode == 0, proceso.stderr
        texto = proceso.stdout.decode(codificacion)
        assert texto.startswith("Observaci") and "[bien]" in texto, texto
    assert "Observacion - nandu [bien] raiz de d_k \"x\" 3 x 4" in subprocess.run(
        [sys.executable, "-c", codigo], cwd=RAIZ, capture_output=True, text=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"}).stdout


def test_los_flujos_seguidos_se_unen_sin_cambiar_el_orden():
    from nbformat.v4 import new_code_cell, new_output
    from grader_tests.caja.aislamiento import unir_flujos_seguidos
    celda = new_code_cell("x")
    celda.outputs = [new_output("stream", name="stdout", text="mapas: diferencia"),
                     new_output("stream", name="stdout", text=" 0.0\n"),
                     new_output("stream", name="stderr", text="aviso\n"),
                     new_output("display_data", data={"text/plain": "figura"}),
                     new_output("stream", name="stdout", text="después\n")]
    unir_flujos_seguidos(celda)
    assert [(o.output_type, o.get("name"), o.get("text")) for o in celda.outputs] == [
        ("stream", "stdout", "mapas: diferencia 0.0\n"), ("stream", "stderr", "aviso\n"),
        ("display_data", None, None), ("stream", "stdout", "después\n")]


# ------------------------------------------------ marks a student changed (final attack, B.9)

def test_un_grade_id_duplicado_no_es_la_razon_de_un_fallo():
    """nbgrader's duplicate warning is not a cause (the course grades duplicates): the failure's own is named."""
    from scripts.calificacion import razones
    log = ("[AutogradeApp | WARNING] Cell with id 'multi_head_mapas' exists multiple times!\n"
           "[AutogradeApp | ERROR] There was an error processing assignment: /c/submitted/ana/t\n"
           "Traceback (most recent call last):\n"
           "nbgrader.api.MissingEntry\n")
    razon = razones.razon_del_log(log)
    assert "duplicad" not in razon and "marcas de nbgrader" in razon, razon
    (observacion,) = razones.del_log_del_alumno(log.splitlines()[0])
    assert observacion.startswith("celda calificada duplicada (multi_head_mapas): se califica la última copia")
    assert "no dan puntos" in observacion


def test_una_prorroga_ilegible_no_se_explica_como_un_cuaderno_danado():
    """ComprobarPlazos refused the student (TA round 8, P2-1): the table says that, not «dañado»."""
    from scripts.calificacion import razones
    log = ("[AutogradeApp | ERROR] There was an error processing assignment: /c/submitted/luis/t\n"
           "Traceback (most recent call last):\n"
           "grader_tests.extensiones_nbgrader.plazos.PlazoInvalido: No se califica a luis en t (sus notas "
           "anteriores no cambian): la prórroga «1 dia y pico» no se entiende. Corrígelo en plazos.toml y vuelve "
           "a calificar.\n")
    razon = razones.razon_del_log(log)
    assert razon.startswith("no se califica por plazos.toml: No se califica a luis en t"), razon
    assert "«1 dia y pico»" in razon and "dañad" not in razon


def test_una_clave_de_nbgrader_inventada_se_nombra_con_su_celda():
    """nbformat's schema refusal (sixth attacker, F5): the key and the cell, shown safely, not «no es válido»."""
    from scripts.calificacion import razones
    log = ("jsonschema.exceptions.ValidationError: Additional properties are not allowed ('grade_id_extra', "
           "'x\\x1b[2J' were unexpected)\n\nFailed validating 'additionalProperties' in schema:\n"
           "    {'title': 'nbgrader cell metadata schema',\n\nOn instance:\n"
           "    {'grade': False,\n     'grade_id': 'positional_encoding',\n     'grade_id_extra': 'mio'}\n"
           "jsonschema.exceptions.ValidationError: Notebook failed to validate; the nbgrader metadata may be corrupted.\n")
    razon = razones.razon_del_log(log)
    assert razon.startswith("los metadatos de nbgrader de la celda «positional_encoding» traen una clave que "
                            "nbgrader no admite («grade_id_extra», «x"), razon
    assert "\x1b" not in razon
    otro = log.replace("Additional properties are not allowed ('grade_id_extra', 'x\\x1b[2J' were unexpected)",
                       "'diez' is not of type 'number'")
    assert "no siguen el esquema de nbgrader ('diez' is not of type 'number')" in razones.razon_del_log(otro)


def test_claves_repetidas_y_sustitutos_sueltos():
    from grader_tests.extensiones_nbgrader.saneamiento import claves_repetidas, sin_sustitutos
    assert sorted(claves_repetidas('{"cells": [1], "a": {"b": 1, "b": 2}, "cells": []}')) == ["«b»", "«cells»"]
    assert claves_repetidas('{"cells": []}') == [] and claves_repetidas("[" * 100000) == []
    nb = {"cells": [{"source": "a\ud800b", "metadata": {"\udfff": ["\ud83d", "ok"]}}], "x": "\U0001f600"}
    assert sin_sustitutos(nb) == 3
    assert nb == {"cells": [{"source": "a\ufffdb", "metadata": {"\ufffd": ["\ufffd", "ok"]}}], "x": "\U0001f600"}
    assert sin_sustitutos(nb) == 0


@pytest.fixture(scope="module")
def libro(tmp_path_factory):
    """A gradebook with one assignment: an answer cell ``f``, its test cell ``f_prueba`` (2 points), a task."""
    from nbgrader.api import Gradebook
    tmp_path = tmp_path_factory.mktemp("libro")
    entorno = os.environ.get("PATH", "")
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + entorno    # nbgrader runs alembic
    try:
        gb = Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}")
    finally:
        os.environ["PATH"] = entorno
    gb.add_assignment("t")
    gb.add_notebook("cuaderno", "t")
    gb.add_solution_cell("f", "cuaderno", "t")
    gb.add_source_cell("f", "cuaderno", "t", cell_type="code", locked=False, source="def f(): pass",
                       checksum="x")
    gb.add_grade_cell("f_prueba", "cuaderno", "t", max_score=2, cell_type="code")
    gb.add_source_cell("f_prueba", "cuaderno", "t", cell_type="code", locked=True, source="assert f() is None",
                       checksum=None)
    gb.add_task_cell("tarea", "cuaderno", "t", max_score=3, cell_type="markdown")
    gb.add_source_cell("tarea", "cuaderno", "t", cell_type="markdown", locked=True, source="Explica.",
                       checksum=None)
    gb.close()
    return f"sqlite:///{tmp_path / 'gradebook.db'}"


def _marcas(grade_id, **cambios):
    marcas = {"grade": False, "solution": False, "locked": False, "task": False, "grade_id": grade_id,
              "schema_version": 3}
    marcas.update(cambios)
    return {"nbgrader": marcas}


def test_las_marcas_cambiadas_de_una_celda_de_la_tarea_vuelven_a_las_del_libro(libro):
    """A solution cell marked as graded, a test cell without «grade», a task cell with other points: the
    gradebook's marks come back before OverwriteCells (which would otherwise abort on MissingEntry), and
    each change is named."""
    from nbgrader import utils
    from nbgrader.api import Gradebook
    from nbgrader.preprocessors import OverwriteCells
    from nbgrader.utils import compute_checksum
    from grader_tests.caja import archivos_alumno
    from grader_tests.extensiones_nbgrader.saneamiento import ReponerPruebasOcultas
    url = libro
    nb = new_notebook(cells=[
        new_code_cell("def f(): pass", metadata=_marcas("f", solution=True)),
        new_code_cell("assert f() is None", metadata=_marcas("f_prueba", grade=True, locked=True, points=2)),
        new_markdown_cell("Explica.", metadata=_marcas("tarea", locked=True, task=True, points=3)),
    ])
    with Gradebook(url) as gb:            # the checksums the gradebook keeps, as generate_assignment leaves them
        for celda in nb.cells:
            gid = celda.metadata.nbgrader["grade_id"]
            gb.find_source_cell(gid, "cuaderno", "t").checksum = compute_checksum(celda)
        gb.db.commit()
    # what the student changed
    nb.cells[0].metadata.nbgrader.update(grade=True, points=50)
    nb.cells[1].metadata.nbgrader["grade"] = False
    nb.cells[2].metadata.nbgrader.update(grade=True, task=False, points=99)
    recursos = {"nbgrader": {"db_url": url, "notebook": "cuaderno", "assignment": "t", "student": "ana"}}
    nb, recursos = ReponerPruebasOcultas().preprocess(nb, recursos)
    f, prueba, tarea = (c.metadata.nbgrader for c in nb.cells)
    assert (f["grade"], f["solution"], "points" in f) == (False, True, False)
    assert (prueba["grade"], prueba["points"]) == (True, 2.0)
    assert (tarea["grade"], tarea["task"], tarea["points"]) == (False, True, 3.0)
    nb, recursos = OverwriteCells().preprocess(nb, recursos)          # no MissingEntry any more
    assert [utils.is_grade(c) for c in nb.cells] == [False, True, False]
    avisos = "\n".join(v for vs in archivos_alumno._AVISOS.values() for v in vs)
    assert "la celda f venía con la marca «grade», 50 puntos, que en la tarea no lleva" in avisos
    assert "la celda f_prueba venía sin la marca «grade», que en la tarea lleva" in avisos
    assert "la celda tarea venía con la marca «grade», 99 puntos, que en la tarea no lleva; y sin la marca " \
           "«task», que en la tarea lleva" in avisos


def test_una_celda_con_sus_marcas_no_se_senala(libro):
    from grader_tests.caja import archivos_alumno
    from grader_tests.extensiones_nbgrader.saneamiento import ReponerPruebasOcultas
    nb = new_notebook(cells=[new_code_cell("def f(): pass", metadata=_marcas("f", solution=True))])
    recursos = {"nbgrader": {"db_url": libro, "notebook": "cuaderno", "assignment": "t", "student": "luis"}}
    antes = {k: list(v) for k, v in archivos_alumno._AVISOS.items()}
    ReponerPruebasOcultas().preprocess(nb, recursos)
    assert {k: list(v) for k, v in archivos_alumno._AVISOS.items()} == antes
