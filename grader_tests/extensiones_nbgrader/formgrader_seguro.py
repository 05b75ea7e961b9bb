"""nbgrader's formgrader as the course serves it: escaped, under a strict CSP, offline, linked right.

nbgrader 0.9.6's formgrader builds its Jinja environment (no autoescape: the
student id, names and URL segments went into the pages raw), its handler list
and its exporter inside ``FormgradeExtension`` with nothing configurable
(README, «Límites»: what to report upstream).  ``aplicar()`` -- called from
``nbgrader_config.py``, which formgrader loads from the course root before it
builds any of them, locally and as the hub's service -- replaces those two
methods, and the submissions API's timestamp reading, with the versions here
(the one place, as ``nbgrader_seguro`` for the converters):

=============================================  ==============================================
nbgrader 0.9.6                                  here
=============================================  ==============================================
``FormgradeExtension.init_tornado_settings``    ``_init_tornado_settings``: Jinja environment with
                                                autoescape and the course's templates first
                                                (``plantillas/formgrader/paginas``); the exporter
                                                of the submission page with the course's
                                                ``formgrade`` template (``plantillas/formgrader``)
``FormgradeExtension.init_handlers``            ``_init_handlers``: nbgrader's handlers, each page
                                                with a per-response CSP nonce and every script
                                                tagged with it; the API's JSON as text; student files
                                                served only for the kinds of an allow-list, with its
                                                types, sandboxed; the course's scripts and
                                                MathJax (jupyter-server-mathjax) served locally;
                                                ``/formgrader?path=`` only for the course root (it
                                                runs that folder's nbgrader_config.py)
``NbGraderAPI.get_submitted_timestamp``         a garbled, special or out-of-range
                                                ``timestamp.txt`` is no timestamp, not a 500
``NbGraderAPI.get_submission(s)``               that submission shows «fecha ilegible»
``NbGraderAPI.get_assignments``                 the course's due dates (``plazos.toml``) written
                                                into the gradebook first (``formgrader_avisos.
                                                plazos_al_dia``): Manage Assignments never shows a
                                                date the course page already replaced
``NbGraderAPI.get_students``, ``get_student``   each maximum counts only the published assignments
                                                (released or handed in), as grades.csv
``NbGraderAPI.get_student_submissions``         a student's page lists only the published assignments
``NbGraderAPI.generate_feedback``,              the log without DEBUG records (template paths); a
``NbGraderAPI.release_feedback``                refusal only because of submissions held for review
                                                (``revision``), the Spanish reason alone
                                                (``formgrader_avisos.negativa_por_revision``)
=============================================  ==============================================

The course's own endpoints next to nbgrader's API (late work and held reviews on
formgrader's pages, drawn by the course's scripts): ``formgrader_avisos``.

The submission page is rendered in a worker thread (one at a time, ``_RENDER``),
never on the server's event loop: a huge notebook slows its own page, not
the TA's other pages or the API (``html_seguro`` caps what is rendered).  Its
«Submission #n» / student-name links open a read-only view of the notebook
(``/formgrader/curso/lectura/<submission id>/``, ``LecturaDeEntrega``), not
JupyterLab: opening a student's notebook there would start a kernel in the
student's folder, as the TA.

What a page may run: only scripts carrying the response's nonce (and what
they load: MathJax), ``script-src 'nonce-…' 'strict-dynamic'``; no inline
handler, no ``eval``, nothing from outside the server.  A student's
``<img onerror>`` that slipped past every escape would still not run.
"""
from __future__ import annotations

import asyncio
import functools
import os
import re
import secrets
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader
from tornado import web

from ..caja import archivos_alumno as aa

