"""``make comprobar`` and ``make leccion`` without kernels: every problem named in Spanish, with its file.

A temporary copy of the course is broken in many ways at once (a notebook
saved with outputs, a lesson without a grader, a test cell without cases, a
hidden block after the visible tests, a property without a cell, a known
mistake without a battery file, a quiz answer missing, a lesson missing
from the README's table); ``scripts/autores/comprobar.py --rapido`` must name each
one and exit with 1.  The real course passes the same static checks.  The
kernel-side checks run in ``tests/test_leccion_nueva.py``.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import nbformat
import pytest

from conftest import RAIZ
from curso_temporal import copiar_curso, ejecutar


def test_el_curso_real_pasa_lo_estatico():
    from scripts.autores import comprobar
    apartados = comprobar.comprobar(RAIZ, rapido=True, salida=lambda t: None)
    problemas = [p for a in apartados for p in a.problemas]
    assert not problemas, "\n".join(problemas)
    assert not [a for a in apartados if a.avisos and "plantilla" in " ".join(a.avisos)]


def _celda(nb, grade_id):
    return next(c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id)


@pytest.fixture(scope="module")
def roto(tmp_path_factory):
    curso = copiar_curso(tmp_path_factory.mktemp("roto") / "curso")
    shutil.copy2(RAIZ / "README.md", curso)
    l1 = curso / "source" / "01_atencion_multicabeza" / "atencion_multicabeza.ipynb"
    l2 = curso / "source" / "02_codificacion_posicional" / "codificacion_posicional.ipynb"
    # lesson 1: a cell saved with outputs, a hidden block after the visible tests
    nb = nbformat.read(l1, as_version=4)
    primera = next(c for c in nb.cells if c.cell_type == "code")
    primera.outputs = [nbformat.v4.new_output("stream", text="hola\n")]
    mapas = _celda(nb, "multi_head_mapas")
    partes = mapas.source.split('"""', 2)
    mapas.source = '"""' + partes[1] + '"""\nassert True\n' + partes[2]
    nbformat.write(nb, l1)
    # lesson 2: a test cell nobody declared
    nb = nbformat.read(l2, as_version=4)
    nueva = nbformat.v4.new_code_cell(
        '"""Nueva."""\n### BEGIN HIDDEN TESTS\n__import__("grader_tests").corregir("positional_encoding_nueva", '
        'globals())\n### END HIDDEN TESTS\n', metadata={"nbgrader": {
            "grade": True, "grade_id": "positional_encoding_nueva", "locked": True, "points": 1,
            "schema_version": 3, "solution": False, "task": False}})
    nb.cells.append(nueva)
    nbformat.write(nb, l2)
    # a lesson whose exercise has no grader folder
    extra = curso / "source" / "09_extra"
    extra.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "def sin_grader(x):\n    \"\"\"Doc.\"\"\"\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION",
        metadata={"nbgrader": {"grade": False, "grade_id": "sin_grader", "locked": False, "schema_version": 3,
                               "solution": True, "task": False}})])
    nbformat.write(nb, extra / "extra.ipynb")
    # multi_head: a property without a cell
    propiedades = curso / "grader_tests" / "ejercicios" / "multi_head" / "propiedades.py"
    propiedades.write_text(propiedades.read_text(encoding="utf-8").replace(
        'PROPIEDADES = {\n', 'PROPIEDADES = {\n    "sobrante": valores("nada", 1),\n'), encoding="utf-8")
    # positional_encoding: a known mistake without its battery file; a quiz answer missing
    (curso / "grader_tests" / "ejercicios" / "positional_encoding" / "bateria" / "e01_concatenado.py").unlink()
    quiz = curso / "grader_tests" / "cuestionarios" / "codificacion_posicional.py"
    quiz.write_text(quiz.read_text(encoding="utf-8").replace('"comprueba_respuesta_5"', '"comprueba_respuesta_9"'),
                    encoding="utf-8")
    # the README forgets lesson 2
    readme = curso / "README.md"
    readme.write_text("\n".join(l for l in readme.read_text(encoding="utf-8").split("\n")
                                if not l.startswith("| `02_codificacion_posicional`")), encoding="utf-8")
    salida = ejecutar(curso, "python", "scripts/autores/comprobar.py", "--rapido", check=False)
    return salida


