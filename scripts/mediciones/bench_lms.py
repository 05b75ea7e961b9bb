"""Benchmark (not a test): collecting a class-sized LMS download, and refusing a zip bomb.

Builds a Moodle "Download all submissions" zip of ``--alumnos`` copies of the
released notebook of lesson 1 (as ``tests/descargas_lms.py`` does), then times
what ``nbgrader zip_collect`` spends in this course's plugins: unpacking within
budgets (``lms.descompresion``) and deciding who is who (``lms.recogida``),
with the peak Python memory of both (tracemalloc).  Then times the refusal of
a small zip that declares a huge expansion.  Median of ``--repeticiones``.

    python scripts/mediciones/bench_lms.py [--alumnos 500] [--repeticiones 3]
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(RAIZ), str(RAIZ / "tests")]

from descargas_lms import NB1, T1, escribir, moodle, zip_de  # noqa: E402
from lms.descompresion import extraer_carpeta  # noqa: E402
from lms.lista_de_clase import leer_lista  # noqa: E402
from lms.recogida import clasificar, informe_de_extraccion  # noqa: E402


def una_vez(base: Path, descarga: bytes) -> tuple[float, float, float, int]:
    shutil.rmtree(base, ignore_errors=True)
    escribir(base / "archive" / "CURSO-Tarea 1-55.zip", descarga)
    (base / "extracted").mkdir()
    tracemalloc.start()
    inicio = time.perf_counter()
    resultado = extraer_carpeta(base / "archive", base / "extracted")
    medio = time.perf_counter()
    decision = clasificar(base / "extracted", T1, RAIZ / "release", leer_lista(base / "no.csv"),
                          informe_de_extraccion(resultado))
    fin = time.perf_counter()
    pico = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return medio - inicio, fin - medio, pico / 2 ** 20, len(decision["decisiones"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alumnos", type=int, default=500)
    parser.add_argument("--repeticiones", type=int, default=3)
    args = parser.parse_args(argv)
    cuaderno = (RAIZ / "release" / T1 / NB1).read_bytes()
    descarga = zip_de(moodle([(f"Alumna Número {i}", 10_000 + i, {NB1: cuaderno + b" " * (i % 7)})
                              for i in range(args.alumnos)]))
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        medidas = [una_vez(base / "clase", descarga) for _ in range(args.repeticiones)]
        extraer = statistics.median(m[0] for m in medidas)
        decidir = statistics.median(m[1] for m in medidas)
        pico = max(m[2] for m in medidas)
        print(f"Descarga de Moodle con {args.alumnos} entregas ({len(descarga) / 2 ** 20:.1f} MiB): "
              f"descomprimir {extraer:.2f} s, decidir quién es quién {decidir:.2f} s "
              f"({medidas[0][3]} cuadernos), pico de memoria {pico:.0f} MiB (mediana de {args.repeticiones})")
        bomba = zip_de({"ceros.ipynb": b"\0" * 300_000_000})
        escribir(base / "bomba" / "archive" / "b.zip", bomba)
        tiempos = []
        for _ in range(args.repeticiones):
            shutil.rmtree(base / "bomba" / "extracted", ignore_errors=True)
            (base / "bomba" / "extracted").mkdir()
            inicio = time.perf_counter()
            resultado = extraer_carpeta(base / "bomba" / "archive", base / "bomba" / "extracted")
            tiempos.append(time.perf_counter() - inicio)
        escrito = sum(p.stat().st_size for p in (base / "bomba" / "extracted").rglob("*") if p.is_file())
        print(f"Zip de {len(bomba) / 1024:.0f} KiB que se expandiría a 286 MiB: rechazado en "
              f"{statistics.median(tiempos) * 1000:.1f} ms, {escrito} bytes escritos "
              f"(«{resultado.rechazos[0].motivo}»)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