VERSION_PROBADA = "0.9.6"
RAIZ = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLANTILLAS = os.path.join(RAIZ, "plantillas", "formgrader")
PAGINAS = os.path.join(PLANTILLAS, "paginas")
ESTATICOS = os.path.join(PLANTILLAS, "static")
FECHA_ILEGIBLE = "fecha ilegible"
# URL (under the server's base_url) of the course's scripts and of the local MathJax
RUTA_ESTATICOS = "/formgrader/curso/static/"
RUTA_MATHJAX = "/formgrader/curso/mathjax/"
CONFIG_MATHJAX = "TeX-AMS-MML_HTMLorMML-full,Safe"
RUTA_LECTURA = "/formgrader/curso/lectura/"
AVISO_LECTURA = ("Vista de solo lectura de la entrega: no arranca ningún kernel ni ejecuta nada del alumno. "
                 "Para calificar, vuelve a la página de la entrega.")

# One worker renders submission pages: off the event loop, one notebook at a time (nbconvert's
# exporter is shared by every request).
_RENDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="curso-formgrader")


async def en_segundo_plano(funcion, *args, **kwargs):
    """``funcion(*args, **kwargs)`` in the formgrader's render thread (the event loop stays free)."""
    return await asyncio.get_running_loop().run_in_executor(_RENDER, functools.partial(funcion, *args, **kwargs))

_originales: dict[str, object] = {}


def politica(nonce: str) -> str:
    """The Content-Security-Policy of a formgrader page whose own scripts carry ``nonce``."""
    return ("default-src 'none'; "
            f"script-src 'nonce-{nonce}' 'strict-dynamic'; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
            "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'; "
            "object-src 'none'")


# CSP of what formgrader serves that is not one of its pages: JSON, a student's files.
POLITICA_DATOS = "default-src 'none'; frame-ancestors 'self'; sandbox"


def ruta_mathjax() -> str:
    """The folder of the MathJax 2.7 that jupyter-server-mathjax ships (formgrader's scripts need v2)."""
    from jupyter_server_mathjax.app import STATIC_ASSETS_PATH
    return str(STATIC_ASSETS_PATH)


# ------------------------------------------------------------------ handlers

class PaginaSegura:
    """Mixin for formgrader's HTML pages: a CSP with a fresh nonce, passed to the templates."""

    @property
    def curso_nonce(self) -> str:
        if getattr(self, "_curso_nonce", None) is None:
            self._curso_nonce = secrets.token_urlsafe(18)
        return self._curso_nonce

    @property
    def content_security_policy(self) -> str:
        return politica(self.curso_nonce)

    def curso_datos(self, ns: dict) -> dict:
        """What the course's scripts read from the page (JSON, never inline code)."""
        datos = {"base_url": self.base_url}
        for clave in ("assignment_id", "notebook_id", "student_id", "url_prefix", "default_timezone"):
            if clave in ns:
                datos[clave] = ns[clave]
        return datos

    def write_error(self, status_code, **kwargs):
        """nbgrader's pages for 403/500/502; for the rest (404...) the course's, not Jupyter's.

        Jupyter's error page has inline scripts (blocked here) and repeats the
        handler's message, which may hold a URL segment; this one says only the status.
        """
        if status_code in (403, 500, 502):
            return super().write_error(status_code, **kwargs)
        self.write(self.render("curso_error.tpl", error_code=status_code, razon=self._reason))
        self.finish()

    def render(self, name, **ns):
        ns.setdefault("base_url", self.base_url)
        ns["csp_nonce"] = self.curso_nonce
        ns["curso_pagina"] = name.rsplit(".", 1)[0]
        ns["curso_datos"] = dict(self.curso_datos(ns), pagina=ns["curso_pagina"])
        ns["curso_estaticos"] = self.base_url + RUTA_ESTATICOS
        return super().render(name, **ns)


class DatosSeguros:
    """Mixin for formgrader's JSON API: served as text, nothing a browser would run.

    nbgrader's handlers write JSON with tornado's default ``text/html``: a TA who
    opened an API URL (a link in a student's markdown) would get the students'
    names rendered as HTML.  ``text/plain`` (not ``application/json``: nbgrader's
    scripts ``JSON.parse`` the text that jQuery would otherwise parse first).
    """

    def set_default_headers(self):
        super().set_default_headers()
        self.set_header("Content-Type", "text/plain; charset=UTF-8")
        self.set_header("X-Content-Type-Options", "nosniff")

    @property
    def content_security_policy(self) -> str:
        return POLITICA_DATOS