@pytest.mark.parametrize("mensaje", [
    "source/01_atencion_multicabeza/atencion_multicabeza.ipynb: 1 celdas guardadas con salidas",
    "(multi_head_mapas): justo después del docstring va el bloque oculto",
    "source/09_extra/extra.ipynb: no hay grader para `sin_grader`: falta grader_tests/ejercicios/sin_grader/casos.py"
    " (créalo con: make leccion NOMBRE=NN_nombre FUNCION=sin_grader)",
    "la celda de prueba positional_encoding_nueva no tiene casos",
    "grader_tests/ejercicios/multi_head/casos.py: las propiedades sobrante de "
    "grader_tests/ejercicios/multi_head/propiedades.py no tienen celda",
    "el error conocido «[sin | cos] concatenado» (concatenado) no tiene implementación en la batería: crea "
    "grader_tests/ejercicios/positional_encoding/bateria/eNN_concatenado.py",
    "la pregunta comprueba_respuesta_5 no tiene respuesta: añádela a grader_tests/cuestionarios/"
    "codificacion_posicional.py",
    "grader_tests/cuestionarios/codificacion_posicional.py: comprueba_respuesta_9 no es una celda de prueba",
    "README.md: falta la fila de `02_codificacion_posicional` en la tabla de lecciones",
    "README.md: falta la fila de `09_extra`",
])
def test_cada_problema_se_nombra_con_su_archivo(roto, mensaje):
    assert mensaje in roto.stdout, roto.stdout[-5000:]


def test_sale_con_error_y_lo_resume(roto):
    assert roto.returncode == 1
    assert "corrígelos antes de confirmar" in roto.stdout


def test_la_plantilla_rechaza_nombres_que_no_valen(tmp_path):
    from scripts.autores import leccion
    for nombre, funcion, mensaje in [("3_algo", "f", "dos cifras"), ("03_Algo", "f", "minúsculas"),
                                     ("03_algo", "F-1", "FUNCION="), ("03_algo", "class", "FUNCION="),
                                     ("01_atencion_multicabeza", "f", "ya existe la lección"),
                                     ("03_algo", "multi_head", "ya existe el ejercicio"),
                                     ("03_atencion_multicabeza", "f", "ya existe el cuestionario")]:
        with pytest.raises(leccion.ErrorDeLeccion, match=mensaje):
            leccion.fichas(RAIZ, nombre, funcion)
    v = leccion.fichas(RAIZ, "07_mascaras_causales", "mascara")
    assert v["@@NOMBRE@@"] == "mascaras_causales" and v["@@NUMERO@@"] == "7" and v["@@TITULO@@"] == "Mascaras causales"


def test_las_ordenes_de_make():
    salida = subprocess.run(["make", "-n", "leccion", "NOMBRE=03_algo", "FUNCION=f"], cwd=RAIZ, capture_output=True,
                            text=True)
    assert 'scripts/autores/leccion.py "03_algo" "f"' in salida.stdout
    salida = subprocess.run(["make", "-n", "comprobar"], cwd=RAIZ, capture_output=True, text=True)
    assert "scripts/autores/comprobar.py" in salida.stdout
    # CURSO_ENTORNO: this test's own environment, so make never rebuilds a .venv (from a clone whose .venv
    # is a link to another checkout's, a rebuild re-pointed that venv's editable grader_tests at the clone)
    sin_nombre = subprocess.run(["make", "--no-print-directory", "leccion"], cwd=RAIZ, capture_output=True, text=True,
                                env={**os.environ, "CURSO_ENTORNO": sys.prefix})
    assert sin_nombre.returncode != 0 and "Uso: make leccion NOMBRE=03_algo FUNCION=f" in sin_nombre.stdout


def test_la_copia_del_alumno_de_la_plantilla_es_la_de_las_lecciones():
    copia = (RAIZ / "plantillas" / "leccion" / "nbgrader_config.py").read_bytes()
    for ruta in (RAIZ / "source").glob("*/nbgrader_config.py"):
        assert ruta.read_bytes() == copia, ruta


def test_la_plantilla_del_cuaderno_es_un_cuaderno_sin_salidas():
    nb = json.loads((RAIZ / "plantillas" / "leccion" / "leccion.ipynb").read_text(encoding="utf-8"))
    assert all(c.get("outputs", []) == [] for c in nb["cells"])
