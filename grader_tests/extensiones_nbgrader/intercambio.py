"""nbgrader's exchange steps on the TA's side, with students' folders treated as untrusted.

Registered in ``nbgrader_config.py`` through nbgrader's own ``ExchangeFactory``
(``c.ExchangeFactory.collect``, ``c.ExchangeFactory.release_feedback``), so the
plain ``nbgrader collect`` / ``nbgrader release_feedback`` and formgrader's
buttons use them.

* ``RecogerSeguro`` (collect) authenticates every inbound entry instead of
  trusting its name (``<alumno>+<tarea>+<fecha>[+azar]``): the entry belongs to
  the account that created it (its owner uid, read with ``fstat`` on the
  folder it copies from), and that account must be the student the name
  claims (:class:`Cuentas`: the system's accounts, as on the course's hub, or
  the hub's uid files on Kubernetes).  Each entry is judged on its own and a
  refused one never stops the class: impersonation, unreadable or future
  dates, names that are not ``<alumno>+<tarea>+<fecha>``, students not on the
  class list, and a student's entries beyond the inbound quota (count and
  size) are refused with a Spanish reason in collect's log (the command line
  and formgrader's Collect dialog) and in ``submitted/.recogida-<tarea>.json``,
  which ``make grade``'s table shows.  Of each student's accepted entries the
  newest is copied into ``submitted/`` with ``archivos_alumno.copiar_entrega``
  from the folder's descriptor (no link is followed, a swap during the copy
  changes nothing), and its ``timestamp.txt`` is the one collect validated.
* ``PublicarComentariosSeguro`` (release_feedback): one student's missing or
  garbled ``timestamp.txt`` / ``submission_secret.txt``, or a feedback file
  that is not a regular file, is that student's reason; the rest of the class
  gets its feedback.  A submission held for the TA's review (``revision``:
  a resubmission whose old manual grades were not reviewed yet) is not
  published, and the step ends with an error that says who and why.  So is a
  page that no longer states what the gradebook says (a grade, a penalty or a
  comment changed after Generate Feedback: ``huella_de_comentarios``), with
  «comentarios desactualizados: … vuelve a pulsar Generate Feedback».
* ``PublicarTareaSegura`` (release_assignment) and collect give ``inbound`` the
  sticky bit (only an entry's author, or the TA, can rename or remove it) and
  keep it setgid (entries belong to the TA's group, so the hub's submit,
  ``despliegue/hub/jupyter/comun/entrega_honesta.py``, can make them private
  to their author and the graders).

Nothing here logs an entry's random code or a feedback file's hash (the hub's
log is the service's output): entries are named ``<alumno>+<tarea>+<fecha>+…``.
"""
from __future__ import annotations

import datetime
import glob
import json
import os
import pwd
import re
import stat
import threading
from dataclasses import dataclass, field
from urllib.parse import quote

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.exchange.default.release_assignment import ExchangeReleaseAssignment
from nbgrader.exchange.default.release_feedback import ExchangeReleaseFeedback
from nbgrader.utils import notebook_hash, parse_utc
from traitlets import Bool, Dict, Integer, Unicode
from traitlets.config import LoggingConfigurable

from ..caja import archivos_alumno as aa

MARCA_INTERCAMBIO = "Intercambio"          # log lines about an inbound entry start with this
FORMATO_FECHA = "%Y-%m-%d %H:%M:%S.%f UTC"  # nbgrader's own timestamp format, in UTC
MARCA_DESACTUALIZADOS = "comentarios desactualizados"   # release_feedback's error for stale feedback


def _alumno_y_tarea(ruta: str) -> tuple[str, str]:
    partes = os.path.normpath(ruta).split(os.sep)
    return (partes[-2], partes[-1]) if len(partes) >= 2 else ("?", "?")


def _hora(ingenua_utc: datetime.datetime) -> str:
    """A time as the TA reads every other one: the course's zone, labelled (``… 15:02:51 (hora de Madrid)``)."""
    from .plazos import mostrar
    return mostrar(ingenua_utc)


def _mib(n: int) -> str:
    return f"{n / 1024 ** 2:.1f} MiB".replace(".", ",")


def informe_de_recogida(submitted: str, tarea: str) -> str:
    """Where collect leaves its report for ``tarea`` (read by ``make grade``)."""
    return os.path.join(submitted, f".recogida-{tarea}.json")


class Cuentas(LoggingConfigurable):
    """Which student an owner uid is: the authentication of the exchange.

    In order: ``uids`` (``{"alumno": uid}``, set in ``nbgrader_config.py``),
    the uid files of ``carpeta`` (Kubernetes: the hub writes
    ``<carpeta>/<uid>`` with the hub user's name when it starts that user's
    server; only files owned by ``dueño_carpeta`` count), then the system's
    accounts (``pwd``: the course's hub on one machine, where each hub user is
    a Unix account).
    """

    uids = Dict(key_trait=Unicode(), value_trait=Integer(),
                help="Student id → uid, for accounts the system does not know.").tag(config=True)
    carpeta = Unicode("", help="Folder of files named by uid that hold the hub user's name (Kubernetes)."
                      ).tag(config=True)
    dueño_carpeta = Integer(-1, help="uid that must own the files of `carpeta` (-1: the TA's own uid)."
                            ).tag(config=True)

    def nombre(self, uid: int) -> str | None:
        """The student id of ``uid``, or None when nobody is known to have it."""
        for alumno, suyo in self.uids.items():
            if suyo == uid:
                return alumno
        if self.carpeta:
            texto = self._de_la_carpeta(uid)
            if texto is not None:
                return texto
        try:
            return pwd.getpwuid(uid).pw_name
        except KeyError:
            return None

    def _de_la_carpeta(self, uid: int) -> str | None:
        try:
            fd = aa.abrir_archivo(os.path.join(self.carpeta, str(int(uid))))
        except OSError:
            return None
        try:
            dueño = self.dueño_carpeta if self.dueño_carpeta >= 0 else os.geteuid()
            if os.fstat(fd).st_uid != dueño:
                return None
            datos = os.read(fd, 257)
        finally:
            os.close(fd)
        nombre = datos.decode("utf-8", errors="replace").strip()
        return nombre if 0 < len(nombre) <= 256 and nombre.isprintable() else None


@dataclass
class Entrada:
    """One inbound entry of the assignment being collected."""
    nombre: str                      # the folder's name in inbound
    alumno: str | None = None        # who the name claims
    fecha: datetime.datetime | None = None
    dueño: str | None = None         # the account that created it
    uid: int | None = None
    motivo: str | None = None        # why it is refused (None: accepted so far)
    nota: str | None = None          # accepted, with a remark for the TA
    bytes: int = 0
    extra: dict = field(default_factory=dict)


