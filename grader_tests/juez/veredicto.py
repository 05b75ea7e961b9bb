"""The verdict of one graded test cell: points, a Spanish explanation and the typed facts behind them.

Trusted side only (never imported inside a student's kernel under autograde).

A ``Veredicto`` is computed from typed per-case results (``ResultadoCaso``:
passed, failed or excused, the problems seen and the known mistakes
recognised, each a ``diagnostico.ErrorConocido`` with a stable id, Spanish
name, category and the lesson section to revisit), or from a reason why the
cell could not be judged (``motivo``: timeout, dead kernel, no evidence…).
``lineas`` is what the student reads under the cell; ``a_dict`` is the same
verdict in machine-readable form (for a class report: no reference values,
no hidden inputs, nothing of other students).
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Why a cell could not be judged from evidence (``Veredicto.motivo``).
MOTIVOS = {
    "tiempo_agotado": "la celda agotó su tiempo",
    "kernel_muerto": "el proceso del cuaderno murió",
    "celda_no_ejecutada": "la celda no llegó a ejecutarse",
    "error_en_celda": "la celda se detuvo con un error antes de la corrección",
    "sin_evidencia": "la celda no ejecutó la corrección (borrada, editada o no ejecutada)",
    "evidencia_duplicada": "la celda publicó varios resultados de corrección",
    "evidencia_invalida": "la evidencia superó los límites",
    "evidencia_dañada": "la evidencia no se pudo leer",
    "evidencia_ajena": "la celda publicó resultados de otra celda",
    "no_definido": "la función o la variable no estaba definida",
    "no_invocable": "el nombre no era una función",
    "sin_contestar": "la pregunta no se contestó",
    "respuesta_ilegible": "la respuesta no se pudo leer",
    "celda_desconocida": "el corrector no conoce la celda",
    "error_interno": "error interno del corrector",
}


@dataclass(frozen=True)
class Diagnostico:
    """A known mistake recognised on one call, with the Spanish text shown for it."""

    error: object          # diagnostico.ErrorConocido
    texto: str


@dataclass
class ResultadoCaso:
    """What happened with one scored input case of a cell.

    Attributes:
        numero: 1-based position among the cell's scored cases.
        descripcion: how the case is named (``"T = 5, d_model = 12, h = 3"``).
        aprobado: the case counts as passed (``excusado`` included).
        excusado: it failed, but with a known value mistake charged in another
            cell (same mistake on the control case): it costs nothing here.
        problemas: Spanish lines saying what was expected and what came back.
        diagnosticos: the known mistakes recognised on this call.
        solo_aqui: the mistake does not show on the control case (so it is
            charged here and not in the value cells).
        excepcion: class name of the exception the student's function raised.
    """

    numero: int
    descripcion: str
    aprobado: bool
    excusado: bool = False
    problemas: list[str] = field(default_factory=list)
    diagnosticos: list[Diagnostico] = field(default_factory=list)
    solo_aqui: bool = False
    excepcion: str | None = None


@dataclass
class Veredicto:
    """Result of judging one nbgrader test cell.

    Attributes:
        puntos: points earned, a float in [0, maximo].
        maximo: points the cell is worth (its nbgrader ``points``).
        lineas: Spanish lines shown to the student under the cell, in order.
        grade_id: the cell's grade_id (None when unknown).
        propiedad: the property checked (``"mapas"``; for quiz cells, the variable).
        casos: the typed result of every scored case (exercise cells).
        motivo: key of ``MOTIVOS`` when the cell could not be judged normally.
        respuesta: for quiz cells, the answer as read (canonical form), if any.
        prueba_visible_fallida: a visible assert of the cell failed after the
            hidden part published its evidence (costs nothing by itself).
    """

    puntos: float
    maximo: float
    lineas: list[str] = field(default_factory=list)
    grade_id: str | None = None
    propiedad: str | None = None
    casos: list[ResultadoCaso] = field(default_factory=list)
    motivo: str | None = None
    respuesta: object = None
    prueba_visible_fallida: bool = False

    def __post_init__(self) -> None:
        self.puntos = float(min(max(self.puntos, 0.0), self.maximo))

    @property
    def completo(self) -> bool:
        return self.puntos >= self.maximo

    @property
    def errores(self) -> list:
        """The known mistakes charged in this cell (failed cases only, each once, in order)."""
        vistos: dict[str, object] = {}
        for caso in self.casos:
            if caso.aprobado:
                continue
            for diagnostico in caso.diagnosticos:
                vistos.setdefault(diagnostico.error.id, diagnostico.error)
        return list(vistos.values())

    def texto(self) -> str:
        """The explanation as one block of text, ending with the score line."""
        cabecera = "✔" if self.completo else ("✘" if self.puntos == 0 else "◐")
        cuerpo = "\n".join(self.lineas)
        resumen = f"{cabecera} Puntos: {formatear_puntos(self.puntos)} de {formatear_puntos(self.maximo)}"
        return f"{cuerpo}\n{resumen}\n" if cuerpo else f"{resumen}\n"

    def a_dict(self) -> dict:
        """The verdict as JSON-safe data: points, property, reason, known mistakes, cases, answer.

        Holds nothing secret: no reference value, no hidden input, only the
        names of the cases and what the grader concluded.
        """
        def error(e) -> dict:
            return {"id": e.id, "nombre": e.nombre, "categoria": e.categoria, "seccion": e.seccion}

        respuesta = self.respuesta
        if isinstance(respuesta, (set, frozenset)):
            respuesta = sorted(respuesta)
        elif respuesta is not None and not isinstance(respuesta, (str, int, float, bool)):
            respuesta = repr(respuesta)[:200]
        return {
            "grade_id": self.grade_id, "propiedad": self.propiedad,
            "puntos": self.puntos, "maximo": self.maximo, "motivo": self.motivo,
            "errores": [error(e) for e in self.errores],
            "casos": [{"numero": c.numero, "descripcion": c.descripcion, "aprobado": c.aprobado,
                       "excusado": c.excusado, "excepcion": c.excepcion,
                       "errores": [d.error.id for d in c.diagnosticos]} for c in self.casos],
            "respuesta": respuesta, "prueba_visible_fallida": self.prueba_visible_fallida,
        }


def formatear_puntos(x: float) -> str:
    """``3.0`` → ``"3"``, ``1.5`` → ``"1.5"`` (Spanish readers get no trailing ``.0``)."""
    return f"{x:g}"
