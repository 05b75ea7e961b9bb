"""The fingerprint of what a feedback file states: Release Feedback never publishes a stale grade.

nbgrader's ``generate_feedback`` writes an HTML page with the grades of the
moment; ``release_feedback`` copies whatever HTML is there.  A grade typed in
formgrader after *Generate Feedback*, an extension or a due date changed in
``nbgrader_config.py`` (``plazos``: the late penalty changes), or a new
submission graded since, and the student would read a grade or a penalty that
is no longer true, with nothing said to the TA (issue 21, fifth TA's report, P1).

The course's policy (docs/profesorado.md, «Comentarios desactualizados»):

* :func:`huella` is the SHA-256 of a canonical JSON of what the feedback of one
  notebook states, read from nbgrader's gradebook: the submission's time, the
  notebook's score, maximum and late penalty (and, under a penalty, the delay
  and the due date the feedback names), and for each graded or commented cell
  its ``grade_id``, the score in force (manual if any, else automatic, plus
  extra credit), its maximum, the automatic score when a different manual
  one is in force (the feedback says «puestos a mano»), and the comment in
  force.  :func:`huellas` computes it for a whole assignment in a handful of
  queries (``notas_en_bloque``); :func:`huella` is the same for one notebook.
* At *Generate Feedback* :class:`HuellaEnComentarios` (after ``GetGrades``,
  ``AplicarPlazos`` and ``NotaAManoEnComentarios``) puts it in the page's head,
  ``<meta name="curso-huella" content="…">`` (``plantillas/retroalimentacion``),
  only when the gradebook still says what ``GetGrades`` wrote into the page.
* At *Release Feedback* (``intercambio.PublicarComentariosSeguro``) the due dates
  are brought up to date (``plazos.sincronizar``) and each page's fingerprint is
  compared with the gradebook's now: a student whose page differs or has none
  is not published, with the Spanish reason :data:`MOTIVO`; the rest of the class is.
  The course page of the hub lists them (:func:`desactualizados`), and also the students whose
  page in the exchange (what they fetch) is older than the current one in ``feedback/``.

Nothing of the page but that one tag is read, and only from its first bytes,
before ``<title>``: the template writes it there, ahead of anything that
depends on the submission (the rest of the page holds the student's text).
"""
from __future__ import annotations

import datetime as dt
import glob
import hashlib
import hmac
import json
import os
import re
import stat

from nbgrader.preprocessors import NbGraderPreprocessor

VERSION = 1
NOMBRE_META = "curso-huella"
CLAVE_RECURSOS = "curso_huella"            # resources["nbgrader"][...]: the template writes it
PREFIJO_LEIDO = 4096                       # bytes of a page where the tag must be (before <title>)
MOTIVO = ("comentarios desactualizados: la nota cambió después de Generate Feedback; vuelve a pulsar "
          "Generate Feedback")
MOTIVO_SIN_HUELLA = ("comentarios sin huella (generados antes de esta comprobación, o el archivo no es el que "
                     "escribió Generate Feedback): vuelve a pulsar Generate Feedback")
MOTIVO_PUBLICADOS = ("los comentarios publicados son de antes del último Generate Feedback: pulsa Release "
                     "Feedback")
MOTIVO_SIN_ENTREGA = ("comentarios de una entrega que no está en el libro de notas: vuelve a pulsar "
                      "Generate Feedback")

# the page is serialised again after the template (html_seguro): the attributes may come in either order
_META = re.compile(rb'<meta\s+(?:name="' + NOMBRE_META.encode() + rb'"\s+content="([0-9a-f]{64})"|content="([0-9a-f]{64})"'
                   rb'\s+name="' + NOMBRE_META.encode() + rb'")\s*/?>')


def _r(x) -> float | None:
    """A score as the fingerprint keeps it: rounded to 6 decimals (the SQL and Python sums agree there)."""
    return None if x is None else round(float(x), 6) + 0.0


def _iso(instante: dt.datetime | None) -> str | None:
    return None if instante is None else instante.isoformat()


def _datos(e, cuaderno: str, maximos: dict[str, float], comentarios: dict[str, str | None]) -> dict:
    """The canonical content of one notebook's feedback (``e``: a ``notas_en_bloque.EntregaEnBloque``)."""
    celdas = e.cuadernos.get(cuaderno, {})
    penal = float(e.penalizaciones.get(cuaderno) or 0.0)
    retraso = None
    if penal > 0:
        # the feedback's sentence under the penalty: how late, after which due date (plazos.para_el_alumno)
        retraso = {"segundos": int(e.segundos_tarde), "plazo": _iso(e.plazo_efectivo),
                   "prorroga": bool(e.extension)}
    por_celda: dict[str, dict] = {}
    for gid in sorted(set(celdas) | set(comentarios)):
        d: dict = {}
        nota = celdas.get(gid)
        if nota is not None:
            d["puntos"] = _r(nota.score)
            d["maximo"] = _r(maximos.get(gid))
            a_mano = (nota.manual_score is not None and nota.auto_score is not None
                      and abs(float(nota.manual_score) - float(nota.auto_score)) > 1e-9)
            d["automatica"] = _r(nota.auto_score) if a_mano else None
        if gid in comentarios:
            d["comentario"] = comentarios[gid]
        por_celda[gid] = d
    return {"version": VERSION, "tarea": e.tarea, "alumno": e.alumno, "cuaderno": cuaderno,
            "entrega": _iso(e.timestamp), "puntos": _r(e.puntos_del_cuaderno(cuaderno)),
            "maximo": _r(sum(float(maximos.get(g) or 0.0) for g in celdas)), "penalizacion": _r(penal),
            "retraso": retraso, "celdas": por_celda}