def tipo_servido(ruta: str) -> str | None:
    """The Content-Type formgrader serves a submission's file as, or None: not served at all.

    An allow-list (``archivos_alumno.TIPOS_CONSERVADOS``): text as ``text/plain``, PNG/JPEG/GIF/WebP
    as themselves, NumPy's data as a download; never a type a browser would run (HTML, XHTML, SVG,
    MathML, any XML), whatever the file holds or its name claims.
    """
    _, extension = os.path.splitext(os.path.basename(ruta))
    tipo = aa.TIPOS_CONSERVADOS.get(extension.lower()) if extension else None
    if tipo == "text/plain":
        return "text/plain; charset=utf-8"
    return tipo


class ArchivosSeguros:
    """Mixin for the files of a submission formgrader serves: only kinds on the allow-list, never run.

    Whatever the course's copies hold, a file whose kind is not on ``TIPOS_CONSERVADOS`` gets 403 (a TA
    who keeps other kinds with ``c.PresupuestoEntrega.tipos_conservados`` opens them from the course
    folder); the others are served with the allow-list's type (never the one guessed from the name),
    downloads as attachments, with ``nosniff`` and a CSP sandbox.
    """

    def set_default_headers(self):
        super().set_default_headers()
        self.set_header("X-Content-Type-Options", "nosniff")

    @property
    def content_security_policy(self) -> str:
        return POLITICA_DATOS

    def validate_absolute_path(self, root, absolute_path):
        ruta = super().validate_absolute_path(root, absolute_path)
        if ruta is not None and tipo_servido(ruta) is None:
            raise web.HTTPError(403, "formgrader no sirve este tipo de archivo de una entrega")
        return ruta

    def get_content_type(self) -> str:
        return tipo_servido(self.absolute_path) or "application/octet-stream"

    def set_extra_headers(self, path):
        super().set_extra_headers(path)
        if self.get_content_type() == "application/octet-stream":
            self.set_header("Content-Disposition", "attachment")


class EstaticosDelCurso(web.StaticFileHandler):
    """The course's formgrader scripts and MathJax: plain files, no sniffing."""

    def set_default_headers(self):
        super().set_default_headers()
        self.set_header("X-Content-Type-Options", "nosniff")


def entrega_o_404(gradebook, submission_id: str):
    """The submitted notebook ``submission_id`` and its assignment, notebook and student names.

    Returns ``(submission, assignment_id, notebook_id, student_id)``; raises
    ``tornado.web.HTTPError(404)`` when the gradebook has no such submission.
    """
    from nbgrader.api import MissingEntry
    try:
        submission = gradebook.find_submission_notebook_by_id(submission_id)
        return submission, submission.assignment.assignment.name, submission.notebook.name, submission.student.id
    except MissingEntry:
        raise web.HTTPError(404, "Invalid submission") from None


