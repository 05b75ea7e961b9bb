"""Benchmark (not a test): the TA's memory when a student's cell floods its output.

In a temporary copy of the course, one submission of lesson 1 whose answer
cell ``respuesta_1`` writes ``--megas`` MB to stdout in ``--bloque`` MB
writes (by default 10: ``sys.stdout.write('x' * 10**7)``) and then answers the quiz, graded with
``nbgrader autograde 01_atencion_multicabeza --student inunda --force``
exactly as a TA runs it.  Reports the peak resident memory of that process
(``getrusage(RUSAGE_SELF).ru_maxrss`` of a Python process that runs
nbgrader's own entry point, so the TA's process alone; and of its largest
child, the sandboxed kernel), the size of the
autograded notebook and the quiz's points.  ``--ref GIT_REF`` grades with
``grader_tests/`` as it was at that commit (e.g. the one before the output
budgets) to compare.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(RAIZ / "tests"))
sys.path.insert(0, str(RAIZ))

from curso_temporal import copiar_curso, ejecutar  # noqa: E402

TAREA = "01_atencion_multicabeza"
CUADERNO = "atencion_multicabeza.ipynb"
# runs nbgrader in this very process: RUSAGE_SELF is the TA's process alone, RUSAGE_CHILDREN
# the largest of the processes it waited for (the sandboxed kernel)
MEDIR = """
import resource, sys
from nbgrader.apps.nbgraderapp import main
sys.argv = ["nbgrader", *sys.argv[1:]]
codigo = 0
try:
    main()
except SystemExit as salida:
    codigo = salida.code or 0
finally:
    print("PICO_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
          resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(codigo)
"""


def pico(salida: str) -> tuple[int, int]:
    """(TA's process, largest child) peak resident memory in bytes, from the output of ``MEDIR``."""
    ta, hijo = salida.split("PICO_KB")[-1].split()[:2]
    return int(ta) * 1024, int(hijo) * 1024


def inundacion(megas: int, bloque: int) -> str:
    return (f"import sys\n_b = 'x' * {bloque} * 10**6\nfor _ in range({max(1, megas // bloque)}):\n"
            "    sys.stdout.write(_b); sys.stdout.flush()\nrespuesta_1 = 'b'\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megas", type=int, default=800, help="MB the cell prints (default 800)")
    parser.add_argument("--bloque", type=int, default=10, help="MB of each write (default 10)")
    parser.add_argument("--ref", help="grade with grader_tests/ from this git commit")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="bench-salida-"))
    curso = copiar_curso(base / "curso")
    if args.ref:
        for ruta in subprocess.run(["git", "ls-tree", "-r", "--name-only", args.ref, "grader_tests"],
                                   cwd=RAIZ, capture_output=True, text=True, check=True).stdout.split():
            (curso / ruta).parent.mkdir(parents=True, exist_ok=True)
            (curso / ruta).write_bytes(subprocess.run(["git", "show", f"{args.ref}:{ruta}"], cwd=RAIZ,
                                                      capture_output=True, check=True).stdout)
    ejecutar(curso, "nbgrader", "generate_assignment", TAREA, "--force")
    entrega = curso / "submitted" / "inunda" / TAREA
    entrega.mkdir(parents=True)
    nb = json.loads((curso / "release" / TAREA / CUADERNO).read_text())
    for celda in nb["cells"]:
        if celda["metadata"].get("nbgrader", {}).get("grade_id") == "respuesta_1":
            celda["source"] = inundacion(args.megas, args.bloque)
    (entrega / CUADERNO).write_text(json.dumps(nb))
    proceso = ejecutar(curso, "python", "-c", MEDIR, "autograde", TAREA, "--student", "inunda", "--force",
                       check=False)
    ta, hijo = pico(proceso.stdout)
    salida = curso / "autograded" / "inunda" / TAREA / CUADERNO
    tamaño = salida.stat().st_size if salida.exists() else 0
    from scripts.calificacion import libro_de_notas
    with libro_de_notas.abrir(curso) as gb:
        puntos = {g.name: g.score for n in gb.find_submission(TAREA, "inunda").notebooks for g in n.grades
                  if g.name == "comprueba_respuesta_1"}
    print(f"salida de la celda: {args.megas} MB en escrituras de {args.bloque} MB; grader_tests: {args.ref or 'este'}")
    print(f"pico de memoria (RSS) del proceso de nbgrader autograde: {ta / 1024 ** 2:.0f} MiB; "
          f"del mayor proceso hijo (el kernel aislado): {hijo / 1024 ** 2:.0f} MiB")
    print(f"cuaderno en autograded/: {tamaño / 1024 ** 2:.1f} MiB; nbgrader terminó con {proceso.returncode}")
    print(f"celda del cuestionario tras la inundación: {puntos}")
    print(f"(curso temporal: {base})")


if __name__ == "__main__":
    main()
