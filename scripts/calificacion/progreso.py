"""The progress bar while grading: one per assignment, over its submissions (tqdm).

``make grade`` on a class of hundreds takes minutes; on a terminal each
assignment shows how many submissions are done, how many were graded and how
many nbgrader could not grade, the time spent and an estimate of the time
left.  When standard output is not a terminal (CI, a log file, a Kubernetes
pod) nothing is drawn, so logs stay short.  Workers call it from several
threads: every update takes a lock.
"""
from __future__ import annotations

import contextlib
import sys
import threading

FORMATO = "{desc}: {bar} {n_fmt}/{total_fmt} entregas{postfix} · {elapsed}, quedan {remaining}"


class Progreso:
    """Progress of the grading job.

    Args:
        flujo: where to draw (standard output by default).
        activo: draw or not; by default only when ``flujo`` is a terminal.
    """

    def __init__(self, flujo=None, activo: bool | None = None):
        self.flujo = flujo if flujo is not None else sys.stdout
        if activo is None:
            activo = bool(getattr(self.flujo, "isatty", lambda: False)())
        self.activo = activo
        self._cerrojo = threading.Lock()
        self._barra = None
        self.calificadas = self.fallidas = 0
        self._contadas: dict[str, bool] = {}

    @contextlib.contextmanager
    def tarea(self, nombre: str, total: int):
        """Draw the bar of assignment ``nombre`` (``total`` submissions) while the block runs."""
        from tqdm import tqdm
        codificacion = (getattr(self.flujo, "encoding", None) or "ascii").lower().replace("-", "")
        with self._cerrojo:
            self.calificadas = self.fallidas = 0
            self._contadas = {}
            self._barra = tqdm(total=total, desc=nombre, file=self.flujo, disable=not self.activo,
                               bar_format=FORMATO, ascii=codificacion != "utf8", dynamic_ncols=True,
                               mininterval=0.5, smoothing=0.1, postfix=self._resumen())
        try:
            yield self
        finally:
            with self._cerrojo:
                self._barra.close()
                self._barra = None

    def _resumen(self) -> str:
        return f"calificadas {self.calificadas}, fallidas {self.fallidas}"

    def terminada(self, alumno: str, calificada: bool) -> None:
        """``alumno``'s submission is done: graded, or nbgrader could not grade it.

        A student reported again (graded in the batch, then graded alone after
        all) only moves the count from one column to the other.
        """
        with self._cerrojo:
            anterior = self._contadas.get(alumno)
            if anterior is not None:
                if anterior == calificada:
                    return
                self.calificadas += 1 if calificada else -1
                self.fallidas += -1 if calificada else 1
            else:
                self.calificadas += calificada
                self.fallidas += not calificada
            self._contadas[alumno] = calificada
            if self._barra is not None:
                self._barra.set_postfix_str(self._resumen(), refresh=False)
                self._barra.update(1 if anterior is None else 0)
                if anterior is not None:
                    self._barra.refresh()

    def contada(self, alumno: str) -> bool:
        with self._cerrojo:
            return alumno in self._contadas
