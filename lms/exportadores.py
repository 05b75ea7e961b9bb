"""nbgrader ``ExportPlugin``s that write grades in the format the LMS imports.

From the course root (``make grade`` runs both when there are LMS downloads)::

    nbgrader export --exporter lms.exportadores.HojaDeCalificacionMoodle
    nbgrader export --exporter lms.exportadores.LibroDeCalificacionesCanvas

* :class:`HojaDeCalificacionMoodle` — per assignment collected from Moodle,
  ``para_subir/<tarea>/calificaciones_moodle.csv``: the grading worksheet the
  TA downloaded with the submissions (``downloaded/<tarea>/archive/*.csv``)
  with the Grade column filled in for every collected student (matched by
  Moodle's Identifier, scaled to the worksheet's Maximum grade, written with
  the worksheet's decimal mark), everything else untouched; without a
  downloaded worksheet, a new one with the columns Moodle's import needs.
* :class:`LibroDeCalificacionesCanvas` — ``para_subir/calificaciones_canvas.csv``:
  ``Student, ID, SIS User ID, SIS Login ID, Section``, a ``Points Possible``
  row and one column per assignment collected from Canvas, titled as in the
  Canvas gradebook export when the TA downloaded it (``Name (id)``), scaled
  to its points possible.

* :class:`NotasCsv` — ``grades.csv`` (the course's default exporter, set in
  ``nbgrader_config.py``, so plain ``nbgrader export`` uses it): nbgrader's
  own columns and rows, written by the ``csv`` module (a name with a comma
  or a newline no longer shifts columns or forges rows) with every cell
  through :func:`lms.formatos.celda_inerte` (a name that starts a formula is
  not run by a spreadsheet).

Scores are nbgrader's (``score - late penalty``, at least 0, like
``nbgrader export``'s own CSV).  Students who submitted nothing are left
blank: the LMS keeps whatever it has for them; so are those whose new
submission is held for the TA's review (``grader_tests.extensiones_nbgrader.revision``), with a warning,
and those nbgrader could not grade at all (no autograded notebook: autograde refused
the submission, e.g. an unreadable extension in ``plazos.toml``; the gradebook's 0 is
not a grade): ``grades.csv`` marks them ``not_graded = sí``.  ``--to`` names the output
(``{tarea}`` is replaced when there are several assignments);
``--assignment`` / ``--student`` restrict it as for nbgrader's CSV exporter.

Only published assignments are exported (:func:`tareas_publicadas`): one that
no student has received (it is not in the exchange's ``outbound/``) and nobody
has handed in is left out, and the exporter says so; otherwise every student
would get a 0 in the LMS for work never assigned (``make grade`` generates
every lesson of ``source/``, so drafts are in the gradebook too).  Naming it
with ``--assignment`` exports it anyway.
"""
from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins import CsvExportPlugin, ExportPlugin
from traitlets import Dict, Unicode

from grader_tests.comun.legible import nombre_legible
from lms import ARCHIVO, DESCARGAS, INFORME, LISTA, SUBIR, formatos
from lms.lista_de_clase import leer_lista
from lms.recogida import leer_informe


def _raiz_del_curso(plugin) -> Path:
    """The course root: the export app's course directory, else the configuration's (``CourseDirectory.root``)."""
    coursedir = getattr(plugin.parent, "coursedir", None)
    if coursedir is not None:
        return Path(coursedir.root)
    from nbgrader.coursedir import CourseDirectory
    return Path(CourseDirectory(config=plugin.config).root)


def _cursos_e_intercambios(plugin) -> tuple[set[str], set[Path]]:
    """Course ids and exchange roots to look in: the configuration's and, on the course's hub, its environment.

    ``make grade`` reads only the course's ``nbgrader_config.py``; on the hub the
    exchange root and course id come from the environment (``CURSO_HUB_INTERCAMBIO``,
    ``CURSO_HUB_CURSO``: ``despliegue/hub/jupyter/comun/nbgrader_config.py``).
    """
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.exchange.default.exchange import Exchange
    coursedir = getattr(plugin.parent, "coursedir", None) or CourseDirectory(config=plugin.config)
    cursos = {c for c in (coursedir.course_id, os.environ.get("CURSO_HUB_CURSO")) if c}
    raices = {Path(r) for r in (Exchange(config=plugin.config).root, os.environ.get("CURSO_HUB_INTERCAMBIO")) if r}
    return cursos, raices