def leer_nombre(nombre: str, tarea: str) -> tuple[str, str] | None:
    """``(alumno, fecha)`` of an inbound name ``<alumno>+<tarea>+<fecha>[+azar]``, or None.

    The student id holds no ``+`` (nbgrader refuses one in ``submit``) and the
    date none either (nbgrader writes ``2026-11-30 10:00:00.000000 UTC``).
    """
    m = re.fullmatch(r"(?P<alumno>[^+/]+)\+" + re.escape(tarea) + r"\+(?P<fecha>[^+/]+)(?:\+[A-Za-z0-9_=-]{1,64})?",
                     nombre)
    return (m["alumno"], m["fecha"]) if m else None


def id_valido(alumno: str) -> bool:
    """A student id collect may turn into ``submitted/<id>/``: a plain, printable name.

    Not ``.``/``..`` nor hidden (``.algo``), no separators, spaces or control
    characters, at most 100 characters.
    """
    return (0 < len(alumno) <= 100 and not alumno.startswith(".") and alumno.isprintable()
            and not any(c in alumno for c in "/\\ \t+*?[]") and alumno == alumno.strip())


def leer_fecha(texto: str) -> datetime.datetime | None:
    """The UTC time (naive, as nbgrader keeps it) of an inbound date, or None when it is not one."""
    if len(texto) > 64:
        return None
    try:
        fecha = parse_utc(texto)
    except Exception:  # noqa: BLE001 - dateutil raises many kinds: any is «unreadable»
        return None
    return fecha if isinstance(fecha, datetime.datetime) else None


PREFIJO_EN_CURSO = ".entregando-"     # entrega_honesta.py builds an entry here, then renames it into place


def nombre_visible(nombre: str, limite: int = 160) -> str:
    """An inbound name as logs and reports show it: the random code nbgrader adds is masked (``+…``).

    The code never needs to be secret for the course (entries are private to their author and the
    graders, inbound is sticky), but a log need not carry it either.
    """
    partes = nombre.split("+")
    if len(partes) >= 4 and re.fullmatch(r"[A-Za-z0-9_=-]{1,64}", partes[-1]):
        nombre = "+".join(partes[:-1]) + "+…"
    return aa.nombre_legible(nombre, limite)


def asegurar_inbound(fd: int) -> tuple[list[str], list[str]]:
    """Give ``inbound`` (an open descriptor) the sticky and setgid bits when this account owns it.

    Sticky: nobody but an entry's author (and the owner of inbound, the TA) can rename, replace or
    remove it, so a classmate cannot hide an entry from collect or change its ctime (the date
    collect falls back to).  Setgid: entries and their files belong to inbound's group (the
    graders'), so the hub's submit can leave them readable by that group only.

    Returns ``(hecho, avisos)``: Spanish lines of what was fixed and of what is still wrong (inbound
    owned by another account, or listable by everyone).
    """
    hecho, avisos = [], []
    st = os.fstat(fd)
    falta = (stat.S_ISVTX | stat.S_ISGID) & ~st.st_mode
    if falta and st.st_uid == os.geteuid():
        os.fchmod(fd, stat.S_IMODE(st.st_mode) | stat.S_ISVTX | stat.S_ISGID)
        hecho.append("inbound: se le pusieron los bits sticky y setgid (nadie renombra ni borra la entrega de "
                     "otro; las entregas son del grupo del profesorado)")
    elif falta & stat.S_ISVTX:
        avisos.append("inbound no tiene el bit sticky y no es de esta cuenta: cualquiera que pueda escribir en "
                      "él puede renombrar o borrar la entrega de otro (chmod +t inbound, como su dueño o root)")
    if st.st_mode & stat.S_IROTH:
        avisos.append("inbound se puede listar (modo o+r): cualquiera ve los nombres de las entregas; nbgrader lo "
                      "crea 733 (chmod o-r inbound)")
    return hecho, avisos


class PublicarTareaSegura(ExchangeReleaseAssignment):
    """``nbgrader release_assignment`` whose ``inbound`` is sticky and setgid (see :func:`asegurar_inbound`)."""

    def init_dest(self):
        super().init_dest()
        try:
            fd = aa._abrir_carpeta(self.inbound_path)
        except OSError as exc:
            self.log.warning("%s: no se puede abrir %s: %s", MARCA_INTERCAMBIO, self.inbound_path,
                             exc.strerror or exc)
            return
        try:
            hecho, avisos = asegurar_inbound(fd)
        finally:
            os.close(fd)
        for linea in hecho:
            self.log.info("%s: %s", MARCA_INTERCAMBIO, linea)
        for linea in avisos:
            self.log.warning("%s: %s", MARCA_INTERCAMBIO, linea)


# Files a Jupyter or nbgrader command started in a folder executes or reads as configuration (nbgrader loads
# ./nbgrader_config.py; Jupyter's apps their jupyter_*_config files): in a student's submission they are code
# of the student's that a TA would run by opening a terminal there (a hostile tester's F6: `nbgrader validate`
# inside submitted/<alumno>/<tarea>/ executed the student's nbgrader_config.py as the TA).
CONFIGURACION = re.compile(r"^(nbgrader_config|jupyter(_[a-z]+)?_config|ipython(_[a-z]+)?_config)\.(py|json)$")
SUFIJO_INERTE = ".del_alumno"


def desactivar_configuracion(carpeta: str, fuente: str) -> list[str]:
    """Rename the configuration files anywhere in a copied submission (``CONFIGURACION``, at the top and in every
    subfolder: a TA may open a terminal in either) to ``<name>.del_alumno`` and put the course's copy (from
    ``fuente``, the assignment's folder in ``source/``, same relative path) where the course has one.

    ``carpeta`` is the TA's fresh copy (``submitted/<alumno>/<tarea>``), never the student's folder: nothing
    the student controls is followed (links are neither read nor descended).  Returns the relative paths
    renamed (``/``-separated), sorted.
    """
    renombrados = []
    for raiz, subcarpetas, _ in os.walk(carpeta, followlinks=False):
        subcarpetas.sort()
        relativa = os.path.relpath(raiz, carpeta)
        with os.scandir(raiz) as entradas:
            nombres = sorted(e.name for e in entradas
                             if CONFIGURACION.match(e.name) and not e.is_dir(follow_symlinks=False))
        for nombre in nombres:
            ruta = os.path.join(raiz, nombre)
            del_curso = os.path.normpath(os.path.join(fuente, relativa, nombre))
            try:
                with open(del_curso, "rb") as f:
                    copia = f.read()
            except OSError:
                copia = None
            actual = aa.leer_pequeño(ruta, 1 << 20)
            if copia is not None and actual is not None and actual.encode() == copia:
                continue                                   # the course's own file, untouched
            os.replace(ruta, ruta + SUFIJO_INERTE)
            if copia is not None:
                aa.escribir_atomico(ruta, lambda fd, datos=copia: os.write(fd, datos))
            renombrados.append(nombre if relativa == "." else f"{relativa.replace(os.sep, '/')}/{nombre}")
    return sorted(renombrados)