def _pagina_de_entrega():
    """formgrader's submission page (nbgrader's ``SubmissionHandler``) with the course's resources."""
    from nbgrader.server_extensions.formgrader import handlers

    class PaginaDeEntrega(PaginaSegura, handlers.SubmissionHandler):
        """nbgrader 0.9.6's ``SubmissionHandler.get`` plus the nonce, the page data and local MathJax."""

        @web.authenticated
        async def get(self, submission_id):
            _ = self.xsrf_token
            if self.settings["nbgrader_bad_setup"]:
                return self.write_error(500)
            submission, assignment_id, notebook_id, student_id = entrega_o_404(self.gradebook, submission_id)

            if os.path.split(self.request.path)[1] == submission_id:
                url = self.request.path + "/"
                if self.request.query:
                    url += "?" + self.request.query
                return self.redirect(url, permanent=True)

            filename = os.path.join(os.path.abspath(self.coursedir.format_path(
                self.coursedir.autograded_directory, student_id, assignment_id)), f"{notebook_id}.ipynb")
            relative_path = os.path.relpath(filename, self.coursedir.root)
            indices = self.api.get_notebook_submission_indices(assignment_id, notebook_id)
            ix = indices.get(submission.id, -2)
            datos = dict(self.curso_datos({"assignment_id": assignment_id, "notebook_id": notebook_id}),
                         pagina="entrega", submission_id=submission.id,
                         notebook_path=self.url_prefix + "/" + relative_path)
            resources = {
                "assignment_id": assignment_id,
                "notebook_id": notebook_id,
                "submission_id": submission.id,
                "index": ix,
                "total": len(indices),
                "base_url": self.base_url,
                "student": student_id,
                "last_name": submission.student.last_name,
                "first_name": submission.student.first_name,
                "notebook_path": self.url_prefix + "/" + relative_path,
                "csp_nonce": self.curso_nonce,
                "curso_datos": datos,
                "curso_estaticos": self.base_url + RUTA_ESTATICOS,
                "curso_mathjax": f"{self.base_url}{RUTA_MATHJAX}MathJax.js?config={CONFIG_MATHJAX}",
                "curso_lectura": f"{self.base_url}{RUTA_LECTURA}{submission.id}/",
            }
            if not os.path.exists(filename):
                self.clear()
                self.set_status(404)
                self.write(self.render("formgrade_404.tpl", resources=resources,
                                       notebook_id=notebook_id, filename=relative_path))
            else:
                html, _ = await en_segundo_plano(self.exporter.from_filename, filename, resources=resources)
                self.write(html)

    return PaginaDeEntrega


def exportador_de_lectura(config):
    """The read-only view's exporter: nbconvert's ``lab`` page with the course's sanitising config."""
    from nbconvert.exporters import HTMLExporter
    from traitlets.config import Config
    config = Config(config)
    config.HTMLExporter.template_name = "lab"
    config.HTMLExporter.extra_template_basedirs = []
    config.HTMLExporter.extra_template_paths = []
    return HTMLExporter(config=config)


def _lectura(exportador, ruta: str, titulo: str) -> str:
    from .html_seguro import CLAVE_MATHML, _escapar
    html, _ = exportador.from_filename(ruta, resources={CLAVE_MATHML: True,
                                                        "metadata": {"name": titulo}})
    aviso = (f'<div style="background:#fff3cd;border:1px solid #e0c36b;padding:.6em 1em;margin:0 0 1em 0;'
             f'font-family:sans-serif">{_escapar(AVISO_LECTURA)}</div>')
    # the page needs no script (math is MathML): none of the template's (require.js, MathJax from a
    # CDN, widget state) is left, not even for the CSP to block; students' were sanitised away before
    html = re.sub(r"<script\b[^>]*>.*?</script\s*>", "", html, flags=re.S | re.I)
    inicio = html.find("<body")
    fin = html.find(">", inicio) if inicio >= 0 else -1
    return html[:fin + 1] + aviso + html[fin + 1:] if fin >= 0 else aviso + html


def _lectura_de_entrega():
    """``/formgrader/curso/lectura/<submission id>/``: the autograded notebook as a page, no kernel."""
    from nbgrader.server_extensions.formgrader.base import BaseHandler

    class LecturaDeEntrega(PaginaSegura, BaseHandler):
        """The notebook of «Submission #n», read-only: sanitised, math as MathML, the page's CSP."""

        @web.authenticated
        async def get(self, submission_id):
            if self.settings["nbgrader_bad_setup"]:
                return self.write_error(500)
            submission, assignment_id, notebook_id, student_id = entrega_o_404(self.gradebook, submission_id)
            carpeta = os.path.abspath(self.coursedir.format_path(
                self.coursedir.autograded_directory, student_id, assignment_id))
            ruta = os.path.join(carpeta, f"{notebook_id}.ipynb")
            if aa.es_archivo_normal(ruta) is not None:
                raise web.HTTPError(404, "Missing notebook")
            exportador = self.settings["curso_exportador_lectura"]
            self.write(await en_segundo_plano(_lectura, exportador, ruta, f"{notebook_id} ({assignment_id})"))

    return LecturaDeEntrega


