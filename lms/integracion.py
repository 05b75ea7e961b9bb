"""What ``make grade`` (``scripts/calificacion/grade.py``) does with LMS downloads: two calls.

* :func:`recoger_descargas`, before grading: when ``downloaded/<tarea>/archive/``
  holds something, imports the roster into the gradebook (``nbgrader db
  student import``) and runs ``nbgrader zip_collect <tarea> --force`` for each
  such assignment; returns the collection report, in Spanish.
* :func:`preparar_subidas`, after ``nbgrader export``: runs the LMS exporters
  (``nbgrader export --exporter lms.exportadores...``) and packs the feedback
  zips into ``para_subir/``; returns what to upload where.

Without a ``downloaded/`` folder both do nothing, so the sample submissions
and every existing use of ``make grade`` are unchanged.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

from lms import ARCHIVO, DESCARGAS, INFORME, LISTA, SUBIR, comentarios, formatos
from lms.lista_de_clase import ID_VALIDO, leer_lista
from lms.recogida import leer_informe

Ejecutor = Callable[..., subprocess.CompletedProcess]


def _ejecutor(raiz: Path) -> Ejecutor:
    """``nbgrader <args>`` in ``raiz`` with the running interpreter's tools on PATH."""
    def nbgrader(*args: str, check: bool = False) -> subprocess.CompletedProcess:
        binarios = Path(sys.executable).parent
        entorno = dict(os.environ, PATH=str(binarios) + os.pathsep + os.environ.get("PATH", ""))
        return subprocess.run([str(binarios / "nbgrader"), *args], cwd=raiz, env=entorno,
                              capture_output=True, text=True, check=check)
    return nbgrader


def tareas_con_descarga(raiz: Path) -> list[str]:
    """Assignments (folders of ``release/``) whose ``downloaded/<tarea>/archive/`` is not empty."""
    release = raiz / "release"
    tareas = sorted(p.name for p in release.iterdir() if p.is_dir()) if release.is_dir() else []
    con = []
    for tarea in tareas:
        carpeta = raiz / DESCARGAS / tarea / ARCHIVO
        if carpeta.is_dir() and not carpeta.is_symlink() and any(carpeta.iterdir()):
            con.append(tarea)
    return con


def lista_id_valido(alumno: str) -> bool:
    return bool(ID_VALIDO.match(alumno)) and alumno not in (".", "..")


def _ultimo_error(texto: str) -> str:
    lineas = [l.strip() for l in texto.splitlines() if "ERROR" in l or "CRITICAL" in l or "Error" in l]
    return (lineas[-1] if lineas else texto.strip().splitlines()[-1] if texto.strip() else "")[:200]


def recoger_descargas(raiz: Path, nbgrader: Ejecutor | None = None) -> list[str]:
    """Collect every LMS download of the course into ``submitted/`` (see the module docstring).

    Args:
        raiz: the course root.
        nbgrader: runs ``nbgrader <args>`` (``check=False``) and returns the
            completed process; default: the one next to this interpreter.

    Returns:
        The collection report's lines (empty when there is nothing to collect).
    """
    tareas = tareas_con_descarga(raiz)
    if not tareas:
        return []
    nbgrader = nbgrader or _ejecutor(raiz)
    lineas = []
    lista = leer_lista(raiz / DESCARGAS / LISTA)
    if lista:
        normalizada = raiz / DESCARGAS / f".{LISTA}.nbgrader.csv"
        formatos.escribir_csv(normalizada, lista.filas_nbgrader(), para_hoja_de_calculo=False)
        importada = nbgrader("db", "student", "import", str(normalizada), check=False)
        if importada.returncode == 0:
            lineas.append(f"Lista de clase {LISTA}: {len(lista.alumnos)} alumnos importados al libro de notas "
                          "(nbgrader db student import)")
        else:
            lineas.append(f"No se pudo importar la lista de clase: {_ultimo_error(importada.stderr)}")
    for tarea in tareas:
        antes = set(leer_informe(raiz / DESCARGAS / tarea / INFORME).get("entregas", {}))
        proceso = nbgrader("zip_collect", tarea, "--force", check=False)
        lineas.append(f"Recogida de {tarea} (nbgrader zip_collect, {DESCARGAS}/{tarea}/{ARCHIVO}/):")
        if proceso.returncode != 0:
            lineas.append(f"  nbgrader zip_collect falló: {_ultimo_error(proceso.stdout + proceso.stderr)}")
            continue
        informe = leer_informe(raiz / DESCARGAS / tarea / INFORME)
        lineas += [f"  {l['texto']}" for l in informe.get("lineas", [])]
        if not informe.get("entregas"):
            lineas.append(f"  no se recogió ninguna entrega aunque la descarga tiene archivos: mira los motivos de "
                          f"arriba (make grade terminará con error)")
        for alumno in sorted(antes - set(informe.get("entregas", {}))):
            retirar(raiz, tarea, alumno)
            lineas.append(f"  {alumno}: la descarga ya no lo trae (¿otro id con la lista de clase?): se retira "
                          "la entrega que se le recogió antes")
    return lineas


