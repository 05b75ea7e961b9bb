"""Why a submission could not be graded fully: Spanish observations for the TA table.

Read from nbgrader's autograde log (split per student), from the autograded
notebook (cells that never ran, unanswered cells, timeouts) and from the
submission folder (renamed or missing notebooks).  ``scripts/calificacion/observaciones.py``
holds the smaller pieces shared with other steps.
"""
from __future__ import annotations

import re
from pathlib import Path

from scripts.calificacion import observaciones

# nbgrader log lines that explain a failed autograde, and their Spanish reason
RAZONES = [
    ("Notebook does not appear to be JSON", "el cuaderno no es un JSON válido (archivo dañado)"),
    ("JSONDecodeError", "el cuaderno no es un JSON válido (archivo dañado)"),
    ("NotJSONError", "el cuaderno no es un JSON válido (archivo dañado)"),
    ("No notebooks found", "la entrega no contiene ningún cuaderno de la tarea"),
    ("Skipping unknown notebook", "hay cuadernos con un nombre que la tarea no tiene"),
    ("timed out", "se agotó el tiempo de ejecución"),
    ("Kernel died", "el proceso de Python del cuaderno murió"),
    ("use an newer version", "los metadatos de nbgrader del cuaderno están alterados (versión desconocida)"),
    ("use an old version", "los metadatos de nbgrader del cuaderno están alterados (versión antigua)"),
    ("Notebook JSON is invalid", "el archivo es JSON pero no es un cuaderno válido"),
    ("NotebookValidationError", "el archivo es JSON pero no es un cuaderno válido"),
    ("ValidationError", "el archivo no es un cuaderno válido"),
    ("cannot be both", "los metadatos de nbgrader de alguna celda están alterados"),
    ("SchemaTooNew", "los metadatos de nbgrader del cuaderno están alterados (versión desconocida)"),
    ("MissingEntry", "una celda del cuaderno trae marcas de nbgrader (grade_id, «grade», «solution») que no "
                     "coinciden con las de la tarea"),
]
# Not a cause: a duplicated grade_id is graded (QuitarDuplicados keeps the last copy and only warns,
# «exists multiple times»), so an autograde that fails must be explained by something else in its log.


def razon_del_log(texto: str) -> str:
    """The Spanish reason of a failed ``nbgrader autograde`` run from its log."""
    # refused by the course's deadlines (ComprobarPlazos: an unreadable extension of this student): that is
    # the cause, not a damaged notebook (TA round 8, P2-1)
    plazo = re.search(r"PlazoInvalido: (No se califica a [^\n]*)", texto)
    if plazo:
        return "no se califica por plazos.toml: " + plazo.group(1).strip()[:400]
    # the bounded reader of a large notebook file (grader_tests/caja/cuaderno_acotado.py) says why itself
    desmesurado = re.search(r"CuadernoDesmesurado: ([^\n]*)", texto)   # also «no está en UTF-8»
    if desmesurado:
        return desmesurado.group(1).strip()[:300]
    esquema = _razon_del_esquema(texto)
    if esquema:
        return esquema
    for clave, razon in RAZONES:
        if clave in texto:
            return razon
    if "UnicodeEncodeError" in texto and "surrogates not allowed" in texto:
        return ("el cuaderno contiene caracteres sueltos que no son Unicode válido (sustitutos, como \\ud800) y "
                "no se puede guardar en UTF-8")
    # the last exception line of a traceback says more than nbgrader's summary
    excepciones = [l.strip() for l in texto.splitlines()
                   if re.match(r"\s*[A-Za-z_.]*(Error|Exception)\b.*:", l) and "AutogradeApp" not in l]
    detalle = f" ({excepciones[-1][:160]})" if excepciones else ""
    return "nbgrader no pudo calificarla: el cuaderno o sus metadatos están dañados" + detalle


