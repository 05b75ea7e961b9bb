"""A worker's SQLite gradebook back into the course's gradebook.

With SQLite, parallel workers never write the same file: each one gets a copy
of the course's gradebook (:func:`copiar`), nbgrader's autograde and
generate_feedback write its students' rows there, and :func:`fusionar` then
copies those rows into the course's gradebook.  For each of the worker's
students and each assignment, the course's gradebook ends exactly as the copy:
the submission's values are copied in place (scores, manual scores, extra
credit, the "needs manual grade" flags, comments, flags, late penalty,
timestamp, extension; its rows keep their ids, so formgrader's links stay
valid), it is created when the course had none and removed when the copy has
none, and the student's data (name, email, LMS id) updated.  Nothing about
other students changes.

Rows are copied through nbgrader's own gradebook API, by assignment, notebook
and cell *names*, and only when both gradebooks define each assignment the
same way (notebooks, cells, points, checksums); otherwise :class:`DefinicionesDistintas`
says where they differ (e.g. an assignment regenerated while grading ran).

With PostgreSQL the workers write straight into the course's gradebook and
nothing here is needed.
"""
from __future__ import annotations

import sqlite3
import warnings
from pathlib import Path


class DefinicionesDistintas(ValueError):
    """The two gradebooks do not define an assignment the same way (Spanish message)."""


def copiar(origen: Path, destino: Path) -> None:
    """A consistent copy of the SQLite gradebook ``origen`` at ``destino`` (SQLite's backup API)."""
    fuente = sqlite3.connect(f"file:{origen}?mode=ro", uri=True)
    try:
        copia = sqlite3.connect(destino)
        try:
            fuente.backup(copia)
        finally:
            copia.close()
    finally:
        fuente.close()


def definicion(gb, tarea: str) -> dict:
    """What an assignment is, by names: ``{notebook: {grade/solution/task/source cells}}``.

    Raises:
        nbgrader.api.MissingEntry: the gradebook has no such assignment.
    """
    asignacion = gb.find_assignment(tarea)
    return {nb.name: {
        "celdas calificadas": sorted((c.name, float(c.max_score), c.cell_type) for c in nb.grade_cells),
        "celdas de respuesta": sorted((c.name,) for c in nb.solution_cells),
        "tareas": sorted((c.name, float(c.max_score)) for c in nb.task_cells),
        "celdas de origen": sorted((c.name, c.cell_type, bool(c.locked), c.checksum) for c in nb.source_cells),
    } for nb in asignacion.notebooks}


def _diferencia(tarea: str, a: dict, b: dict) -> str | None:
    """The first difference between two definitions of ``tarea``, in Spanish (None if equal)."""
    if set(a) != set(b):
        return f"cuadernos {sorted(a)} frente a {sorted(b)}"
    for cuaderno in sorted(a):
        for clase in a[cuaderno]:
            x, y = a[cuaderno][clase], b[cuaderno][clase]
            if x != y:
                distintas = sorted(set(x) ^ set(y))
                nombres = sorted({str(d[0]) for d in distintas})
                return f"{cuaderno}: {clase} distintas ({', '.join(nombres[:5])})"
    return None


def comprobar_definiciones(fragmento, curso, tareas: list[str]) -> None:
    """Refuse to merge when an assignment is not defined the same way in both gradebooks.

    Raises:
        DefinicionesDistintas: with the assignment and the first difference.
    """
    from nbgrader.api import MissingEntry
    for tarea in tareas:
        try:
            a = definicion(fragmento, tarea)
        except MissingEntry:
            a = None
        try:
            b = definicion(curso, tarea)
        except MissingEntry:
            b = None
        if a is None and b is None:
            continue
        if a is None or b is None:
            falta = "la copia del trabajador" if a is None else "el libro de notas del curso"
            raise DefinicionesDistintas(
                f"No se fusionan las notas: la tarea {tarea} no está en {falta}. ¿Se regeneró o borró la tarea "
                "mientras se calificaba? Vuelve a calificar.")
        diferencia = _diferencia(tarea, a, b)
        if diferencia:
            raise DefinicionesDistintas(
                f"No se fusionan las notas: la tarea {tarea} no está definida igual en la copia del trabajador "
                f"y en el libro de notas del curso ({diferencia}). ¿Se regeneró la tarea (generate_assignment) "
                "mientras se calificaba? Vuelve a calificar.")


def fusionar(url_fragmento: str, url_curso: str, alumnos: list[str], tareas: list[str]) -> int:
    """Copy the rows of ``alumnos`` × ``tareas`` from a worker's gradebook into the course's.

    Args:
        url_fragmento: the worker's gradebook (a copy of the course's made before grading).
        url_curso: the course's gradebook.
        alumnos: the worker's students (only theirs are touched).
        tareas: the assignments graded.

    Returns:
        How many submissions were copied.

    Raises:
        DefinicionesDistintas: an assignment is defined differently (nothing is copied).
    """
    from nbgrader.api import Gradebook
    from sqlalchemy.exc import SAWarning
    copiadas = 0
    with Gradebook(url_fragmento) as fragmento, Gradebook(url_curso) as curso, warnings.catch_warnings():
        # nbgrader's add_submission builds its rows before adding them to the session (SQLAlchemy warns)
        warnings.simplefilter("ignore", SAWarning)
        comprobar_definiciones(fragmento, curso, tareas)
        for alumno in alumnos:
            copiadas += _fusionar_alumno(fragmento, curso, alumno, tareas)
    return copiadas


def _fusionar_alumno(fragmento, curso, alumno: str, tareas: list[str]) -> int:
    from nbgrader.api import MissingEntry
    try:
        estudiante = fragmento.find_student(alumno)
    except MissingEntry:
        estudiante = None
    if estudiante is not None:
        curso.update_or_create_student(alumno, first_name=estudiante.first_name, last_name=estudiante.last_name,
                                       email=estudiante.email, lms_user_id=estudiante.lms_user_id)
    copiadas = 0
    for tarea in tareas:
        try:
            entrega = fragmento.find_submission(tarea, alumno)
        except MissingEntry:
            entrega = None
        try:
            destino = curso.find_submission(tarea, alumno)
        except MissingEntry:
            destino = None
        if entrega is None:
            if destino is not None:
                curso.remove_submission(tarea, alumno)
            continue
        if destino is None:
            destino = curso.add_submission(tarea, alumno)
        # in place when the course already had it: the rows keep their ids (formgrader's links)
        destino.timestamp, destino.extension = entrega.timestamp, entrega.extension
        cuadernos = {nb.name: nb for nb in destino.notebooks}
        for nb in entrega.notebooks:
            copia = cuadernos[nb.name]
            copia.flagged = nb.flagged
            copia.late_submission_penalty = nb.late_submission_penalty
            notas = {g.name: g for g in copia.grades}
            for g in nb.grades:
                d = notas[g.name]
                d.auto_score, d.manual_score, d.extra_credit = g.auto_score, g.manual_score, g.extra_credit
                d.needs_manual_grade = g.needs_manual_grade
            comentarios = {c.name: c for c in copia.comments}
            for c in nb.comments:
                d = comentarios[c.name]
                d.auto_comment, d.manual_comment = c.auto_comment, c.manual_comment
        curso.db.commit()
        copiadas += 1
    return copiadas