class RecogerSeguro(ExchangeCollect):
    """``nbgrader collect`` that authenticates each inbound entry and never follows what it holds."""

    comprobar_dueño = Bool(
        True, help="Refuse an entry whose owner is not the student its name claims (Cuentas says who a uid "
                   "is).  Off only for an exchange where nobody but the TA can write.").tag(config=True)
    solo_lista_de_clase = Bool(
        True, help="Collect only students on the class list: the gradebook's students (nbgrader db student "
                   "import, Manage Students) and, with nbgrader's JupyterHubAuthPlugin, the members of the "
                   "hub group nbgrader-<course>.").tag(config=True)
    margen_futuro = Integer(300, help="Seconds an entry's date may be ahead of the TA's clock.").tag(config=True)
    margen_pasado = Integer(
        900, help="An entry last changed more than this many seconds after the date in its name gets "
                  "the time of that change instead (ctime, which no student can set back).  Never across a "
                  "due date: an entry named before the student's due date but last changed after it always "
                  "gets the time of that change (late).").tag(config=True)
    max_entradas = Integer(30, help="Inbound entries of one student and assignment that are looked at "
                                    "(the newest); the rest are refused.").tag(config=True)
    max_bytes = Integer(256 * 1024 ** 2, help="Bytes of one student's inbound entries of an assignment "
                                              "(newest first); entries beyond it are refused.").tag(config=True)
    max_archivos = Integer(10_000, help="Files and folders one inbound entry may hold; more, and it is "
                                        "refused (its walk stops there).").tag(config=True)
    max_avisos = Integer(100, help="Refused entries named one by one in the log and the report; the rest "
                                   "are counted by account.").tag(config=True)

    # ------------------------------------------------------------------ init_src
    def init_src(self):
        if self.coursedir.course_id == '':
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, 'inbound')
        if not os.path.isdir(self.inbound_path):
            self.fail("Course not found: {}".format(self.inbound_path))
        tarea = self.coursedir.assignment_id
        self._cuentas = Cuentas(parent=self)
        self._leer_libro()       # self._lista (None: not enforced), self.duedate
        self._respuestas: dict[str, str | None] = {}
        self._ahora = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        self._rechazadas: list[Entrada] = []     # the first max_avisos refusals, told one by one
        self._sobrantes: dict[tuple[str | None, int | None], int] = {}   # the rest, counted per account
        self._n_rechazadas = 0
        try:
            self._fd_inbound = aa._abrir_carpeta(self.inbound_path)
        except OSError as exc:
            self.fail(f"No se puede abrir {self.inbound_path}: {exc.strerror or exc}")
        self._generales: list[str] = []
        hecho, avisos = asegurar_inbound(self._fd_inbound)
        for linea in hecho:
            self.log.info("%s: %s", MARCA_INTERCAMBIO, linea)
        for linea in avisos:
            self.log.warning("%s: %s", MARCA_INTERCAMBIO, linea)
            self._generales.append(linea)
        solo = self.coursedir.student_id if self.coursedir.student_id not in ("", "*") else None
        por_alumno: dict[str, list[Entrada]] = {}
        # read as the folder gives them, not listed first: what one entry costs stays with it (a fresh attacker's
        # million empty files took collect to 733 MB); each student keeps only her newest entries below
        with os.scandir(self._fd_inbound) as it:
            nombres = (e.name for e in it)
            for nombre in nombres:
                self._clasificar(nombre, tarea, solo, por_alumno)
        fecha_limite = self.duedate if self.before_duedate else None
        self.src_records = []
        for alumno in sorted(por_alumno):
            elegida = self._elegir(por_alumno[alumno], fecha_limite)
            if elegida is not None:
                # the other accepted entries, newest first: tried in turn if the chosen one is gone by the copy
                otras = sorted((e for e in por_alumno[alumno] if e is not elegida and not e.motivo),
                               key=lambda e: (e.fecha, e.nombre), reverse=True)
                self.src_records.append({"username": alumno, "filename": elegida.nombre,
                                         "timestamp": elegida.fecha, "entrada": elegida, "alternativas": otras})

    def _clasificar(self, nombre: str, tarea: str, solo: str | None, por_alumno: dict[str, list[Entrada]]) -> None:
        """One inbound name: refused with its reason, or kept among its student's newest entries."""
        if f"+{tarea}+" in nombre:
            entrada = self._examinar(nombre, tarea)
        else:
            entrada = self._ajena(nombre)
            if entrada is None:
                return            # another assignment's entry, or a submission being written
        if solo is not None and entrada.alumno != solo and entrada.dueño != solo:
            return
        if entrada.motivo:
            self._rechazar(entrada)
            return
        suyas = por_alumno.setdefault(entrada.alumno, [])
        suyas.append(entrada)
        if len(suyas) > 2 * self.max_entradas:
            # what _elegir keeps anyway: the newest max_entradas; the others refused now, not held until the end
            suyas.sort(key=lambda e: (e.fecha, e.nombre), reverse=True)
            for sobra in suyas[self.max_entradas:]:
                sobra.motivo = (f"supera la cuota de {self.max_entradas} entregas por alumno y tarea en el "
                                "intercambio (sólo se miran las más recientes)")
                self._rechazar(sobra)
            del suyas[self.max_entradas:]

    def _carpetas_de_tareas(self) -> set[str]:
        """The names of the assignment folders in the course's source/ and release/ (no link followed)."""
        nombres: set[str] = set()
        for carpeta in (self.coursedir.source_directory, self.coursedir.release_directory):
            raiz = os.path.join(self.coursedir.root, carpeta)
            try:
                with os.scandir(raiz) as entradas:
                    nombres.update(e.name for e in entradas if e.is_dir(follow_symlinks=False)
                                   and not e.name.startswith("."))
            except OSError:
                pass
        return nombres

    def _leer_libro(self) -> None:
        """The class list and the due date, in one visit to the gradebook."""
        from nbgrader.api import Gradebook, MissingEntry
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            self._lista = {s.id for s in gb.students} if self.solo_lista_de_clase else None
            # the course's assignments: the gradebook's and every folder of source/ and release/ (a fresh
            # gradebook, as the hub's course page has on its first collect, knows none yet: a third
            # attacker's F3, honest entries of the other assignment reported as «una tarea que no existe»)
            self._tareas = {a.name for a in gb.assignments} | self._carpetas_de_tareas()
            self._prorrogas_del_libro: dict[str, datetime.timedelta] = {}
            try:
                asignada = gb.find_assignment(self.coursedir.assignment_id)
                self.duedate = asignada.duedate
                self._prorrogas_del_libro = {s.student_id: s.extension for s in asignada.submissions
                                             if s.extension}
            except MissingEntry:
                self.duedate = None
        self._plazos_del_curso = None
        try:
            from . import plazos
            self._plazos_del_curso = plazos.PlazosDelCurso(config=self.config)
        except Exception as exc:  # noqa: BLE001 - the gradebook's due date still applies
            self.log.warning("%s: no se pudieron leer los plazos del curso (%s): se usa el plazo del libro de notas",
                             MARCA_INTERCAMBIO, exc)

    def _plazos_de(self, alumno: str) -> list[datetime.datetime]:
        """Every due date (naive UTC) that may apply to ``alumno``: the gradebook's and ``plazos.toml``'s,
        each with and without the student's extension (from either).  A date the TA wrote badly is left
        out here (``make grade`` and autograde refuse it on their own)."""
        from . import plazos
        bases, prorrogas = [], [datetime.timedelta(0)]
        if self.duedate is not None:
            bases.append(self.duedate)
        if alumno in self._prorrogas_del_libro:
            prorrogas.append(self._prorrogas_del_libro[alumno])
        if self._plazos_del_curso is not None:
            tarea = self.coursedir.assignment_id
            try:
                plazo = self._plazos_del_curso.plazo(tarea)
                if plazo is not None:
                    bases.append(plazos.utc_ingenua(plazo))
            except plazos.PlazoInvalido:
                pass
            try:
                extra = self._plazos_del_curso.prorroga(tarea, alumno)
                if extra:
                    prorrogas.append(extra)
            except plazos.PlazoInvalido:
                pass
        return sorted({b + p for b in bases for p in prorrogas})

    def _en_lista(self, alumno: str) -> str | None:
        """None when ``alumno`` is on the class list; otherwise why not (Spanish).  One question per id."""
        if alumno not in self._respuestas:
            self._respuestas[alumno] = self._preguntar_lista(alumno)
        return self._respuestas[alumno]

    def _preguntar_lista(self, alumno: str) -> str | None:
        if self._lista is None or alumno in self._lista:
            return None
        fuera = (f"«{aa.nombre_legible(alumno)}» no está en la lista de clase (nbgrader db student import o "
                 "Manage Students)")
        from nbgrader.auth.jupyterhub import JupyterHubAuthPlugin, _query_jupyterhub_api
        plugin = getattr(self.authenticator, "plugin", None)
        if not isinstance(plugin, JupyterHubAuthPlugin):
            return fuera
        try:
            grupos = _query_jupyterhub_api("GET", f"/users/{quote(alumno, safe='')}").get("groups", [])
        except Exception as exc:  # noqa: BLE001 - unknown to the hub (404) or the hub unreachable
            if "404" in str(exc):
                return fuera + " y el hub no lo conoce"
            return fuera + f" y no se pudo preguntar al hub por su grupo ({type(exc).__name__})"
        if f"nbgrader-{self.coursedir.course_id}" in grupos:
            return None
        return fuera + f" ni en el grupo nbgrader-{self.coursedir.course_id} del hub"

    def _examinar(self, nombre: str, tarea: str) -> Entrada:
        """Everything that can be judged of one entry without copying it."""
        entrada = Entrada(nombre)
        try:
            st = os.stat(nombre, dir_fd=self._fd_inbound, follow_symlinks=False)
        except OSError:
            entrada.motivo = "desapareció mientras se recogía"
            return entrada
        entrada.uid = st.st_uid
        entrada.dueño = self._cuentas.nombre(st.st_uid) if self.comprobar_dueño else None
        partes = leer_nombre(nombre, tarea)
        if partes is None:
            entrada.motivo = "el nombre no es <alumno>+<tarea>+<fecha>[+código]"
            return entrada
        entrada.alumno, texto_fecha = partes
        if not id_valido(entrada.alumno):
            entrada.motivo = f"«{aa.nombre_legible(entrada.alumno, 40)}» no vale como identificador de alumno"
            entrada.alumno = None
            return entrada
        if not stat.S_ISDIR(st.st_mode):
            entrada.motivo = f"no es una carpeta (es {aa.tipo_de(st.st_mode) or 'un archivo'})"
            return entrada
        if self.comprobar_dueño and entrada.dueño != entrada.alumno:
            quien = f"la cuenta «{aa.nombre_legible(entrada.dueño)}»" if entrada.dueño else \
                f"el uid {st.st_uid}, que no es de nadie de la clase"
            entrada.motivo = (f"suplantación: dice ser de «{aa.nombre_legible(entrada.alumno)}» pero la creó "
                              f"{quien}")
            return entrada
        fuera = self._en_lista(entrada.alumno)
        if fuera:
            entrada.motivo = fuera
            return entrada
        fecha = leer_fecha(texto_fecha)
        if fecha is None:
            entrada.motivo = f"fecha ilegible («{aa.nombre_legible(texto_fecha, 40)}»)"
            return entrada
        if fecha > self._ahora + datetime.timedelta(seconds=self.margen_futuro):
            entrada.motivo = f"fecha en el futuro ({_hora(fecha)}; ahora: {_hora(self._ahora)})"
            return entrada
        entrada.fecha = fecha
        return entrada

    def _ajena(self, nombre: str) -> Entrada | None:
        """An inbound name without ``+<tarea>+``: None when it is another assignment's entry (or one
        being written by the hub's submit); otherwise a refused entry, reported to its owner, so an
        entry whose name no longer parses (renamed by its author) is never skipped in silence."""
        if nombre.startswith(PREFIJO_EN_CURSO):
            return None
        partes = nombre.split("+")
        if len(partes) in (3, 4) and partes[1] in self._tareas and partes[1] != self.coursedir.assignment_id:
            return None
        entrada = Entrada(nombre)
        try:
            st = os.stat(nombre, dir_fd=self._fd_inbound, follow_symlinks=False)
        except OSError:
            return None               # gone: it named no assignment, so nobody misses it
        entrada.uid = st.st_uid
        entrada.dueño = self._cuentas.nombre(st.st_uid)
        if len(partes) in (3, 4) and partes[1] not in self._tareas:
            entrada.motivo = (f"es de una tarea que no existe («{aa.nombre_legible(partes[1], 60)}»): el nombre no "
                              "es <alumno>+<tarea>+<fecha>[+código] de ninguna tarea del curso")
        else:
            entrada.motivo = ("el nombre no es <alumno>+<tarea>+<fecha>[+código] de ninguna tarea del curso "
                              "(¿la renombró su autor?): no se sabe de qué tarea es")
        return entrada

    def _elegir(self, entradas: list[Entrada], fecha_limite) -> Entrada | None:
        """The entry to collect of one student (newest accepted), refusing what breaks the quota."""
        entradas.sort(key=lambda e: (e.fecha, e.nombre), reverse=True)
        for sobra in entradas[self.max_entradas:]:
            sobra.motivo = (f"supera la cuota de {self.max_entradas} entregas por alumno y tarea en el "
                            "intercambio (sólo se miran las más recientes)")
            self._rechazar(sobra)
        total, aceptadas = 0, []
        for entrada in entradas[: self.max_entradas]:
            medida = self._medir(entrada, self.max_bytes - total)
            if medida is None and entrada.motivo:
                self._rechazar(entrada)
                continue
            if medida is None:
                entrada.motivo = (f"supera la cuota de {_mib(self.max_bytes)} y {self.max_archivos} archivos por "
                                  "alumno y tarea en el intercambio")
                self._rechazar(entrada)
                continue
            entrada.bytes, ultimo_cambio = medida
            total += entrada.bytes
            plazos_suyos = self._plazos_de(entrada.alumno)
            cruzado = [p for p in plazos_suyos if entrada.fecha <= p < ultimo_cambio]
            if cruzado:
                # the margin is for a slow copy, never for a deadline: the real time (ctime) wins
                entrada.nota = (f"la fecha de su nombre ({_hora(entrada.fecha)}) es anterior al plazo "
                                f"({_hora(cruzado[0])}), pero la entrega se terminó de escribir "
                                f"después ({_hora(ultimo_cambio)}, la hora real del sistema, que el "
                                "alumno no puede cambiar): cuenta la hora real"
                                + (", entrega tardía" if ultimo_cambio > plazos_suyos[-1] else ""))
                entrada.fecha = ultimo_cambio
            elif ultimo_cambio - entrada.fecha > datetime.timedelta(seconds=self.margen_pasado):
                entrada.nota = (f"la fecha de su nombre ({_hora(entrada.fecha)}) es anterior a su "
                                f"último cambio real: se toma éste ({_hora(ultimo_cambio)})")
                entrada.fecha = ultimo_cambio
            aceptadas.append(entrada)
        if not aceptadas:
            return None
        aceptadas.sort(key=lambda e: (e.fecha, e.nombre), reverse=True)
        if fecha_limite is not None:
            a_tiempo = [e for e in aceptadas if e.fecha <= fecha_limite]
            if a_tiempo:
                return a_tiempo[0]
        return aceptadas[0]

    def _medir(self, entrada: Entrada, disponible: int):
        """(bytes, last change as naive UTC) of an entry, or None when it exceeds ``disponible``."""
        try:
            fd = aa._abrir_carpeta(entrada.nombre, self._fd_inbound)
        except OSError as exc:
            # unreadable (its author took the permissions away) or swapped: never the one collected
            entrada.motivo = f"no se puede abrir ({exc.strerror or exc})"
            return None
        try:
            st = os.fstat(fd)
            recorrido = aa.recorrer(fd, limite=self.max_archivos)
        finally:
            os.close(fd)
        if recorrido.truncado:
            return None
        total, cambio = 0, st.st_ctime
        for e in recorrido.entradas + [e for e, _ in recorrido.prohibidas]:
            total += 0 if e.es_carpeta else aa.tamaño_de(e.st)
            cambio = max(cambio, e.st.st_ctime)
        if total > disponible:
            return None
        return total, datetime.datetime.fromtimestamp(cambio, datetime.timezone.utc).replace(tzinfo=None)

    def _rechazar(self, entrada: Entrada) -> None:
        """Log one refusal; past ``max_avisos``, only count it (a flood never floods the TA's log)."""
        self._n_rechazadas += 1
        if len(self._rechazadas) < self.max_avisos:
            self._rechazadas.append(entrada)
            self.log.error("%s: entrada rechazada «%s»: %s; no se recoge", MARCA_INTERCAMBIO,
                           nombre_visible(entrada.nombre), entrada.motivo)
        else:
            clave = (entrada.dueño, None if entrada.dueño else entrada.uid)
            self._sobrantes[clave] = self._sobrantes.get(clave, 0) + 1

    # ------------------------------------------------------------------ copy
    def do_copy(self, src, dest, log=None, entrada: Entrada | None = None):
        alumno, tarea = _alumno_y_tarea(dest)
        if entrada is not None and entrada.alumno:
            alumno, tarea = entrada.alumno, self.coursedir.assignment_id
        presupuesto = aa.PresupuestoEntrega(parent=self)
        uid = entrada.uid if entrada is not None and self.comprobar_dueño else None
        try:
            fd = aa._abrir_carpeta(os.path.basename(src), self._fd_inbound)
        except OSError as exc:
            motivo = f"desapareció o cambió antes de copiarse ({exc.strerror or exc})"
            if entrada is not None:
                entrada.motivo = motivo          # copy_files reports it as a refused entry
            else:
                self.log.error("%s de '%s' en '%s': no se recoge: %s", aa.MARCA, aa.nombre_legible(alumno), tarea,
                               motivo)
            return False
        try:
            if uid is not None and os.fstat(fd).st_uid != uid:
                if entrada is not None:
                    entrada.motivo = "cambió de dueño durante la recogida"
                return False
            avisos = aa.copiar_entrega(fd, dest, presupuesto, ignorar=list(self.coursedir.ignore), dueño=uid)
        finally:
            os.close(fd)
        if entrada is not None and not (aa.leer_pequeño(os.path.join(dest, "submission_secret.txt"), 1024) or "").strip():
            # nbgrader's submit always writes it: its absence is the mark of an entry made by hand
            sin_secreto = ("no trae submission_secret.txt (no la hizo el botón Entregar de la pestaña Tareas: ¿una entrada copiada o hecha a "
                           "mano en el intercambio?): se califica, pero sus comentarios no se podrán publicar hasta "
                           "que vuelva a entregar con el botón Entregar")
            entrada.nota = f"{entrada.nota}; {sin_secreto}" if entrada.nota else sin_secreto
        if entrada is not None and entrada.fecha is not None:
            # the date collect validated, not the one the student wrote in timestamp.txt
            texto = entrada.fecha.strftime(FORMATO_FECHA)
            aa.escribir_atomico(os.path.join(dest, "timestamp.txt"), lambda f: os.write(f, texto.encode()))
        for nombre in desactivar_configuracion(dest, self.coursedir.format_path(self.coursedir.source_directory,
                                                                                ".", tarea)):
            visible = aa.nombre_legible(nombre, 200)
            avisos.append(f"{visible}: configuración de Jupyter del alumno, guardada como {visible}{SUFIJO_INERTE} "
                          "(no se carga nunca; en su lugar, la copia del curso si la tarea la trae)")
        aa.registrar(dest, avisos, self.log, aa.nombre_legible(alumno), tarea)
        return True

    def copy_files(self):
        tarea = self.coursedir.assignment_id
        if not self.src_records:
            self.log.warning("No submissions of '%s' for course '%s' to collect", tarea, self.coursedir.course_id)
        else:
            self.log.info("Processing %d submissions of '%s' for course '%s'", len(self.src_records), tarea,
                          self.coursedir.course_id)
        recogidas, notas = [], []
        for registro in self.src_records:
            alumno = registro["username"]
            for entrada in [registro["entrada"], *registro.get("alternativas", [])]:
                try:
                    if self._copiar_una(alumno, entrada):
                        recogidas.append(alumno)
                except Exception as exc:  # noqa: BLE001 - one student's broken entry stops nobody else
                    entrada.motivo = f"no se pudo recoger: la copia falló ({exc})"
                if entrada.motivo:
                    # gone, renamed or unreadable since it was judged: said, and the next accepted one tried
                    self._rechazar(entrada)
                    continue
                if entrada.nota:
                    notas.append(entrada)
                    self.log.warning("%s: entrada «%s»: %s", MARCA_INTERCAMBIO, nombre_visible(entrada.nombre),
                                     entrada.nota)
                break
        for (dueño, uid), n in self._resumen_de_sobrantes().items():
            self.log.error("%s: y %d entrada%s rechazada%s más de %s (no se detallan)", MARCA_INTERCAMBIO, n,
                           "s" if n != 1 else "", "s" if n != 1 else "", self._quien(dueño, uid))
        if self._n_rechazadas:
            self.log.warning("%s: %d entrada%s rechazada%s (ver los motivos arriba); el resto se recogió.",
                             MARCA_INTERCAMBIO, self._n_rechazadas, "s" if self._n_rechazadas != 1 else "",
                             "s" if self._n_rechazadas != 1 else "")
        self._guardar_informe(recogidas, notas)
        os.close(self._fd_inbound)

    def _resumen_de_sobrantes(self) -> dict[tuple[str | None, int | None], int]:
        """Refusals past ``max_avisos``, counted by the account (name, uid) that made them."""
        return dict(self._sobrantes)

    @staticmethod
    def _quien(dueño: str | None, uid: int | None) -> str:
        return f"la cuenta «{aa.nombre_legible(dueño)}»" if dueño else f"el uid {uid}"

    def _copiar_una(self, alumno: str, entrada: Entrada) -> bool:
        tarea = self.coursedir.assignment_id
        dest_path = self.coursedir.format_path(self.coursedir.submitted_directory, alumno, tarea)
        os.makedirs(os.path.dirname(dest_path), exist_ok=True)
        if os.path.isdir(dest_path) and not os.path.islink(dest_path):
            existente = self.coursedir.get_existing_timestamp(dest_path)
            if self.update and (existente is None or entrada.fecha > existente):
                self.log.info("Updating submission: %s %s", alumno, tarea)
            elif self.before_duedate and existente != entrada.fecha:
                self.log.info("Updating submission: %s %s", alumno, tarea)
            else:
                self.log.info("No newer submission to collect: %s %s" if self.update else
                              "Submission already exists, use --update to update: %s %s", alumno, tarea)
                return False
        else:
            self.log.info("Collecting submission: %s %s", alumno, tarea)
        # copied aside and then put in place: a copy that fails never costs the submission collected before
        carpeta, nombre = os.path.split(dest_path)
        aparte = os.path.join(carpeta, f".{nombre}.recogiendo")
        aa._quitar(carpeta, os.path.basename(aparte))
        copiada = False
        try:
            copiada = self.do_copy(os.path.join(self.inbound_path, entrada.nombre), aparte, entrada=entrada)
        finally:
            if not copiada:
                aa._quitar(carpeta, os.path.basename(aparte))
        if not copiada:
            return False
        aa._quitar(carpeta, nombre)
        os.rename(aparte, dest_path)
        aa.olvidar(dest_path)
        aa.registrar(dest_path, aa.avisos_de(aparte))
        aa.olvidar(aparte)
        return True

    def _guardar_informe(self, recogidas: list[str], notas: list[Entrada]) -> None:
        """``submitted/.recogida-<tarea>.json``: what ``make grade`` shows of this collect."""
        tarea = self.coursedir.assignment_id
        submitted = os.path.join(self.coursedir.root, self.coursedir.submitted_directory)
        lineas = []
        for e in self._rechazadas[: self.max_avisos]:
            implicados = [a for a in dict.fromkeys([e.dueño, e.alumno]) if a]
            lineas.append({"alumnos": implicados, "texto": f"entrada «{nombre_visible(e.nombre)}» "
                                                           f"rechazada en la recogida: {e.motivo}"})
        for (dueño, uid), n in self._resumen_de_sobrantes().items():
            lineas.append({"alumnos": [dueño] if dueño else [],
                           "texto": f"y {n} entradas rechazadas más de {self._quien(dueño, uid)} en la recogida "
                                    "(no se detallan)"})
        for e in notas:
            lineas.append({"alumnos": [e.alumno], "texto": f"recogida: {e.nota}"})
        for texto in self._generales:
            lineas.append({"alumnos": [], "texto": f"intercambio: {texto}"})
        informe = {"tarea": tarea, "fecha": self._ahora.strftime(FORMATO_FECHA), "recogidas": recogidas,
                   "lineas": lineas}
        try:
            os.makedirs(submitted, exist_ok=True)
            datos = json.dumps(informe, ensure_ascii=False, indent=1).encode("utf-8")
            aa.escribir_atomico(informe_de_recogida(submitted, tarea), lambda f: os.write(f, datos))
        except OSError as exc:
            self.log.warning("No se pudo guardar el informe de la recogida: %s", exc)


