"""The class report after grading (``make informe``; ``make grade`` writes it at the end).

What the class got wrong, per assignment, for the teaching assistants and the
course's authors: score histogram, per-property pass rates, the known mistakes
ranked by how many students made them (with the lesson section to revisit),
per quiz question the share of correct answers and the most chosen wrong one,
the submissions that could not be graded or lost points without being judged,
and «qué repasar» at the top (what passes the thresholds).

Sources: the gradebook and the verdicts the trusted judge recorded
(``scripts.informe.datos``); output: ``informe/informe.html`` plus CSVs per
assignment (``scripts.informe.pagina``).
"""
from __future__ import annotations

from pathlib import Path

from scripts.informe import datos, pagina

CARPETA_INFORME = "informe"


def generar(raiz: Path, destino: Path | None = None, umbral_error: float = datos.UMBRAL_ERROR,
            umbral_acierto: float = datos.UMBRAL_ACIERTO) -> Path:
    """Write the report of the course at ``raiz`` into ``destino`` (default ``<raiz>/informe``).

    Returns the path of ``informe.html``.  Raises what opening the gradebook raises
    (``libro_de_notas.LibroDeNotasInvalido``, driver errors).
    """
    raiz = Path(raiz)
    destino = Path(destino) if destino else raiz / CARPETA_INFORME
    resumenes = [datos.resumir(t, umbral_error, umbral_acierto) for t in datos.leer(raiz)]
    politica, zona = _politica_y_zona(raiz)
    destino.mkdir(parents=True, exist_ok=True)
    from grader_tests.extensiones_nbgrader.registro_de_veredictos import nombre_seguro
    for resumen in resumenes:
        if nombre_seguro(resumen.tarea):
            pagina.escribir_csvs(resumen, destino / resumen.tarea, zona)
    ruta = destino / "informe.html"
    temporal = destino / "informe.html.tmp"
    temporal.write_text(pagina.pagina(resumenes, umbral_error, umbral_acierto, politica=politica, zona=zona),
                        encoding="utf-8")
    temporal.replace(ruta)
    return ruta


def _politica_y_zona(raiz: Path) -> tuple[str, str]:
    """The course's late policy in one Spanish sentence and its time zone (``grader_tests.extensiones_nbgrader.plazos``).

    Unreadable configuration: no sentence, Madrid's zone (the report goes on).
    """
    from grader_tests.extensiones_nbgrader import plazos
    try:
        config_plazos, politica, _ = plazos.leer(raiz)
        return politica.descripcion(), config_plazos.zona
    except Exception:  # noqa: BLE001 - the report goes on without the sentence
        return "", plazos.ZONA_DEL_CURSO


def lineas_para_la_terminal(raiz: Path, ruta: Path) -> list[str]:
    """What ``make grade`` / ``make informe`` print about the report."""
    return [f"Informe de la clase (sólo para el profesorado): {ruta}   CSV: {ruta.parent}/<tarea>/"]