def tareas_publicadas(plugin, tareas: list[str], entregadas: set[str]) -> list[str]:
    """Of ``tareas`` (gradebook names), those students have: released to the exchange or handed in by anyone.

    Released: ``<Exchange.root>/<course_id>/outbound/<tarea>`` is a folder (what
    formgrader's *Release* and ``nbgrader release_assignment`` create; nbgrader's
    ``NbGraderAPI.get_released_assignments`` lists the same folder, through the
    hub's authentication).  Handed in: ``entregadas``, the assignments with at
    least one submission in the gradebook (the exchange, an LMS download or the
    sample submissions).  An assignment named with ``--assignment`` counts as published.
    """
    nombradas = {str(a) for a in getattr(plugin, "assignment", []) or []}
    cursos, raices = _cursos_e_intercambios(plugin)

    def publicada(tarea: str) -> bool:
        if tarea in entregadas or tarea in nombradas:
            return True
        try:
            return any((raiz / curso / "outbound" / tarea).is_dir() for raiz in raices for curso in cursos)
        except OSError:         # an exchange we may not read: only the submissions count
            return False
    return [t for t in tareas if publicada(t)]


class _ExportadorLMS(ExportPlugin):
    """What both LMS exporters share: paths, collected students, scores."""

    def _raiz(self) -> Path:
        return _raiz_del_curso(self)

    def _informes(self, gradebook: Gradebook, lms: str) -> dict[str, dict]:
        """Collection report of every assignment with students collected from ``lms``."""
        informes = {}
        for assignment in gradebook.assignments:
            if self.assignment and assignment.name not in [str(a) for a in self.assignment]:
                continue
            informe = leer_informe(self._raiz() / DESCARGAS / assignment.name / INFORME)
            entregas = {a: e for a, e in informe.get("entregas", {}).items() if e.get("lms") == lms
                        and (not self.student or a in [str(s) for s in self.student])}
            if entregas:
                informe["entregas"] = entregas
                informes[assignment.name] = informe
        return informes

    def _destino(self, tarea: str | None, defecto: Path, varias: bool) -> Path:
        if not self.to:
            return defecto
        if tarea and "{tarea}" in self.to:
            return Path(self.to.format(tarea=tarea))
        ruta = Path(self.to)
        return ruta.with_name(f"{ruta.stem}_{tarea}{ruta.suffix}") if (tarea and varias) else ruta

    _retenidas: set | None = None

    def _retenida(self, gradebook: Gradebook, tarea: str, alumno: str) -> bool:
        """Whether the student's submission is held for review (then it is left blank, with a warning)."""
        from grader_tests.extensiones_nbgrader import revision
        if self._retenidas is None:
            self._retenidas = revision.con_pendientes(gradebook, str(self._raiz() / revision.CARPETA))
        if (alumno, tarea) in self._retenidas:
            self._aviso(f"{alumno}: su entrega nueva de {tarea} está pendiente de revisión en formgrader (notas a "
                        "mano de la entrega anterior): se deja en blanco hasta que se revise")
            return True
        return False

    _calificadas: set | None = None
    _calificadas_leidas = False

    def _nota(self, gradebook: Gradebook, tarea: str, alumno: str) -> tuple[float, float] | None:
        """(score after late penalty, max score) of a submission, None when there is none.

        None too (with a warning) when nbgrader could not grade it: no autograded notebook
        (``notas_en_bloque.calificadas_en_disco``), so its 0 points are not a grade.
        """
        from grader_tests.extensiones_nbgrader import notas_en_bloque
        try:
            entrega = gradebook.find_submission(tarea, alumno)
        except MissingEntry:
            return None
        if not self._calificadas_leidas:
            self._calificadas = notas_en_bloque.calificadas_en_disco(self._raiz())
            self._calificadas_leidas = True
        if self._calificadas is not None and (alumno, tarea) not in self._calificadas:
            self._aviso(f"{nombre_legible(alumno)}: nbgrader no pudo calificar su entrega de {nombre_legible(tarea)} "
                        "(el motivo está en las observaciones de make grade): se deja en blanco")
            return None
        return max(0.0, entrega.score - (entrega.late_submission_penalty or 0.0)), entrega.max_score

    def _aviso(self, texto: str) -> None:
        self.log.warning("LMS: %s", texto)


