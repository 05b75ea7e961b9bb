"""The TA's grading job (``make grade``): release, autograde, feedback, export, table.

Runs the plain nbgrader commands from the course root: one autograde run per
assignment (nbgrader isolates each submission's errors), then a run of its own
for any submission that failed or was left ungraded by an aborted batch, so a
broken notebook never stops the others; then prints a Spanish
table student × assignment with score / max and, for every submission that
could not be graded fully, why.  Running it twice gives the same grades.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import time
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(RAIZ))

from scripts import observaciones, samples  # noqa: E402
from lms import integracion as lms  # noqa: E402

# nbgrader log lines that explain a failed autograde, and their Spanish reason
RAZONES = [
    ("exists multiple times", "el cuaderno tiene celdas calificadas duplicadas (mismo grade_id)"),
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
]


def entorno() -> dict:
    env = dict(os.environ)
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")   # nbgrader runs alembic from PATH
    return env


def nbgrader(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``nbgrader <args>`` in the course root with the venv's tools on PATH."""
    cmd = [str(Path(sys.executable).parent / "nbgrader"), *args]
    proceso = subprocess.run(cmd, cwd=RAIZ, env=entorno(), capture_output=True, text=True,
                             encoding="utf-8", errors="replace")
    if check and proceso.returncode != 0:
        sys.stderr.write(proceso.stdout + proceso.stderr)
        raise SystemExit(f"Falló: nbgrader {' '.join(args)}")
    return proceso


def tareas() -> list[str]:
    return sorted(p.name for p in (RAIZ / "source").iterdir() if p.is_dir() and any(p.glob("*.ipynb")))


def alumnos() -> list[str]:
    carpeta = RAIZ / "submitted"
    return sorted(p.name for p in carpeta.iterdir() if p.is_dir()) if carpeta.is_dir() else []


def razon_del_log(texto: str) -> str:
    for clave, razon in RAZONES:
        if clave in texto:
            return razon
    # the last exception line of a traceback says more than nbgrader's summary
    excepciones = [l.strip() for l in texto.splitlines()
                   if re.match(r"\s*[A-Za-z_.]*(Error|Exception)\b.*:", l) and "AutogradeApp" not in l]
    detalle = f" ({excepciones[-1][:160]})" if excepciones else ""
    return "nbgrader no pudo calificarla: el cuaderno o sus metadatos están dañados" + detalle


def problemas_del_cuaderno(ruta: Path) -> list[str]:
    """Why graded cells of an autograded notebook scored 0 without running, grouped."""
    import nbformat
    try:
        nb = nbformat.read(ruta, as_version=4)
    except Exception:
        return []
    respuestas = [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("solution")]
    if respuestas and all(samples.STUB in c.source for c in respuestas):
        return [f"{ruta.name}: sin contestar (ninguna respuesta escrita)"]
    from grader_tests.casos import especificacion
    sin_contestar = {c.metadata.nbgrader.get("grade_id") for c in respuestas if samples.STUB in c.source}
    grupos: dict[str, list[str]] = {}
    for celda in respuestas:
        gid = celda.metadata.nbgrader.get("grade_id")
        errores = [s for s in celda.get("outputs", []) if s.get("output_type") == "error"]
        if celda.cell_type == "code" and errores and gid not in sin_contestar:
            grupos.setdefault(observaciones.de_respuesta(gid, errores[-1]), [])
    for celda in nb.cells:
        meta = celda.get("metadata", {}).get("nbgrader", {})
        if celda.cell_type != "code" or not meta.get("grade") or meta.get("solution"):
            continue
        texto = "".join(s.get("text", "") for s in celda.get("outputs", []) if s.get("output_type") == "stream")
        for clave in ("se detuvo antes de la corrección", "no ejecutó la corrección", "no está definido",
                      "Evidencia inválida"):
            if clave in texto:
                try:
                    objetivo = especificacion(meta["grade_id"]).objetivo
                except KeyError:
                    objetivo = None
                if objetivo in sin_contestar:
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


def cuadernos_ajenos(alumno: str, tarea: str) -> list[str]:
    """Reasons for notebooks in the submission that the assignment does not have (renamed)."""
    esperados = {p.name for p in (RAIZ / "release" / tarea).glob("*.ipynb")}
    entregados = {p.name for p in (RAIZ / "submitted" / alumno / tarea).glob("*.ipynb")}
    motivos = [f"falta el cuaderno {n}" for n in sorted(esperados - entregados)]
    motivos += [f"el cuaderno {n} no es de la tarea (¿lo renombraste?): no se califica"
                for n in sorted(entregados - esperados)]
    return motivos


