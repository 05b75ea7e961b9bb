"""Sanitize-step helpers and the TA table's observations, without running nbgrader (issue 11)."""
from __future__ import annotations

import os
import subprocess
import sys

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from conftest import RAIZ
from grader_tests.saneamiento import CLAVE, archivos_modificados, nota_de_archivos
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
    from grader_tests.aislamiento import unir_flujos_seguidos
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
