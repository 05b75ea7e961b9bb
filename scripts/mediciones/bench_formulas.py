"""Benchmark (not a test): the feedback page of a notebook full of a student's formulas.

A fresh attacker's output (``display(Markdown(...))`` of ``--megas`` MB of the
formula ``$x_{0}+…+y$``, ``--celdas`` cells of it) rendered by the course's
feedback exporter (``grader_tests.extensiones_nbgrader.retroalimentacion``,
with the config ``tests/test_html_seguro.py`` uses, as ``generate_feedback``
does).  Each case runs in a fresh process, so its peak resident memory
(``getrusage(RUSAGE_SELF).ru_maxrss``) is its own.  Reports seconds, peak
memory, the page's size and its ``<math>`` elements, with the course's
typesetting budget (``html_seguro.presupuesto_mathml``) and without it
(``--sin-presupuesto``: an unbounded budget, as before it existed).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]

CASO = r'''
import json, resource, sys, time
sys.path[:0] = [{tests!r}, {raiz!r}]
import nbformat
from grader_tests.extensiones_nbgrader import html_seguro as hs
from test_html_seguro import comentarios_de, _cuaderno_con_nbgrader
if {sin_presupuesto}:
    original = hs.presupuesto_mathml
    hs.presupuesto_mathml = lambda: original(10**9, 10**12)
formula = "$" + "x_{{0}}+" * 20 + "y$ "
markdown = formula * (int({megas} * 1_000_000) // len(formula))
nb = _cuaderno_con_nbgrader()
for _ in range({celdas}):
    nb.cells.append(nbformat.v4.new_code_cell("display(Markdown(f))", outputs=[nbformat.v4.new_output(
        "display_data", data={{"text/markdown": markdown, "text/plain": "<Markdown>"}})]))
inicio = time.perf_counter()
html = comentarios_de(nb)
print(json.dumps({{"segundos": time.perf_counter() - inicio, "mib": len(html) / 2**20, "math": html.count("<math"),
                  "pico_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}}))
'''


def medir(megas: float, celdas: int, sin_presupuesto: bool) -> dict:
    codigo = CASO.format(tests=str(RAIZ / "tests"), raiz=str(RAIZ), megas=megas, celdas=celdas,
                         sin_presupuesto=sin_presupuesto)
    salida = subprocess.run([sys.executable, "-c", codigo], capture_output=True, text=True, check=True, cwd=RAIZ)
    return json.loads(salida.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megas", type=float, default=3.8, help="MB de fórmulas por celda (3,8 el atacante)")
    parser.add_argument("--celdas", type=int, default=3)
    parser.add_argument("--sin-presupuesto", action="store_true",
                        help="también sin el presupuesto de fórmulas (una celda: gigas de memoria)")
    args = parser.parse_args()
    casos = [("con el presupuesto", args.celdas, False)]
    if args.sin_presupuesto:
        casos.append(("sin presupuesto", 1, True))
    for nombre, celdas, sin in casos:
        r = medir(args.megas, celdas, sin)
        print(f"{nombre}: {celdas} celda(s) de {args.megas} MB de fórmulas: {r['segundos']:.1f} s, "
              f"pico {r['pico_gib']:.2f} GiB, página {r['mib']:.1f} MiB, {r['math']} <math>")


if __name__ == "__main__":
    main()
