"""What the TA table says about a submission besides its score (``make grade``).

Small pieces ``scripts/calificacion/grade.py`` calls: Spanish reasons read from nbgrader's
log and from the autograded notebook (timed-out cells, edited test cells,
edited files shipped with the assignment), and a standard output that prints
on any terminal encoding.
"""
from __future__ import annotations

import codecs
import re
import sys
import unicodedata

from grader_tests.comun.legible import nombre_legible

# characters without an ASCII base letter, for terminals that cannot print them
SUSTITUTOS = {"—": "-", "–": "-", "×": "x", "…": "...", "«": '"', "»": '"', "“": '"', "”": '"',
              "‘": "'", "’": "'", "√": "raiz de ", "·": "*", "≤": "<=", "≥": ">=", "→": "->",
              "✔": "[bien]", "✘": "[mal]", "◐": "[parcial]"}


def _degradar(error: UnicodeEncodeError):
    """Codec error handler: accents lose their mark (é → e), symbols get an ASCII stand-in."""
    trozo = error.object[error.start:error.end]
    salida = []
    for caracter in trozo:
        if caracter in SUSTITUTOS:
            salida.append(SUSTITUTOS[caracter])
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", caracter) if not unicodedata.combining(c))
        salida.append(base if base and base.isascii() else "?")
    return "".join(salida), error.end


DEGRADAR = "curso_degradar"
codecs.register_error(DEGRADAR, _degradar)


def preparar_salida() -> None:
    """Make stdout and stderr print on any terminal: what the encoding cannot hold is degraded.

    With a UTF-8 terminal nothing changes; with ASCII or Latin-1 (``LANG=C``,
    ``PYTHONIOENCODING=ascii``, a pipe) accents and symbols are replaced
    instead of crashing the job after the grades are written.
    """
    for flujo in (sys.stdout, sys.stderr):
        if hasattr(flujo, "reconfigure"):
            flujo.reconfigure(errors=DEGRADAR)


def legible(texto: object) -> str:
    """``texto`` as one printable line: control and format characters shown as escapes.

    Student ids, file names and error messages come from submissions: a newline
    would forge a line of the table about another student, an escape sequence
    would clear or retitle the TA's terminal, a bidi override would reorder what
    the TA reads.  Each such character becomes ``\\xNN`` / ``\\uNNNN``.  Names inside a
    line are shown with ``nombre_legible`` where the line is written (confusable characters
    escaped too); this is the same helper for whole lines of course text.
    """
    return nombre_legible(texto, None, confundibles=False)


# nbgrader's OverwriteCells: "Attribute 'checksum' for cell <id> has changed! (should be: …, got: …)"
_CAMBIO = re.compile(r"Attribute '(?P<atributo>\w+)' for cell (?P<celda>\S+) has changed!")
_ATRIBUTOS = {
    "checksum": "la celda de prueba {celda} estaba modificada en la entrega: se ha calificado con la original",
    "points": "los puntos de la celda {celda} estaban cambiados en la entrega: cuentan los del curso",
    "locked": "la celda {celda} estaba desbloqueada en la entrega: se ha calificado con la original",
}


def del_log(linea: str) -> list[str]:
    """Spanish observations from one line of nbgrader's autograde log (empty if none)."""
    cambio = _CAMBIO.search(linea)
    if cambio and cambio["atributo"] in _ATRIBUTOS:
        return [_ATRIBUTOS[cambio["atributo"]].format(celda=cambio["celda"])]
    return []


def _agotada(celda) -> str | None:
    """The timeout reason of a cell, or None when it did not run out of time."""
    for salida in celda.get("outputs", []):
        if salida.get("output_type") == "error" and salida.get("ename") == "CellTimeoutError":
            valor = str(salida.get("evalue", "")).strip()
            return valor if valor.startswith("se agotó el tiempo") else "se agotó el tiempo"
    return None


def de_respuesta(grade_id: str, error) -> str:
    """What the table says about an answer cell that ended with ``error`` (an error output)."""
    if error.get("ename") == "CellTimeoutError":
        return f"la celda de respuesta {grade_id}: {_agotada({'outputs': [error]})}"
    valor = " ".join(str(error.get("evalue", "")).split())
    valor = valor if len(valor) <= 100 else valor[:99].rstrip() + "…"
    return f"la celda de respuesta {grade_id} lanzó {error.get('ename')}: {valor}"


