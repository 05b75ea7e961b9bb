"""nbgrader, hardened against what students leave in their folders (the one place it is patched).

nbgrader 0.9 trusts the files of a submission: its converters copy them with
``shutil`` (which follows links and reads FIFOs and devices), ``set_permissions``
``chmod``s through links, the notebook is written through whatever sits at its
name, and a garbled ``timestamp.txt`` stops the step.  Its converter classes are
hard-coded in its apps and in formgrader, so they cannot be swapped by
configuration; ``aplicar()`` (called from ``nbgrader_config.py``, in every
nbgrader process of this course, formgrader's included) replaces these five
methods with versions built on ``archivos_alumno``:

====================================  ==========================================
nbgrader 0.9.6                         here
====================================  ==========================================
``BaseConverter.init_destination``     ``_init_destination``: also leaves out the ids
                                       listed in ``CURSO_ALUMNOS_EXCLUIDOS`` (a JSON
                                       file; any name, commas included)
``BaseConverter.init_assignment``      ``_init_assignment``: cleans the destination,
                                       refuses notebooks that are not regular files,
                                       copies the rest without following anything,
                                       within the submission's budget; feedback gets
                                       only the assignment's files and small student
                                       files
``BaseConverter.set_permissions``      ``_set_permissions``: never through a link
``BaseConverter.write_single_notebook`` ``_write_single_notebook``: atomic write, never
                                       through a link
``CourseDirectory.get_existing_        ``_get_existing_timestamp``: a missing, special
timestamp``                            or garbled ``timestamp.txt`` is a reason, not
                                       an abort
``Autograde.init_assignment``          ``_autograde_init_assignment``: a submission with
                                       no notebook of the assignment (only another
                                       assignment's, say) gets its cells at 0 points,
                                       not «needs manual grade» forever (then nbgrader
                                       reports the failure as before)
====================================  ==========================================

Each replacement keeps nbgrader's behaviour for honest folders.  The
preprocessors below run inside nbgrader's own pipelines (configured in
``nbgrader_config.py``): ``SanearTrasElKernel`` right after the student's kernel
has finished, ``AvisosEnComentarios`` in ``generate_feedback``.  The exchange
steps (``collect``, ``release_feedback``) are subclassed in ``intercambio``.
"""
from __future__ import annotations

import fnmatch
import json
import os

from nbgrader.converters import Autograde
from nbgrader.converters.base import BaseConverter, NbGraderException
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor
from nbgrader.utils import parse_utc

from ..caja import archivos_alumno as aa

VERSION_PROBADA = "0.9.6"
CLAVE_AVISOS = "curso_avisos"      # notebook metadata shown by the feedback template

_originales: dict[str, object] = {}


def archivos_de_la_tarea(coursedir: CourseDirectory, tarea: str) -> set[str]:
    """Relative paths of the files (not notebooks) the assignment ships, and their folders."""
    propios: set[str] = set()
    for carpeta in (coursedir.source_directory, coursedir.release_directory):
        raiz = coursedir.format_path(carpeta, ".", tarea)
        for entrada in aa.recorrer(raiz, coursedir.ignore).entradas:
            if entrada.ruta.endswith(".ipynb"):
                continue
            propios.add(entrada.ruta)
    for ruta in list(propios):
        while "/" in ruta:
            ruta = ruta.rsplit("/", 1)[0]
            propios.add(ruta)
    return propios


def _es_cuaderno(ruta: str) -> bool:
    return fnmatch.fnmatch(ruta.rsplit("/", 1)[-1], "*.ipynb")


