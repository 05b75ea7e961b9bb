"""nbgrader extension: keep every graded cell's verdict in machine-readable form (trusted side).

``JuzgarEvidencias`` leaves the verdict of each hidden test cell it judged in
``resources["veredictos"]`` (``Veredicto.a_dict``: points, property, reason,
known mistakes with their id, Spanish name, category and lesson section, the
quiz answer as read).  ``GuardarVeredictos`` runs after nbgrader's
``SaveAutoGrades`` in the TA's ``nbgrader autograde`` process and writes them
to one JSON file per submitted notebook::

    veredictos/<tarea>/<alumno>/<cuaderno>.json
    {"version": 1, "tarea": ..., "alumno": ..., "cuaderno": ..., "celdas": {grade_id: verdict},
     "celdas_con_error": {grade_id of a solution cell: exception class name}}

``celdas_con_error`` (``resources["celdas_con_error"]``, also filled by
``JuzgarEvidencias``) names the solution cells (the exercise, the quiz
answers) whose execution stopped with an exception, by the exception's class
name only (checked with :func:`nombre_de_excepcion`): so the report can say
«la celda de multi_head se detuvo con ValueError» instead of «no estaba
definida», without carrying any text the student's code produced.

Why there, and not in the notebook or under ``autograded/``:

* the folder belongs to the course, next to the gradebook (``gradebook.db``,
  or the course volume when the gradebook is PostgreSQL); the student's kernel
  runs in a sandbox that sees only ``autograded/<alumno>/<tarea>/``, so it can
  neither write nor read these files;
* nothing here is parsed from what the notebook printed: the verdicts are the
  objects the trusted judge built;
* one file per (assignment, student, notebook), written atomically, so K
  workers, shards on several machines and later regrades never share a file,
  and the class report (``scripts/informe``) reads the same records for any K.

The class report checks every record against the gradebook (each cell's
``auto_score``) before using it, so a record left by an older grading run is
never mixed with newer grades.
"""
from __future__ import annotations

import json
import os
import re
from datetime import datetime, timezone

from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Unicode

VERSION = 1
CLAVE = "veredictos"          # resources key JuzgarEvidencias fills
CLAVE_ERRORES = "celdas_con_error"    # ... and the solution cells that stopped with an exception
_IDENTIFICADOR = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,59}(\.[A-Za-z_][A-Za-z0-9_]{0,59}){0,3}")


def nombre_de_excepcion(nombre: object) -> str | None:
    """``nombre`` if it looks like an exception class name (``ValueError``, ``numpy.linalg.LinAlgError``).

    The name comes from the student's kernel (an error output's ``ename``), so
    anything else (markup, spaces, very long text) gives None and is never shown.
    """
    if isinstance(nombre, str) and _IDENTIFICADOR.fullmatch(nombre):
        return nombre
    return None


def nombre_seguro(nombre: object) -> bool:
    """Whether ``nombre`` (a student, assignment or notebook id) can be one path component."""
    return (isinstance(nombre, str) and 0 < len(nombre) <= 255 and nombre not in (".", "..")
            and not any(c in nombre for c in "/\\\x00"))


def ruta_del_registro(carpeta: str, tarea: str, alumno: str, cuaderno: str) -> str:
    """``<carpeta>/<tarea>/<alumno>/<cuaderno>.json``.

    Raises:
        ValueError: an id that cannot be a single path component.
    """
    for nombre in (tarea, alumno, cuaderno):
        if not nombre_seguro(nombre):
            raise ValueError(f"identificador no válido para una ruta: {nombre!r}")
    return os.path.join(carpeta, tarea, alumno, f"{cuaderno}.json")


def escribir(carpeta: str, tarea: str, alumno: str, cuaderno: str, celdas: dict,
             celdas_con_error: dict | None = None) -> str:
    """Write one notebook's verdicts atomically (a reader never sees half a file); returns the path.

    ``celdas_con_error``: solution cell grade_id → exception class name (names
    that :func:`nombre_de_excepcion` rejects are left out).
    """
    ruta = ruta_del_registro(carpeta, tarea, alumno, cuaderno)
    os.makedirs(os.path.dirname(ruta), exist_ok=True)
    errores = {str(gid): nombre_de_excepcion(ename) for gid, ename in (celdas_con_error or {}).items()}
    datos = {"version": VERSION, "tarea": tarea, "alumno": alumno, "cuaderno": cuaderno,
             "escrito": datetime.now(timezone.utc).isoformat(timespec="seconds"), "celdas": celdas,
             CLAVE_ERRORES: {gid: ename for gid, ename in errores.items() if ename}}
    temporal = f"{ruta}.{os.getpid()}.tmp"
    with open(temporal, "w", encoding="utf-8") as archivo:
        json.dump(datos, archivo, ensure_ascii=False, indent=1, sort_keys=True)
    os.replace(temporal, ruta)
    return ruta


class GuardarVeredictos(NbGraderPreprocessor):
    """Write ``resources["veredictos"]`` to the course's verdict folder (see the module docstring)."""

    carpeta = Unicode("", help="Folder of the verdict records (empty: do not record).").tag(config=True)

    def preprocess(self, nb, resources):
        datos = resources.get("nbgrader") or {}
        if not self.carpeta:
            return nb, resources
        try:
            ruta = escribir(self.carpeta, datos.get("assignment"), datos.get("student"),
                            datos.get("notebook"), resources.get(CLAVE) or {},
                            resources.get(CLAVE_ERRORES) or {})
            self.log.debug("Veredictos guardados en %s", ruta)
        except (OSError, ValueError, TypeError):
            # the grades are already saved: a missing record only leaves the report without this notebook
            self.log.exception("No se pudieron guardar los veredictos de %s / %s",
                               datos.get("student"), datos.get("notebook"))
        return nb, resources
