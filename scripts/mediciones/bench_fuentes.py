"""Benchmark (not a test): what matplotlib's prebuilt font list saves each sandboxed kernel.

Every sandboxed kernel starts with an empty ``MPLCONFIGDIR`` in its own tmpfs.
Without a font list matplotlib scans the system's fonts on its first import;
``grader_tests.caja.aislamiento.cache_de_fuentes`` builds the list once per
grading process and the sandbox copies it into each kernel's /tmp.  This runs
``--veces`` sandboxes (``KernelAislado.ejecutar``, as autograde starts them)
with and without the list, alternating, each importing ``matplotlib.pyplot``
and saving one figure (what the lessons' explorables do first), and reports
the median and the range of that time measured inside the sandbox, plus the
one-off cost of building the list in the grading process.

    .venv/bin/python scripts/mediciones/bench_fuentes.py [--veces 9]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(RAIZ))

from grader_tests.caja import aislamiento  # noqa: E402

CODIGO = ("import os, time; estado = 'lista' if os.path.isdir('/tmp/matplotlib') and any("
          "n.startswith('fontlist-') for n in os.listdir('/tmp/matplotlib')) else 'sin-lista'; "
          "t = time.perf_counter(); import matplotlib.pyplot as plt; f = plt.figure(); "
          "f.text(.5, .5, 'x'); f.savefig('/tmp/x.png'); print('segundos', time.perf_counter() - t, estado)")


def una_vez(raiz: Path, con_lista: bool, lista: str | None) -> float:
    aislamiento._FUENTES["lista"] = lista if con_lista else None
    carpeta = raiz / "autograded" / "alumno" / "tarea"
    carpeta.mkdir(parents=True, exist_ok=True)
    r = aislamiento.KernelAislado(raiz=str(raiz)).ejecutar([sys.executable, "-c", CODIGO], str(carpeta))
    if r.returncode != 0:
        raise SystemExit(f"la caja falló: {r.stderr[-1500:]}")
    [linea] = [l for l in r.stdout.splitlines() if l.startswith("segundos ")]
    _, segundos, estado = linea.split()
    if (estado == "lista") != con_lista:
        raise SystemExit(f"se esperaba {'con' if con_lista else 'sin'} lista de fuentes y la caja dice {estado}")
    return float(segundos)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--veces", type=int, default=9)
    args = parser.parse_args()
    inicio = time.perf_counter()
    lista = aislamiento.cache_de_fuentes()
    construir = time.perf_counter() - inicio
    if lista is None:
        raise SystemExit("no se pudo construir la lista de fuentes")
    tiempos = {True: [], False: []}
    with tempfile.TemporaryDirectory(prefix="bench-fuentes-") as raiz:
        for _ in range(args.veces):
            for con_lista in (True, False):
                tiempos[con_lista].append(una_vez(Path(raiz), con_lista, lista))
    print(f"lista de fuentes construida una vez en el proceso que califica: {construir:.2f} s")
    for con_lista, nombre in ((False, "sin lista"), (True, "con lista")):
        t = tiempos[con_lista]
        print(f"{nombre}: importar matplotlib.pyplot y guardar una figura, mediana {statistics.median(t):.2f} s "
              f"(de {min(t):.2f} a {max(t):.2f} s, {len(t)} cajas)")
    ahorro = statistics.median(tiempos[False]) - statistics.median(tiempos[True])
    print(f"ahorro por núcleo (mediana): {ahorro:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