class HojaDeCalificacionMoodle(_ExportadorLMS):
    """Moodle's grading worksheet with nbgrader's grades (see the module docstring)."""

    idioma = Unicode("es", help="Language of a worksheet built here (no worksheet downloaded): "
                                "'es' or 'en', as the TA's Moodle (the import reads the column titles "
                                "in the user's language).").tag(config=True)
    calificacion_maxima = Dict({}, help="Assignment → Moodle's maximum grade, for a worksheet built here "
                                        "(default: nbgrader's maximum).").tag(config=True)
    comentario = Unicode("Calificado con nbgrader: {puntos} de {maximo} puntos. El detalle está en el "
                         "archivo de comentarios adjunto.",
                         help="Feedback comment written where the worksheet's comment is empty "
                              "({puntos}, {maximo}: nbgrader's; '' for none).").tag(config=True)

    def export(self, gradebook: Gradebook) -> None:
        informes = self._informes(gradebook, "moodle")
        if not informes:
            self.log.info("LMS: ninguna tarea recogida de Moodle: no hay hoja de calificación que exportar")
        for tarea, informe in informes.items():
            defecto = self._raiz() / SUBIR / tarea / "calificaciones_moodle.csv"
            destino = self._destino(tarea, defecto, len(informes) > 1)
            hoja = formatos.buscar_hoja_moodle(self._raiz() / DESCARGAS / tarea / ARCHIVO)
            if hoja:
                filas = self._rellenar(gradebook, tarea, informe["entregas"], hoja)
                formatos.escribir_csv(destino, filas, hoja.delimitador, hoja.bom)
            else:
                formatos.escribir_csv(destino, self._nueva(gradebook, tarea, informe["entregas"]))
            self.log.info("LMS: hoja de calificación de Moodle para %s: %s", tarea, destino)

    def _valor(self, gradebook, tarea: str, alumno: str, maximo_lms: float | None, decimal: str
               ) -> tuple[str, str] | None:
        if self._retenida(gradebook, tarea, alumno):
            return None
        nota = self._nota(gradebook, tarea, alumno)
        if nota is None:
            self._aviso(f"{alumno} no tiene nota de {tarea} en nbgrader: se deja en blanco en Moodle")
            return None
        puntos, maximo = nota
        if not maximo:
            return None
        escala = maximo_lms if maximo_lms else maximo
        comentario = self.comentario.format(puntos=formatos.escribir_numero(puntos, ",", recortar=True),
                                            maximo=formatos.escribir_numero(maximo, ",", recortar=True))
        return formatos.escribir_numero(round(puntos / maximo * escala, 2), decimal), comentario

    def _rellenar(self, gradebook, tarea: str, entregas: dict, hoja: formatos.HojaMoodle) -> list[list[str]]:
        filas = [list(f) for f in hoja.filas]
        indice = hoja.participantes()
        col = hoja.columnas
        for alumno, entrega in sorted(entregas.items()):
            n = indice.get(entrega["lms_id"])
            if n is None:
                self._aviso(f"{alumno} (Moodle {entrega['lms_id']}) no está en la hoja «{hoja.ruta.name}»: "
                            "no se exporta su nota (¿hoja de otra tarea o antigua?)")
                continue
            fila = filas[n] + [""] * (len(filas[0]) - len(filas[n]))
            maximo = formatos.numero(fila[col["maxima"]]) if "maxima" in col else None
            valor = self._valor(gradebook, tarea, alumno, maximo, hoja.decimal)
            if valor is None:
                continue
            fila[col["calificacion"]] = valor[0]
            if "comentarios" in col and not fila[col["comentarios"]].strip():
                fila[col["comentarios"]] = valor[1]
            filas[n] = fila
        return filas

    def _nueva(self, gradebook, tarea: str, entregas: dict) -> list[list[str]]:
        titulos = formatos.MOODLE_HOJA_NUEVA.get(self.idioma, formatos.MOODLE_HOJA_NUEVA["es"])
        roles = ["identificador", "nombre", "calificacion", "maxima", "modificada", "comentarios"]
        filas = [[titulos[r] for r in roles]]
        ahora = dt.datetime.now().astimezone().isoformat(timespec="seconds")
        for alumno, entrega in sorted(entregas.items()):
            maximo_lms = self.calificacion_maxima.get(tarea)
            valor = self._valor(gradebook, tarea, alumno, maximo_lms, titulos["decimal"])
            if valor is None:
                continue
            maximo = maximo_lms or gradebook.find_assignment(tarea).max_score
            filas.append([f"{titulos['participante']}{entrega['lms_id']}", entrega["nombre"], valor[0],
                          formatos.escribir_numero(maximo, titulos["decimal"]), ahora, valor[1]])
        return filas


