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


# what the TA reads when CURSO_PROGRESO=lineas (the course page in the hub): each phase as it starts
ANUNCIOS = {
    "comprobaciones": "Comprobando el libro de notas, los plazos y el aislamiento…",
    "publicar (generate_assignment)": "Generando las tareas (nbgrader generate_assignment)…",
    "entregas (LMS o muestras)": "Preparando las entregas…",
    "calificar (trabajadores y fusión)": "Calificando las entregas y generando sus comentarios (nbgrader autograde "
                                         "y generate_feedback; puede tardar varios minutos)…",
    "fusión de los libros de notas": "Juntando las notas de los trabajadores en el libro de notas…",
    "filas y plazos": "Aplicando los plazos y las penalizaciones…",
    "exportar": "Exportando grades.csv…",
    "después: informe": "Preparando el informe de la clase…",
}


@contextlib.contextmanager
def fase(nombre: str):
    anuncio = ANUNCIOS.get(nombre)
    if anuncio and os.environ.get("CURSO_PROGRESO", "").strip().lower() == "lineas":
        print(f"▶ {anuncio}", flush=True)
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
