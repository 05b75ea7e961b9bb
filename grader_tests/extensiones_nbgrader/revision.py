"""A new submission never keeps the manual grades of an older one: they are held for the TA's review.

nbgrader 0.9.6 keeps a grade's ``manual_score`` across autogrades (``SaveAutoGrades``
only marks the cell «needs manual grade»), so a student who fixes a function
and resubmits keeps the old manual 1/3 over the new automatic 3/3, with the
old comment about the bug, and feedback can be generated and released anyway.

The course's policy (README, «Entregas nuevas y notas a mano»):

* When autograde grades a notebook that is not the one graded last time (its
  SHA-256 in ``submitted/`` changed: a resubmission, collected again or
  downloaded again from the LMS; the same file sent again is not), every manual
  score, extra credit and manual comment of that notebook is **held**: taken
  out of the gradebook (so nothing stale counts or reaches the student), kept
  in ``revisiones/<tarea>/<alumno>/<cuaderno>.json``, and each held cell is
  marked «needs manual grade» in nbgrader's gradebook; the comment box of the
  exercise's answer cell gets a note (:data:`MARCA`) that says what was held.
  The old feedback of that student and assignment is removed.
* The TA resolves it in formgrader's submission page, whose «⚠ PENDIENTE DE
  REVISIÓN» box (``formgrader_avisos``, ``plantillas/formgrader``) lists what is
  held: «Aceptar la nota automática» saves each held cell with no manual score
  (nbgrader's API: the cell no longer needs manual grading) and empties the
  comment boxes that still hold the note; or the TA types another score in
  the marked cell and replaces the note with a comment.  Regrading the same
  submission (``make grade`` twice) changes nothing: a manual grade given to
  this very submission stands.
* Until then, nothing about that submission goes to the student:
  ``generate_feedback`` refuses it (:class:`ComprobarRevision`, also from
  formgrader's buttons), ``release_feedback`` does not publish it
  (``grader_tests.extensiones_nbgrader.intercambio``), the LMS exports leave it blank, and the
  ``make grade`` table and ``grades.csv`` say «pendiente de revisión».

:class:`GuardarNotasAutomaticas` replaces nbgrader's ``SaveAutoGrades`` in the
course's autograde pipeline (same work, plus the hold);
:func:`pendientes` is what every step asks.
"""
from __future__ import annotations

import json
import logging
import os
import re
import shutil
import sys

from nbgrader.converters.base import NbGraderException
from nbgrader.preprocessors import NbGraderPreprocessor, SaveAutoGrades
from traitlets import Unicode

from .registro_de_veredictos import nombre_seguro

VERSION = 1
CARPETA = "revisiones"
MARCA = "⚠ PENDIENTE DE REVISIÓN"


class PendienteDeRevision(NbGraderException):
    """A submission with held manual grades: no feedback until the TA reviews it (Spanish message)."""


# ------------------------------------------------------------------------------ records

def ruta(carpeta: str, tarea: str, alumno: str, cuaderno: str) -> str | None:
    """``<carpeta>/<tarea>/<alumno>/<cuaderno>.json``, None for an id that cannot be a path component."""
    if not all(nombre_seguro(n) for n in (tarea, alumno, cuaderno)):
        return None
    return os.path.join(carpeta, tarea, alumno, f"{cuaderno}.json")


def leer(carpeta: str, tarea: str, alumno: str, cuaderno: str) -> dict | None:
    camino = ruta(carpeta, tarea, alumno, cuaderno)
    if camino is None or os.path.islink(camino):
        return None
    try:
        with open(camino, encoding="utf-8") as f:
            datos = json.load(f)
    except (OSError, ValueError):
        return None
    return datos if isinstance(datos, dict) else None


def escribir(carpeta: str, tarea: str, alumno: str, cuaderno: str, datos: dict) -> None:
    camino = ruta(carpeta, tarea, alumno, cuaderno)
    if camino is None:
        return
    os.makedirs(os.path.dirname(camino), exist_ok=True)
    temporal = f"{camino}.{os.getpid()}.tmp"
    with open(temporal, "w", encoding="utf-8") as f:
        json.dump({"version": VERSION, **datos}, f, ensure_ascii=False, indent=1, sort_keys=True)
    os.replace(temporal, camino)


