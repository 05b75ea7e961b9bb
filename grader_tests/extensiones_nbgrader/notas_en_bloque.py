"""Every submission of the gradebook in a handful of queries: what exports, reports and tables read.

nbgrader's ORM computes a submission's score with a correlated subquery and
loads notebooks and grades lazily, one query per object; on nbgrader's
schema those queries find rows by columns without an index
(``grade.notebook_id``, ``submitted_notebook.assignment_id``...), so reading a
whole class costs time quadratic in its size (1 500 students: minutes).
Here the same numbers come from four flat queries joined in Python, and
:func:`asegurar_indices` adds the missing indexes (``ix_curso_*``: nbgrader's
own pages and autograde benefit too).  Scores follow nbgrader's definitions
exactly (``Grade.score``: the manual score if any, else the automatic one,
plus extra credit; ``late_submission_penalty`` summed over notebooks).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

INDICES = {
    "ix_curso_grade_notebook": ("grade", "notebook_id"),
    "ix_curso_comment_notebook": ("comment", "notebook_id"),
    "ix_curso_submitted_notebook_assignment": ("submitted_notebook", "assignment_id"),
    "ix_curso_submitted_assignment_student": ("submitted_assignment", "student_id"),
}


_con_indices: set[str] = set()


def asegurar_indices(gb) -> None:
    """Create the indexes nbgrader's schema lacks (idempotent; SQLite and PostgreSQL; once per process).

    Only an optimisation: if the database refuses (another process creating the
    same index at the same moment, a read-only user), reading goes on without them.
    """
    from sqlalchemy import text
    motor = gb.db.bind
    clave = str(motor.url)
    if clave in _con_indices:
        return
    try:
        with motor.connect() as conexion:
            for nombre, (tabla, columna) in INDICES.items():
                conexion.execute(text(f"CREATE INDEX IF NOT EXISTS {nombre} ON {tabla} ({columna})"))
            conexion.commit()
    except Exception:  # noqa: BLE001 - see the docstring
        return
    _con_indices.add(clave)


@dataclass
class NotaDeCelda:
    auto_score: float | None
    manual_score: float | None
    extra_credit: float | None
    needs_manual_grade: bool

    @property
    def score(self) -> float:
        """nbgrader's ``Grade.score``."""
        base = self.manual_score if self.manual_score is not None else self.auto_score
        if base is None:
            return 0.0
        return float(base) + float(self.extra_credit or 0.0)


@dataclass
class EntregaEnBloque:
    """One submission as nbgrader sees it (ids, times in naive UTC, scores)."""
    id: str
    tarea: str
    alumno: str
    timestamp: dt.datetime | None
    extension: dt.timedelta | None
    duedate: dt.datetime | None
    maximo: float
    cuadernos: dict[str, dict[str, NotaDeCelda]] = field(default_factory=dict)
    penalizaciones: dict[str, float | None] = field(default_factory=dict)
    ids_de_cuaderno: dict[str, str] = field(default_factory=dict)

    @property
    def puntos(self) -> float:
        """nbgrader's ``SubmittedAssignment.score`` (before the late penalty)."""
        return sum(c.score for celdas in self.cuadernos.values() for c in celdas.values())

    @property
    def penalizacion(self) -> float:
        return sum(float(p or 0.0) for p in self.penalizaciones.values())

    @property
    def nota(self) -> float:
        """The score after the late penalty, at least 0 (what grades.csv and the LMS get)."""
        return max(0.0, self.puntos - self.penalizacion)

    @property
    def necesita_calificacion_manual(self) -> bool:
        return any(c.needs_manual_grade for celdas in self.cuadernos.values() for c in celdas.values())

    def puntos_del_cuaderno(self, cuaderno: str) -> float:
        return sum(c.score for c in self.cuadernos.get(cuaderno, {}).values())

    @property
    def plazo_efectivo(self) -> dt.datetime | None:
        if self.duedate is None:
            return None
        return self.duedate + (self.extension or dt.timedelta(0))

    @property
    def segundos_tarde(self) -> float:
        """nbgrader's ``total_seconds_late``."""
        plazo = self.plazo_efectivo
        if self.timestamp is None or plazo is None:
            return 0.0
        return max(0.0, (self.timestamp - plazo).total_seconds())


@dataclass
class Libro:
    """The gradebook read in bulk: assignments (name → max score), students (id → row), submissions."""
    tareas: dict[str, float]
    duedates: dict[str, dt.datetime | None]
    alumnos: dict[str, dict]
    entregas: dict[tuple[str, str], EntregaEnBloque]

    def de_tarea(self, tarea: str) -> list[EntregaEnBloque]:
        return sorted((e for (t, _), e in self.entregas.items() if t == tarea), key=lambda e: e.alumno)