def _inicio():
    """formgrader's ``/formgrader``: no ``?path=`` but the course root's.

    nbgrader's handler re-initialises formgrader with the ``nbgrader_config.py``
    of any folder named in ``?path=`` -- Python it runs in the TA's process, on
    a GET a link can trigger.  A student's submission has such a file
    (``submitted/<id>/<tarea>/nbgrader_config.py``), and so may any folder a
    student can write (``/tmp``): one click on a link in an answer would run
    the student's code as the TA.  The course serves one course, from its root.
    """
    from nbgrader.server_extensions.formgrader import handlers

    class Inicio(PaginaSegura, handlers.FormgraderHandler):
        @web.authenticated
        def get(self):
            ruta = self.get_argument("path", "")
            if ruta and os.path.realpath(ruta) != os.path.realpath(self.coursedir.root):
                self.log.warning("formgrader: se rechaza ?path= fuera de la raíz del curso: %r", ruta[:200])
                raise web.HTTPError(403)
            self.redirect(f"{self.base_url}/formgrader/manage_assignments")

    return Inicio


def _segura(clase):
    """The course's version of one of nbgrader's handler classes (see the mixins)."""
    from nbgrader.server_extensions.formgrader import handlers
    from nbgrader.server_extensions.formgrader.base import BaseApiHandler
    if clase is handlers.FormgraderHandler:
        return _inicio()
    if clase is handlers.SubmissionHandler:
        return _pagina_de_entrega()
    if clase is handlers.SubmissionFilesHandler:
        return type("ArchivosDeEntrega", (ArchivosSeguros, clase), {})
    if isinstance(clase, type) and issubclass(clase, BaseApiHandler):
        return type(clase.__name__, (DatosSeguros, clase), {})
    if isinstance(clase, type) and issubclass(clase, web.StaticFileHandler):
        return clase
    return type(clase.__name__, (PaginaSegura, clase), {})


# ------------------------------------------------------- FormgradeExtension

def entorno_jinja(plantillas_nbgrader: str) -> Environment:
    """formgrader's page templates: the course's first, nbgrader's also as ``nbgrader/<name>``; autoescape."""
    cargador = ChoiceLoader([
        FileSystemLoader(PAGINAS),
        PrefixLoader({"nbgrader": FileSystemLoader(plantillas_nbgrader)}),
        FileSystemLoader(plantillas_nbgrader),
    ])
    return Environment(loader=cargador, autoescape=True)


def _init_tornado_settings(self, webapp):
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config
    _originales["FormgradeExtension.init_tornado_settings"](self, webapp)
    # the read-only view: the course's HTML configuration (nbgrader_config.py, which formgrader
    # loaded into its own config, not the server's), with nbconvert's lab page
    webapp.settings["curso_exportador_lectura"] = exportador_de_lectura(Config(self.config))
    config = Config(self.config)
    config.HTMLExporter.template_name = "formgrade"
    # the course's formgrade/ first; nbgrader's folder also as a root, so the course's
    # template can extend nbgrader's ('formgrade/index.html.j2')
    config.HTMLExporter.extra_template_basedirs = [PLANTILLAS, handlers.template_path]
    config.HTMLExporter.extra_template_paths = [handlers.template_path]
    webapp.settings.update(
        nbgrader_jinja2_env=entorno_jinja(handlers.template_path),
        nbgrader_exporter=HTMLExporter(config=config),
    )