def marca_de_tiempo(entrega) -> str | None:
    """The submission's timestamp as recorded (nbgrader's naive UTC, ISO), None without one."""
    return entrega.timestamp.isoformat() if entrega.timestamp is not None else None


def _puntos(x) -> str:
    return "—" if x is None else f"{float(x):g}"


def _objetivo(grade_id: str) -> str | None:
    """The answer cell a test cell grades (``multi_head_salida`` → ``multi_head``), when the course knows it."""
    try:
        from ..en_el_kernel.casos import especificacion
        return especificacion(grade_id).objetivo
    except Exception:  # noqa: BLE001 - a cell the course does not define: no objective
        return None


def nota_para_el_profesorado(fecha: str, notas: dict, comentario: str | None) -> str:
    """The note left in an answer cell's comment box (formgrader shows it; it never reaches a student)."""
    partes = [f"{MARCA}: es una entrega nueva ({fecha}). Lo que pusiste a mano en la entrega anterior no se ha "
              "aplicado:"]
    for gid, d in sorted(notas.items()):
        extra = f" (+{_puntos(d.get('extra_credit'))} extra)" if d.get("extra_credit") is not None else ""
        partes.append(f"- {gid}: {_puntos(d.get('manual_score'))} a mano{extra}; la corrección automática da "
                      "ahora la nota de la casilla")
    if comentario:
        partes.append(f"- comentario anterior: «{comentario}»")
    partes.append("Para aceptar la nota automática, pulsa «Aceptar la nota automática» en el recuadro de arriba; "
                  "para poner otra, escríbela en la celda marcada y sal de la casilla. Sustituye esta nota por el "
                  "comentario de esta entrega, o bórrala.")
    return "\n".join(partes)


# ------------------------------------------------------------------------------ what is pending

def pendientes_de_cuaderno(gb, carpeta: str, tarea: str, alumno: str, cuaderno, guardar: bool = True) -> dict:
    """The held items of one ``SubmittedNotebook`` that the TA has not resolved yet.

    A held grade is resolved once its cell no longer needs manual grading (the
    TA saved it in formgrader); a held comment once its box no longer holds
    the note.  Resolved items are dropped from the record (``guardar``).
    Returns ``{"notas": {grade_id: ...}, "comentarios": {grade_id: ...}, "desde": ...}`` (empty dicts: nothing).
    """
    registro = leer(carpeta, tarea, alumno, cuaderno.name)
    if not registro or not registro.get("pendientes"):
        return {"notas": {}, "comentarios": {}}
    pend = registro["pendientes"]
    notas = {g.name: g for g in cuaderno.grades}
    comentarios = {c.name: c for c in cuaderno.comments}
    quedan_notas = {gid: d for gid, d in (pend.get("notas") or {}).items()
                    if gid in notas and notas[gid].needs_manual_grade}
    quedan_coment = {gid: d for gid, d in (pend.get("comentarios") or {}).items()
                     if gid in comentarios and (comentarios[gid].manual_comment or "").startswith(MARCA)}
    if guardar and (quedan_notas != (pend.get("notas") or {}) or quedan_coment != (pend.get("comentarios") or {})):
        pend = {**pend, "notas": quedan_notas, "comentarios": quedan_coment}
        if not quedan_notas and not quedan_coment:
            pend = {}
        escribir(carpeta, tarea, alumno, cuaderno.name, {**registro, "pendientes": pend})
    return {"notas": quedan_notas, "comentarios": quedan_coment, "desde": pend.get("desde") if pend else None}


def pendientes(gb, carpeta: str, tarea: str, alumno: str, guardar: bool = True) -> list[str]:
    """Spanish lines about what is still held for review in a student's assignment (empty: nothing).

    Reads the student's records first: the gradebook is asked only when one holds something.
    ``guardar=False``: read only (pages that ask while an autograde may be writing the same records).
    """
    from nbgrader.api import MissingEntry
    carpeta_alumno = ruta(carpeta, tarea, alumno, "x")
    if carpeta_alumno is None or not os.path.isdir(os.path.dirname(carpeta_alumno)):
        return []
    con_algo = [n[:-5] for n in sorted(os.listdir(os.path.dirname(carpeta_alumno))) if n.endswith(".json")
                and (leer(carpeta, tarea, alumno, n[:-5]) or {}).get("pendientes")]
    if not con_algo:
        return []
    try:
        entrega = gb.find_submission(tarea, alumno)
    except MissingEntry:
        return []
    lineas = []
    for cuaderno in sorted(entrega.notebooks, key=lambda n: n.name):
        if cuaderno.name not in con_algo:
            continue
        p = pendientes_de_cuaderno(gb, carpeta, tarea, alumno, cuaderno, guardar)
        celdas = sorted(p["notas"]) + [f"comentario de {g}" for g in sorted(p["comentarios"])]
        if celdas:
            lineas.append(f"pendiente de revisión: entrega nueva; lo que se puso a mano en la anterior no se aplica "
                          f"hasta que se revise en formgrader ({cuaderno.name}: {', '.join(celdas)}); sus "
                          "comentarios no se generan ni se publican hasta entonces")
    return lineas