def avisos_de_archivos(log: str, tarea: str) -> dict[str, list[str]]:
    """Reports about students' files (links, special files, budgets…) in an nbgrader log."""
    from grader_tests.archivos_alumno import MARCA
    avisos: dict[str, list[str]] = {}
    for m in re.finditer(rf"{MARCA} de '([^'\n]*)' en '{re.escape(tarea)}': ([^\n]*)", log):
        avisos.setdefault(m[1], []).append(m[2].strip())
    return avisos


def asegurar_fila(alumno: str, tarea: str) -> bool:
    """Give ``alumno`` a grade row for ``tarea`` when nbgrader could not create one.

    The submission is recorded with every notebook and grade at 0 (nbgrader's
    own empty grades), so the table, grades.csv and feedback list the student.
    Returns True when the row had to be created.
    """
    from nbgrader.api import Gradebook, MissingEntry
    with Gradebook(f"sqlite:///{RAIZ / 'gradebook.db'}") as gb:
        try:
            gb.find_submission(tarea, alumno)
            return False
        except MissingEntry:
            gb.update_or_create_student(alumno)
            gb.add_submission(tarea, alumno)
            return True


def retirar_muestras() -> list[str]:
    """Remove the sample students once real submissions arrive (folders and gradebook).

    Only the students listed in ``submitted/.muestras.json`` (written by
    ``samples.build_samples``) are touched, so a TA's export never mixes them
    with the class.
    """
    from nbgrader.api import Gradebook, MissingEntry
    marca = RAIZ / "submitted" / samples.MARCA_MUESTRAS
    if not marca.exists():
        return []
    muestras = json.loads(marca.read_text())
    for alumno in muestras:
        for carpeta in ("submitted", "autograded", "feedback"):
            shutil.rmtree(RAIZ / carpeta / alumno, ignore_errors=True)
    if (RAIZ / "gradebook.db").exists():
        with Gradebook(f"sqlite:///{RAIZ / 'gradebook.db'}") as gb:
            for alumno in muestras:
                try:
                    gb.remove_student(alumno)
                except MissingEntry:
                    pass
    marca.unlink()
    return muestras


