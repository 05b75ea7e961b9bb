"""``make informe``: write the class report from the gradebook and the recorded verdicts.

``python -m scripts.informe [--umbral-error 15] [--umbral-acierto 70]`` from
the course root; the thresholds are percentages of the graded submissions.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent.parent
if str(RAIZ) not in sys.path:
    sys.path.insert(0, str(RAIZ))

from scripts import observaciones  # noqa: E402
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Escribe el informe de la clase (informe/informe.html y los CSV).")
    parser.add_argument("--umbral-error", type=_porcentaje, default=datos.UMBRAL_ERROR, metavar="P",
                        help="«qué repasar» nombra los errores conocidos de al menos el P %% de las entregas "
                             f"(por defecto {datos.UMBRAL_ERROR * 100:g})")
    parser.add_argument("--umbral-acierto", type=_porcentaje, default=datos.UMBRAL_ACIERTO, metavar="P",
                        help="... y las propiedades y preguntas que acierta menos del P %% "
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