def _init_handlers(self, webapp):
    from jupyter_server.utils import url_path_join as ujoin
    from nbgrader.server_extensions.formgrader import apihandlers, handlers
    from . import formgrader_avisos
    lista = [
        (RUTA_ESTATICOS + "(.*)", EstaticosDelCurso, {"path": ESTATICOS}),
        (RUTA_MATHJAX + "(.*)", EstaticosDelCurso, {"path": ruta_mathjax()}),
        (RUTA_LECTURA + r"([^/]+)/?", _lectura_de_entrega()),
        *formgrader_avisos.manejadores(),
    ]
    for patron, clase, *resto in [*handlers.default_handlers, *apihandlers.default_handlers]:
        lista.append((patron, _segura(clase), *resto))
    lista += [
        (r"/formgrader/static/(.*)", EstaticosDelCurso, {"path": handlers.static_path}),
        (r"/formgrader/.*", _segura(handlers.Template404)),
    ]
    base = webapp.settings["base_url"]
    webapp.add_handlers(".*$", [(ujoin(base, p.lstrip("/")), *resto) for p, *resto in lista])


# ------------------------------------------------------------ timestamps

def _fecha_legible(self, ts):
    """``ts`` if formgrader can show it in the course's time zone, else None."""
    from nbgrader.utils import as_timezone
    try:
        as_timezone(ts, self.timezone).strftime(self.timestamp_format)
        ts.isoformat()
    except (OverflowError, ValueError, TypeError, AttributeError):
        return None
    return ts


def _ruta_timestamp(api, assignment_id: str, student_id: str) -> str:
    carpeta = os.path.abspath(api.coursedir.format_path(api.coursedir.submitted_directory,
                                                        student_id, assignment_id))
    return os.path.join(carpeta, "timestamp.txt")


def _get_submitted_timestamp(self, assignment_id, student_id):
    """The submission's ``timestamp.txt`` as UTC, or None if it is missing or unusable (never raises)."""
    from nbgrader.utils import parse_utc
    ruta = _ruta_timestamp(self, assignment_id, student_id)
    if not os.path.lexists(ruta) or aa.es_archivo_normal(ruta, 256) is not None:
        return None
    texto = aa.leer_pequeño(ruta, 256)
    if not texto or not texto.strip():
        return None
    try:
        ts = parse_utc(texto.strip())
    except Exception:  # noqa: BLE001 - any garbled text is «fecha ilegible», not a 500
        return None
    return _fecha_legible(self, ts) if isinstance(ts, datetime) else None


def fecha_ilegible(api, assignment_id: str, student_id: str) -> bool:
    """Is there a ``timestamp.txt`` in the submission that formgrader cannot read?"""
    ruta = _ruta_timestamp(api, assignment_id, student_id)
    return os.path.lexists(ruta) and _get_submitted_timestamp(api, assignment_id, student_id) is None


def _marcar(api, assignment_id: str, entrega):
    if isinstance(entrega, dict) and not entrega.get("display_timestamp") and entrega.get("student") is not None:
        if fecha_ilegible(api, assignment_id, entrega["student"]):
            # not None: nbgrader's view shows «None» for a null timestamp, whatever the display text
            entrega["timestamp"] = ""
            entrega["display_timestamp"] = FECHA_ILEGIBLE
    return entrega


def _as_timezone(ts, timezone):
    """nbgrader's ``as_timezone`` for the API, exact across daylight saving: a naive UTC date → that zone.

    nbgrader 0.9.6 adds ``tz.utcoffset(ts)`` to the naive UTC date, the offset of that wall time read
    as local: on the night of the October change, 02:30+01:00 (01:30 UTC) became «03:30 CET» in Manage
    Assignments (a TA tester, issue 21). Here the date is read as UTC and converted. A stored date out of
    range stays as it is.
    """
    import datetime as dt

    from dateutil.tz import gettz
    try:
        zona = gettz(timezone) if timezone else None
        if zona is None:
            return ts
        return (ts.replace(tzinfo=dt.timezone.utc) if ts.tzinfo is None else ts).astimezone(zona)
    except (OverflowError, ValueError):
        return ts


