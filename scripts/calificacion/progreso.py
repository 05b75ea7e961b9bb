"""The progress bars while grading: one per assignment, over its submissions (tqdm).

``make grade`` on a class of hundreds takes minutes; on a terminal each
assignment shows how many submissions are done, how many were graded and how
many nbgrader could not grade, the time spent and an estimate of the time
left.  The workers grade every assignment without waiting for each other, so
all the bars are drawn at once (``tareas``).  When standard output is not a
terminal (CI, a log file, a Kubernetes pod) nothing is drawn, so logs stay
short, unless ``CURSO_PROGRESO=lineas`` asks for plain Spanish lines (the
course page in the hub, which shows the output as it comes: at most one line
every few seconds per assignment, and the last one).  Workers call it from
several threads: every update takes a lock.
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading
import time

FORMATO = "{desc}: {bar} {n_fmt}/{total_fmt} entregas{postfix} · {elapsed}, quedan {remaining}"
VARIABLE_LINEAS = "CURSO_PROGRESO"      # "lineas": plain lines when not on a terminal (the hub's course page)
INTERVALO_LINEAS = 5.0                  # seconds between two lines of one assignment


class _Barra:
    def __init__(self, barra, nombre: str = "", total: int = 0):
        self.barra = barra
        self.nombre = nombre
        self.total = total
        self.calificadas = self.fallidas = 0
        self.contadas: dict[str, bool] = {}
        self.ultima_linea = float("-inf")     # the first line is always printed (monotonic() may start near 0)

    def resumen(self) -> str:
        return f"calificadas {self.calificadas}, fallidas {self.fallidas}"


class Progreso:
    """Progress of the grading job.

    Args:
        flujo: where to draw (standard output by default).
        activo: draw or not; by default only when ``flujo`` is a terminal.
    """

    def __init__(self, flujo=None, activo: bool | None = None, lineas: bool | None = None):
        self.flujo = flujo if flujo is not None else sys.stdout
        if activo is None:
            activo = bool(getattr(self.flujo, "isatty", lambda: False)())
        self.activo = activo
        if lineas is None:
            lineas = os.environ.get(VARIABLE_LINEAS, "").strip().lower() == "lineas"
        self.lineas = lineas and not activo
        self._cerrojo = threading.Lock()
        self._barras: dict[str, _Barra] = {}

    @contextlib.contextmanager
    def tareas(self, totales: dict[str, int]):
        """Draw one bar per assignment (``{assignment: submissions}``) while the block runs."""
        from tqdm import tqdm
        codificacion = (getattr(self.flujo, "encoding", None) or "ascii").lower().replace("-", "")
        with self._cerrojo:
            self._barras = {}
            for posicion, (nombre, total) in enumerate(totales.items()):
                barra = tqdm(total=total, desc=nombre, file=self.flujo, disable=not self.activo,
                             bar_format=FORMATO, ascii=codificacion != "utf8", dynamic_ncols=True,
                             mininterval=0.5, smoothing=0.1, position=posicion, leave=True,
                             postfix="calificadas 0, fallidas 0")
                self._barras[nombre] = _Barra(barra, nombre, total)
            if self.lineas:
                for nombre, total in totales.items():
                    self._linea(f"{nombre}: {total} {'entrega' if total == 1 else 'entregas'} por calificar")
        try:
            yield self
        finally:
            with self._cerrojo:
                for b in self._barras.values():
                    b.barra.close()
                self._barras = {}

    def tarea(self, nombre: str, total: int):
        """Draw the bar of assignment ``nombre`` (``total`` submissions) while the block runs."""
        return self.tareas({nombre: total})

    def _barra(self, tarea: str | None) -> _Barra | None:
        if tarea is None:
            return next(iter(self._barras.values()), None) if len(self._barras) == 1 else None
        return self._barras.get(tarea)

    @property
    def calificadas(self) -> int:
        return sum(b.calificadas for b in self._barras.values())

    @property
    def fallidas(self) -> int:
        return sum(b.fallidas for b in self._barras.values())

    def terminada(self, alumno: str, calificada: bool, tarea: str | None = None) -> None:
        """``alumno``'s submission of ``tarea`` is done: graded, or nbgrader could not grade it.

        A student reported again (graded in the batch, then graded alone after
        all) only moves the count from one column to the other.
        """
        with self._cerrojo:
            b = self._barra(tarea)
            if b is None:
                return
            anterior = b.contadas.get(alumno)
            if anterior is not None:
                if anterior == calificada:
                    return
                b.calificadas += 1 if calificada else -1
                b.fallidas += -1 if calificada else 1
            else:
                b.calificadas += calificada
                b.fallidas += not calificada
            b.contadas[alumno] = calificada
            b.barra.set_postfix_str(b.resumen(), refresh=False)
            b.barra.update(1 if anterior is None else 0)
            if anterior is not None:
                b.barra.refresh()
            hechas = len(b.contadas)
            if self.lineas and (hechas >= b.total or time.monotonic() - b.ultima_linea >= INTERVALO_LINEAS):
                b.ultima_linea = time.monotonic()
                self._linea(f"{b.nombre}: {hechas}/{b.total} entregas ({b.resumen()})")

    def _linea(self, texto: str) -> None:
        print(texto, file=self.flujo, flush=True)

    def contada(self, alumno: str, tarea: str | None = None) -> bool:
        with self._cerrojo:
            b = self._barra(tarea)
            return b is not None and alumno in b.contadas
