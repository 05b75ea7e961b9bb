"""Benchmark (not a test): how long the hidden tests of one exercise take.

Runs, in-process, what every hidden test cell of an exercise does: the client
side (``cliente.recoger_evidencia``: call the student's function on the
cell's inputs, capture output, serialise) and the trusted judge
(``juez.juzgar``: reference, comparison, diagnosis).  Issue 5 asks for less
than 0.3 s per exercise.  Uses a correct and a mistaken battery file of each
exercise (a mistaken one also runs the diagnosis).

    .venv/bin/python scripts/bench_hidden_tests.py [repeticiones]
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(RAIZ))

from grader_tests import juez  # noqa: E402
from grader_tests.casos import ESPECIFICACIONES  # noqa: E402
from grader_tests.cliente import recoger_evidencia  # noqa: E402

OBJETIVO = 0.3
MUESTRAS = [("multi_head", "c01_bucle"), ("multi_head", "e05_intercalado"), ("multi_head", "e04_sin_maximo"),
            ("positional_encoding", "c01_rebanadas"), ("positional_encoding", "e01_concatenado"),
            ("positional_encoding", "e15_lista")]


def cargar(funcion: str, nombre: str):
    ruta = RAIZ / "tests" / "bateria" / funcion / f"{nombre}.py"
    espacio: dict = {}
    exec(compile(ruta.read_text(encoding="utf-8"), str(ruta), "exec"), espacio)
    return espacio[funcion]


def una_vez(funcion: str, implementacion) -> tuple[float, float]:
    cliente = juicio = 0.0
    for gid, espec in ESPECIFICACIONES.items():
        if espec.objetivo != funcion:
            continue
        t0 = time.perf_counter()
        evidencia = recoger_evidencia(gid, {funcion: implementacion})
        t1 = time.perf_counter()
        juez.juzgar(evidencia, maximo=None, notebook=None)
        t2 = time.perf_counter()
        cliente += t1 - t0
        juicio += t2 - t1
    return cliente, juicio


def main() -> int:
    repeticiones = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    peor = 0.0
    print(f"{'ejercicio / muestra':45s} {'cliente':>9s} {'juez':>9s} {'total':>9s}  (mediana de {repeticiones})")
    for funcion, nombre in MUESTRAS:
        implementacion = cargar(funcion, nombre)
        una_vez(funcion, implementacion)                           # warm-up
        tiempos = [una_vez(funcion, implementacion) for _ in range(repeticiones)]
        cliente = statistics.median(t[0] for t in tiempos)
        juicio = statistics.median(t[1] for t in tiempos)
        peor = max(peor, cliente + juicio)
        print(f"{funcion + ' / ' + nombre:45s} {cliente:8.3f}s {juicio:8.3f}s {cliente + juicio:8.3f}s")
    print(f"peor total: {peor:.3f} s (objetivo < {OBJETIVO} s): {'OK' if peor < OBJETIVO else 'DEMASIADO LENTO'}")
    return 0 if peor < OBJETIVO else 1


if __name__ == "__main__":
    sys.exit(main())