def del_cuaderno(nb) -> list[str]:
    """Observations read from an autograded notebook that the scores alone do not tell.

    * files shipped with the assignment that the student edited (the note
      ``grader_tests.extensiones_nbgrader.saneamiento.AvisarArchivosModificados`` put at the top);
    * cells added by the student left out past ``saneamiento.MAX_CELDAS`` (``AcotarCeldas``'s note);
    * cells outside the graded ones (the lesson's) that ran out of time;
    * cells whose output was cut as it arrived (``grader_tests.caja.salida_acotada``);
    * cells stopped by a limit of the sandbox (memory, processes, space for files:
      ``grader_tests.caja.aislamiento.nota_de_limite``).
    """
    from grader_tests.extensiones_nbgrader.saneamiento import CLAVE   # nbgrader: imported only when needed
    from grader_tests.caja.salida_acotada import MARCA, mib

    lineas = []
    for celda in nb.cells:
        marca = celda.get("metadata", {}).get(CLAVE)
        if celda.get("cell_type") == "markdown" and isinstance(marca, dict) and marca.get("archivos_modificados"):
            nombres = ", ".join(str(n) for n in marca["archivos_modificados"])
            lineas.append(f"modificó archivos que vienen con la tarea ({nombres}): se han calificado con "
                          "los del curso y sus comentarios lo dicen")
        if celda.get("cell_type") == "markdown" and isinstance(marca, dict) and isinstance(
                marca.get("celdas_omitidas"), dict):
            n = {k: int(v) for k, v in marca["celdas_omitidas"].items() if isinstance(v, int)}
            if n.get("texto", 0) or n.get("codigo", 0):
                lineas.append(f"entregó más celdas de las que se corrigen: se dejaron fuera {n.get('texto', 0)} de "
                              f"texto y {n.get('codigo', 0)} de código que no son de la tarea (las de la tarea, "
                              "todas corregidas)")
            if n.get("adjuntos", 0) or n.get("metadatos", 0):
                lineas.append(f"cuaderno desmesurado: se dejaron fuera {n.get('adjuntos', 0)} imágenes pegadas y se "
                              f"recortaron los metadatos de {n.get('metadatos', 0)} elementos")
    lentas = [i for i, c in enumerate(nb.cells, start=1)
              if c.get("cell_type") == "code" and not c.get("metadata", {}).get("nbgrader") and _agotada(c)]
    if lentas:
        motivo = _agotada(nb.cells[lentas[0] - 1])
        lineas.append(f"{motivo} en {'las celdas' if len(lentas) > 1 else 'la celda'} "
                      f"{', '.join(map(str, lentas))} de la lección (no calificadas)")
    recortadas, descartado = [], 0
    for i, celda in enumerate(nb.cells, start=1):
        for salida in celda.get("outputs", []) if celda.get("cell_type") == "code" else []:
            marca = (salida.get("metadata") or {}).get(MARCA)
            if salida.get("output_type") == "display_data" and isinstance(marca, dict):
                nombre = celda.get("metadata", {}).get("nbgrader", {}).get("grade_id")
                recortadas.append(str(nombre or i))
                if isinstance(marca.get("descartado"), int):
                    descartado += max(0, marca["descartado"])
    limites: dict[str, list[str]] = {}
    from grader_tests.caja.aislamiento import MARCA_LIMITE, NOMBRES_DE_LIMITES
    for i, celda in enumerate(nb.cells, start=1):
        for salida in celda.get("outputs", []) if celda.get("cell_type") == "code" else []:
            marca = (salida.get("metadata") or {}).get(MARCA_LIMITE)
            if isinstance(marca, dict) and marca.get("limite") in NOMBRES_DE_LIMITES:
                nombre = celda.get("metadata", {}).get("nbgrader", {}).get("grade_id")
                limites.setdefault(NOMBRES_DE_LIMITES[marca["limite"]], []).append(str(nombre or i))
    for limite, celdas in limites.items():
        lineas.append(f"chocó con un límite de la corrección ({limite}) en "
                      f"{'las celdas' if len(celdas) > 1 else 'la celda'} {', '.join(celdas)}: "
                      "sus comentarios lo explican")
    if recortadas:
        cuanto = f"{mib(descartado)} descartados" if descartado else "un mensaje descartado"
        lineas.append(f"salida recortada al llegar ({cuanto}) en {'las celdas' if len(recortadas) > 1 else 'la celda'} "
                      f"{', '.join(recortadas)}: se ha calificado y sus comentarios lo dicen")
    return lineas
