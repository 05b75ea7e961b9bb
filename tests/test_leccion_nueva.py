"""Proof by a throwaway lesson: ``make leccion`` in a temporary course, then the whole pipeline on it.

In a temporary copy of the course (nothing of this repository changes), the
scaffold (``scripts/autores/leccion.py``, what ``make leccion`` runs) builds lesson
``03_puntuaciones`` with the exercise ``puntuaciones_escaladas``.  Then, only
for that lesson:

* ``make comprobar`` (``scripts/autores/comprobar.py --leccion``) finds nothing wrong
  (the notebook runs, the hidden tests give the solution full marks, every
  battery file keeps its header, the visible tests agree) and says the
  lesson is still the template;
* the fast tests that find lessons by convention pass with it (conventions,
  discovery, its battery judged in-process and against its visible checker
  ``pruebas_<función>.py``, the names of the grader, its explorable);
* the sample students (``scripts/calificacion/samples.py``) bring a correct submission,
  one with the known mistake and a blank one without any answers file being
  edited; ``nbgrader autograde`` in the sandbox grades them; the feedback is
  in Spanish and names the mistake; ``nbgrader export`` writes the grades;
* a battery file that the visible tests let through makes ``make comprobar``
  fail, naming the file (only the new exercise's folder is edited);
* the two real lessons (their source, release, grader folders and quizzes)
  are byte for byte what they were.
"""
from __future__ import annotations

import csv
import hashlib
import shutil
from pathlib import Path

import pytest

from conftest import RAIZ
from curso_temporal import copiar_curso, ejecutar

pytestmark = pytest.mark.slow

TAREA, CUADERNO, FUNCION = "03_puntuaciones", "puntuaciones", "puntuaciones_escaladas"
REALES = ["source/01_atencion_multicabeza", "source/02_codificacion_posicional",
          "release/01_atencion_multicabeza", "release/02_codificacion_posicional",
          "grader_tests/ejercicios/multi_head", "grader_tests/ejercicios/positional_encoding",
          "grader_tests/cuestionarios/atencion_multicabeza.py",
          "grader_tests/cuestionarios/codificacion_posicional.py", "examples"]
SIN_OPCIONES = {"PYTEST_ADDOPTS": ""}     # the inner pytest runs with its own base temp folder


def _huellas(curso: Path) -> dict[str, str]:
    huellas = {}
    for nombre in REALES:
        base = curso / nombre
        for ruta in sorted([base] if base.is_file() else base.rglob("*")):
            if ruta.is_file() and "__pycache__" not in ruta.parts:
                huellas[str(ruta.relative_to(curso))] = hashlib.sha256(ruta.read_bytes()).hexdigest()
    return huellas


