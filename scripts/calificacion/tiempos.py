"""Where the time of ``make grade`` goes, phase by phase (for the benchmark, not shown to the TA).

``with fase("exportar"): ...`` adds the block's wall time to that phase.  With
``CURSO_TIEMPOS=<file.json>`` in the environment, :func:`guardar` writes
``{phase: seconds}`` there at the end of ``scripts/calificacion/grade.py``;
``scripts/mediciones/bench_autograde.py`` reads it to say which part of a class run is
serial and which one the workers share.
"""
from __future__ import annotations

import contextlib
import json
import os
import threading
import time

VARIABLE = "CURSO_TIEMPOS"
_tiempos: dict[str, float] = {}
_cerrojo = threading.Lock()


@contextlib.contextmanager
def fase(nombre: str):
    inicio = time.perf_counter()
    try:
        yield
    finally:
        with _cerrojo:
            _tiempos[nombre] = _tiempos.get(nombre, 0.0) + time.perf_counter() - inicio


def tiempos() -> dict[str, float]:
    with _cerrojo:
        return dict(_tiempos)


def guardar() -> None:
    ruta = os.environ.get(VARIABLE)
    if ruta:
        with open(ruta, "w", encoding="utf-8") as f:
            json.dump(tiempos(), f, indent=1, sort_keys=True)
