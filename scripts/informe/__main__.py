"""``make informe``: write the class report from the gradebook and the recorded verdicts.

``python -m scripts.informe [--umbral-error 15] [--umbral-acierto 70]`` from
the course root; the thresholds are percentages of the students who attempted
(``datos.REGLA``).  Help and errors are in Spanish.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent.parent
if str(RAIZ) not in sys.path:
    sys.path.insert(0, str(RAIZ))

from scripts.calificacion import observaciones  # noqa: E402
from scripts.calificacion import libro_de_notas  # noqa: E402
from scripts.informe import datos, generar, lineas_para_la_terminal  # noqa: E402


def _porcentaje(texto: str) -> float:
    try:
        valor = float(texto.replace(",", "."))
    except ValueError:
        raise argparse.ArgumentTypeError(f"«{texto}» no es un porcentaje") from None
    if not 0 <= valor <= 100:
        raise argparse.ArgumentTypeError("el porcentaje tiene que estar entre 0 y 100")
    return valor / 100


class _FormatoEspañol(argparse.HelpFormatter):
    """argparse's help with a Spanish «uso:» line."""

    def add_usage(self, usage, actions, groups, prefix=None):
        return super().add_usage(usage, actions, groups, "uso: " if prefix is None else prefix)


class _Argumentos(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose help and errors are in Spanish (no «usage:», «options:», «error:» in English)."""

    TRADUCCIONES = (("unrecognized arguments", "argumentos desconocidos"),
                    ("expected one argument", "falta el valor"),
                    ("invalid choice", "valor no válido"),
                    ("argument ", "opción "))

    def __init__(self, **kwargs):
        super().__init__(add_help=False, formatter_class=_FormatoEspañol, **kwargs)
        self._optionals.title = "opciones"
        self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                          help="muestra esta ayuda y termina")

    def error(self, message: str):
        for ingles, español in self.TRADUCCIONES:
            message = message.replace(ingles, español)
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    parser = _Argumentos(prog="python -m scripts.informe",
                         description="Escribe el informe de la clase (informe/informe.html y los CSV).")
    parser.add_argument("--umbral-error", type=_porcentaje, default=datos.UMBRAL_ERROR, metavar="P",
                        help="«qué repasar» nombra los errores conocidos que comete al menos el P %% de quienes "
                             "escribieron la función "
                             f"(por defecto {datos.UMBRAL_ERROR * 100:g})")
    parser.add_argument("--umbral-acierto", type=_porcentaje, default=datos.UMBRAL_ACIERTO, metavar="P",
                        help="... y las propiedades y preguntas que cumple o acierta menos del P %% de quienes "
                             "lo intentaron "
                             f"(por defecto {datos.UMBRAL_ACIERTO * 100:g})")
    args = parser.parse_args(argv)
    observaciones.preparar_salida()
    try:
        if not libro_de_notas.existe(libro_de_notas.url_del_curso(RAIZ)):
            print("Todavía no hay libro de notas: califica antes (make grade).", file=sys.stderr)
            return 1
        ruta = generar(RAIZ, umbral_error=args.umbral_error, umbral_acierto=args.umbral_acierto)
    except libro_de_notas.LibroDeNotasInvalido as error:
        print(f"No se puede escribir el informe: {error}", file=sys.stderr)
        return 1
    for linea in lineas_para_la_terminal(RAIZ, ruta):
        print(linea)
    return 0


if __name__ == "__main__":
    sys.exit(main())