def _razon_del_esquema(texto: str) -> str | None:
    """The Spanish reason of nbformat's schema refusal of one cell's nbgrader metadata, naming the key and cell.

    nbgrader logs jsonschema's message («Additional properties are not allowed ('k' was unexpected)», «'x' is
    not of type 'number'»…) and, after «On instance», the metadata it refused; the key, the value and the
    grade_id come from the student's file, so they are shown through ``nombre_legible``.
    """
    from grader_tests.comun.legible import nombre_legible
    mensaje = re.search(r"ValidationError: (?!Notebook failed)([^\n]*)", texto)
    if not mensaje or "nbgrader cell metadata schema" not in texto:
        return None
    instancia = texto[mensaje.end():].split("On instance", 1)[-1]
    gid = re.search(r"'grade_id': '([A-Za-z0-9_\-]{1,80})'", instancia)
    celda = f"la celda «{gid[1]}»" if gid else "una celda"
    extra = re.match(r"Additional properties are not allowed \((.*) (?:was|were) unexpected\)", mensaje[1])
    if extra:
        claves = ", ".join(f"«{nombre_legible(c, 40)}»" for c in re.findall(r"'((?:[^'\\]|\\.)*)'", extra[1])[:3])
        return (f"los metadatos de nbgrader de {celda} traen una clave que nbgrader no admite ({claves}): "
                "el cuaderno no se puede calificar; hay que quitarla (o copiar la celda del cuaderno publicado)")
    return (f"los metadatos de nbgrader de {celda} no siguen el esquema de nbgrader "
            f"({nombre_legible(mensaje[1], 120, confundibles=False)}): el cuaderno no se puede calificar")


def sin_contestar(celda) -> bool:
    """Whether an answer cell holds no answer: nothing but comments and the stub's ``raise NotImplementedError``.

    Not whether the stub's comment (``# ESCRIBE TU CÓDIGO AQUÍ``) is still there: most students write
    their answer below it and leave it (TA round 7, P3-6: «respuesta_5 = true», a NameError, was called
    unanswered).
    """
    if celda.get("cell_type") != "code":
        return False
    codigo = [l.strip() for l in str(celda.get("source", "")).splitlines()]
    codigo = [l for l in codigo if l and not l.startswith("#")]
    return all(re.fullmatch(r"raise\s+NotImplementedError(\s*\(\s*\))?", l) for l in codigo)


def problemas_del_cuaderno(ruta: Path) -> list[str]:
    """Why graded cells of an autograded notebook scored 0 without running, grouped."""
    import json
    import nbformat
    from nbformat.v4.rwbase import rejoin_lines
    try:
        # the autograded notebook nbgrader itself wrote: read without validating it again (fast)
        with open(ruta, encoding="utf-8") as archivo:
            nb = rejoin_lines(nbformat.from_dict(json.load(archivo)))
        nb.cells  # noqa: B018 - a notebook without cells is not one
    except Exception:
        return []
    respuestas = [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("solution")]
    if respuestas and all(sin_contestar(c) for c in respuestas):
        return [f"{ruta.name}: sin contestar (ninguna respuesta escrita)"]
    from grader_tests.en_el_kernel.casos import especificacion
    vacias = {c.metadata.nbgrader.get("grade_id") for c in respuestas if sin_contestar(c)}
    grupos: dict[str, list[str]] = {}
    for celda in respuestas:
        gid = celda.metadata.nbgrader.get("grade_id")
        errores = [s for s in celda.get("outputs", []) if s.get("output_type") == "error"]
        if celda.cell_type == "code" and errores and gid not in vacias:
            grupos.setdefault(observaciones.de_respuesta(gid, errores[-1]), [])
    for celda in nb.cells:
        meta = celda.get("metadata", {}).get("nbgrader", {})
        if celda.cell_type != "code" or not meta.get("grade") or meta.get("solution"):
            continue
        texto = "".join(s.get("text", "") for s in celda.get("outputs", []) if s.get("output_type") == "stream")
        for clave in ("se detuvo antes de la corrección", "no ejecutó la corrección", "no está definido", "sin contestar: `",
                      "Evidencia inválida"):
            if clave in texto:
                try:
                    objetivo = especificacion(meta["grade_id"]).objetivo
                except KeyError:
                    objetivo = None
                if objetivo in vacias:
                    motivo = "sin contestar"
                else:
                    motivo = re.sub(r"'[^']*'", "'…'", texto.strip().splitlines()[0])[:150]
                grupos.setdefault(motivo, []).append(meta["grade_id"])
                break
    return ([f"{motivo} [{', '.join(ids)}]" if ids else motivo for motivo, ids in grupos.items()]
            + observaciones.del_cuaderno(nb))


