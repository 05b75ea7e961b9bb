"""The visible tests of every lesson against every battery file, in-process (fast).

What a student reads when Validate fails must fit a terminal: ``nbgrader
validate`` cuts every line at ``Validator.width - 3`` characters (87 by
default), so every line of a visible message, ``AssertionError: `` included,
has at most 80.  And the visible tests agree with the hidden ones: they fail
for every battery file that loses points outside the cells checked only at
grading time, and pass every file with full marks (the same rule that
``make comprobar`` checks in a kernel and ``test_bateria.py`` under
``nbgrader validate``).
"""
from __future__ import annotations

import contextlib
import io
import re

import nbformat
import numpy as np
import pytest

from grader_tests.juez import bateria, descubrimiento

from conftest import RAIZ

OCULTO = re.compile(r"### BEGIN HIDDEN TESTS\n.*?### END HIDDEN TESTS\n?", re.S)
ANCHO = 80
EJERCICIOS = descubrimiento.ejercicios()
LECCIONES = {f: l for l in descubrimiento.lecciones(RAIZ) for f in l.funciones if f in EJERCICIOS}
ARCHIVOS = [(f, a) for f in LECCIONES for a in EJERCICIOS[f].bateria()]


def pruebas_visibles(funcion: str) -> dict[str, str]:
    nb = nbformat.read(LECCIONES[funcion].cuaderno, as_version=4)
    return {c.metadata.nbgrader["grade_id"]: OCULTO.sub("", c.source) for c in nb.cells
            if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") in EJERCICIOS[funcion].propiedades}


def ejecutar_visibles(funcion: str, codigo: str) -> dict[str, str]:
    """{grade_id: message} of the visible test cells that fail for ``codigo``."""
    espacio: dict = {"np": np}
    silencio = (contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()))
    with silencio[0], silencio[1]:
        exec(compile(codigo, funcion, "exec"), espacio)
    fallan = {}
    for gid, fuente in pruebas_visibles(funcion).items():
        copia = dict(espacio)
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
                    np.errstate(all="ignore"):
                exec(compile(fuente, gid, "exec"), copia)
        except Exception as exc:  # noqa: BLE001 - what the student would see
            fallan[gid] = f"{type(exc).__name__}: {exc}"
    return fallan


@pytest.mark.parametrize("funcion,archivo", ARCHIVOS, ids=[f"{f}/{a.nombre}" for f, a in ARCHIVOS])
def test_los_mensajes_visibles_caben_y_dicen_lo_mismo_que_la_nota(funcion, archivo):
    fallan = ejecutar_visibles(funcion, archivo.codigo)
    largas = [(gid, linea) for gid, texto in fallan.items() if texto.startswith("AssertionError")
              for linea in texto.splitlines() if len(linea) > ANCHO]
    assert not largas, "\n".join(f"{g}: {len(l)} caracteres: {l}" for g, l in largas)
    ej = EJERCICIOS[funcion]
    veredictos = bateria.corregir(funcion, bateria.cargar(archivo, funcion))
    pierde = [g for g, v in veredictos.items() if v.puntos < v.maximo and not ej.propiedades[g].solo_al_calificar]
    completo = all(v.completo for v in veredictos.values())
    assert not (pierde and not fallan), f"pierde puntos en {pierde} y las pruebas visibles dicen «Success»"
    assert not (completo and fallan), f"nota completa y fallan las pruebas visibles: {fallan}"
