"""Benchmark (not a test): how long every nbgrader and Jupyter command takes just to start.

Every ``nbgrader autograde``, ``generate_feedback``, ``collect``…, every Jupyter
server and formgrader imports ``jsonschema`` (through nbformat and
jupyter_events).  From 4.25 on, jsonschema's format checkers import
``rfc3987_syntax``, which builds some thirty Lark parsers when it is imported;
requirements.txt keeps jsonschema at 4.24.1, which does not.  This times, in
fresh processes, alternating:

* ``import nbgrader.apps`` as installed, and the same after importing
  ``rfc3987_syntax`` first (what jsonschema 4.25+ does at import);
* the whole ``nbgrader --version`` command (configuration included).

It prints the median and range of each, in seconds, and the installed versions.

    .venv/bin/python scripts/mediciones/bench_arranque.py [--veces 7]
"""
from __future__ import annotations

import argparse
import importlib.metadata
import statistics
import subprocess
import sys
import time
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]

CON_RFC3987 = "import rfc3987_syntax, nbgrader.apps"
COMO_ESTA = "import nbgrader.apps"


def _segundos(orden: list[str]) -> float:
    inicio = time.perf_counter()
    subprocess.run(orden, cwd=RAIZ, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - inicio


def _version(paquete: str) -> str:
    try:
        return importlib.metadata.version(paquete)
    except importlib.metadata.PackageNotFoundError:
        return "no instalado"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--veces", type=int, default=7)
    args = parser.parse_args()
    nbgrader = str(Path(sys.executable).parent / "nbgrader")
    casos = {"importar nbgrader.apps (como está instalado)": [sys.executable, "-c", COMO_ESTA],
             "importar nbgrader.apps tras importar rfc3987_syntax (jsonschema 4.25+)": [sys.executable, "-c", CON_RFC3987],
             "nbgrader --version (la orden entera)": [nbgrader, "--version"]}
    if _version("rfc3987-syntax") == "no instalado":
        del casos["importar nbgrader.apps tras importar rfc3987_syntax (jsonschema 4.25+)"]
    tiempos: dict[str, list[float]] = {nombre: [] for nombre in casos}
    for _ in range(args.veces):
        for nombre, orden in casos.items():
            tiempos[nombre].append(_segundos(orden))
    print(f"jsonschema {_version('jsonschema')}, rfc3987-syntax {_version('rfc3987-syntax')}, "
          f"nbgrader {_version('nbgrader')}; {args.veces} procesos nuevos por caso, intercalados")
    for nombre, t in tiempos.items():
        print(f"{nombre}: mediana {statistics.median(t):.2f} s (de {min(t):.2f} a {max(t):.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