class LibroDeCalificacionesCanvas(_ExportadorLMS):
    """Canvas's gradebook import CSV with nbgrader's grades (see the module docstring)."""

    columnas = Dict({}, help="Assignment → Canvas column title, 'Name (id)' as in Canvas's gradebook "
                             "export (default: the export's column with the assignment's name, else the "
                             "assignment's name).").tag(config=True)
    puntos = Dict({}, help="Assignment → points possible in Canvas, when no gradebook export was "
                           "downloaded (default: nbgrader's maximum).").tag(config=True)

    def _titulo(self, tarea: str, libro: formatos.LibroCanvas | None) -> str:
        if tarea in self.columnas:
            return self.columnas[tarea]
        for titulo in (libro.tareas if libro else {}):
            if formatos.titulo_e_id(titulo)[0] == tarea:
                return titulo
        return tarea

    def export(self, gradebook: Gradebook) -> None:
        informes = self._informes(gradebook, "canvas")
        if not informes:
            self.log.info("LMS: ninguna tarea recogida de Canvas: no hay libro de calificaciones que exportar")
            return
        descargas = self._raiz() / DESCARGAS
        libro = formatos.buscar_libro_canvas(descargas, *[descargas / t / ARCHIVO for t in informes])
        lista = leer_lista(descargas / LISTA)
        info = {a["ID"]: a for a in (libro.alumnos if libro else [])}
        for alumno in lista.alumnos:
            if alumno.lms_user_id and alumno.lms_user_id not in info:
                info[alumno.lms_user_id] = {"Student": alumno.nombre, "ID": alumno.lms_user_id,
                                            "SIS User ID": alumno.sis_user, "SIS Login ID": alumno.sis_login,
                                            "Section": alumno.seccion}
        titulos = {tarea: self._titulo(tarea, libro) for tarea in informes}
        cabecera = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *titulos.values()]
        puntos_canvas = {}
        for tarea, titulo in titulos.items():
            puntos_canvas[tarea] = ((libro.puntos.get(titulo) if libro else None) or self.puntos.get(tarea)
                                    or gradebook.find_assignment(tarea).max_score)
            if libro and titulo not in libro.tareas:
                self._aviso(f"el libro de Canvas «{libro.ruta.name}» no tiene la columna «{titulo}»: Canvas "
                            "la emparejará por nombre o creará una tarea nueva; indícala con "
                            "c.LibroDeCalificacionesCanvas.columnas")
        filas = [cabecera, ["Points Possible", "", "", "", "",
                            *[formatos.escribir_numero(puntos_canvas[t], ".", recortar=True) for t in titulos]]]
        por_usuario: dict[str, dict[str, str]] = {}
        for tarea, informe in informes.items():
            for alumno, entrega in sorted(informe["entregas"].items()):
                usuario = entrega["lms_id"]
                if not usuario.isdigit():
                    self._aviso(f"{alumno}: Canvas lo descargó de forma anónima ({usuario}): su nota no se "
                                "puede devolver por CSV")
                    continue
                if self._retenida(gradebook, tarea, alumno):
                    continue
                nota = self._nota(gradebook, tarea, alumno)
                if nota is None or not nota[1]:
                    self._aviso(f"{alumno} no tiene nota de {tarea} en nbgrader: se deja en blanco en Canvas")
                    continue
                valor = round(nota[0] / nota[1] * puntos_canvas[tarea], 2)
                fila = por_usuario.setdefault(usuario, {"_nombre": entrega["nombre"]})
                fila[tarea] = formatos.escribir_numero(valor, ".", recortar=True)
        for usuario, notas in sorted(por_usuario.items(), key=lambda x: int(x[0])):
            datos = info.get(usuario, {"Student": notas["_nombre"], "ID": usuario})
            filas.append([datos.get("Student", ""), usuario, datos.get("SIS User ID", ""),
                          datos.get("SIS Login ID", ""), datos.get("Section", ""),
                          *[notas.get(t, "") for t in titulos]])
        destino = self._destino(None, self._raiz() / SUBIR / "calificaciones_canvas.csv", False)
        formatos.escribir_csv(destino, filas)
        self.log.info("LMS: libro de calificaciones de Canvas: %s", destino)


