"""Benchmark (not a test): how long the hidden tests of one exercise take.

Runs, in-process, what every hidden test cell of an exercise does: the client
side (``cliente.recoger_evidencia``: call the student's function on the
cell's inputs, capture output, serialise) and the trusted judge
(``juez.juzgar``: reference, comparison, diagnosis).  Issue 5 asks for less
than 0.3 s per exercise.  Uses, for every exercise found
(``grader_tests/ejercicios/``), its first correct battery file and its first
two mistaken ones (a mistaken one also runs the diagnosis).

    .venv/bin/python scripts/mediciones/bench_hidden_tests.py [repeticiones]
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(RAIZ))

from grader_tests import bateria, descubrimiento  # noqa: E402

OBJETIVO = 0.3


def muestras() -> list[tuple[str, descubrimiento.ArchivoDeBateria]]:
    """Per exercise: its first correct battery file and its first two wrong ones."""
    elegidos = []
    for funcion, ej in descubrimiento.ejercicios().items():
        archivos = ej.bateria()
        elegidos += [(funcion, a) for a in [a for a in archivos if a.espera == "completo"][:1]]
        elegidos += [(funcion, a) for a in [a for a in archivos if a.espera != "completo"][:2]]
    return elegidos


def una_vez(funcion: str, implementacion) -> tuple[float, float]:
    from grader_tests import juez
    from grader_tests.casos import celdas_de
    from grader_tests.cliente import recoger_evidencia
    cliente = juicio = 0.0
    for gid in celdas_de(funcion):
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
    print(f"{'ejercicio / muestra':50s} {'cliente':>9s} {'juez':>9s} {'total':>9s}  (mediana de {repeticiones})")
    for funcion, archivo in muestras():
        nombre = archivo.nombre
        implementacion = bateria.cargar(archivo, funcion)
        una_vez(funcion, implementacion)                           # warm-up
        tiempos = [una_vez(funcion, implementacion) for _ in range(repeticiones)]
        cliente = statistics.median(t[0] for t in tiempos)
        juicio = statistics.median(t[1] for t in tiempos)
        peor = max(peor, cliente + juicio)
        print(f"{funcion + ' / ' + nombre:50s} {cliente:8.3f}s {juicio:8.3f}s {cliente + juicio:8.3f}s")
    print(f"peor total: {peor:.3f} s (objetivo < {OBJETIVO} s): {'OK' if peor < OBJETIVO else 'DEMASIADO LENTO'}")
    return 0 if peor < OBJETIVO else 1


if __name__ == "__main__":
    sys.exit(main())
