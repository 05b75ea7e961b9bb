"""Grade the students with K workers at once, each running nbgrader on its own students.

The unit of work is nbgrader's own: for each assignment, each worker runs
``nbgrader autograde <tarea> --force`` on its students (the others are left
out through ``grader_tests.extensiones_nbgrader.nbgrader_seguro``'s ``CURSO_ALUMNOS_EXCLUIDOS``, a
JSON list: nbgrader's ``student_id_exclude`` cannot hold a name with a comma),
then ``nbgrader autograde
--student <alumno>`` alone for any of them the batch failed or left ungraded
(so a broken notebook never stops the others), then ``nbgrader
generate_feedback`` for them, and ``generate_feedback --student <alumno>`` alone
for any of them the batch left without a page written by this run (the batch
process killed for memory, a notebook that broke it).  Workers never share a student, so a broken or
hostile submission costs only its own worker's time.

Where the grades go (``scripts.calificacion.libro_de_notas``):

* SQLite, one worker: straight into the course's ``gradebook.db``, as plain nbgrader;
* SQLite, several workers: each one writes its own copy of the gradebook
  (``fusion.copiar``) and, once every assignment is graded, ``fusion.fusionar``
  copies its students' rows into the course's gradebook;
* PostgreSQL (or any database server): every worker writes straight into it.

The observations of each submission (``Entrega``) are the raw material of the
TA table (``scripts/calificacion/grade.py``).
"""
from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from scripts.calificacion import libro_de_notas
from scripts.calificacion import fusion, razones
from scripts.calificacion.ordenes import Nbgrader
from scripts.calificacion.progreso import Progreso
from scripts.calificacion.reparto import repartir
from scripts.calificacion.tiempos import fase

_ALUMNO = re.compile(r"Creating/updating student with ID '([^']+)'")
_TERMINADA = "Setting destination file permissions"


@dataclass
class Entrega:
    """What grading one student's assignment left to say (besides the grades in the gradebook)."""
    log: str = ""                                   # its autograde log (batch lines, or its run alone)
    fallo: str | None = None                        # why nbgrader could not grade it, even alone
    avisos: list[str] = field(default_factory=list)               # its files (autograde)
    avisos_comentarios: list[str] = field(default_factory=list)   # its files (generate_feedback)
    sin_comentarios: bool = False                   # generate_feedback failed and left it without HTML


@dataclass
class Trabajador:
    numero: int
    alumnos: list[str]
    excluir: list[str]          # every other student folder of submitted/
    nbgrader: Nbgrader          # runs nbgrader on this worker's gradebook