def _init_assignment(self, assignment_id: str, student_id: str) -> None:
    """Copy the student's non-notebook files into the destination, safely (see module doc).

    Only for the converters whose input is a student's folder (autograde from
    ``submitted/``, generate_feedback from ``autograded/``); the others read the
    TA's own ``source/`` and keep nbgrader's behaviour.
    """
    from nbgrader.converters import Autograde, GenerateFeedback
    if not isinstance(self, (Autograde, GenerateFeedback)):
        return _originales["BaseConverter.init_assignment"](self, assignment_id, student_id)
    origen = self._format_source(assignment_id, student_id)
    destino = self._format_dest(assignment_id, student_id)
    presupuesto = aa.PresupuestoEntrega(parent=self)
    comentarios = isinstance(self, GenerateFeedback)
    propios = archivos_de_la_tarea(self.coursedir, assignment_id)
    avisos: list[str] = []
    if os.path.lexists(destino):
        # what an earlier run's kernel left (a --notebook run keeps the folder)
        avisos += aa.sanear(destino, presupuesto, propios)
    buenos = []
    for cuaderno in self.notebooks:
        motivo = aa.es_archivo_normal(cuaderno, presupuesto.cuaderno_maximo)
        if motivo:
            # autograde skips it; generate_feedback reads the autograded copy, already graded
            consecuencia = "no se generan sus comentarios" if comentarios else "no se califica"
            avisos.append(f"el cuaderno {aa.nombre_legible(os.path.basename(cuaderno))} {motivo}: "
                          f"{consecuencia}")
        else:
            buenos.append(cuaderno)
    self.notebooks = buenos
    try:
        avisos += aa.copiar_entrega(origen, destino, presupuesto, ignorar=list(self.coursedir.ignore),
                                    propios=propios, solo_propios_y_pequeños=comentarios,
                                    excluir=_es_cuaderno, sin_modulos=True)
    except OSError as exc:
        aa.registrar(destino, avisos, self.log, student_id, assignment_id)
        raise NbGraderException(f"{aa.MARCA} de '{student_id}' en '{assignment_id}': la carpeta de la "
                                f"entrega no es una carpeta normal ({exc.strerror})") from exc
    for ruta in sorted(propios):
        # a student's folder where the assignment has a file would stop nbgrader's copy of it
        objetivo = os.path.join(destino, ruta)
        if _es_archivo_en_tarea(self.coursedir, assignment_id, ruta) and os.path.isdir(objetivo) \
                and not os.path.islink(objetivo):
            aa._quitar(destino, ruta)
            avisos.append(f"se ignoró la carpeta {aa.nombre_legible(ruta)}: la tarea tiene un archivo con ese nombre")
    if comentarios:
        # nbgrader's own files come from the submission as collected, not from the
        # folder the student's kernel could write
        enviada = self.coursedir.format_path(self.coursedir.submitted_directory, student_id, assignment_id)
        for nombre in aa.ARCHIVOS_NBGRADER:
            if aa.es_archivo_normal(os.path.join(enviada, nombre), 4096) is None:
                try:
                    aa.copiar_archivo(os.path.join(enviada, nombre), os.path.join(destino, nombre), 4096)
                except OSError:
                    pass
    aa.registrar(destino if not comentarios else origen, avisos, self.log, student_id, assignment_id)


def _es_archivo_en_tarea(coursedir, tarea: str, ruta: str) -> bool:
    for carpeta in (coursedir.source_directory, coursedir.release_directory):
        completa = os.path.join(coursedir.format_path(carpeta, ".", tarea), ruta)
        if os.path.isfile(completa):
            return True
    return False


def _set_permissions(self, assignment_id: str, student_id: str) -> None:
    """nbgrader's permissions on the output, applied without following any link."""
    self.log.info("Setting destination file permissions to %s", self.permissions)
    destino = os.path.normpath(self._format_dest(assignment_id, student_id))
    permisos = int(str(self.permissions), 8)
    aa.cambiar_permisos(destino, permisos)
    if self.coursedir.groupshared:
        for entrada in [aa.Entrada("", os.lstat(destino), 0)] + aa.recorrer(destino).entradas:
            if entrada.es_carpeta and entrada.st.st_mode & 0o2770 != 0o2770:
                aa._chmod_sin_seguir(os.path.join(destino, entrada.ruta) if entrada.ruta else destino,
                                     (entrada.st.st_mode | 0o2770) & 0o2777, directorio=True)