def observaciones_de_la_recogida(submitted: str, tarea: str) -> tuple[dict[str, list[str]], list[str]]:
    """What the last ``nbgrader collect`` of ``tarea`` refused or remarked, for the TA's table.

    Returns:
        ``(por_alumno, generales)``: Spanish lines per student id (the student
        an entry named and the account that made it) and the lines about
        entries of nobody on the class list.
    """
    try:
        fd = aa.abrir_archivo(informe_de_recogida(submitted, tarea))
    except OSError:
        return {}, []
    try:
        datos = os.read(fd, 4 * 1024 ** 2)
    finally:
        os.close(fd)
    try:
        informe = json.loads(datos.decode("utf-8"))
        lineas = [(list(map(str, l.get("alumnos") or [])), str(l["texto"])) for l in informe["lineas"]]
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}, []
    por_alumno: dict[str, list[str]] = {}
    generales = []
    for alumnos, texto in lineas:
        generales.append(texto)
        for alumno in alumnos:
            por_alumno.setdefault(alumno, []).append(texto)
    return por_alumno, generales


_ULTIMA_PUBLICACION = threading.local()     # what the last release_feedback of this thread withheld


def sin_publicar_en_este_hilo(tarea: str) -> list[dict] | None:
    """The students the last ``release_feedback`` of ``tarea`` run in this thread left without feedback.

    ``[{"alumno", "tipo": "revision" | "desactualizados" | "fallo", "motivo", "que_hacer"}]`` (Spanish), or
    None when no release of ``tarea`` ran in this thread (formgrader calls nbgrader's API and then explains
    its result in the same thread: ``formgrader_avisos``).
    """
    return (getattr(_ULTIMA_PUBLICACION, "datos", None) or {}).get(tarea)