def aviso_de_omitidas(omitidas: list[str], archivo: str = "grades.csv") -> str:
    """The Spanish line that names the assignments left out of ``archivo`` (unpublished)."""
    una = len(omitidas) == 1
    return (f"{archivo} no incluye {', '.join(omitidas)}: ningún alumno "
            f"{'la' if una else 'las'} ha recibido (no {'está publicada' if una else 'están publicadas'} en el "
            f"intercambio) ni entregado, y el LMS pondría un 0 a toda la clase. Para "
            f"exportar{'la' if una else 'las'} igualmente: nbgrader export --assignment {omitidas[0]}")


def aviso_de_sin_calificar(entregas: list[str], archivo: str = "grades.csv") -> str:
    """The Spanish line that names the submissions ``archivo`` leaves blank because nbgrader could not grade them."""
    una = len(entregas) == 1
    return (f"{archivo} deja en blanco {'la entrega' if una else f'las {len(entregas)} entregas'} que nbgrader no "
            f"pudo calificar (not_graded = sí; el motivo está en las observaciones "
            f"de make grade): {', '.join(entregas)}")


class NotasCsv(CsvExportPlugin):
    """nbgrader's ``grades.csv``, quoted and inert in a spreadsheet, with the late and review marks.

    nbgrader's columns and rows (``nbgrader.plugins.CsvExportPlugin``): one row
    per assignment × student in the gradebook, ``score = max(0, raw - penalty)``,
    0 for a student without a submission; then three more columns:
    ``seconds_late`` (after the extension, as nbgrader counts it),
    ``extension_seconds`` (the student's extension, in seconds, as ``seconds_late``), ``pending_review``
    (``sí`` when a resubmission's old manual grades are held for review:
    ``grader_tests.extensiones_nbgrader.revision``), and ``duedate_course_time`` /
    ``timestamp_course_time``: nbgrader's ``duedate`` and ``timestamp`` (naive UTC, left as
    nbgrader writes them: LMS imports read them) in the course's zone
    (``c.PlazosDelCurso.zona``) with an explicit offset, ``2026-12-02 00:15:00+01:00``, and
    ``student_duedate_course_time``: that student's due date, extension included, the same way;
    ``not_graded``: ``sí`` when nbgrader could not grade the submission at all (no autograded
    notebook: autograde refused it, or no notebook could be read); its scores are left blank,
    because the gradebook's 0 is not a grade, and a warning names them.
    Before exporting, the course's due dates,
    extensions and penalties are brought up to date (``grader_tests.extensiones_nbgrader.plazos``).
    The gradebook is read in bulk (``grader_tests.extensiones_nbgrader.notas_en_bloque``): linear in the class.
    Assignments not published (:func:`tareas_publicadas`) are left out: their names end in
    ``omitidas`` and a warning says so.
    """

    omitidas: list[str] = []

    COLUMNAS = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email",
                "raw_score", "late_submission_penalty", "score", "max_score",
                "seconds_late", "extension_seconds", "pending_review", "duedate_course_time", "timestamp_course_time",
                "student_duedate_course_time", "not_graded"]

    def export(self, gradebook: Gradebook) -> None:
        from grader_tests.extensiones_nbgrader import notas_en_bloque, plazos, revision
        destino = Path(self.to or "grades.csv")
        tareas = [str(a) for a in self.assignment]
        alumnos = [str(s) for s in self.student]
        self.log.info("Exporting grades to %s", destino)
        config_plazos, politica = plazos.desde_config(self.config)
        zona = config_plazos.zona
        # an extension that cannot be read keeps the one the gradebook has (as the Assignments tab does), and
        # says so; an unreadable due date or plazos.toml stops the export (PlazoInvalido, in Spanish)
        ilegibles = config_plazos.invalidas()["prorrogas"]
        for texto in ilegibles.values():
            self.log.error("%s (en grades.csv queda la prórroga anterior de ese alumno)", texto)
        plazos.sincronizar(gradebook, config_plazos, politica, log=self.log, saltar=set(ilegibles))
        libro = notas_en_bloque.leer(gradebook)
        retenidas = revision.con_pendientes(gradebook, str(self._raiz() / revision.CARPETA))
        calificadas = notas_en_bloque.calificadas_en_disco(self._raiz())
        sin_calificar: list[str] = []
        filas = [self.COLUMNAS]
        # nbgrader's order: assignments by due date (none first) and name; students by last and first name
        publicadas = tareas_publicadas(self, list(libro.tareas), {t for (t, _) in libro.entregas})
        self.omitidas = sorted(t for t in libro.tareas if t not in publicadas and (not tareas or t in tareas))
        if self.omitidas:
            self.log.warning("%s", aviso_de_omitidas(self.omitidas, destino.name), extra={"omitidas": self.omitidas})
        orden_tareas = sorted(publicadas, key=lambda t: (libro.duedates[t] is not None,
                                                         libro.duedates[t] or dt.datetime.min, t))
        orden_alumnos = sorted(libro.alumnos.items(), key=lambda par: (
            par[1]["last_name"] is not None, par[1]["last_name"] or "", par[1]["first_name"] is not None,
            par[1]["first_name"] or "", par[0]))
        for tarea in orden_tareas:
            if tareas and tarea not in tareas:
                continue
            for alumno, datos in orden_alumnos:
                if alumnos and alumno not in alumnos:
                    continue
                e = libro.entregas.get((tarea, alumno))
                no_calificada = ""
                if e is not None:
                    valores = [e.timestamp, e.puntos, e.penalizacion, e.nota, e.segundos_tarde,
                               f"{e.extension.total_seconds():g}" if e.extension else "",
                               "sí" if (alumno, tarea) in retenidas else ""]
                    extension = e.extension
                    if calificadas is not None and (alumno, tarea) not in calificadas:
                        valores[1:4] = ["", "", ""]
                        no_calificada = "sí"
                        sin_calificar.append(f"{nombre_legible(alumno)} / {nombre_legible(tarea)}")
                else:
                    valores = ["", 0.0, 0.0, 0.0, "", "", ""]
                    extension = None
                marca, bruta, penal, nota, tarde, prorroga, revisar = valores
                plazo_suyo = (libro.duedates[tarea] + extension if extension and libro.duedates[tarea] is not None
                              else libro.duedates[tarea])
                fila = [tarea, libro.duedates[tarea], marca, alumno, datos["last_name"], datos["first_name"],
                        datos["email"], bruta, penal, nota, libro.tareas[tarea], tarde, prorroga, revisar,
                        plazos.con_desfase(libro.duedates[tarea], zona),
                        plazos.con_desfase(marca or None, zona), plazos.con_desfase(plazo_suyo, zona),
                        no_calificada]
                filas.append(["" if v is None else str(v) for v in fila])
        if sin_calificar:
            self.log.warning("%s", aviso_de_sin_calificar(sin_calificar, destino.name))
        formatos.escribir_csv(destino, filas)

    def _raiz(self) -> Path:
        return _raiz_del_curso(self)