def _write_single_notebook(self, output, resources) -> None:
    """Write the converted notebook (and any extracted file) atomically, never through a link."""
    carpeta = self._format_dest(resources["nbgrader"]["assignment"], resources["nbgrader"]["student"])
    self.writer.build_directory = carpeta
    os.makedirs(carpeta, exist_ok=True)
    if not aa.ruta_sin_enlaces(os.path.abspath(carpeta)):
        raise NbGraderException(f"la carpeta de destino {carpeta} pasa por un enlace simbólico: no se escribe")
    raiz = os.path.abspath(carpeta)
    for nombre, datos in (resources.get("outputs") or {}).items():
        ruta = os.path.normpath(os.path.join(raiz, nombre))
        if not ruta.startswith(raiz + os.sep):
            continue
        os.makedirs(os.path.dirname(ruta), exist_ok=True)
        if aa.ruta_sin_enlaces(os.path.dirname(ruta)):
            aa.escribir_atomico(ruta, lambda fd, d=datos: os.write(fd, d if isinstance(d, bytes) else d.encode()))
    extension = resources.get("output_extension") or self.exporter.file_extension
    destino = os.path.join(raiz, resources["unique_key"] + extension)
    datos = output.encode("utf-8") if isinstance(output, str) else output

    def escribir(fd):
        vista = memoryview(datos)
        while vista:
            vista = vista[os.write(fd, vista):]
    aa.escribir_atomico(destino, escribir)


def _get_existing_timestamp(self, dest_path: str):
    """The submission's timestamp, or None (with a reason) when ``timestamp.txt`` is unusable."""
    ruta = os.path.join(dest_path, "timestamp.txt")
    if not os.path.lexists(ruta):
        return None
    partes = os.path.normpath(dest_path).split(os.sep)
    alumno, tarea = (partes[-2], partes[-1]) if len(partes) >= 2 else ("?", "?")
    motivo = aa.es_archivo_normal(ruta, 256)
    texto = aa.leer_pequeño(ruta, 256) if motivo is None else None
    if texto is not None and texto.strip():
        try:
            return parse_utc(texto.strip())
        except Exception:  # noqa: BLE001 - any garbled text: a reason, not an abort
            motivo = "no contiene una fecha válida"
    elif texto is not None:
        motivo = "está vacío"
    self.log.warning("%s de '%s' en '%s': timestamp.txt %s; se califica sin fecha de entrega",
                     aa.MARCA, aa.nombre_legible(alumno), aa.nombre_legible(tarea), motivo)
    return None


# A JSON list of student ids the run must leave out, for ``make grade``'s workers: nbgrader's own
# ``CourseDirectory.student_id_exclude`` is split on commas, so a folder name with a comma could not
# be left out (and a batch would grade it twice at once).
VARIABLE_EXCLUIDOS = "CURSO_ALUMNOS_EXCLUIDOS"


def alumnos_excluidos() -> frozenset[str]:
    """The ids listed in the JSON file named by ``CURSO_ALUMNOS_EXCLUIDOS`` (empty without it).

    Raises:
        NbGraderException: the file cannot be read or is not a JSON list of strings
            (grading the wrong students is worse than stopping).
    """
    ruta = os.environ.get(VARIABLE_EXCLUIDOS)
    if not ruta:
        return frozenset()
    try:
        with open(ruta, encoding="utf-8") as f:
            ids = json.load(f)
    except (OSError, ValueError) as error:
        raise NbGraderException(f"{VARIABLE_EXCLUIDOS}: no se pudo leer {ruta}: {error}") from None
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise NbGraderException(f"{VARIABLE_EXCLUIDOS}: {ruta} no es una lista JSON de identificadores")
    return frozenset(ids)


def _init_destination(self, assignment_id: str, student_id: str) -> bool:
    if student_id in alumnos_excluidos():
        return False
    return _originales["BaseConverter.init_destination"](self, assignment_id, student_id)


def _autograde_init_assignment(self, assignment_id: str, student_id: str) -> None:
    """nbgrader's, and when it finds no notebook of the assignment, the submission's cells at 0 points.

    nbgrader creates the submission (every cell «needs manual grade», no
    score) before it looks for the notebooks; when none is the assignment's,
    it stops there, and the student is exported as 0 «needing manual grading»
    forever.  Here those cells get nbgrader's own treatment of a missing
    notebook (``auto_score = 0``, no manual grade needed) before the error goes on.
    """
    try:
        _originales["Autograde.init_assignment"](self, assignment_id, student_id)
    except NbGraderException:
        from nbgrader.api import Gradebook, MissingEntry
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            try:
                entrega = gb.find_submission(assignment_id, student_id)
            except MissingEntry:
                raise
            for cuaderno in entrega.notebooks:
                if all(g.auto_score is None and g.manual_score is None for g in cuaderno.grades):
                    for g in cuaderno.grades:
                        g.auto_score, g.needs_manual_grade = 0.0, False
            gb.db.commit()
        self.log.warning("Ningún cuaderno de la entrega de '%s' en '%s' es de la tarea: sus celdas quedan con 0 "
                         "puntos", aa.nombre_legible(student_id), aa.nombre_legible(assignment_id))
        raise