class Lote:
    """The students of ``alumnos`` graded by ``k`` workers (see the module docstring).

    Args:
        raiz: the course root.
        alumnos: the students to grade (folders of ``submitted/``).
        k: workers at once (fewer when there are fewer students).
        url_curso: the course's gradebook (``libro_de_notas.url_del_curso``).
        progreso: the progress bars.

    The students a worker does not grade are left out of its nbgrader runs
    through ``grader_tests.extensiones_nbgrader.nbgrader_seguro`` (``CURSO_ALUMNOS_EXCLUIDOS``), so
    any folder name works, commas included.
    """

    def __init__(self, raiz: Path, alumnos: list[str], k: int, url_curso: str, progreso: Progreso):
        self.raiz = Path(raiz)
        self.url_curso = url_curso
        self.progreso = progreso
        carpeta = self.raiz / "submitted"
        todos = sorted(p.name for p in carpeta.iterdir() if p.is_dir()) if carpeta.is_dir() else []
        k = max(1, min(k, len(alumnos)))
        grupos = [repartir(alumnos, i, k) for i in range(k)]
        # every worker's own temporary folder: its gradebook copy (SQLite) and the list of the
        # students it leaves out, as a file (nbgrader's --CourseDirectory.student_id_exclude is
        # split on commas: a folder name with a comma could not be left out)
        self._temporal: Path | None = Path(tempfile.mkdtemp(prefix="curso-trabajadores-"))
        copias = libro_de_notas.es_sqlite(url_curso) and k > 1
        self.trabajadores = []
        for i, grupo in enumerate(grupos):
            url = None
            if copias:
                copia = self._temporal / f"trabajador-{i}.db"
                fusion.copiar(libro_de_notas.ruta_sqlite(url_curso), copia)
                url = f"sqlite:///{copia}"
            fuera = set(grupo)
            excluir = [a for a in todos if a not in fuera]
            lista = self._temporal / f"trabajador-{i}-excluidos.json"
            lista.write_text(json.dumps(excluir, ensure_ascii=False), encoding="utf-8")
            self.trabajadores.append(Trabajador(i, grupo, excluir,
                                                Nbgrader(self.raiz, db_url=url, excluidos=lista)))

    def calificar(self, tareas: list[str]) -> dict[tuple[str, str], Entrega]:
        """Autograde and feedback for every assignment; the course's gradebook ends with every grade.

        Each worker goes through every assignment on its own: none waits for the
        others between assignments (a barrier there left a core idle while the
        slower worker finished).
        """
        resultados: dict[tuple[str, str], Entrega] = {}
        try:
            totales = {tarea: sum((self.raiz / "submitted" / a / tarea).is_dir()
                                  for t in self.trabajadores for a in t.alumnos) for tarea in tareas}
            with self.progreso.tareas(totales), ThreadPoolExecutor(len(self.trabajadores)) as grupo:
                for parte in grupo.map(lambda t: self._todas(t, tareas), self.trabajadores):
                    resultados.update(parte)
            with fase("fusión de los libros de notas"):
                for t in self.trabajadores:
                    if t.nbgrader.db_url is not None:
                        fusion.fusionar(t.nbgrader.db_url, self.url_curso, t.alumnos, tareas)
        finally:
            if self._temporal is not None:
                shutil.rmtree(self._temporal, ignore_errors=True)
        return resultados

    def _todas(self, t: Trabajador, tareas: list[str]) -> dict[tuple[str, str], Entrega]:
        """One worker, every assignment in turn."""
        return {(alumno, tarea): e for tarea in tareas for alumno, e in self._tarea(t, tarea).items()}

    def _tarea(self, t: Trabajador, tarea: str) -> dict[str, Entrega]:
        """One worker, one assignment: batch autograde, its failures alone, feedback."""
        entregas = [a for a in t.alumnos if (self.raiz / "submitted" / a / tarea).is_dir()]
        if not entregas:
            return {}
        suyas = set(entregas)
        actual: list[str | None] = [None]

        def al_leer(linea: str) -> None:
            m = _ALUMNO.search(linea)
            if m:
                actual[0] = m[1]
            elif _TERMINADA in linea and actual[0] in suyas:
                self.progreso.terminada(actual[0], True, tarea)

        # one nbgrader run for the worker's batch; nbgrader isolates each submission's errors
        inicio = time.time()
        lote = t.nbgrader("autograde", tarea, "--force", check=False, al_leer=al_leer)
        texto = lote.stdout + lote.stderr
        logs = razones.lineas_por_alumno(texto, tarea)
        avisos_lote = razones.avisos_de_archivos(texto, tarea)
        fallidos = razones.fallidos_del_lote(texto, tarea)
        resultado: dict[str, Entrega] = {}
        for alumno in entregas:
            cuadernos = list((self.raiz / "autograded" / alumno / tarea).glob("*.ipynb"))
            al_dia = cuadernos and all(p.stat().st_mtime >= inicio - 1 for p in cuadernos)
            entrega = Entrega(log="\n".join(logs.get(alumno, [])))
            if alumno in fallidos or not al_dia:
                # graded again alone: its own log says why, and an abort stops nobody else
                solo = t.nbgrader("autograde", tarea, "--student", alumno, "--force", check=False)
                entrega.log = solo.stdout + solo.stderr
                if solo.returncode != 0:
                    entrega.fallo = razones.razon_del_log(entrega.log)
                self.progreso.terminada(alumno, solo.returncode == 0, tarea)
            elif not self.progreso.contada(alumno, tarea):
                self.progreso.terminada(alumno, True, tarea)
            entrega.avisos = avisos_lote.get(alumno, []) + razones.avisos_de_archivos(entrega.log, tarea).get(alumno, [])
            resultado[alumno] = entrega
        # a resubmission whose old manual grades are held for review gets no feedback until the TA
        # reviews it (grader_tests.extensiones_nbgrader.revision; the table says so): left out of this run
        retenidos = self._retenidos(t, tarea, entregas)
        # an extension in plazos.toml that cannot be read: that student is not graded (autograde's
        # ComprobarPlazos) and gets no feedback either; the table says why
        retenidos |= self._prorrogas_ilegibles(tarea, entregas)
        nbgrader = t.nbgrader
        if retenidos:
            lista = self._temporal / f"trabajador-{t.numero}-{tarea}-sin-comentarios.json"
            lista.write_text(json.dumps(t.excluir + sorted(retenidos), ensure_ascii=False), encoding="utf-8")
            nbgrader = Nbgrader(self.raiz, db_url=t.nbgrader.db_url, excluidos=lista)
        inicio_comentarios = time.time()
        comentarios = nbgrader("generate_feedback", tarea, "--force", check=False)
        for alumno, avisos in razones.avisos_de_archivos(comentarios.stdout + comentarios.stderr, tarea).items():
            resultado.setdefault(alumno, Entrega()).avisos_comentarios += avisos
        if comentarios.returncode != 0:
            # a broken feedback template must not pass unnoticed: the TA has no feedback to send
            sys.stderr.write(comentarios.stdout[-2000:] + comentarios.stderr[-2000:])
            for alumno in entregas:
                if alumno in retenidos or self._comentarios_al_dia(alumno, tarea, inicio_comentarios):
                    continue
                # the batch stopped before this student (the process was killed, one notebook broke
                # it): again alone, so one student's page never costs a classmate hers
                solo = nbgrader("generate_feedback", tarea, "--student", alumno, "--force", check=False)
                for otro, avisos in razones.avisos_de_archivos(solo.stdout + solo.stderr, tarea).items():
                    if otro == alumno:
                        resultado[alumno].avisos_comentarios += avisos
                if solo.returncode != 0 or not self._comentarios_al_dia(alumno, tarea, inicio_comentarios):
                    resultado[alumno].sin_comentarios = True
        return resultado

    def _comentarios_al_dia(self, alumno: str, tarea: str, desde: float) -> bool:
        """Whether ``alumno`` has feedback pages of ``tarea`` written since ``desde`` (not an older run's)."""
        paginas = list((self.raiz / "feedback" / alumno / tarea).glob("*.html"))
        return bool(paginas) and all(p.stat().st_mtime >= desde - 1 for p in paginas)

    def _prorrogas_ilegibles(self, tarea: str, entregas: list[str]) -> set[str]:
        """The worker's students of ``tarea`` whose extension in plazos.toml cannot be read."""
        from grader_tests.extensiones_nbgrader import plazos
        try:
            mal = plazos.leer(self.raiz)[0].invalidas()["prorrogas"]
        except plazos.PlazoInvalido:
            return set()
        return {a for a in entregas if (tarea, a) in mal}

    def _retenidos(self, t: Trabajador, tarea: str, entregas: list[str]) -> set[str]:
        """The worker's students whose submission of ``tarea`` is held for review (``grader_tests.extensiones_nbgrader.revision``)."""
        from nbgrader.api import Gradebook
        from grader_tests.extensiones_nbgrader import revision
        carpeta = str(self.raiz / revision.CARPETA)
        if not (self.raiz / revision.CARPETA / tarea).is_dir():
            return set()
        with Gradebook(t.nbgrader.db_url or self.url_curso) as gb:
            return {a for a in entregas if revision.pendientes(gb, carpeta, tarea, a)}
