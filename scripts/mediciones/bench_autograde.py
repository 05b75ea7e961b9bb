"""Benchmark (not a test): what grading costs, per notebook and per class, with 1 and 2 workers.

Three measurements in one temporary copy of the course, on this machine, in one run:

1. **Per notebook, batch mode.**  ``nbgrader autograde <tarea> --force`` over
   12 copies of the perfect sample's submission (one batch, as ``make grade``
   runs it; three batches per assignment, interleaved, median), for each lesson
   and for the *floor*: a notebook that only imports
   numpy, matplotlib and ipywidgets, graded the same way (sandbox, course
   preprocessors).  Seconds per notebook and the ratio to the floor.
2. **Where a lesson's time goes** (``--perfil``): every code cell of the perfect
   submission run once with nbclient in the venv's kernel, slowest first.
3. **A class.**  ``scripts/calificacion/grade.py`` on 24 synthetic students (the samples,
   repeated; both assignments, feedback, export and the class report) with
   ``--trabajadores 1`` and ``--trabajadores 2``, each on a fresh copy of the
   same course: seconds per student, the speed-up, and where the time goes
   (``CURSO_TIEMPOS``: the phases of ``scripts/calificacion/grade.py``; the workers' share
   is the only one they split, the rest is serial).

Prints the load average before and after: other work on the machine changes
every number.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from curso_temporal import copiar_curso, ejecutar, tareas  # noqa: E402
from scripts.calificacion import samples  # noqa: E402

LOTE = 12
RONDAS = 3          # batches of every assignment, interleaved (the load changes between them): median
CLASE = 24
SUELO = "00_suelo"


def cuaderno_suelo(ruta: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import numpy as np\nimport matplotlib.pyplot as plt\nimport ipywidgets")]
    nbformat.write(nb, ruta)


def carga() -> str:
    uno, cinco, quince = os.getloadavg()
    return f"carga media {uno:.2f} (1 min), {cinco:.2f} (5 min), {quince:.2f} (15 min)"


def por_cuaderno(curso: Path, lecciones: list[str]) -> dict[str, float]:
    """Seconds per notebook of one ``nbgrader autograde`` batch of LOTE submissions, per assignment."""
    for tarea in [SUELO, *lecciones]:
        ejecutar(curso, "nbgrader", "generate_assignment", tarea, "--force")
    muestra = Path(tempfile.mkdtemp(prefix="perfecta-"))
    samples.build_student("perfecta", samples.RESPUESTAS / "perfecta.py", curso / "release", muestra)
    for i in range(LOTE):
        for tarea in [SUELO, *lecciones]:
            origen = muestra / "perfecta" / tarea if tarea != SUELO else curso / "release" / SUELO
            shutil.copytree(origen, curso / "submitted" / f"lote_{i:02d}" / tarea)
    shutil.rmtree(muestra)
    rondas: dict[str, list[float]] = {}
    for _ in range(RONDAS):
        for tarea in [SUELO, *lecciones]:
            inicio = time.perf_counter()
            ejecutar(curso, "nbgrader", "autograde", tarea, "--force", timeout=3600)
            rondas.setdefault(tarea, []).append((time.perf_counter() - inicio) / LOTE)
    return {tarea: statistics.median(t) for tarea, t in rondas.items()}


def perfil(curso: Path, tarea: str, cuantas: int = 8) -> list[tuple[float, int, str]]:
    """(seconds, cell number, first line) of the slowest code cells of the perfect submission."""
    from nbclient import NotebookClient
    carpeta = Path(tempfile.mkdtemp(prefix="perfil-"))
    samples.build_student("perfecta", samples.RESPUESTAS / "perfecta.py", curso / "release", carpeta)
    ruta = next((carpeta / "perfecta" / tarea).glob("*.ipynb"))
    nb = nbformat.read(ruta, as_version=4)
    NotebookClient(nb, timeout=120, resources={"metadata": {"path": str(ruta.parent)}},
                   record_timing=True).execute()
    shutil.rmtree(carpeta)
    filas = []
    for i, celda in enumerate(nb.cells, start=1):
        ejecucion = celda.get("metadata", {}).get("execution", {})
        if celda.cell_type == "code" and "iopub.execute_input" in ejecucion:
            from dateutil.parser import isoparse
            segundos = (isoparse(ejecucion["shell.execute_reply"])
                        - isoparse(ejecucion["iopub.execute_input"])).total_seconds()
            filas.append((segundos, i, celda.source.strip().splitlines()[0][:60] if celda.source.strip() else ""))
    return sorted(filas, reverse=True)[:cuantas]


def _clase_en(curso: Path) -> None:
    """CLASE synthetic students in ``submitted/`` (the samples, repeated), built from ``release/``."""
    muestras = samples.sample_students()
    plantillas = Path(tempfile.mkdtemp(prefix="muestras-"))
    for alumno in muestras:
        samples.build_student(alumno, samples.RESPUESTAS / f"{alumno}.py", curso / "release", plantillas)
    for i in range(CLASE):
        alumno = muestras[i % len(muestras)]
        shutil.copytree(plantillas / alumno, curso / "submitted" / f"alumno_{i:02d}_{alumno}")
    shutil.rmtree(plantillas)


def clase(base: Path) -> dict[int, tuple[float, dict[str, float]]]:
    """Wall seconds of scripts/calificacion/grade.py on CLASE students with 1 and 2 workers, and its phases.

    Each run starts from a fresh copy of the course with the same submissions (no
    gradebook): the same work, as a TA's first ``make grade`` of the class.
    """
    import json
    resultados = {}
    for k in (1, 2):
        curso = copiar_curso(base / f"clase-{k}")
        _clase_en(curso)
        fases = base / f"fases-{k}.json"
        inicio = time.perf_counter()
        ejecutar(curso, "python", "scripts/calificacion/grade.py", "--trabajadores", str(k), timeout=7200,
                 env={"CURSO_TIEMPOS": str(fases)})
        resultados[k] = (time.perf_counter() - inicio, json.loads(fases.read_text()))
        shutil.rmtree(curso)
    return resultados


TRABAJADORES = "calificar (trabajadores y fusión)"
FUSION = "fusión de los libros de notas"


def _imprimir_clase(clase_t: dict, n_tareas: int) -> None:
    print(f"Una clase: scripts/calificacion/grade.py con {CLASE} alumnos (las muestras repetidas; {n_tareas} tareas, "
          "comentarios, exportación e informe), cada vez en una copia nueva del curso:")
    for k, (t, fases) in clase_t.items():
        repartido = fases.get(TRABAJADORES, 0.0) - fases.get(FUSION, 0.0)
        print(f"  {k} trabajador{'es' if k > 1 else ''}: {t:7.1f} s en total, {t / CLASE:5.2f} s por alumno; "
              f"trabajadores {repartido:.1f} s, el resto (en serie) {t - repartido:.1f} s")
        for nombre, segundos in sorted(fases.items(), key=lambda x: -x[1]):
            if nombre != TRABAJADORES:
                print(f"      {nombre:38s} {segundos:6.1f} s")
    print(f"  aceleración con 2 trabajadores: ×{clase_t[1][0] / clase_t[2][0]:.2f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sin-clase", action="store_true", help="sólo el coste por cuaderno (rápido)")
    parser.add_argument("--perfil", action="store_true", help="además, las celdas más lentas de cada lección")
    parser.add_argument("--solo-clase", action="store_true", help="sólo la clase con 1 y 2 trabajadores")
    args = parser.parse_args(argv)
    print(f"Autograde ({os.cpu_count()} núcleos; {carga()} al empezar)")
    if args.solo_clase:
        with tempfile.TemporaryDirectory() as tmp:
            _imprimir_clase(clase(Path(tmp)), len(tareas(copiar_curso(Path(tmp) / "curso"))))
        print(f"({carga()} al terminar)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        curso = copiar_curso(Path(tmp) / "curso")
        (curso / "source" / SUELO).mkdir()
        cuaderno_suelo(curso / "source" / SUELO / "suelo.ipynb")
        lecciones = [t for t in tareas(curso) if t != SUELO]
        tiempos = por_cuaderno(curso, lecciones)
        suelo = tiempos[SUELO]
        print(f"Por cuaderno, un lote de {LOTE} entregas de la alumna «perfecta» (nbgrader autograde, con aislamiento; "
              f"mediana de {RONDAS} lotes por tarea, intercalados):")
        print(f"  {'tarea':32s} {'s/cuaderno':>10s} {'× suelo':>8s}")
        print(f"  {'suelo (sólo imports)':32s} {suelo:10.2f} {1:8.2f}")
        for tarea in lecciones:
            print(f"  {tarea:32s} {tiempos[tarea]:10.2f} {tiempos[tarea] / suelo:8.2f}")
        if args.perfil:
            for tarea in lecciones:
                print(f"Celdas más lentas de {tarea} (nbclient, sin aislamiento):")
                for segundos, numero, linea in perfil(curso, tarea):
                    print(f"  {segundos:6.3f} s  celda {numero:3d}  {linea}")
        if not args.sin_clase:
            shutil.rmtree(curso)
            _imprimir_clase(clase(Path(tmp)), len(lecciones))
    print(f"({carga()} al terminar)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
