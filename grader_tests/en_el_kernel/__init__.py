"""What runs inside the student's kernel: exactly the files of this folder.

Under ``nbgrader autograde`` the sandbox (``grader_tests/caja/aislamiento.py``)
mounts into the student's kernel the package's ``__init__.py``, every file of
this folder and, of each exercise folder, ``__init__.py`` and ``casos.py``
(``modulos_publicos``); nothing else of ``grader_tests`` exists there.  So a
module belongs here only if a student may read it, and the modules here import
nothing of ``grader_tests`` outside this folder (they are the bottom layer):

``cliente``
    calls the student's function on the cell's inputs and publishes the evidence;
``casos``
    the input cases of every graded cell, found by convention in ``ejercicios/``;
``serializacion``
    values (arrays included) from one process to another as JSON;
``pruebas_visibles``
    the visible tests' Spanish failure and the quiz's reading; it also travels
    with every assignment (a copy in each ``source/<tarea>/``).
"""
from __future__ import annotations

import os

from . import casos

CARPETA = os.path.dirname(os.path.abspath(__file__))
# relative to grader_tests/: the package's face and every module of this folder
MODULOS_PUBLICOS_DEL_MOTOR = ("__init__.py",) + tuple(
    f"en_el_kernel/{nombre}" for nombre in sorted(os.listdir(CARPETA)) if nombre.endswith(".py"))


def modulos_publicos() -> tuple[str, ...]:
    """The files of ``grader_tests`` the kernel sees, relative to the package (existing files only).

    The engine's kernel side (``MODULOS_PUBLICOS_DEL_MOTOR``) and, by convention,
    ``casos.ARCHIVOS_PUBLICOS_DEL_EJERCICIO`` of each exercise folder; never an
    exercise's reference, properties, known mistakes or battery, nor the quiz answers.
    """
    raiz = os.path.dirname(CARPETA)
    publicos = list(MODULOS_PUBLICOS_DEL_MOTOR)
    if os.path.isfile(os.path.join(raiz, "ejercicios", "__init__.py")):
        publicos.append("ejercicios/__init__.py")
    for funcion in casos.nombres_de_ejercicios():
        for nombre in casos.ARCHIVOS_PUBLICOS_DEL_EJERCICIO:
            if os.path.isfile(os.path.join(raiz, "ejercicios", funcion, nombre)):
                publicos.append(f"ejercicios/{funcion}/{nombre}")
    return tuple(publicos)