def aplicar() -> None:
    """Install the replacements (idempotent).  Called from ``nbgrader_config.py``."""
    if _originales:
        return
    import nbgrader
    if nbgrader.__version__ != VERSION_PROBADA:
        import logging
        logging.getLogger("nbgrader").warning(
            "grader_tests.extensiones_nbgrader.nbgrader_seguro se probó con nbgrader %s y este es %s: revisa los métodos "
            "que reemplaza.", VERSION_PROBADA, nbgrader.__version__)
    for clase, nombre, nuevo in ((BaseConverter, "init_destination", _init_destination),
                                 (BaseConverter, "init_assignment", _init_assignment),
                                 (BaseConverter, "set_permissions", _set_permissions),
                                 (BaseConverter, "write_single_notebook", _write_single_notebook),
                                 (CourseDirectory, "get_existing_timestamp", _get_existing_timestamp),
                                 (Autograde, "init_assignment", _autograde_init_assignment)):
        _originales[f"{clase.__name__}.{nombre}"] = getattr(clase, nombre)
        setattr(clase, nombre, nuevo)


# ------------------------------------------------------------ preprocessors

def _carpeta(resources) -> str:
    return (resources.get("metadata") or {}).get("path") or ""


class SanearTrasElKernel(NbGraderPreprocessor):
    """Autograde, right after the student's kernel: clean its folder before anything reads it.

    The kernel (and every process it started) is gone by now.  Removes links,
    special files and the excess over the budget from
    ``autograded/<alumno>/<tarea>/``, puts nbgrader's own files back from
    ``submitted/`` (the kernel could delete or rewrite them), and records the
    reports in the notebook's metadata for the feedback.
    """

    def preprocess(self, nb, resources):
        carpeta = _carpeta(resources)
        datos = resources.get("nbgrader") or {}
        alumno, tarea = datos.get("student", "?"), datos.get("assignment", "?")
        if carpeta and os.path.isdir(carpeta):
            coursedir = CourseDirectory(config=self.config)
            presupuesto = aa.PresupuestoEntrega(config=self.config)
            propios = archivos_de_la_tarea(coursedir, tarea)
            cuadernos = {os.path.basename(c) for c in _cuadernos_de(coursedir, tarea)}
            avisos = aa.sanear(carpeta, presupuesto, propios | cuadernos)
            enviada = coursedir.format_path(coursedir.submitted_directory, alumno, tarea)
            for nombre in aa.ARCHIVOS_NBGRADER:
                origen = os.path.join(enviada, nombre)
                if aa.es_archivo_normal(origen, 4096) is None:
                    try:
                        aa.copiar_archivo(origen, os.path.join(carpeta, nombre), 4096)
                    except OSError:
                        pass
                else:
                    aa._quitar(carpeta, nombre)
            aa.registrar(carpeta, avisos, self.log, alumno, tarea)
            nb.metadata[CLAVE_AVISOS] = aa.avisos_de(carpeta)
        return nb, resources


def _cuadernos_de(coursedir, tarea: str) -> list[str]:
    raiz = coursedir.format_path(coursedir.source_directory, ".", tarea)
    try:
        return [n for n in os.listdir(raiz) if n.endswith(".ipynb")]
    except OSError:
        return []


class AvisosEnComentarios(NbGraderPreprocessor):
    """generate_feedback: add this step's reports to the ones autograde left in the notebook."""

    def preprocess(self, nb, resources):
        carpeta = _carpeta(resources)
        anteriores = nb.metadata.get(CLAVE_AVISOS)
        lista = [str(a) for a in anteriores if isinstance(a, str)] if isinstance(anteriores, list) else []
        for aviso in aa.avisos_de(carpeta) if carpeta else []:
            if aviso not in lista:
                lista.append(aviso)
        nb.metadata[CLAVE_AVISOS] = [aa.nombre_legible(a, 300) for a in lista[:50]]
        return nb, resources


__all__ = ["aplicar", "SanearTrasElKernel", "AvisosEnComentarios", "archivos_de_la_tarea"]