@pytest.fixture(scope="module")
def curso(tmp_path_factory):
    curso = copiar_curso(tmp_path_factory.mktemp("leccion-nueva") / "curso")
    for nombre in ("README.md", "pyproject.toml"):
        shutil.copy2(RAIZ / nombre, curso / nombre)
    # and the hub's common configuration, with the modules its nbgrader_config.py imports
    # (test_configuracion_alumno compares it with the lesson's)
    comun = "despliegue/hub/jupyter/comun"
    shutil.copytree(RAIZ / comun, curso / comun, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    shutil.copytree(RAIZ / "tests", curso / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    antes = _huellas(curso)
    salida = ejecutar(curso, "python", "scripts/autores/leccion.py", TAREA, FUNCION)
    return curso, antes, salida.stdout


def test_la_plantilla_crea_la_leccion_en_una_carpeta_por_sitio(curso):
    c, _, salida = curso
    for ruta in (f"source/{TAREA}/{CUADERNO}.ipynb", f"source/{TAREA}/explorable_{CUADERNO}.py",
                 f"source/{TAREA}/pruebas_{FUNCION}.py", f"source/{TAREA}/pruebas_visibles.py",
                 f"source/{TAREA}/cuestionario.json", f"release/{TAREA}/pruebas_{FUNCION}.py",
                 f"source/{TAREA}/nbgrader_config.py", f"release/{TAREA}/{CUADERNO}.ipynb",
                 f"grader_tests/ejercicios/{FUNCION}/casos.py", f"grader_tests/ejercicios/{FUNCION}/errores.py",
                 f"grader_tests/ejercicios/{FUNCION}/bateria/e01_sin_escala.py",
                 f"grader_tests/cuestionarios/{CUADERNO}.py", f"tests/test_explorable_{CUADERNO}.py"):
        assert (c / ruta).is_file(), ruta
    assert f"| `{TAREA}` | `{CUADERNO}.ipynb` |" in (c / "README.md").read_text(encoding="utf-8")
    assert "make comprobar" in salida
    # the same lesson again: refused, in Spanish, nothing touched
    otra = ejecutar(c, "python", "scripts/autores/leccion.py", TAREA, "otra_funcion", check=False)
    assert otra.returncode == 2 and "ya existe la lección source/03_puntuaciones" in otra.stderr


def test_make_comprobar_la_da_por_buena(curso):
    c = curso[0]
    salida = ejecutar(c, "python", "scripts/autores/comprobar.py", "--leccion", TAREA, check=False)
    assert salida.returncode == 0, salida.stdout[-4000:] + salida.stderr[-2000:]
    assert "✔ Todo en orden" in salida.stdout
    assert f"{TAREA}: el cuaderno se ejecuta de principio a fin" in salida.stdout
    assert "sigue siendo la plantilla de make leccion" in salida.stdout


def test_las_pruebas_que_buscan_lecciones_la_encuentran_y_pasan(curso):
    c = curso[0]
    pruebas = ["tests/test_release.py", "tests/test_configuracion_alumno.py", "tests/test_explorables.py",
               f"tests/test_explorable_{CUADERNO}.py"]
    salida = ejecutar(c, "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow and not browser",
                      f"--basetemp={c.parent / 'pytest-rapidas'}", *pruebas, check=False, env=SIN_OPCIONES)
    assert salida.returncode == 0, salida.stdout[-4000:]
    # the new exercise in the engine's generic tests (not the real ones: they have their own run), and
    # its shipped checker (pruebas_<función>.py) against its battery: Spanish first, same verdict as the grade
    salida = ejecutar(c, "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
                      f"--basetemp={c.parent / 'pytest-juez'}", "tests/test_diagnostico.py", "tests/test_bateria.py",
                      "tests/test_pruebas_visibles.py",
                      "-k", f"{FUNCION} or una_linea_que_llama", check=False, env=SIN_OPCIONES)
    assert salida.returncode == 0, salida.stdout[-4000:]
    assert " passed" in salida.stdout and int(salida.stdout.split(" passed")[0].split()[-1]) >= 15


def test_muestras_calificadas_en_la_caja_con_comentarios_y_notas(curso):
    c = curso[0]
    # in a process of the course copy: this pytest process may already hold the real course's
    # scripts.calificacion.samples (imported by earlier tests), which does not know the new lesson
    ejecutar(c, "python", "-c", "from pathlib import Path\nfrom scripts.calificacion import samples\n"
             "for a in ('perfecta', 'sin_wo', 'en_blanco'):\n"
             "    samples.build_student(a, Path('examples/respuestas') / f'{a}.py', Path('release'), "
             "Path('submitted'))\n")
    for alumno in ("perfecta", "sin_wo", "en_blanco"):       # only the new lesson is graded here
        for otra in (c / "submitted" / alumno).iterdir():
            if otra.name != TAREA:
                shutil.rmtree(otra)
    # make leccion leaves the draft out of the gradebook; releasing it (make release / make grade) adds it
    nombres = ejecutar(c, "python", "-c", "from scripts.calificacion import libro_de_notas\n"
                       "with libro_de_notas.abrir('.') as gb: print([a.name for a in gb.assignments])")
    assert TAREA not in nombres.stdout, nombres.stdout
    ejecutar(c, "nbgrader", "generate_assignment", TAREA, "--force")
    autograde = ejecutar(c, "nbgrader", "autograde", TAREA, "--force")
    registro = autograde.stdout + autograde.stderr
    assert "SIN aislar" not in registro and "sin bubblewrap" not in registro.lower()
    ejecutar(c, "nbgrader", "generate_feedback", TAREA, "--force")
    ejecutar(c, "nbgrader", "export", "--to", str(c / "grades.csv"))
    notas = {f["student_id"]: (float(f["score"]), float(f["max_score"]))
             for f in csv.DictReader((c / "grades.csv").open()) if f["assignment"] == TAREA}
    assert notas["perfecta"] == (5.0, 5.0)
    assert notas["en_blanco"] == (0.0, 5.0)
    assert notas["sin_wo"] == (3.0, 5.0)          # the values cell (2 points) lost; quiz right
    html = (c / "feedback" / "sin_wo" / TAREA / f"{CUADERNO}.html").read_text(encoding="utf-8")
    assert "Diagnóstico probable" in html and "no divides Q Kᵀ entre √d_k" in html
    assert "Puntos:" in html and "HIDDEN TESTS" not in html and "corregir(" not in html
    blanco = (c / "feedback" / "en_blanco" / TAREA / f"{CUADERNO}.html").read_text(encoding="utf-8")
    assert "sin contestar: `" in blanco        # the quiz question left unanswered, said as Validate says it


def test_make_comprobar_atrapa_un_error_que_las_pruebas_visibles_dejan_pasar(curso):
    c = curso[0]
    colada = c / "grader_tests" / "ejercicios" / FUNCION / "bateria" / "e02_solo_con_muchas_posiciones.py"
    colada.write_text("# espera: parcial\n# error: sin_escala\n# Error: olvida la escala sólo con T > 4.\n"
                      "import numpy as np\n\n\n"
                      f"def {FUNCION}(Q, K):\n"
                      "    S = Q @ K.T\n"
                      "    return S if len(Q) > 4 else S / np.sqrt(K.shape[1])\n", encoding="utf-8")
    try:
        salida = ejecutar(c, "python", "scripts/autores/comprobar.py", "--leccion", TAREA, check=False)
    finally:
        colada.unlink()
    assert salida.returncode == 1, salida.stdout[-3000:]
    assert ("e02_solo_con_muchas_posiciones.py: pierde puntos en puntuaciones_escaladas_valores y ninguna "
            "prueba visible falla") in salida.stdout


def test_las_dos_lecciones_reales_no_cambian(curso):
    c, antes, _ = curso
    assert _huellas(c) == antes