def lineas_por_alumno(log: str, tarea: str) -> dict[str, list[str]]:
    """Split a batch autograde log into the lines of each student."""
    patron = re.compile(rf"/submitted/(?P<a>[^/]+)/{re.escape(tarea)}\b|student with ID '(?P<b>[^']+)'"
                        rf"|for student '(?P<c>[^']+)'")
    actual, partes = None, {}
    for linea in log.splitlines():
        m = patron.search(linea)
        if m:
            actual = m["a"] or m["b"] or m["c"]
        if actual:
            partes.setdefault(actual, []).append(linea)
    return partes


def fallidos_del_lote(log: str, tarea: str) -> set[str]:
    """Students nbgrader reported as failed in a batch autograde log."""
    pares = re.findall(rf"for assignment '{re.escape(tarea)}' for student '([^']+)'|"
                       rf"processing assignment '{re.escape(tarea)}' for student '([^']+)'", log)
    return {a or b for a, b in pares}


def cuadernos_ajenos(raiz: Path, alumno: str, tarea: str) -> list[str]:
    """Reasons for notebooks in the submission that the assignment does not have (renamed)."""
    esperados = {p.name for p in (raiz / "release" / tarea).glob("*.ipynb")}
    entregados = {p.name for p in (raiz / "submitted" / alumno / tarea).glob("*.ipynb")}
    de_otras = {p.name: p.parent.name for p in (raiz / "release").glob("*/*.ipynb") if p.parent.name != tarea}
    motivos = [f"falta el cuaderno {n}" for n in sorted(esperados - entregados)]
    for n in sorted(entregados - esperados):
        if n in de_otras:
            motivos.append(f"el cuaderno {n} es de la tarea {de_otras[n]}, no de esta: no se califica aquí")
        else:
            motivos.append(f"el cuaderno {n} no es de la tarea (¿lo renombraste?): no se califica")
    return motivos


def avisos_de_archivos(log: str, tarea: str) -> dict[str, list[str]]:
    """Reports about students' files (links, special files, budgets…) in an nbgrader log."""
    from grader_tests.caja.archivos_alumno import MARCA
    avisos: dict[str, list[str]] = {}
    for m in re.finditer(rf"{MARCA} de '([^'\n]*)' en '{re.escape(tarea)}': ([^\n]*)", log):
        avisos.setdefault(m[1], []).append(m[2].strip())
    return avisos


def del_log_del_alumno(log: str) -> list[str]:
    """Observations in one student's autograde log lines (cells nbgrader put back, duplicates…)."""
    lista: list[str] = []
    for linea in log.splitlines():
        cambio = re.search(r"Attribute 'cell_type' for cell (\S+) has changed! "
                           r"\(should be: (\w+), got: (\w+)\)", linea)
        if cambio:
            lista.append(f"la celda {cambio[1]} se había convertido en {cambio[3]}: nbgrader la "
                         f"ha devuelto a {cambio[2]} y se ha calificado")
        lista += observaciones.del_log(linea)
        if "exists multiple times" in linea:
            gid = linea.split("'")[1] if linea.count("'") >= 2 else "?"
            lista.append(f"celda calificada duplicada ({gid}): se califica la última copia; las anteriores se "
                         "ejecutan como celdas normales y no dan puntos")
    return lista