def calificar(forzar_muestras: bool = False) -> dict:
    ids = tareas()
    for tarea in ids:
        nbgrader("generate_assignment", tarea, "--force")
    recogida = lms.recoger_descargas(RAIZ, nbgrader)      # downloaded/<tarea>/archive/ (Moodle, Canvas)
    for linea in recogida:
        print(linea)
    if forzar_muestras or not (samples.has_real_submissions(RAIZ / "submitted") or recogida):
        nombres = samples.build_samples(RAIZ)
        print(f"Entregas de muestra: {', '.join(nombres)}")
    else:
        retiradas = retirar_muestras()
        if retiradas:
            print(f"Hay entregas reales: se retiran las de muestra ({', '.join(retiradas)}).")
        print("Se califican las entregas reales de submitted/.")
    razones: dict[tuple[str, str], list[str]] = {}
    for tarea in ids:
        entregas = [a for a in alumnos() if (RAIZ / "submitted" / a / tarea).is_dir()]
        for alumno in alumnos():
            if alumno not in entregas:
                razones[(alumno, tarea)] = ["no entregó esta tarea"]
        # one nbgrader run for the whole batch; nbgrader isolates each submission's errors
        inicio = time.time()
        proceso = nbgrader("autograde", tarea, "--force", check=False)
        logs = lineas_por_alumno(proceso.stdout + proceso.stderr, tarea)
        avisos_lote = avisos_de_archivos(proceso.stdout + proceso.stderr, tarea)
        fallidos = set(re.findall(rf"for assignment '{re.escape(tarea)}' for student '([^']+)'|"
                                  rf"processing assignment '{re.escape(tarea)}' for student '([^']+)'",
                                  proceso.stdout + proceso.stderr))
        fallidos = {a or b for a, b in fallidos}
        for alumno in entregas:
            notebooks = list((RAIZ / "autograded" / alumno / tarea).glob("*.ipynb"))
            al_dia = notebooks and all(p.stat().st_mtime >= inicio - 1 for p in notebooks)
            lista: list[str] = []
            log = "\n".join(logs.get(alumno, []))
            if alumno in fallidos or not al_dia:
                # graded again alone: its own log says why, and an abort stops nobody else
                solo = nbgrader("autograde", tarea, "--student", alumno, "--force", check=False)
                log = solo.stdout + solo.stderr
                if solo.returncode != 0:
                    lista.append(razon_del_log(log))
            for linea in log.splitlines():
                cambio = re.search(r"Attribute 'cell_type' for cell (\S+) has changed! "
                                   r"\(should be: (\w+), got: (\w+)\)", linea)
                if cambio:
                    lista.append(f"la celda {cambio[1]} se había convertido en {cambio[3]}: nbgrader la "
                                 f"ha devuelto a {cambio[2]} y se ha calificado")
                lista += observaciones.del_log(linea)
                if "exists multiple times" in linea:
                    gid = linea.split("'")[1] if linea.count("'") >= 2 else "?"
                    lista.append(f"celda calificada duplicada ({gid}): sólo cuenta la última copia")
            lista += avisos_lote.get(alumno, []) + avisos_de_archivos(log, tarea).get(alumno, [])
            for ruta in sorted((RAIZ / "autograded" / alumno / tarea).glob("*.ipynb")):
                lista += problemas_del_cuaderno(ruta)
            lista += cuadernos_ajenos(alumno, tarea)
            if asegurar_fila(alumno, tarea):
                lista.append("no se pudo calificar ningún cuaderno: queda con 0 puntos")
            if lista:
                razones[(alumno, tarea)] = list(dict.fromkeys(lista))
        comentarios = nbgrader("generate_feedback", tarea, "--force", check=False)
        for alumno, avisos in avisos_de_archivos(comentarios.stdout + comentarios.stderr, tarea).items():
            lista = razones.setdefault((alumno, tarea), [])
            lista += [a for a in avisos if a not in lista]
        if comentarios.returncode != 0:
            # a broken feedback template must not pass unnoticed: the TA has no feedback to send
            sys.stderr.write(comentarios.stdout[-2000:] + comentarios.stderr[-2000:])
            for alumno in entregas:
                if not list((RAIZ / "feedback" / alumno / tarea).glob("*.html")):
                    razones.setdefault((alumno, tarea), []).append(
                        "no se pudieron generar sus comentarios (mira el error de generate_feedback arriba)")
    nbgrader("export", "--to", str(RAIZ / "grades.csv"))
    return razones


def tabla(razones: dict) -> str:
    from nbgrader.api import Gradebook, MissingEntry
    ids = tareas()
    filas = []
    with Gradebook(f"sqlite:///{RAIZ / 'gradebook.db'}") as gb:
        for alumno in alumnos() + lms.alumnos_sin_entrega(RAIZ, alumnos()):
            celdas = [alumno]
            for tarea in ids:
                try:
                    entrega = gb.find_submission(tarea, alumno)
                    celdas.append(f"{entrega.score:g} / {entrega.max_score:g}")
                except MissingEntry:
                    celdas.append("sin entrega")
            filas.append(celdas)
    cabecera = ["alumno", *ids]
    anchos = [max(len(f[i]) for f in [cabecera, *filas]) for i in range(len(cabecera))]
    lineas = ["  ".join(c.ljust(a) for c, a in zip(cabecera, anchos)),
              "  ".join("-" * a for a in anchos)]
    lineas += ["  ".join(c.ljust(a) for c, a in zip(f, anchos)) for f in filas]
    if razones:
        lineas += ["", "Observaciones (lo que no se pudo calificar, quedó sin contestar o el alumno cambió):"]
        for (alumno, tarea), lista in sorted(razones.items()):
            for razon in lista:
                lineas.append(f"  {alumno} / {tarea}: {razon}")
    return "\n".join(lineas)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Califica todas las entregas de submitted/.")
    parser.add_argument("--muestras", action="store_true",
                        help="rehace las entregas de muestra aunque haya entregas reales")
    args = parser.parse_args(argv)
    observaciones.preparar_salida()       # any terminal encoding: accents degrade, nothing crashes
    razones = calificar(args.muestras)
    print()
    print(tabla(razones))
    print()
    print(f"Notas: {RAIZ / 'grades.csv'}   Comentarios: {RAIZ / 'feedback'}/<alumno>/<tarea>/")
    for linea in lms.preparar_subidas(RAIZ, nbgrader):          # para_subir/ (Moodle, Canvas)
        print(linea)
    return 0


if __name__ == "__main__":
    sys.exit(main())
