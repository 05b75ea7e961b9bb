"""The block of a battery's ``c*_nombres_del_corrector.py`` that defines every public name of grader_tests.

Each exercise's battery keeps a correct solution whose helpers are named like
the names a hidden cell could bring near the student's code
(``grader_tests.descubrimiento.nombres_que_ve_el_kernel``): the hidden cells
must neither shadow nor call them (issue 11).  Every other such name is bound
to ``trampa``, which fails if the grader ever calls it.  ``make leccion``
writes the block for a new exercise; when grader_tests gains a public name,
``python scripts/autores/nombres_del_corrector.py`` rewrites the block of every
exercise's file (``tests/test_bateria.py`` says when it is needed).
"""
from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]
# Run as a script (make grade, make comprobar...), Python puts this folder first on sys.path: the course
# root takes its place, so these modules have one name only (scripts.autores.<módulo>).
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(RAIZ)
if str(RAIZ) not in sys.path:
    sys.path.insert(0, str(RAIZ))

INICIO = "# --- nombres públicos de grader_tests (scripts/autores/nombres_del_corrector.py) ---"
FIN = "# --- fin de los nombres públicos ---"


def bloque(funcion: str) -> str:
    """``A = B = … = trampa`` for every public name, between the two marker lines."""
    from grader_tests.descubrimiento import nombres_que_ve_el_kernel
    nombres = sorted(nombres_que_ve_el_kernel(funcion) - {"trampa"}, key=lambda n: (n.lower(), n))
    cuerpo = " = ".join(nombres + ["trampa"])
    lineas = textwrap.wrap(cuerpo, width=100, break_long_words=False, break_on_hyphens=False)
    return "\n".join([INICIO, " \\\n    ".join(lineas), FIN])


def reescribir(ruta: Path, funcion: str) -> bool:
    """Put the current block into a battery file (between its markers); True if it changed."""
    texto = ruta.read_text(encoding="utf-8")
    patron = re.compile(re.escape(INICIO) + r".*?" + re.escape(FIN), re.S)
    if not patron.search(texto):
        raise ValueError(f"{ruta}: no tiene las líneas {INICIO!r} … {FIN!r}")
    nuevo = patron.sub(lambda _: bloque(funcion), texto)
    if nuevo != texto:
        ruta.write_text(nuevo, encoding="utf-8")
    return nuevo != texto


def main() -> int:
    from grader_tests import descubrimiento
    for funcion, ej in descubrimiento.ejercicios().items():
        for archivo in ej.bateria():
            if archivo.nombre.endswith("_nombres_del_corrector"):
                cambiado = reescribir(archivo.ruta, funcion)
                print(f"{archivo.ruta.relative_to(RAIZ)}: {'actualizado' if cambiado else 'al día'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
