"""Benchmark (not a test): autograde seconds per submission next to the floor.

The floor is the same nbgrader run on a notebook that only imports numpy,
matplotlib and ipywidgets: what any submission costs before the course adds
anything (kernel start, nbgrader's own bookkeeping).  Runs in a temporary copy
of the course and prints a table with the ratio.
"""
from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from curso_temporal import copiar_curso, ejecutar, tareas  # noqa: E402
from scripts import samples  # noqa: E402

REPETICIONES = 3


def cuaderno_suelo(ruta: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import numpy as np\nimport matplotlib.pyplot as plt\nimport ipywidgets")]
    nbformat.write(nb, ruta)


def cronometrar(curso: Path, tarea: str, alumno: str) -> float:
    tiempos = []
    for _ in range(REPETICIONES):
        inicio = time.perf_counter()
        ejecutar(curso, "nbgrader", "autograde", tarea, "--student", alumno, "--force")
        tiempos.append(time.perf_counter() - inicio)
    return statistics.median(tiempos)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        curso = copiar_curso(Path(tmp) / "curso")
        (curso / "source" / "00_suelo").mkdir()
        cuaderno_suelo(curso / "source" / "00_suelo" / "suelo.ipynb")
        for tarea in ["00_suelo", *tareas(curso)]:
            ejecutar(curso, "nbgrader", "generate_assignment", tarea, "--force")
        samples.build_student("perfecta", samples.RESPUESTAS / "perfecta.py",
                              curso / "release", curso / "submitted")
        suelo = cronometrar(curso, "00_suelo", "perfecta")
        print(f"Autograde, mediana de {REPETICIONES} ejecuciones, una entrega (alumna «perfecta»):")
        print(f"  {'tarea':32s} {'segundos':>9s} {'× suelo':>8s}")
        print(f"  {'suelo (sólo imports)':32s} {suelo:9.2f} {1:8.2f}")
        for tarea in [t for t in tareas(curso) if t != "00_suelo"]:
            t = cronometrar(curso, tarea, "perfecta")
            print(f"  {tarea:32s} {t:9.2f} {t / suelo:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