def retirar(raiz: Path, tarea: str, alumno: str) -> None:
    """Remove a submission an earlier collection made and the current one no longer makes.

    Its folders in submitted/, autograded/ and feedback/ for ``tarea`` and its
    gradebook submission; the student too when nothing else of theirs is left
    and the roster does not list them.
    """
    import shutil
    from nbgrader.api import MissingEntry
    from scripts.calificacion import libro_de_notas
    if not lista_id_valido(alumno):
        return
    for carpeta in ("submitted", "autograded", "feedback"):
        ruta = raiz / carpeta / alumno / tarea
        if ruta.is_symlink():
            ruta.unlink()
        elif ruta.is_dir():
            shutil.rmtree(ruta)
        try:
            (raiz / carpeta / alumno).rmdir()
        except OSError:
            pass
    if not libro_de_notas.existe(libro_de_notas.url_del_curso(raiz)):
        return
    with libro_de_notas.abrir(raiz) as gb:
        try:
            gb.remove_submission(tarea, alumno)
        except MissingEntry:
            pass
        try:
            estudiante = gb.find_student(alumno)
            if not estudiante.submissions and alumno not in leer_lista(raiz / DESCARGAS / LISTA).ids():
                gb.remove_student(alumno)
        except MissingEntry:
            pass


def alumnos_sin_entrega(raiz: Path, presentes: list[str]) -> list[str]:
    """Students with no folder in ``submitted/`` ("sin entrega" in the grade table): the roster's, and
    everyone a download names whose files were all refused or ignored (their reasons:
    :func:`motivos_sin_recoger`).

    Only when the course is collecting from an LMS (``downloaded/<tarea>/archive/``
    is not empty), so a roster left behind never mixes with the samples.
    """
    if not tareas_con_descarga(raiz):
        return []
    ya = set(presentes)
    faltan = [a for a in leer_lista(raiz / DESCARGAS / LISTA).ids() if a not in ya]
    for alumno, _tarea in motivos_sin_recoger(raiz):
        if alumno not in ya and alumno not in faltan and lista_id_valido(alumno):
            faltan.append(alumno)
    return faltan


def motivos_sin_recoger(raiz: Path) -> dict[tuple[str, str], list[str]]:
    """``(alumno, tarea)`` → why nothing of that student was collected from the LMS download.

    For every person a download names (Moodle's or Canvas's file names) who
    got no notebook collected for that assignment: the report's lines about
    them (refused files, ignored files), so the grade table gives them a row
    with the reason.
    """
    motivos: dict[tuple[str, str], list[str]] = {}
    for tarea in tareas_con_descarga(raiz):
        informe = leer_informe(raiz / DESCARGAS / tarea / INFORME)
        recogidos = set(informe.get("entregas", {}))
        for linea in informe.get("lineas", []):
            alumno = linea.get("alumno") if isinstance(linea, dict) else None
            if isinstance(alumno, str) and alumno not in recogidos:
                texto = str(linea.get("texto", ""))
                motivos.setdefault((alumno, tarea), []).append(texto.removeprefix(f"{alumno}: "))
    return motivos


def descargas_sin_recoger(raiz: Path) -> list[str]:
    """Assignments whose LMS download has files but from which nothing was collected (``make grade`` fails)."""
    return [t for t in tareas_con_descarga(raiz)
            if not leer_informe(raiz / DESCARGAS / t / INFORME).get("entregas")]


def preparar_subidas(raiz: Path, nbgrader: Ejecutor | None = None) -> list[str]:
    """Grades and feedback for the LMS in ``para_subir/`` (see the module docstring); returns report lines."""
    informes = {t: leer_informe(raiz / DESCARGAS / t / INFORME) for t in tareas_con_descarga(raiz)}
    informes = {t: i for t, i in informes.items() if i.get("entregas")}
    if not informes:
        return []
    nbgrader = nbgrader or _ejecutor(raiz)
    for anterior in (raiz / SUBIR).glob("**/*"):             # what an earlier run wrote (never a link's target)
        if anterior.name in GENERADOS and anterior.is_file() and not anterior.is_symlink():
            anterior.unlink()
    sistemas = {e["lms"] for i in informes.values() for e in i["entregas"].values()}
    lineas = [f"Para devolver al LMS ({SUBIR}/):"]
    exportadores = {"moodle": "lms.exportadores.HojaDeCalificacionMoodle",
                    "canvas": "lms.exportadores.LibroDeCalificacionesCanvas"}
    for lms in sorted(sistemas):
        proceso = nbgrader("export", "--exporter", exportadores[lms], check=False)
        salida = proceso.stdout + proceso.stderr
        if proceso.returncode != 0:
            lineas.append(f"  la exportación para {lms.capitalize()} falló: {_ultimo_error(salida)}")
        lineas += [f"  aviso: {l.split('LMS: ', 1)[1]}" for l in salida.splitlines() if "WARNING] LMS: " in l]
    for tarea in informes:
        lineas += [f"  aviso: {a}" for a in comentarios.empaquetar(raiz, tarea)[1]]
    for ruta in sorted((raiz / SUBIR).rglob("*")):
        if ruta.is_file() and not ruta.name.startswith("."):
            lineas.append(f"  {ruta.relative_to(raiz)}  — {_como_subir(ruta.name)}")
    return lineas


# what preparar_subidas writes in para_subir/, and where the TA uploads it
GENERADOS = {
    "calificaciones_moodle.csv": "Moodle, en la tarea: Acción sobre las calificaciones → "
                                 "«Subir la hoja de calificaciones»",
    "comentarios_moodle.zip": "Moodle, en la tarea: Acción sobre las calificaciones → "
                              "«Subir múltiples archivos de retroalimentación en un ZIP»",
    "calificaciones_canvas.csv": "Canvas: Grades → Import",
    "comentarios_canvas.zip": "Canvas: Grades, menú de la columna de la tarea → «Re-Upload Submissions»",
}


def _como_subir(nombre: str) -> str:
    return GENERADOS.get(nombre, "")