def con_pendientes(gb, carpeta: str, tarea: str | None = None, guardar: bool = True) -> set[tuple[str, str]]:
    """``(alumno, tarea)`` of every submission with something still held (reads the records; linear).

    ``guardar=False``: read only (see :func:`pendientes`).
    """
    quien: set[tuple[str, str]] = set()
    if not os.path.isdir(carpeta):
        return quien
    for t in sorted(os.listdir(carpeta)):
        if (tarea is not None and t != tarea) or not os.path.isdir(os.path.join(carpeta, t)):
            continue
        for a in sorted(os.listdir(os.path.join(carpeta, t))):
            if pendientes(gb, carpeta, t, a, guardar):
                quien.add((a, t))
    return quien


# ------------------------------------------------------------------------------ nbgrader's pipelines

def _carpeta_por_defecto(config) -> str:
    from nbgrader.coursedir import CourseDirectory
    return os.path.join(CourseDirectory(config=config).root, CARPETA)


class GuardarNotasAutomaticas(SaveAutoGrades):
    """nbgrader's ``SaveAutoGrades`` plus the hold of a resubmission's stale manual grades (module docstring)."""

    carpeta = Unicode("", help="Folder of the review records (default: <course root>/revisiones).").tag(config=True)

    def _carpeta(self) -> str:
        return self.carpeta or _carpeta_por_defecto(self.config)

    def preprocess(self, nb, resources):
        from nbgrader.api import Gradebook
        datos = resources["nbgrader"]
        tarea, alumno, nombre = datos["assignment"], datos["student"], datos["notebook"]
        carpeta = self._carpeta()
        huella = self._huella(tarea, alumno, nombre)
        registro = leer(carpeta, tarea, alumno, nombre) or {}
        with Gradebook(datos["db_url"]) as gb:
            cuaderno = gb.find_submission_notebook(nombre, tarea, alumno)
            marca = marca_de_tiempo(cuaderno.assignment)
            # what the TA already resolved in formgrader is no longer pending
            pend = pendientes_de_cuaderno(gb, carpeta, tarea, alumno, cuaderno) if registro else {}
            nueva = bool(registro) and huella is not None and registro.get("huella") not in (None, huella)
            if nueva:
                retenidas = self._retener(gb, cuaderno, marca, tarea, alumno)
                if retenidas["notas"] or retenidas["comentarios"]:
                    pend = {"notas": {**(pend.get("notas") or {}), **retenidas["notas"]},
                            "comentarios": {**(pend.get("comentarios") or {}), **retenidas["comentarios"]},
                            "desde": marca, "entrega_anterior": registro.get("entrega")}
        nb, resources = super().preprocess(nb, resources)
        notas_pendientes = set((pend or {}).get("notas") or {})
        with Gradebook(datos["db_url"]) as gb:
            for g in gb.find_submission_notebook(nombre, tarea, alumno).grades:
                if g.name in notas_pendientes:
                    g.needs_manual_grade = True
                elif g.manual_score is not None:
                    # a manual grade given to this very submission stands (nbgrader would ask again)
                    g.needs_manual_grade = False
            gb.db.commit()
        if not (pend and (pend.get("notas") or pend.get("comentarios"))):
            pend = {}
        escribir(carpeta, tarea, alumno, nombre, {"tarea": tarea, "alumno": alumno, "cuaderno": nombre,
                                                   "huella": huella, "entrega": marca, "pendientes": pend})
        return nb, resources

    def _huella(self, tarea: str, alumno: str, nombre: str) -> str | None:
        """SHA-256 of the submitted notebook (``submitted/``): what tells a new submission from a regrade."""
        import hashlib
        from nbgrader.coursedir import CourseDirectory
        coursedir = CourseDirectory(config=self.config)
        camino = os.path.join(coursedir.format_path(coursedir.submitted_directory, alumno, tarea), f"{nombre}.ipynb")
        try:
            fd = os.open(camino, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        suma = hashlib.sha256()
        with os.fdopen(fd, "rb") as f:
            for trozo in iter(lambda: f.read(1 << 20), b""):
                suma.update(trozo)
        return suma.hexdigest()

    def _retener(self, gb, cuaderno, actual, tarea, alumno) -> dict:
        """Take the manual values out of the gradebook; leave the note in the answer cells' comment boxes."""
        notas: dict[str, dict] = {}
        comentarios: dict[str, dict] = {}
        for g in cuaderno.grades:
            if g.manual_score is not None or g.extra_credit is not None:
                notas[g.name] = {"manual_score": g.manual_score, "extra_credit": g.extra_credit,
                                 "auto_score_anterior": g.auto_score}
                g.manual_score = None
                g.extra_credit = None
        cajas = {c.name: c for c in cuaderno.comments}
        anteriores = {n: c.manual_comment for n, c in cajas.items()
                      if c.manual_comment and c.manual_comment.strip() and not c.manual_comment.startswith(MARCA)}
        if not notas and not anteriores:
            return {"notas": {}, "comentarios": {}}
        # each held grade's note goes to the answer cell it grades (or the first answer cell)
        por_caja: dict[str, dict] = {}
        primera = sorted(cajas)[0] if cajas else None
        for gid, d in notas.items():
            destino = _objetivo(gid)
            destino = destino if destino in cajas else primera
            if destino is not None:
                por_caja.setdefault(destino, {})[gid] = d
        fecha = fecha_de_entrega(actual)
        for nombre_caja in sorted(set(por_caja) | set(anteriores)):
            comentarios[nombre_caja] = {"manual_comment": anteriores.get(nombre_caja)}
            cajas[nombre_caja].manual_comment = nota_para_el_profesorado(
                fecha, por_caja.get(nombre_caja, {}), anteriores.get(nombre_caja))
        gb.db.commit()
        self.log.warning("%s / %s / %s: entrega nueva; se retienen para revisión las notas a mano %s y los "
                         "comentarios de %s", alumno, tarea, cuaderno.name, sorted(notas) or "—",
                         sorted(anteriores) or "—")
        self._quitar_comentarios_viejos(tarea, alumno)
        return {"notas": notas, "comentarios": comentarios}

    def _quitar_comentarios_viejos(self, tarea: str, alumno: str) -> None:
        """The old submission's feedback must not be published or uploaded in the meantime."""
        from nbgrader.coursedir import CourseDirectory
        coursedir = CourseDirectory(config=self.config)
        carpeta = os.path.normpath(coursedir.format_path(coursedir.feedback_directory, alumno, tarea))
        if os.path.isdir(carpeta) and not os.path.islink(carpeta):
            shutil.rmtree(carpeta, ignore_errors=True)
            self.log.warning("Se quitan los comentarios de la entrega anterior de %s / %s", alumno, tarea)


def fecha_de_entrega(iso: str | None) -> str:
    """«entregada el miércoles 02/12/2026 00:34:58 (hora de Madrid)» from nbgrader's naive-UTC ISO time."""
    if not iso:
        return "sin fecha de entrega"
    import datetime as dt
    from .plazos import mostrar
    try:
        return "entregada el " + mostrar(dt.datetime.fromisoformat(iso))
    except ValueError:
        return iso


class ComprobarRevision(NbGraderPreprocessor):
    """generate_feedback (command line and formgrader): refuse a submission held for review.

    First in ``GenerateFeedback.preprocessors``: nbgrader then reports the
    error for that student, removes its feedback folder and goes on with
    the others (the run ends with an error, which formgrader shows).
    """

    carpeta = Unicode("", help="Folder of the review records (default: <course root>/revisiones).").tag(config=True)

    def preprocess(self, nb, resources):
        from nbgrader.api import Gradebook
        datos = resources["nbgrader"]
        carpeta = self.carpeta or _carpeta_por_defecto(self.config)
        with Gradebook(datos["db_url"]) as gb:
            lineas = pendientes(gb, carpeta, datos["assignment"], datos["student"])
        if lineas:
            texto = (f"No se generan los comentarios de '{datos['student']}' en '{datos['assignment']}': "
                     + "; ".join(lineas))
            filtro = SinTrazaDeLaNegativa.en(self.log)
            filtro.negadas.add((str(datos["assignment"]), str(datos["student"])))
            self.log.error(texto)
            raise PendienteDeRevision(texto)
        return nb, resources


class SinTrazaDeLaNegativa(logging.Filter):
    """On the converter's logger: an expected refusal (:class:`PendienteDeRevision`) logs one line, ours.

    nbgrader's ``convert_notebooks`` logs every failed submission with «There was an error processing
    assignment», its traceback, «Removing failed assignment», then «… for student '…'» and «Please see the
    the above traceback»: in the hub's log, a traceback for a refusal the TA asked for.  This filter drops
    what nbgrader logs while a ``PendienteDeRevision`` is being handled and the summary lines of the refused
    students (a run where something else failed keeps its summary and traceback).  The Spanish line
    «No se generan los comentarios de '<alumno>' en '<tarea>': …» stays: formgrader's dialog
    (``formgrader_avisos.negativa_por_revision``) reads the refused students from it.
    """

    _RESUMEN = re.compile(r"^There was an error processing assignment '(.*)' for student '(.*)'$", re.S)

    def __init__(self):
        super().__init__()
        self.negadas: set[tuple[str, str]] = set()
        self.otros_fallos = False

    @classmethod
    def en(cls, log) -> "SinTrazaDeLaNegativa":
        """The filter on ``log`` (a ``logging.Logger`` or an adapter of one), added once."""
        logger = getattr(log, "logger", log)
        for f in logger.filters:
            if isinstance(f, cls):
                return f
        filtro = cls()
        logger.addFilter(filtro)
        return filtro

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.negadas:
            return True
        if isinstance(sys.exc_info()[1], PendienteDeRevision):
            return False                   # nbgrader's «error processing», traceback, «Removing failed …»
        mensaje = record.getMessage()
        resumen = self._RESUMEN.match(mensaje)
        if resumen:
            if (resumen.group(1), resumen.group(2)) in self.negadas:
                return False
            self.otros_fallos = True
            return True
        if mensaje.startswith("Please see the"):    # the run's last line: the next one starts afresh
            otros = self.otros_fallos
            self.negadas, self.otros_fallos = set(), False
            return otros
        return True


class NotaAManoEnComentarios(NbGraderPreprocessor):
    """generate_feedback, after ``GetGrades``: a cell graded by hand says so next to its points.

    The judge's verdict in the cell's output («✔ Puntos: 3 de 3») is the
    automatic grade; when the TA graded the cell by hand with another score,
    the feedback would show «Puntos: 1.0 / 3.0» above it with no explanation.
    The cell's metadata gets ``curso_nota_automatica`` and the feedback
    template explains that the points were given by hand.
    """

    def preprocess(self, nb, resources):
        from nbgrader.api import Gradebook
        datos = resources["nbgrader"]
        with Gradebook(datos["db_url"]) as gb:
            cuaderno = gb.find_submission_notebook(datos["notebook"], datos["assignment"], datos["student"])
            a_mano = {g.name: g.auto_score for g in cuaderno.grades
                      if g.manual_score is not None and g.auto_score is not None
                      and abs(float(g.manual_score) - float(g.auto_score)) > 1e-9}
        for celda in nb.cells:
            meta = celda.get("metadata", {}).get("nbgrader", {})
            if meta.get("grade_id") in a_mano:
                meta["curso_nota_automatica"] = a_mano[meta["grade_id"]]
                # and the verdict's last line says which points it gives (a hub TA: «✘ Puntos: 0 de 1» under a
                # cell worth 0.5 by hand read as two scores for one cell)
                for salida in celda.get("outputs", []):
                    if salida.get("output_type") == "stream" and isinstance(salida.get("text"), str):
                        salida["text"] = _VEREDICTO.sub(r"\1 Puntos de la corrección automática: \2 de \3 (cuenta la "
                                                        "nota puesta a mano, arriba)", salida["text"])
        return nb, resources


_VEREDICTO = re.compile(r"^([✔◐✘]) Puntos: ([0-9.,]+) de ([0-9.,]+)$", re.MULTILINE)