def olvidar_publicacion() -> None:
    """Forget what the last release of this thread withheld (before formgrader runs another)."""
    _ULTIMA_PUBLICACION.datos = None


class NoSePublica(ValueError):
    """One student's feedback cannot be released: the reason, and ``que_hacer`` for the TA (Spanish)."""

    def __init__(self, motivo: str, que_hacer: str):
        super().__init__(motivo)
        self.que_hacer = que_hacer


QUE_HACER_SIN_SECRETO = (
    "Esa entrega no la hizo el botón Entregar de la pestaña Tareas (una entrada copiada o hecha a mano en el "
    "intercambio: no trae submission_secret.txt), así que nbgrader no puede dejar sus comentarios donde el alumno "
    "los busca. Pídele que vuelva a entregar con el botón Entregar; después Collect, calificar, Generate Feedback y Release "
    "Feedback. Mientras tanto, puedes darle a mano el HTML de feedback/<alumno>/<tarea>/.")
QUE_HACER_SIN_FECHA = (
    "A la entrega recogida le falta timestamp.txt (se borró o se cambió después de Collect). Vuelve a pulsar Collect "
    "y califica de nuevo esa entrega; después Generate Feedback y Release Feedback.")
QUE_HACER_PAGINA = "Vuelve a pulsar Generate Feedback (escribe de nuevo esa página) y después Release Feedback."
QUE_HACER_OTRO = ("Vuelve a pulsar Release Feedback; si se repite, vuelve a pulsar Generate Feedback y después Release "
                  "Feedback, y si aun así falla, avisa a quien mantiene el curso con este mensaje.")