def _resumen(datos: dict) -> str:
    texto = json.dumps(datos, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(texto.encode("utf-8")).hexdigest()


def contenidos(gb, tarea: str, alumnos: list[str] | None = None, cuaderno: str | None = None) -> dict:
    """``{(alumno, cuaderno): canonical dict}`` of the feedback of ``tarea`` as the gradebook says it now.

    ``gb``: an open ``nbgrader.api.Gradebook``; ``alumnos``: only these students (None: all);
    ``cuaderno``: only this notebook.  Linear in the class (a handful of queries).
    """
    from nbgrader.api import BaseCell, Comment, GradeCell, TaskCell
    from .notas_en_bloque import leer
    libro = leer(gb, [tarea], alumnos)
    ids = {snid: (e, nombre) for e in libro.entregas.values() for nombre, snid in e.ids_de_cuaderno.items()
           if cuaderno is None or nombre == cuaderno}
    if not ids:
        return {}
    db = gb.db
    comentarios: dict[str, dict[str, str | None]] = {}
    for snid, nombre, manual, auto in db.query(Comment.notebook_id, BaseCell.name, Comment.manual_comment,
                                               Comment.auto_comment).join(
            BaseCell, BaseCell.id == Comment.cell_id).filter(Comment.notebook_id.in_(list(ids))):
        comentarios.setdefault(snid, {})[nombre] = manual if manual is not None else auto
    maximos: dict[str, dict[str, float]] = {}       # notebook name → grade_id → max score (the assignment's cells)
    from nbgrader.api import Assignment, Notebook
    for clase in (GradeCell, TaskCell):
        for nombre_cuaderno, gid, maximo in db.query(Notebook.name, clase.name, clase.max_score).join(
                Notebook, Notebook.id == clase.notebook_id).join(
                Assignment, Assignment.id == Notebook.assignment_id).filter(Assignment.name == tarea):
            maximos.setdefault(nombre_cuaderno, {})[gid] = maximo
    return {(e.alumno, nombre): _datos(e, nombre, maximos.get(nombre, {}), comentarios.get(snid, {}))
            for snid, (e, nombre) in ids.items()}


def huellas(gb, tarea: str, alumnos: list[str] | None = None) -> dict[tuple[str, str], str]:
    """``{(alumno, cuaderno): fingerprint}`` of every submitted notebook of ``tarea`` (see :func:`huella`)."""
    return {clave: _resumen(datos) for clave, datos in contenidos(gb, tarea, alumnos).items()}


def huella(gb, tarea: str, alumno: str, cuaderno: str) -> str | None:
    """The fingerprint of what the feedback of ``cuaderno`` of ``alumno`` in ``tarea`` states, from the gradebook.

    Args:
        gb: an open ``nbgrader.api.Gradebook``.
        tarea, alumno, cuaderno: nbgrader's assignment, student and notebook ids.

    Returns:
        64 hexadecimal characters (SHA-256 of the canonical JSON described in the module docstring),
        or None when the gradebook has no such submitted notebook.
    """
    datos = contenidos(gb, tarea, [alumno], cuaderno).get((alumno, cuaderno))
    return None if datos is None else _resumen(datos)


# ------------------------------------------------------------------------------ the page

def leer_de_html(ruta: str) -> str | None:
    """The fingerprint written in a feedback page, or None (no tag, two tags, not where the template puts it).

    Only the first :data:`PREFIJO_LEIDO` bytes are read, without following a link, and only what
    precedes ``<title>`` counts: the template's own head, before anything of the submission.
    """
    try:
        fd = os.open(ruta, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        inicio = os.read(fd, PREFIJO_LEIDO)
    finally:
        os.close(fd)
    cabeza = inicio.split(b"<title", 1)
    if len(cabeza) != 2:
        return None
    halladas = [a or b for a, b in _META.findall(cabeza[0])]
    return halladas[0].decode() if len(halladas) == 1 else None


def motivo(en_el_html: str | None, en_el_libro: str | None) -> str | None:
    """Why a page must not be published (Spanish), or None when its fingerprint is the gradebook's now."""
    if en_el_libro is None:
        return MOTIVO_SIN_ENTREGA
    if en_el_html is None:
        return MOTIVO_SIN_HUELLA
    return None if hmac.compare_digest(en_el_html, en_el_libro) else MOTIVO


def _publicada(carpeta_publicada: str, carpeta: str, cuaderno: str) -> str | None:
    """Where ``release_feedback`` put this page in the exchange (``<hash of the secret and notebook>.html``)."""
    from nbgrader.utils import notebook_hash
    from ..caja import archivos_alumno as aa
    secreto = aa.leer_pequeño(os.path.join(carpeta, "submission_secret.txt"), 1024)
    if not secreto or not secreto.strip():
        return None
    return os.path.join(carpeta_publicada, f"{notebook_hash(secret=secreto, notebook_id=cuaderno)}.html")


def desactualizados(gb, carpeta_feedback: str, tarea: str | None = None,
                    carpeta_publicada: str | None = None) -> dict[tuple[str, str], str]:
    """``{(alumno, tarea): Spanish reason}`` of the feedback that no longer states what the gradebook says.

    ``carpeta_feedback``: nbgrader's ``feedback/`` (``<alumno>/<tarea>/<cuaderno>.html``): a page there
    that Release Feedback would withhold.  ``carpeta_publicada``: the exchange's
    ``<course>/feedback/``, where ``release_feedback`` copied them: a page there (the one the student
    fetches) that is not the current one, when the one in ``feedback/`` is («pulsa Release Feedback»).
    Reads the gradebook in bulk per assignment and the first bytes of each page.
    """
    resultado: dict[tuple[str, str], str] = {}
    if not os.path.isdir(carpeta_feedback):
        return resultado
    paginas: dict[str, list[tuple[str, str, str]]] = {}
    for ruta in glob.glob(os.path.join(glob.escape(carpeta_feedback), "*", tarea and glob.escape(tarea) or "*",
                                       "*.html")):
        partes = os.path.normpath(ruta).split(os.sep)
        alumno, t, cuaderno = partes[-3], partes[-2], partes[-1][:-5]
        paginas.setdefault(t, []).append((alumno, cuaderno, ruta))
    for t, lista in sorted(paginas.items()):
        del_libro = huellas(gb, t)
        for alumno, cuaderno, ruta in sorted(lista):
            actual = del_libro.get((alumno, cuaderno))
            razon = motivo(leer_de_html(ruta), actual)
            if razon is None and carpeta_publicada:
                publicada = _publicada(carpeta_publicada, os.path.dirname(ruta), cuaderno)
                if publicada is not None and os.path.lexists(publicada) and motivo(leer_de_html(publicada), actual):
                    razon = MOTIVO_PUBLICADOS
            if razon and (alumno, t) not in resultado:
                resultado[(alumno, t)] = f"{cuaderno}: {razon}"
    return resultado


# ------------------------------------------------------------------------------ generate_feedback

class HuellaEnComentarios(NbGraderPreprocessor):
    """generate_feedback, after ``GetGrades`` (and ``AplicarPlazos``): the page's fingerprint in its head.

    Leaves :func:`huella` in ``resources["nbgrader"]["curso_huella"]`` (the template writes the
    ``<meta>``), but only when the gradebook still holds what ``GetGrades`` put into the page (the
    notebook's score and penalty, each cell's score and comment): a grade saved in formgrader
    between the two steps leaves the page without one, and Release Feedback withholds it.
    """

    def preprocess(self, nb, resources):
        from nbgrader.api import Gradebook
        datos = resources.get("nbgrader") or {}
        tarea, alumno, cuaderno, url = (datos.get(k) for k in ("assignment", "student", "notebook", "db_url"))
        datos.pop(CLAVE_RECURSOS, None)
        if not (tarea and alumno and cuaderno and url):
            return nb, resources
        with Gradebook(url) as gb:
            contenido = contenidos(gb, tarea, [alumno], cuaderno).get((alumno, cuaderno))
        if contenido is None:
            return nb, resources
        if not self._coincide(contenido, nb, datos):
            self.log.warning("%s / %s / %s: la nota cambió mientras se generaban los comentarios; quedan sin huella "
                             "y Release Feedback no los publicará: vuelve a pulsar Generate Feedback",
                             alumno, tarea, cuaderno)
            return nb, resources
        datos[CLAVE_RECURSOS] = _resumen(contenido)
        return nb, resources

    @staticmethod
    def _coincide(contenido: dict, nb, datos: dict) -> bool:
        """Whether the page being written states what ``contenido`` (the gradebook, now) says."""
        if _r(datos.get("late_penalty") or 0) != contenido["penalizacion"]:
            return False
        if _r(datos.get("score")) != _r(contenido["puntos"] - contenido["penalizacion"]):
            return False
        from nbgrader import utils
        celdas = contenido["celdas"]
        for celda in nb.cells:
            # only what GetGrades wrote: the cells it reads from the gradebook (a student's metadata elsewhere
            # says nothing about the gradebook)
            d = celdas.get(celda.get("metadata", {}).get("nbgrader", {}).get("grade_id"))
            if d is None:
                continue
            meta = celda.metadata.nbgrader
            if (utils.is_grade(celda) or utils.is_task(celda)) and "puntos" in d and _r(meta.get("score")) != d["puntos"]:
                return False
            if (utils.is_solution(celda) or utils.is_task(celda)) and "comentario" in d \
                    and meta.get("comment") != d["comentario"]:
                return False
        return True
