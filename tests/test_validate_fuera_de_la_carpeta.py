"""Validate passes a correct function that writes to stderr, wherever JupyterLab was opened (issue 22, B1).

nbgrader (``utils.determine_grade``, used by Validate) fails any test cell with
a ``stream`` output on stderr.  A student who opens JupyterLab (or a
terminal) in the folder that holds both assignments, or in their home on the
hub, runs Validate without the assignment's ``nbgrader_config.py``, so its
``sys.stderr.name = 'stdout'`` trick is not there.  The lessons' checkers
(``pruebas_visibles.llamar`` / ``salida_del_alumno``) therefore send what the
student's function writes to stderr (``print(..., file=sys.stderr)``, the
``warnings`` module, ``logging``, the file descriptor 2) to stdout
themselves.

Each correct battery file that writes to stderr or warns, wrapped so that it
also writes to file descriptor 2, is planted in a copy of its release
assignment with the quiz answered, in a folder that holds the assignments
(``<alumno>/<tarea>/``), and validated:

* through the Validate button's code path (``validar_lote.py``) from the
  parent folder, where no ``nbgrader_config.py`` is found;
* with the terminal command ``nbgrader validate <tarea>/<cuaderno>.ipynb``
  from the parent folder;
* with ``nbgrader validate <cuaderno>.ipynb`` in the assignment folder (the
  released configuration read, as before).

Every run must say «Success».  The grade side (autograde) of the same files is
``tests/test_bateria.py``: their battery header says ``espera: completo``.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader_tests.juez import descubrimiento
from scripts.calificacion import samples

from conftest import RAIZ

pytestmark = pytest.mark.slow

EJERCICIOS = descubrimiento.ejercicios()
LECCIONES = {f: l for l in descubrimiento.lecciones(RAIZ) for f in l.funciones if f in EJERCICIOS}
# the student's function, called through a wrapper that also writes to file descriptor 2 (C code, os.write)
DESCRIPTOR_2 = '''

import os as _os
_sin_envolver = {f}


def {f}(*argumentos):
    _os.write(2, b"escrito en el descriptor 2\\n")
    return _sin_envolver(*argumentos)
'''


def ruidosas() -> list[tuple[str, object]]:
    """(function, battery file) of every correct battery file that writes to stderr or warns."""
    return [(f, a) for f in LECCIONES for a in EJERCICIOS[f].bateria()
            if a.espera == "completo" and "sys.stderr" in a.codigo and "warnings.warn" in a.codigo]


def _entorno() -> dict:
    entorno = dict(os.environ)
    entorno["PATH"] = str(Path(sys.executable).parent) + os.pathsep + entorno.get("PATH", "")
    entorno.pop("JUPYTER_CONFIG_DIR", None)
    return entorno


@pytest.fixture(scope="module")
def copias(tmp_path_factory) -> list[tuple[Path, Path]]:
    """Per noisy file, a student folder holding its assignment: [(student folder, notebook)]."""
    base = tmp_path_factory.mktemp("fuera_de_la_carpeta")
    resultado = []
    for funcion, archivo in ruidosas():
        leccion = LECCIONES[funcion]
        alumno = base / f"{funcion}-{archivo.nombre}"
        destino = alumno / leccion.tarea
        shutil.copytree(RAIZ / "release" / leccion.tarea, destino,
                        ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
        cuaderno = destino / f"{leccion.cuaderno.stem}.ipynb"
        nb = nbformat.read(cuaderno, as_version=4)
        for grade_id, linea in samples.correct_quiz_answers(leccion.cuaderno.stem).items():
            samples.plant(nb, grade_id, linea)
        samples.plant(nb, funcion, archivo.codigo + DESCRIPTOR_2.format(f=funcion))
        nbformat.write(nb, cuaderno)
        resultado.append((alumno, cuaderno))
    assert {f for f, _ in ruidosas()} == set(LECCIONES), "cada lección necesita un archivo ruidoso correcto"
    return resultado


def test_el_boton_validate_abierto_fuera_de_la_carpeta_dice_success(copias, tmp_path):
    # the parent folder of the students' folders: no nbgrader_config.py anywhere up from it
    padre = copias[0][0].parent
    assert not any((p / "nbgrader_config.py").exists() for p in [padre, *padre.parents])
    destino = tmp_path / "validate.json"
    proceso = subprocess.run([sys.executable, str(RAIZ / "tests" / "validar_lote.py"), str(destino),
                              *(str(c) for _, c in copias)], cwd=padre, env=_entorno(),
                             capture_output=True, text=True, timeout=600)
    assert proceso.returncode == 0, proceso.stdout[-3000:] + proceso.stderr[-3000:]
    for cuaderno, resultado in json.loads(destino.read_text(encoding="utf-8")).items():
        assert resultado == {}, (cuaderno, resultado)      # nothing failed, changed or crashed: «Success»


@pytest.mark.parametrize("donde", ["carpeta_de_arriba", "carpeta_de_la_tarea"])
def test_nbgrader_validate_en_la_terminal_dice_success(copias, donde, tmp_path):
    alumno, cuaderno = copias[0] if donde == "carpeta_de_arriba" else copias[-1]
    cwd, ruta = ((alumno, cuaderno.relative_to(alumno)) if donde == "carpeta_de_arriba"
                 else (cuaderno.parent, Path(cuaderno.name)))
    # the kernel's configuration of the student's environment (ajustes_jupyterlab/ipython/, installed in
    # etc/ipython), as this repository has it: here through a profile of its own, which goes first
    perfil = tmp_path / "ipython" / "profile_default"
    perfil.mkdir(parents=True)
    shutil.copy(RAIZ / "ajustes_jupyterlab" / "ipython" / "ipython_kernel_config.json", perfil)
    proceso = subprocess.run([sys.executable, "-m", "nbgrader", "validate", str(ruta)], cwd=cwd,
                             env={**_entorno(), "IPYTHONDIR": str(tmp_path / "ipython")},
                             capture_output=True, text=True, timeout=600)
    salida = proceso.stdout + proceso.stderr
    assert "Success! Your notebook passes all the tests." in salida, salida[-4000:]
    assert ("No nbgrader_config.py file found" in salida) == (donde == "carpeta_de_arriba"), salida[-2000:]
    # no English warning of the kernel before the verdict (the sixth student's report B4-3)
    assert "IPKernelApp" not in salida and "without encryption" not in salida, salida[-2000:]


def test_validate_no_da_success_a_una_funcion_que_usa_un_modulo_de_tu_carpeta(tmp_path):
    """A correct multi_head kept in the student's own module (``mis_utilidades.py``) next to the notebook:
    grading keeps only the files the assignment ships (the module is dropped and the function fails), so
    Validate must not say «Success»; it names the file (a fresh attacker's finding, issue 19)."""
    funcion = "multi_head" if "multi_head" in LECCIONES else sorted(LECCIONES)[0]
    leccion = LECCIONES[funcion]
    correcto = next(a for a in EJERCICIOS[funcion].bateria() if a.espera == "completo")
    destino = tmp_path / leccion.tarea
    shutil.copytree(RAIZ / "release" / leccion.tarea, destino,
                    ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
    (destino / "mis_utilidades.py").write_text(correcto.codigo.replace(f"def {funcion}(", f"def {funcion}_mio(", 1))
    cuaderno = destino / f"{leccion.cuaderno.stem}.ipynb"
    nb = nbformat.read(cuaderno, as_version=4)
    for grade_id, linea in samples.correct_quiz_answers(leccion.cuaderno.stem).items():
        samples.plant(nb, grade_id, linea)
    celda = next(c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == funcion)
    cabecera = next(l for l in celda.source.splitlines() if l.startswith(f"def {funcion}("))  # the lesson's def line
    argumentos = cabecera[cabecera.index("(") + 1:cabecera.rindex(")")]
    nombres = ", ".join(a.split(":")[0].split("=")[0].strip() for a in argumentos.split(",") if a.strip())
    celda.source = f"from mis_utilidades import {funcion}_mio\n\n{cabecera}\n    return {funcion}_mio({nombres})\n"
    nbformat.write(nb, cuaderno)
    proceso = subprocess.run([sys.executable, "-m", "nbgrader", "validate", cuaderno.name], cwd=destino,
                             env=_entorno(), capture_output=True, text=True, timeout=600)
    salida = " ".join((proceso.stdout + proceso.stderr).split())
    assert "Success!" not in salida and "VALIDATION FAILED" in salida, salida[-4000:]
    assert f"`{funcion}` usa «mis_utilidades.py», de tu carpeta" in salida, salida[-4000:]