QUE_HACER_REVISION = ("Abre la entrega (su enlace), revisa lo marcado en el recuadro «⚠ PENDIENTE DE REVISIÓN» y, "
                      "cuando diga «Revisada», pulsa Generate Feedback y después Release Feedback.")
QUE_HACER_DESACTUALIZADOS = "Pulsa Generate Feedback (con las notas de ahora) y después Release Feedback."


class PublicarComentariosSeguro(ExchangeReleaseFeedback):
    """``nbgrader release_feedback`` where one student's damaged folder stops nobody else.

    Whoever is left without feedback (held for review, stale page, a damaged folder) is named with the reason
    and what to do, and the step ends with an error naming them all: never «Success» with someone left out
    (:func:`sin_publicar_en_este_hilo` keeps the list for formgrader's dialog).
    """

    def copy_files(self):
        sin_publicar: list[dict] = []
        _ULTIMA_PUBLICACION.datos = {self.coursedir.assignment_id: sin_publicar}
        excluidos = set(self.coursedir.student_id_exclude.split(",")) if self.coursedir.student_id_exclude else set()
        patron = re.escape(os.path.sep).join([
            self.coursedir.format_path(self.coursedir.feedback_directory, "(?P<student_id>.*)",
                                       self.coursedir.assignment_id, escape=True),
            "(?P<notebook_id>.*).html"])
        fallos = 0
        retenidos = self._retenidos()
        solo = self.coursedir.student_id
        if solo and solo != "*":
            # one student's release (formgrader's row button) is refused only for that student's review
            import fnmatch
            retenidos = {a: r for a, r in retenidos.items() if fnmatch.fnmatchcase(a, solo)}
        paginas = []
        for html in sorted(glob.glob(os.path.join(self.src_path, "*.html"))):
            m = re.match(patron, html)
            if m is None:
                continue
            alumno, cuaderno = m.group("student_id"), m.group("notebook_id")
            if alumno not in excluidos:
                paginas.append((alumno, cuaderno, html))
        desactualizados = self._desactualizados([p for p in paginas if p[0] not in retenidos],
                                                por_alumno=bool(solo and solo != "*"))
        for alumno, cuaderno, html in paginas:
            if alumno in retenidos:
                self.log.error("%s de '%s' en '%s': no se publican los comentarios: %s", aa.MARCA,
                               aa.nombre_legible(alumno), self.coursedir.assignment_id, retenidos[alumno])
                if not any(r["alumno"] == alumno and r["tipo"] == "revision" for r in sin_publicar):
                    sin_publicar.append({"alumno": alumno, "tipo": "revision", "motivo": "pendiente de revisión: "
                                         + retenidos[alumno], "que_hacer": QUE_HACER_REVISION})
                continue
            if alumno in desactualizados:
                self.log.error("No se publican los comentarios de '%s' en '%s' (%s): %s", aa.nombre_legible(alumno),
                               self.coursedir.assignment_id, *desactualizados[alumno])
                if not any(r["alumno"] == alumno for r in sin_publicar):
                    sin_publicar.append({"alumno": alumno, "tipo": "desactualizados",
                                         "motivo": f"{desactualizados[alumno][0]}: {desactualizados[alumno][1]}",
                                         "que_hacer": QUE_HACER_DESACTUALIZADOS})
                continue
            carpeta = os.path.dirname(html)
            try:
                self._publicar(carpeta, html, alumno, cuaderno)
            except Exception as exc:  # noqa: BLE001 - that student's reason, the rest go on
                fallos += 1
                que_hacer = exc.que_hacer if isinstance(exc, NoSePublica) else QUE_HACER_OTRO
                self.log.error("%s de '%s' en '%s': no se publican los comentarios de %s: %s. Qué hacer: %s", aa.MARCA,
                               aa.nombre_legible(alumno), self.coursedir.assignment_id,
                               aa.nombre_legible(cuaderno), exc, que_hacer)
                sin_publicar.append({"alumno": alumno, "tipo": "fallo", "motivo": f"{aa.nombre_legible(cuaderno)}: {exc}",
                                     "que_hacer": que_hacer})
        if fallos:
            self.log.warning("Comentarios sin publicar: %d (ver los motivos arriba); el resto se publicó.", fallos)
        fallidos = ", ".join(sorted({aa.nombre_legible(r["alumno"]) for r in sin_publicar if r["tipo"] == "fallo"}))
        otros = f"; y por otros motivos (arriba, con qué hacer): {fallidos}" if fallidos else ""
        if desactualizados:
            quienes = ", ".join(aa.nombre_legible(a) for a in sorted(desactualizados))
            pendientes = (f"; y pendientes de revisión en formgrader: {', '.join(sorted(retenidos))}"
                          if retenidos else "")
            self.fail(f"Comentarios sin publicar, {MARCA_DESACTUALIZADOS}: {quienes} (la nota, la penalización o un "
                      "comentario cambió después de Generate Feedback: vuelve a pulsar Generate Feedback y después "
                      f"Release Feedback){pendientes}{otros}; el resto se publicó.")
        if retenidos:
            self.fail(f"Comentarios sin publicar, pendientes de revisión en formgrader: {', '.join(sorted(retenidos))} "
                      f"(entregas nuevas con notas a mano de la anterior){otros}; el resto se publicó.")
        if fallidos:
            self.fail(f"Comentarios sin publicar: {fallidos} (los motivos y qué hacer, arriba); el resto se publicó.")

    def _desactualizados(self, paginas: list[tuple[str, str, str]], por_alumno: bool) -> dict[str, tuple[str, str]]:
        """Students whose feedback no longer states what the gradebook says → (notebook, Spanish reason).

        The due dates of ``nbgrader_config.py`` are written into the gradebook first (``plazos.sincronizar``:
        an extension granted since changes the penalty), then each page's fingerprint is compared with the
        gradebook's (``huella_de_comentarios``).  One stale notebook withholds the student's whole assignment.
        """
        if not paginas:
            return {}
        from nbgrader.api import Gradebook
        from . import huella_de_comentarios as hc, plazos
        tarea = self.coursedir.assignment_id
        with Gradebook(self.coursedir.db_url) as gb:
            try:
                config_plazos, politica, _ = plazos.leer(self.coursedir.root)
                plazos.sincronizar(gb, config_plazos, politica, tareas=[tarea], log=self.log)
            except Exception as exc:  # noqa: BLE001 - compare with the gradebook as it is, and say so
                gb.db.rollback()
                self.log.warning("No se pudieron poner al día los plazos antes de publicar (%s): los comentarios se "
                                 "comparan con el libro de notas tal como está", exc)
            del_libro = hc.huellas(gb, tarea, sorted({a for a, _, _ in paginas}) if por_alumno else None)
        motivos: dict[str, tuple[str, str]] = {}
        for alumno, cuaderno, html in paginas:
            razon = hc.motivo(hc.leer_de_html(html), del_libro.get((alumno, cuaderno)))
            if razon and alumno not in motivos:
                motivos[alumno] = (aa.nombre_legible(cuaderno), razon)
        return motivos

    def _retenidos(self) -> dict[str, str]:
        """Students of this assignment whose submission is held for review (``revision``) → the reason."""
        from nbgrader.api import Gradebook
        from . import revision
        carpeta = os.path.join(self.coursedir.root, revision.CARPETA)
        if not os.path.isdir(os.path.join(carpeta, self.coursedir.assignment_id)):
            return {}
        with Gradebook(self.coursedir.db_url) as gb:
            return {alumno: "; ".join(lineas) for alumno, tarea in revision.con_pendientes(
                        gb, carpeta, self.coursedir.assignment_id)
                    for lineas in [revision.pendientes(gb, carpeta, tarea, alumno)]}

    def _publicar(self, carpeta: str, html: str, alumno: str, cuaderno: str) -> None:
        marca_tiempo = aa.leer_pequeño(os.path.join(carpeta, "timestamp.txt"), 256)
        secreto = aa.leer_pequeño(os.path.join(carpeta, "submission_secret.txt"), 1024)
        if secreto is None or not secreto.strip():
            raise NoSePublica("su entrega no trae submission_secret.txt (o no es un archivo normal y pequeño)",
                              QUE_HACER_SIN_SECRETO)
        if marca_tiempo is None:
            raise NoSePublica("falta timestamp.txt o no es un archivo normal y pequeño", QUE_HACER_SIN_FECHA)
        motivo = aa.es_archivo_normal(html, 64 * 1024 ** 2)
        if motivo:
            raise NoSePublica(f"el archivo de comentarios {motivo}", QUE_HACER_PAGINA)
        suma = notebook_hash(secret=secreto, notebook_id=cuaderno)
        destino = os.path.join(self.dest_path, f"{suma}.html")
        self.log.info("Releasing feedback for student '%s' on assignment '%s/%s/%s' (%s)", aa.nombre_legible(alumno),
                      self.coursedir.course_id, self.coursedir.assignment_id, aa.nombre_legible(cuaderno),
                      aa.nombre_legible(marca_tiempo.strip(), 64))
        aa.copiar_archivo(html, destino, 64 * 1024 ** 2)
        # the file's name is the key to it (anyone who knows it reads the feedback): never logged
        self.log.info("Feedback released to: %s", os.path.join(self.dest_path, "<código>.html"))