def pares_con_archivos(carpeta, sufijo: str) -> set[tuple[str, str]] | None:
    """``(alumno, tarea)`` pairs with a regular file named ``*<sufijo>`` in ``<carpeta>/<alumno>/<tarea>/``.

    nbgrader's ``autograded/`` and ``feedback/`` layout.  Student and assignment names come from
    folders students named: they are listed, never joined into a path, and links are not
    followed.  One directory listing per submission: linear in the class.  None when
    ``carpeta`` cannot be listed (it does not exist).
    """
    import os
    pares: set[tuple[str, str]] = set()
    try:
        alumnos = [e for e in os.scandir(os.fspath(carpeta)) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return None
    for alumno in alumnos:
        try:
            tareas = [e for e in os.scandir(alumno.path) if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        for tarea in tareas:
            try:
                if any(e.name.endswith(sufijo) and e.is_file(follow_symlinks=False) for e in os.scandir(tarea.path)):
                    pares.add((alumno.name, tarea.name))
            except OSError:
                continue
    return pares


def calificadas_en_disco(raiz) -> set[tuple[str, str]] | None:
    """``(alumno, tarea)`` pairs with at least one notebook in ``<raiz>/autograded/<alumno>/<tarea>/``.

    None when the course has no ``autograded/`` folder at all: the gradebook came from
    elsewhere (a copy, an import, a synthetic class) and its scores are taken as they are.

    A gradebook row without an autograded notebook is a submission nbgrader could not
    grade (autograde refused it, e.g. an unreadable extension in ``plazos.toml``, or no
    notebook of the assignment could be read): its 0 points are not a grade, so exports
    leave it blank (``lms.exportadores``).  See :func:`pares_con_archivos`.
    """
    import os
    return pares_con_archivos(os.path.join(os.fspath(raiz), "autograded"), ".ipynb")


def leer(gb, tareas: list[str] | None = None, alumnos: list[str] | None = None, indices: bool = True) -> Libro:
    """Read the gradebook ``gb`` (an open ``nbgrader.api.Gradebook``) in bulk.

    ``tareas`` / ``alumnos``: only the submissions of these assignments / students
    (one student's autograde reads only that student's rows).
    """
    from nbgrader.api import (Assignment, BaseCell, Grade, Notebook, Student, SubmittedAssignment,
                              SubmittedNotebook)
    if indices:
        asegurar_indices(gb)
    db = gb.db
    consulta = db.query(Assignment.id, Assignment.name, Assignment.duedate)
    if tareas is not None:
        consulta = consulta.filter(Assignment.name.in_(list(tareas)))
    asignaciones = {aid: (nombre, duedate) for aid, nombre, duedate in consulta}
    maximos = {}
    for a in db.query(Assignment).filter(Assignment.id.in_(list(asignaciones))):
        maximos[a.name] = float(a.max_score or 0.0)
    fichas = {s.id: {"first_name": s.first_name, "last_name": s.last_name, "email": s.email,
                     "lms_user_id": s.lms_user_id}
              for s in db.query(Student.id, Student.first_name, Student.last_name, Student.email,
                                Student.lms_user_id)}
    entregas: dict[tuple[str, str], EntregaEnBloque] = {}
    por_id: dict[str, EntregaEnBloque] = {}
    consulta = db.query(SubmittedAssignment.id, SubmittedAssignment.assignment_id, SubmittedAssignment.student_id,
                        SubmittedAssignment.timestamp, SubmittedAssignment.extension).filter(
        SubmittedAssignment.assignment_id.in_(list(asignaciones)))
    if alumnos is not None:
        consulta = consulta.filter(SubmittedAssignment.student_id.in_(list(alumnos)))
    for sid, aid, alumno, marca, extension in consulta:
        tarea, duedate = asignaciones[aid]
        e = EntregaEnBloque(sid, tarea, alumno, marca, extension, duedate, maximos.get(tarea, 0.0))
        entregas[(tarea, alumno)] = e
        por_id[sid] = e
    pocas = alumnos is not None or tareas is not None
    cuadernos: dict[str, tuple[EntregaEnBloque, str]] = {}
    consulta = db.query(SubmittedNotebook.id, SubmittedNotebook.assignment_id, Notebook.name,
                        SubmittedNotebook.late_submission_penalty).join(
        Notebook, Notebook.id == SubmittedNotebook.notebook_id)
    if pocas:
        consulta = consulta.filter(SubmittedNotebook.assignment_id.in_(list(por_id)))
    for snid, sid, nombre, penal in consulta:
        e = por_id.get(sid)
        if e is None:
            continue
        e.cuadernos.setdefault(nombre, {})
        e.penalizaciones[nombre] = penal
        e.ids_de_cuaderno[nombre] = snid
        cuadernos[snid] = (e, nombre)
    consulta = db.query(Grade.notebook_id, BaseCell.name, Grade.auto_score, Grade.manual_score,
                        Grade.extra_credit, Grade.needs_manual_grade).join(BaseCell, BaseCell.id == Grade.cell_id)
    if pocas:
        consulta = consulta.filter(Grade.notebook_id.in_(list(cuadernos)))
    for snid, celda, auto, manual, extra, necesita in consulta:
        destino = cuadernos.get(snid)
        if destino is None:
            continue
        e, nombre = destino
        e.cuadernos[nombre][celda] = NotaDeCelda(auto, manual, extra, bool(necesita))
    return Libro({n: maximos.get(n, 0.0) for n, _ in asignaciones.values()},
                 {n: d for n, d in asignaciones.values()}, fichas, entregas)
