"""Hostile and broken submissions for tests/test_seguridad.py (one module per case).

Every case module has:

* a docstring saying what the student did;
* ``ESPERADO``: what the case must score, one of
  ``"completa"`` (full marks), ``"cuestionario"`` (the quiz's points only: the
  exercise scores 0), ``"control"`` (exactly what ``c00_control`` scores: the
  same wrong answer without any trick), ``"cero"``;
* ``RAZON`` (optional): a piece of text the ``make grade`` table must show
  for that student (a Spanish reason);
* ``NO_DEBE_DECIR`` (optional): pieces of text that line must not show (a
  reason that would contradict the grade);
* ``preparar(entrega)``: builds the submission in
  ``submitted/<alumno>/02_codificacion_posicional/``, which already holds a
  copy of the release folder, editing the notebook as a student would.

The student's name is the module's name, so the batch grades them in this
order, and ``zz_honesta`` (an honest student) comes last.
"""
from __future__ import annotations

import json
from pathlib import Path

import nbformat

TAREA = "02_codificacion_posicional"
CUADERNO = "codificacion_posicional.ipynb"
PRUEBAS_PE = ("positional_encoding_contrato", "positional_encoding_valores",
              "positional_encoding_robustez", "positional_encoding_generalidad")

PE_CORRECTA = '''\
import numpy as np


def positional_encoding(T, d_model):
    pos = np.arange(T)[:, None]
    omega = 1.0 / 10000 ** (np.arange(0, d_model, 2) / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE
'''

# Right shape and dtype, wrong values: passes the visible contract, fails every
# value and, computing nothing, earns no robustness or generality (only the contract).
PE_INCORRECTA = '''\
import numpy as np


def positional_encoding(T, d_model):
    return np.full((T, d_model), 0.5)
'''

# marks a case prints when a forbidden action worked; none may appear
MARCAS_PROHIBIDAS = ("TRAMPA_OK", "ESCRITURA_OK", "LECTURA_OK")


def ruta(entrega: Path) -> Path:
    return entrega / CUADERNO


def cargar(entrega: Path) -> nbformat.NotebookNode:
    return nbformat.read(ruta(entrega), as_version=4)


def guardar(entrega: Path, nb: nbformat.NotebookNode) -> None:
    nbformat.write(nb, ruta(entrega))


def celda(nb: nbformat.NotebookNode, grade_id: str) -> nbformat.NotebookNode:
    celdas = [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id]
    assert len(celdas) == 1, grade_id
    return celdas[0]


def responder(nb: nbformat.NotebookNode, pe: str | None, cuestionario: bool = True) -> None:
    """Answer the quiz correctly (as a good student would) and put ``pe`` in the exercise cell."""
    from scripts.calificacion import samples
    if cuestionario:
        for grade_id, linea in samples.correct_quiz_answers(Path(CUADERNO).stem).items():
            samples.plant(nb, grade_id, linea)
    if pe is not None:
        celda(nb, "positional_encoding").source = pe


def entrega_normal(entrega: Path, pe: str | None, cuestionario: bool = True) -> None:
    nb = cargar(entrega)
    responder(nb, pe, cuestionario)
    guardar(entrega, nb)


# always graded, whatever CURSO_HOSTILES selects: the references other cases are compared to
SIEMPRE = ("c00_control", "zz_honesta")


def cargar_casos() -> dict:
    """``{student: case module}`` for every case file in this folder.

    ``CURSO_HOSTILES=c31_salida_torrencial,c05`` (names or prefixes, comma
    separated) keeps only those cases and ``SIEMPRE``: a quick battery while
    working on one case (the tests about the other cases then fail or skip).
    """
    import importlib
    import os
    elegidos = [p.strip() for p in os.environ.get("CURSO_HOSTILES", "").split(",") if p.strip()]
    casos = {}
    for archivo in sorted(Path(__file__).parent.glob("*.py")):
        if archivo.stem.startswith("_"):
            continue
        if elegidos and archivo.stem not in SIEMPRE and not any(archivo.stem.startswith(p) for p in elegidos):
            continue
        casos[archivo.stem] = importlib.import_module(f"{__name__}.{archivo.stem}")
    return casos


def json_roto(texto: str) -> str:
    """The first half of a notebook's JSON: what a crashed save leaves."""
    json.loads(texto)
    return texto[: len(texto) // 2]