def _get_submission(self, assignment_id, student_id, *args, **kwargs):
    entrega = _originales["NbGraderAPI.get_submission"](self, assignment_id, student_id, *args, **kwargs)
    return _marcar(self, assignment_id, entrega)


def _get_submissions(self, assignment_id):
    entregas = _originales["NbGraderAPI.get_submissions"](self, assignment_id)
    return [_marcar(self, assignment_id, e) for e in entregas]


def _get_assignments(self):
    """nbgrader's list of Manage Assignments, after the course's due dates reached the gradebook.

    A due date saved in ``nbgrader_config.py`` is written into the gradebook by the hub's service every
    few seconds; meanwhile the page said «None» where the course page already showed the date (fifth
    TA's report, P5).  Reading the configuration here costs one bulk read when nothing changed.
    """
    from .formgrader_avisos import libro_de_notas, plazos_al_dia
    try:
        with libro_de_notas(self.coursedir.db_url, self.course_id) as gb:
            plazos_al_dia(gb, self.coursedir.root, self.get_source_assignments(), self.log)
    except Exception:  # noqa: BLE001 - never lose nbgrader's own list
        self.log.exception("formgrader: no se pudieron poner al día los plazos")
    return _originales["NbGraderAPI.get_assignments"](self)


def _maximo_publicado(api) -> float | None:
    """The points a student can have now: the max scores of the published assignments, summed.

    Published, as for grades.csv (``lms.exportadores.tareas_publicadas``): released to the exchange
    (nbgrader's ``get_released_assignments``) or handed in by somebody.  ``make grade`` generates every
    lesson of ``source/``, so an assignment nobody has seen is in the gradebook too; nbgrader's Manage
    Students summed it («18 / 29» with one assignment of 18 published: fifth TA's report, P4).
    None when it cannot be told (nbgrader's own numbers are kept).
    """
    try:
        with api.gradebook as gb:
            maximos = {a.name: float(a.max_score or 0.0) for a in gb.assignments}
    except Exception:  # noqa: BLE001 - nbgrader's numbers rather than none
        api.log.exception("formgrader: no se pudo leer el libro de notas")
        return None
    publicadas = _publicadas(api)
    if publicadas is None:
        return None
    return sum(m for t, m in maximos.items() if t in publicadas)


def _publicadas(api) -> set[str] | None:
    """The assignments released to the exchange or handed in by somebody; None when it cannot be told."""
    from nbgrader.api import Assignment, SubmittedAssignment
    try:
        publicadas = set(api.get_released_assignments())
        with api.gradebook as gb:
            publicadas |= {n for (n,) in gb.db.query(Assignment.name).join(
                SubmittedAssignment, SubmittedAssignment.assignment_id == Assignment.id).distinct()}
    except Exception:  # noqa: BLE001 - nbgrader's numbers rather than none
        api.log.exception("formgrader: no se pudo saber qué tareas están publicadas")
        return None
    return publicadas


def _get_student_submissions(self, student_id):
    """A student's page in Manage Students: the published assignments only, as its total counts them
    (sixth TA report, P4-4: «02_codificacion_posicional (no submission) 0 / 0», never released)."""
    filas = _originales["NbGraderAPI.get_student_submissions"](self, student_id)
    publicadas = _publicadas(self)
    if publicadas is None:
        return filas
    return [f for f in filas if not isinstance(f, dict) or f.get("name") in publicadas]


def _get_students(self):
    """nbgrader's Manage Students list, each maximum counting only the published assignments."""
    alumnos = _originales["NbGraderAPI.get_students"](self)
    maximo = _maximo_publicado(self)
    if maximo is not None:
        for alumno in alumnos:
            alumno["max_score"] = maximo
    return alumnos


