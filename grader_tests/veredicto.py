"""The verdict of one graded test cell: points and a Spanish explanation.

Trusted side only (never imported inside a student's kernel under autograde).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Veredicto:
    """Result of judging one nbgrader test cell.

    Attributes:
        puntos: points earned, a float in [0, maximo].
        maximo: points the cell is worth (its nbgrader ``points``).
        lineas: Spanish lines shown to the student under the cell, in order.
    """

    puntos: float
    maximo: float
    lineas: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.puntos = float(min(max(self.puntos, 0.0), self.maximo))

    @property
    def completo(self) -> bool:
        return self.puntos >= self.maximo

    def texto(self) -> str:
        """The explanation as one block of text, ending with the score line."""
        cabecera = "✔" if self.completo else ("✘" if self.puntos == 0 else "◐")
        cuerpo = "\n".join(self.lineas)
        resumen = f"{cabecera} Puntos: {formatear_puntos(self.puntos)} de {formatear_puntos(self.maximo)}"
        return f"{cuerpo}\n{resumen}\n" if cuerpo else f"{resumen}\n"


def formatear_puntos(x: float) -> str:
    """``3.0`` → ``"3"``, ``1.5`` → ``"1.5"`` (Spanish readers get no trailing ``.0``)."""
    return f"{x:g}"