def _get_student(self, student_id, *args, **kwargs):
    """nbgrader's record of one student (its page), the maximum counting only the published assignments."""
    alumno = _originales["NbGraderAPI.get_student"](self, student_id, *args, **kwargs)
    if isinstance(alumno, dict):
        maximo = _maximo_publicado(self)
        if maximo is not None:
            alumno["max_score"] = maximo
    return alumno


def _comentarios(accion: str, nombre: str):
    """nbgrader's ``NbGraderAPI.<nombre>`` (generate/release feedback) with the course's answer to a refusal."""
    def envoltura(self, assignment_id, student_id=None, *args, **kwargs):
        from .formgrader_avisos import negativa_por_revision
        from .intercambio import olvidar_publicacion
        olvidar_publicacion()          # what this call's release withholds, never an earlier one's
        resultado = _originales[f"NbGraderAPI.{nombre}"](self, assignment_id, student_id, *args, **kwargs)
        try:
            with self.gradebook as gb:
                return negativa_por_revision(resultado, gb, self.coursedir.root, assignment_id, student_id, accion)
        except Exception:  # noqa: BLE001 - never lose nbgrader's own answer
            self.log.exception("formgrader: no se pudo explicar el resultado de %s", nombre)
            return resultado
    envoltura.__name__ = nombre
    return envoltura


def _sin_ruido(nombre: str):
    """nbgrader's ``NbGraderAPI.<nombre>`` whose captured log (formgrader's dialog) has no DEBUG records
    (Generate: ~150 «[DEBUG] Checksum for code cell…» lines; TA round 7, P4)."""
    def envoltura(self, *args, **kwargs):
        from .formgrader_avisos import _sin_depuracion
        resultado = _originales[f"NbGraderAPI.{nombre}"](self, *args, **kwargs)
        if isinstance(resultado, dict) and resultado.get("log"):
            resultado = dict(resultado, log=_sin_depuracion(str(resultado["log"])))
        return resultado
    envoltura.__name__ = nombre
    return envoltura


CON_REGISTRO = ("generate_assignment", "release_assignment", "unrelease", "collect", "autograde")


def aplicar() -> None:
    """Install the replacements (idempotent).  Called from ``nbgrader_config.py``."""
    if _originales:
        return
    import nbgrader
    from nbgrader.apps import api
    from nbgrader.server_extensions.formgrader.formgrader import FormgradeExtension
    if nbgrader.__version__ != VERSION_PROBADA:
        import logging
        logging.getLogger("nbgrader").warning(
            "grader_tests.extensiones_nbgrader.formgrader_seguro se probó con nbgrader %s y este es %s: revisa lo que "
            "reemplaza.", VERSION_PROBADA, nbgrader.__version__)
    for clase, nombre, nuevo in ((FormgradeExtension, "init_tornado_settings", _init_tornado_settings),
                                 (FormgradeExtension, "init_handlers", _init_handlers),
                                 (api.NbGraderAPI, "get_submitted_timestamp", _get_submitted_timestamp),
                                 (api.NbGraderAPI, "get_submission", _get_submission),
                                 (api.NbGraderAPI, "get_submissions", _get_submissions),
                                 (api.NbGraderAPI, "get_assignments", _get_assignments),
                                 (api.NbGraderAPI, "get_students", _get_students),
                                 (api.NbGraderAPI, "get_student", _get_student),
                                 (api.NbGraderAPI, "get_student_submissions", _get_student_submissions),
                                 (api.NbGraderAPI, "generate_feedback", _comentarios("generar", "generate_feedback")),
                                 (api.NbGraderAPI, "release_feedback", _comentarios("publicar", "release_feedback")),
                                 *((api.NbGraderAPI, n, _sin_ruido(n)) for n in CON_REGISTRO
                                   if hasattr(api.NbGraderAPI, n))):
        _originales[f"{clase.__name__}.{nombre}"] = getattr(clase, nombre)
        setattr(clase, nombre, nuevo)
    _originales["api.as_timezone"] = api.as_timezone
    api.as_timezone = _as_timezone
