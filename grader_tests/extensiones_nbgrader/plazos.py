"""Due dates, extensions and the late-work policy of the course, on nbgrader's own machinery.

One place for the TA (README, «Plazos, retrasos y prórrogas»): ``plazos.toml`` in the
course root, which the course's ``nbgrader_config.py`` names (``c.PlazosDelCurso.archivo``)::

    [fechas]                                       # Madrid wall time
    01_atencion_multicabeza = "2026-03-20 23:59"
    [prorrogas.01_atencion_multicabeza]            # a new date, or a duration: "2 días", "36 h"
    ana = "2026-03-23 23:59"

The same values can be given as traits (``c.PlazosDelCurso.fechas`` and
``.prorrogas``, which win over the file's); the policy stays in ``nbgrader_config.py``::

    c.PenalizacionPorRetraso.por_dia = 0.10      # of the score, per started day late
    c.PenalizacionPorRetraso.maximo = 0.50       # never more than this

Every entry is checked when it is read (:meth:`PlazosDelCurso.invalidas`): a
value that cannot be read is never dropped silently.  ``nbgrader_config.py``
prints each one when it loads (:func:`avisar`), the course page shows it in red
in its row, ``make grade`` refuses to grade, and autograde refuses that
submission only (:class:`ComprobarPlazos`): nobody is graded with a due date
the TA did not mean, and nobody else's grade changes.  An unreadable
``plazos.toml`` (a TOML syntax error) makes every date unreadable, never empty.

What nbgrader does with it (nothing here re-implements it):

* :func:`sincronizar` writes the dates into nbgrader's gradebook: the
  assignment's ``duedate`` (naive UTC, as nbgrader stores it) and each
  submission's ``extension`` (a ``timedelta`` over the due date); then it
  recomputes every ``late_submission_penalty`` with the score the submission
  has now (a manual grade changes it).  The configuration is authoritative:
  a due date edited in formgrader or an extension granted through nbgrader's
  API is replaced (and the log says so).
* nbgrader's ``AssignLatePenalties`` (autograde) asks
  :class:`PenalizacionPorRetraso` (a ``LateSubmissionPlugin``) for the penalty
  of each notebook from nbgrader's ``total_seconds_late`` (timestamp minus due
  date plus extension, in UTC: exact to the second across daylight saving).
* :class:`AplicarPlazos` runs the synchronisation for one submission inside
  nbgrader's pipelines: in autograde (before ``AssignLatePenalties``) and in
  generate_feedback (before ``GetGrades``, so the feedback shows the penalty
  of the current score).  It reads ``nbgrader_config.py`` afresh each time:
  a formgrader started before the TA changed a date uses the new one.

Times: dates without an offset are wall time of :attr:`PlazosDelCurso.zona`
(``Europe/Madrid``), converted with the zone's rules for that date; a time
that does not exist (the spring gap) or exists twice (the autumn overlap) is
refused unless written with its offset (``2026-10-25 02:30+01:00``).
Submission timestamps are nbgrader's, written in UTC by the exchange
(``c.Exchange.timezone = "UTC"``: with a zone such as Europe/Madrid nbgrader
writes «CEST», which it reads back as UTC; :func:`zona_de_marcas_segura`).

:func:`publicar` writes what students see in the Assignments tab into the
exchange (``<exchange>/<course>/plazos/``): the due dates and the policy for
everybody, and each extension in a file named by a keyed hash of the
student's name (:func:`ficha_de_alumno`), which only the hub gives to that
student's server (``despliegue/hub/jupyterhub_config.py``).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import math
import os
import re
import sys
import tomllib
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from nbgrader.plugins import LateSubmissionPlugin
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Dict, Float, Unicode, validate
from traitlets.config import LoggingConfigurable

ZONA_DEL_CURSO = "Europe/Madrid"
DIA = 86400
VARIABLE_CLAVE = "CURSO_PLAZOS_CLAVE"          # the hub's key for students' extension files (hex)
CARPETA_PUBLICADA = "plazos"                    # <exchange>/<course>/plazos/
ARCHIVO_PUBLICO = "plazos.json"
ARCHIVO_DEL_TA = "plazos.toml"                  # the course root's file of due dates and extensions
FORMATO_FECHA = "AAAA-MM-DD HH:MM en hora de Madrid (una fecha sola vale hasta las 23:59:59)"
FORMATO_PRORROGA = "una fecha nueva (AAAA-MM-DD HH:MM) o una duración como «2 días», «36 h» o «1 día 12 h»"
VERSION_PUBLICADA = 1

DIAS_SEMANA = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")


class PlazoInvalido(ValueError):
    """A date, an extension or a time zone the course cannot use (Spanish message)."""


# ------------------------------------------------------------------------------ times

def _zona(nombre: str) -> ZoneInfo:
    try:
        return ZoneInfo(nombre)
    except (ZoneInfoNotFoundError, ValueError):
        raise PlazoInvalido(f"«{nombre}» no es una zona horaria (por ejemplo, Europe/Madrid)") from None


_FECHA = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*"
                    r"(Z|UTC|[+-]\d{2}:?\d{2})?\s*$", re.I)


def fecha(texto: str, zona: str = ZONA_DEL_CURSO) -> dt.datetime:
    """``"2026-03-27 23:59"`` (wall time of ``zona``) → the instant, as an aware UTC datetime.

    Accepts ``AAAA-MM-DD``, ``AAAA-MM-DD HH:MM`` and ``AAAA-MM-DD HH:MM:SS``
    (``T`` instead of the blank too), optionally followed by ``Z``, ``UTC`` or
    an offset (``+01:00``); a date alone means 23:59:59 of that day.

    Raises:
        PlazoInvalido: not a date; a wall time that does not exist in ``zona``
            (spring forward) or exists twice (fall back) and has no offset.
    """
    m = _FECHA.match(str(texto))
    if not m:
        raise PlazoInvalido(f"«{texto}» no es una fecha: escríbela como AAAA-MM-DD HH:MM (hora de {zona})")
    año, mes, dia = int(m[1]), int(m[2]), int(m[3])
    hora, minuto, segundo = (int(m[4]), int(m[5]), int(m[6] or 0)) if m[4] else (23, 59, 59)
    try:
        ingenua = dt.datetime(año, mes, dia, hora, minuto, segundo)
    except ValueError as error:
        raise PlazoInvalido(f"«{texto}» no es una fecha válida (ese día o esa hora no existen)") from None
    desfase = m[7]
    if desfase:
        if desfase.upper() in ("Z", "UTC"):
            return ingenua.replace(tzinfo=dt.timezone.utc)
        signo = 1 if desfase[0] == "+" else -1
        cifras = desfase[1:].replace(":", "")
        delta = dt.timedelta(hours=int(cifras[:2]), minutes=int(cifras[2:]))
        return (ingenua - signo * delta).replace(tzinfo=dt.timezone.utc)
    tz = _zona(zona)
    candidatas = []
    for pliegue in (0, 1):
        local = ingenua.replace(tzinfo=tz, fold=pliegue)
        instante = local.astimezone(dt.timezone.utc)
        if instante.astimezone(tz).replace(tzinfo=None) == ingenua:
            candidatas.append(instante)
    if not candidatas:
        raise PlazoInvalido(f"«{texto}» no existe en {zona} (esa hora se salta al cambiar al horario de verano): "
                            "elige otra o escribe el desfase, por ejemplo +01:00")
    if len(set(candidatas)) > 1:
        raise PlazoInvalido(f"«{texto}» ocurre dos veces en {zona} (al volver al horario de invierno): escribe "
                            "el desfase, +02:00 (la primera) o +01:00 (la segunda)")
    return candidatas[0]


def utc_ingenua(instante: dt.datetime) -> dt.datetime:
    """An aware datetime → naive UTC, as nbgrader's gradebook stores times."""
    return instante.astimezone(dt.timezone.utc).replace(tzinfo=None)


def consciente(ingenua_utc: dt.datetime) -> dt.datetime:
    """nbgrader's naive UTC → aware UTC."""
    return ingenua_utc.replace(tzinfo=dt.timezone.utc) if ingenua_utc.tzinfo is None else ingenua_utc


def mostrar(instante: dt.datetime | None, zona: str = ZONA_DEL_CURSO) -> str:
    """``viernes 27/03/2026 23:59 (hora de Madrid)``; seconds only when not zero (naive = UTC).

    A wall time that happens twice (the October night's 02:00–03:00) says which one, with its offset:
    ``domingo 25/10/2026 02:30 (hora de Madrid, +01:00: la segunda vez, ya en horario de invierno)``
    (a TA tester, issue 21: two instants an hour apart read the same).
    """
    if instante is None:
        return "sin plazo"
    local = consciente(instante).astimezone(_zona(zona))
    hora = local.strftime("%H:%M:%S" if local.second or local.microsecond else "%H:%M")
    lugar = zona.rsplit("/", 1)[-1].replace("_", " ")
    otra = local.replace(tzinfo=None).replace(fold=1 - local.fold, tzinfo=_zona(zona))
    if otra.utcoffset() != local.utcoffset():
        desfase = local.strftime("%z")
        cual = ("la primera vez, aún en horario de verano" if local.utcoffset() > otra.utcoffset()
                else "la segunda vez, ya en horario de invierno")
        return (f"{DIAS_SEMANA[local.weekday()]} {local:%d/%m/%Y} {hora} "
                f"(hora de {lugar}, {desfase[:3]}:{desfase[3:]}: {cual})")
    return f"{DIAS_SEMANA[local.weekday()]} {local:%d/%m/%Y} {hora} (hora de {lugar})"


def con_desfase(ingenua_utc: dt.datetime | None, zona: str = ZONA_DEL_CURSO) -> str:
    """nbgrader's naive UTC → ISO 8601 wall time of ``zona`` with its offset (``""`` for None).

    ``2026-03-29 10:00:00`` → ``2026-03-29 12:00:00+02:00`` (Madrid in summer); microseconds kept
    when there are any.  For CSV columns a spreadsheet or an LMS reads without guessing the zone.
    """
    if ingenua_utc is None:
        return ""
    return consciente(ingenua_utc).astimezone(_zona(zona)).isoformat(sep=" ")


def duracion(segundos: float) -> str:
    """Elapsed time in Spanish, never rounded up: ``"1 día, 2 h y 5 min"``, ``"3 min y 5 s"``, ``"40 s"``."""
    segundos = int(max(0.0, float(segundos)))
    if segundos < 60:
        return f"{segundos} s"
    dias, resto = divmod(segundos, DIA)
    horas, resto = divmod(resto, 3600)
    minutos, sueltos = divmod(resto, 60)
    partes = []
    if dias:
        partes.append(f"{dias} {'día' if dias == 1 else 'días'}")
    if horas:
        partes.append(f"{horas} h")
    if minutos:
        partes.append(f"{minutos} min")
    if sueltos and not dias and not horas:
        partes.append(f"{sueltos} s")
    return partes[0] if len(partes) == 1 else ", ".join(partes[:-1]) + " y " + partes[-1]


_UNIDADES = {"d": DIA, "dia": DIA, "dias": DIA, "día": DIA, "días": DIA,
             "h": 3600, "hora": 3600, "horas": 3600, "min": 60, "minuto": 60, "minutos": 60}
_DURACION = re.compile(r"(\d+(?:[.,]\d+)?)\s*([a-zíá]+)", re.I)


def prorroga(texto: str, plazo: dt.datetime | None, zona: str = ZONA_DEL_CURSO) -> dt.timedelta:
    """An extension as written in the config → nbgrader's ``extension`` (added to the due date).

    ``"2 días"``, ``"36 h"``, ``"1 día 12 h"``, ``"+90 min"``, or a new date
    (``"2026-03-23 23:59"``, same rules as :func:`fecha`), which needs ``plazo``
    (aware or naive UTC).

    Raises:
        PlazoInvalido: unreadable, negative, or a date before the due date.
    """
    limpio = str(texto).strip().lstrip("+").strip()
    if _FECHA.match(limpio):
        if plazo is None:
            raise PlazoInvalido(f"la prórroga «{texto}» es una fecha, pero la tarea no tiene plazo")
        nueva = fecha(limpio, zona)
        delta = nueva - consciente(plazo)
        if delta < dt.timedelta(0):
            raise PlazoInvalido(f"la prórroga «{texto}» es anterior al plazo de la tarea")
        return delta
    partes = _DURACION.findall(limpio)
    resto = _DURACION.sub("", limpio).replace(",", " ").replace(" y ", " ").strip()
    if not partes or resto:
        raise PlazoInvalido(f"«{texto}» no es una prórroga: escribe una fecha (AAAA-MM-DD HH:MM) o una duración "
                            "como «2 días», «36 h» o «1 día 12 h»")
    total = 0.0
    for cantidad, unidad in partes:
        factor = _UNIDADES.get(unidad.lower())
        if factor is None:
            raise PlazoInvalido(f"«{unidad}» en la prórroga «{texto}»: usa días, h o min")
        total += float(cantidad.replace(",", ".")) * factor
    return dt.timedelta(seconds=total)


def zona_de_marcas_segura(zona: str) -> bool:
    """Whether nbgrader reads back, exactly, the timestamps its exchange writes with ``zona``.

    The exchange writes ``%Y-%m-%d %H:%M:%S.%f %Z``; nbgrader's ``parse_utc``
    turns the last word into a zone with ``dateutil.tz.gettz``.  «UTC» works;
    Europe/Madrid writes «CEST» in summer, which gettz does not know, so the
    time is read as UTC (two hours late).  Checked for a winter and a summer instant.
    """
    from nbgrader.utils import parse_utc
    try:
        tz = _zona(zona)
    except PlazoInvalido:
        return False
    for instante in (dt.datetime(2026, 1, 15, 12, tzinfo=dt.timezone.utc),
                     dt.datetime(2026, 7, 15, 12, tzinfo=dt.timezone.utc)):
        texto = instante.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S.%f %Z")
        try:
            if parse_utc(texto) != utc_ingenua(instante):
                return False
        except Exception:  # noqa: BLE001 - unreadable is unsafe too
            return False
    return True


# ------------------------------------------------------------------------------ configuration

def leer_archivo(ruta: str | os.PathLike) -> dict:
    """``plazos.toml`` → ``{"zona": str | None, "fechas": {...}, "prorrogas": {...}}`` (a missing file: empty).

    Keys and values are kept as written (text); each value is checked later by
    :class:`PlazosDelCurso`.

    Raises:
        PlazoInvalido: the file is not TOML, or its tables are not what the course expects
            (Spanish message with the line when TOML gives one).
    """
    nombre = os.path.basename(str(ruta))
    try:
        with open(ruta, "rb") as f:
            datos = tomllib.load(f)
    except FileNotFoundError:
        return {"zona": None, "fechas": {}, "prorrogas": {}}
    except (OSError, UnicodeDecodeError) as error:
        raise PlazoInvalido(f"{nombre} no se puede abrir ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise PlazoInvalido(f"{nombre} no es TOML válido ({error}): revisa las comillas y los corchetes; "
                            f"cada línea es nombre = \"valor\"") from None
    extra = sorted(set(datos) - {"zona", "fechas", "prorrogas"})
    if extra:
        raise PlazoInvalido(f"{nombre}: no se esperaba {', '.join(extra)} (solo zona, [fechas] y [prorrogas.<tarea>])")
    zona = datos.get("zona")
    if zona is not None and not isinstance(zona, str):
        raise PlazoInvalido(f"{nombre}: zona tiene que ser un texto entre comillas, como \"Europe/Madrid\"")
    fechas = datos.get("fechas", {})
    if not isinstance(fechas, dict):
        raise PlazoInvalido(f"{nombre}: fechas tiene que ser una tabla [fechas] con líneas tarea = \"fecha\"")
    prorrogas = datos.get("prorrogas", {})
    if not isinstance(prorrogas, dict) or not all(isinstance(v, dict) for v in prorrogas.values()):
        raise PlazoInvalido(f"{nombre}: cada tarea con prórrogas va en su tabla [prorrogas.<tarea>] con líneas "
                            "alumno = \"prórroga\"")
    return {"zona": zona, "fechas": {t: _texto_toml(v) for t, v in fechas.items()},
            "prorrogas": {t: {a: _texto_toml(v) for a, v in alumnos.items()} for t, alumnos in prorrogas.items()}}


def _texto_toml(valor):
    """A TOML date or date-time written without quotes (``2026-03-20 23:59:00``) → the text :func:`fecha` reads."""
    if isinstance(valor, dt.datetime):
        return valor.isoformat(sep=" ")
    if isinstance(valor, dt.date):
        return valor.isoformat()
    return valor


def _formato(error: Exception, formato: str) -> str:
    return "" if "AAAA-MM-DD" in str(error) else f". Formato: {formato}"


class PlazosDelCurso(LoggingConfigurable):
    """The course's due dates and extensions (``plazos.toml``; see the module docstring)."""

    zona = Unicode(ZONA_DEL_CURSO, help="Time zone of the dates written without an offset.").tag(config=True)
    fechas = Dict({}, help="Assignment → due date, wall time of `zona` ('AAAA-MM-DD HH:MM'); "
                           "'' = no due date.  Wins over the file's.").tag(config=True)
    prorrogas = Dict({}, help="Assignment → {student: new due date or duration ('2 días', '36 h')}.  "
                              "Wins over the file's.").tag(config=True)
    archivo = Unicode("", help="The TA's file of due dates and extensions (plazos.toml), read when this "
                               "object is made; '' = none.").tag(config=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.error_de_archivo: str | None = None        # why plazos.toml cannot be read (Spanish)
        self._del_archivo: set = set()                  # (tarea,) and (tarea, alumno) written in the file
        if not self.archivo:
            return
        try:
            datos = leer_archivo(self.archivo)
            if datos["zona"] and "zona" not in (self.config.get("PlazosDelCurso") or {}):
                self.zona = datos["zona"]
        except (PlazoInvalido, ValueError) as error:
            self.error_de_archivo = str(error)
            return
        fechas = {str(t): v for t, v in datos["fechas"].items()}
        prorrogas = {str(t): {str(a): v for a, v in alumnos.items()} for t, alumnos in datos["prorrogas"].items()}
        self._del_archivo = ({(t,) for t in fechas if t not in self.fechas}
                             | {(t, a) for t, alumnos in prorrogas.items() for a in alumnos
                                if a not in (self.prorrogas.get(t) or {})})
        for tarea, alumnos in self.prorrogas.items():
            prorrogas[tarea] = {**prorrogas.get(tarea, {}), **alumnos} if isinstance(alumnos, dict) else alumnos
        self.fechas = {**fechas, **self.fechas}
        self.prorrogas = prorrogas

    @validate("zona")
    def _zona_valida(self, propuesta):
        _zona(propuesta["value"])
        return propuesta["value"]

    @property
    def nombre_del_archivo(self) -> str:
        return os.path.basename(self.archivo) if self.archivo else ARCHIVO_DEL_TA

    def _sin_archivo(self) -> None:
        if self.error_de_archivo:
            raise PlazoInvalido(f"{self.error_de_archivo}. Mientras no se pueda leer, no vale ningún plazo ni "
                                "ninguna prórroga: no se califica nada con plazo")

    def plazo(self, tarea: str) -> dt.datetime | None:
        """The assignment's due date (aware UTC), None without one.  Raises PlazoInvalido."""
        self._sin_archivo()
        texto = self.fechas.get(tarea)
        if texto is None or (isinstance(texto, str) and not texto.strip()):
            return None
        try:
            if not isinstance(texto, str):
                raise PlazoInvalido(f"«{texto}» no es una fecha entre comillas")
            return fecha(texto, self.zona)
        except PlazoInvalido as error:
            if (tarea,) in self._del_archivo:
                raise PlazoInvalido(f"{self.nombre_del_archivo}: el plazo de {tarea} («{texto}») no se puede leer: "
                                    f"{error}{_formato(error, FORMATO_FECHA)}") from None
            raise PlazoInvalido(f"c.PlazosDelCurso.fechas[{tarea!r}]: {error}") from None

    def prorroga(self, tarea: str, alumno: str) -> dt.timedelta | None:
        """The student's extension on the assignment, None without one.  Raises PlazoInvalido."""
        self._sin_archivo()
        alumnos = self.prorrogas.get(tarea) or {}
        texto = alumnos.get(alumno) if isinstance(alumnos, dict) else None
        if texto is None or (isinstance(texto, str) and not texto.strip()):
            return None
        try:
            if not isinstance(texto, str):
                raise PlazoInvalido(f"«{texto}» no es una prórroga entre comillas")
            return prorroga(texto, self.plazo(tarea), self.zona)
        except PlazoInvalido as error:
            if (tarea, alumno) in self._del_archivo:
                raise PlazoInvalido(f"{self.nombre_del_archivo}: la prórroga de {alumno} en {tarea} («{texto}») no "
                                    f"se puede leer: {error}{_formato(error, FORMATO_PRORROGA)}") from None
            raise PlazoInvalido(f"c.PlazosDelCurso.prorrogas[{tarea!r}][{alumno!r}]: {error}") from None

    def invalidas(self) -> dict:
        """What cannot be read, by where it is: ``{"archivo": str | None, "fechas": {tarea: texto},
        "prorrogas": {(tarea, alumno): texto}}`` (Spanish messages; empty dicts when all is fine)."""
        if self.error_de_archivo:
            return {"archivo": self.error_de_archivo, "fechas": {}, "prorrogas": {}}
        fechas, prorrogas = {}, {}
        for tarea in self.fechas:
            try:
                self.plazo(tarea)
            except PlazoInvalido as error:
                fechas[tarea] = str(error)
        for tarea, alumnos in self.prorrogas.items():
            if not isinstance(alumnos, dict):
                fechas.setdefault(tarea, f"c.PlazosDelCurso.prorrogas[{tarea!r}] tiene que ser un diccionario "
                                         "alumno → fecha")
                continue
            for alumno in alumnos:
                try:
                    self.prorroga(tarea, alumno)
                except PlazoInvalido as error:
                    prorrogas[(tarea, alumno)] = str(error)
        return {"archivo": None, "fechas": fechas, "prorrogas": prorrogas}

    def errores(self) -> list[str]:
        """Every date or extension that cannot be read, in Spanish (empty when all are fine)."""
        mal = self.invalidas()
        return ([mal["archivo"]] if mal["archivo"] else []) + list(mal["fechas"].values()) + \
            list(mal["prorrogas"].values())


def clase_del_curso(gb=None, curso: str | None = None) -> tuple[set[str], list[str]]:
    """The students of the class: the gradebook's (``gb``) and, on the hub, the members of the group
    ``nbgrader-<curso>`` (nbgrader's JupyterHub API, with the service's token).  Returns ``(ids, fuentes)``:
    ``fuentes`` names where they came from, in Spanish («el libro de notas», «el grupo … del hub»); both
    empty when nothing could be asked."""
    ids: set[str] = set()
    fuentes: list[str] = []
    if gb is not None:
        ids |= {s.id for s in gb.students}
        fuentes.append("el libro de notas")
    curso = os.environ.get("CURSO_HUB_CURSO") if curso is None else curso     # "": the gradebook alone
    if curso and os.environ.get("JUPYTERHUB_API_TOKEN"):
        try:
            from nbgrader.auth.jupyterhub import _query_jupyterhub_api
            grupo = _query_jupyterhub_api("GET", f"/groups/nbgrader-{curso}")
            ids |= {str(u) for u in grupo.get("users") or []}
            fuentes.append(f"el grupo nbgrader-{curso} del hub")
        except Exception:  # noqa: BLE001 - the hub unreachable: the gradebook alone
            pass
    return ids, fuentes


def prorrogas_de_desconocidos(plazos: PlazosDelCurso, clase: set[str], fuentes=()) -> dict[tuple[str, str], str]:
    """Extensions written for someone who is not in the class (a misspelt id: «prueba-mrta»).

    ``(tarea, alumno)`` → a Spanish warning that names the id, where it was looked for and the closest ids
    of the class (TA round 7, P2-3).  Empty when ``clase`` is empty (nothing to compare with).  Nobody has
    such an extension: the student the TA meant is graded with the plain due date.
    """
    import difflib
    if not clase:
        return {}
    donde = " ni en ".join(fuentes) if fuentes else "la lista de clase"
    avisos = {}
    for tarea, alumnos in plazos.prorrogas.items():
        if not isinstance(alumnos, dict):
            continue
        for alumno in alumnos:
            if alumno in clase:
                continue
            # the closest ids only (a shared prefix such as «prueba-» makes the whole class look alike)
            parecido = {c: difflib.SequenceMatcher(None, alumno, c).ratio() for c in clase}
            mejor = max(parecido.values())
            parecidos = sorted((c for c, r in parecido.items() if r >= max(0.6, mejor - 0.05)),
                               key=lambda c: (-parecido[c], c))[:3]
            pista = (f"¿querías decir {' o '.join(parecidos)}?" if parecidos else
                     "escribe su nombre de usuario del hub, el mismo de nbgrader")
            avisos[(tarea, alumno)] = (f"{plazos.nombre_del_archivo}: la prórroga de «{alumno}» en {tarea} es para "
                                       f"alguien que no está en la clase (no está en {donde}); nadie la tiene: "
                                       f"{pista}")
    return avisos


_AVISADOS: set[str] = set()


def avisar(plazos: PlazosDelCurso, flujo=None) -> list[str]:
    """Print, once per process, every date or extension that cannot be read (``nbgrader_config.py`` on load).

    Spanish, on stderr (``flujo``), each naming the assignment, the student, the value and the accepted
    format.  Returns the lines printed now.
    """
    nuevos = [e for e in plazos.errores() if e not in _AVISADOS]
    for error in nuevos:
        _AVISADOS.add(error)
        print(f"⚠ Plazos: {error}", file=flujo or sys.stderr)
    return nuevos


class PenalizacionPorRetraso(LateSubmissionPlugin):
    """The course's late policy as nbgrader's ``LateSubmissionPlugin`` (``AssignLatePenalties.plugin_class``).

    A submission ``s`` seconds after its due date (extension included) loses
    ``min(maximo, por_dia × ceil(s / 86400))`` of its score: every started
    day of 24 hours counts, measured in UTC (a day across a daylight-saving
    change is still 24 hours).  Within ``gracia_minutos`` it is on time.
    """

    por_dia = Float(0.10, help="Fraction of the score lost per started day late (0.10 = 10 %).").tag(config=True)
    maximo = Float(0.50, help="Largest fraction lost, however late (1.0: down to 0).").tag(config=True)
    gracia_minutos = Float(0.0, help="Minutes after the due date that still count as on time.").tag(config=True)

    @validate("por_dia", "maximo")
    def _fraccion_valida(self, propuesta):
        if not 0 <= propuesta["value"] <= 1:
            raise PlazoInvalido(f"c.PenalizacionPorRetraso.{propuesta['trait'].name} tiene que estar entre 0 y 1")
        return propuesta["value"]

    def tarde(self, segundos: float) -> bool:
        return segundos > self.gracia_minutos * 60

    def fraccion(self, segundos: float) -> float:
        """Fraction of the score lost ``segundos`` after the due date (0 when on time)."""
        if not self.tarde(segundos):
            return 0.0
        return min(self.maximo, self.por_dia * math.ceil(segundos / DIA))

    def late_submission_penalty(self, student_id: str, score: float, total_seconds_late: float) -> float | None:
        fraccion = self.fraccion(total_seconds_late)
        if fraccion <= 0 or not score:
            return None
        return round(float(score) * fraccion, 6)

    def descripcion(self) -> str:
        """The policy in one Spanish sentence (table, report, feedback, Assignments tab)."""
        if self.por_dia <= 0 or self.maximo <= 0:
            return "Las entregas tardías se marcan, sin penalización."
        gracia = f" (con {self.gracia_minutos:g} min de cortesía)" if self.gracia_minutos else ""
        return (f"Cada día de retraso empezado{gracia} resta el {self.por_dia * 100:g} % de la nota, "
                f"como mucho el {self.maximo * 100:g} %.")


def desde_config(config) -> tuple[PlazosDelCurso, PenalizacionPorRetraso]:
    """The course's dates and policy from a traitlets ``Config``."""
    return PlazosDelCurso(config=config), PenalizacionPorRetraso(config=config)


def leer(raiz: str | os.PathLike):
    """``(PlazosDelCurso, PenalizacionPorRetraso, config)`` from the course's ``nbgrader_config.py``, read now.

    Read afresh on every call, as nbgrader would at its next start: a
    formgrader that started before the TA changed a date sees the new one.
    """
    from traitlets.config.loader import Config, PyFileConfigLoader
    raiz = os.path.abspath(raiz)
    config = (PyFileConfigLoader("nbgrader_config.py", path=raiz).load_config()
              if os.path.isfile(os.path.join(raiz, "nbgrader_config.py")) else Config())
    return (*desde_config(config), config)


# ------------------------------------------------------------------------------ the gradebook

@dataclass
class EstadoDeEntrega:
    """How one submission stands against its due date (for the table, exports and the report)."""
    plazo: dt.datetime | None            # the assignment's due date (naive UTC), None without one
    prorroga: dt.timedelta | None
    entregada: dt.datetime | None        # nbgrader's timestamp (naive UTC)
    segundos_tarde: float
    penalizacion: float                  # points taken (nbgrader's late_submission_penalty, summed)

    @property
    def tarde(self) -> bool:
        return self.segundos_tarde > 0

    @property
    def plazo_efectivo(self) -> dt.datetime | None:
        if self.plazo is None:
            return None
        return self.plazo + (self.prorroga or dt.timedelta(0))


def estado(entrega) -> EstadoDeEntrega:
    """:class:`EstadoDeEntrega` of an ``nbgrader.api.SubmittedAssignment``."""
    penal = sum(float(nb.late_submission_penalty or 0) for nb in entrega.notebooks)
    return EstadoDeEntrega(entrega.assignment.duedate, entrega.extension, entrega.timestamp,
                           float(entrega.total_seconds_late or 0), penal)


def texto_del_retraso(e: EstadoDeEntrega, politica: PenalizacionPorRetraso | None = None,
                      zona: str = ZONA_DEL_CURSO) -> str | None:
    """The Spanish observation of a late submission (None when on time or without due date).

    ``entregada 1 día y 2 h después del plazo del viernes 20/03/2026 23:59 (hora de Madrid): −3 puntos (20 %)``.
    """
    if not e.tarde:
        return None
    plazo = ("de su prórroga, " if e.prorroga else "del ") + mostrar(e.plazo_efectivo, zona)
    texto = f"entregada {duracion(e.segundos_tarde)} después del plazo {plazo}"
    if politica is not None and not politica.tarde(e.segundos_tarde):
        return texto + ": dentro de la cortesía, sin penalización"
    if e.penalizacion > 0:
        fraccion = f" ({politica.fraccion(e.segundos_tarde) * 100:g} %)" if politica is not None else ""
        puntos = round(e.penalizacion, 2)
        return texto + f": −{puntos:g} {'punto' if puntos == 1 else 'puntos'} por retraso{fraccion}"
    return texto + ": sin penalización"


def sincronizar(gb, plazos: PlazosDelCurso, politica: PenalizacionPorRetraso, tareas=None, alumnos=None,
                log=None, crear=(), saltar=()) -> list[str]:
    """Write the course's due dates and extensions into nbgrader's gradebook and recompute penalties.

    Reads the gradebook in bulk (``notas_en_bloque``) and writes only what
    changed: linear in the class, cheap when nothing changed.

    Args:
        gb: an open ``nbgrader.api.Gradebook``.
        plazos, politica: the course's configuration (:func:`leer`).
        tareas, alumnos: only these assignments / students (None: all).
        log: a logger for what the configuration replaced (dates edited elsewhere).
        crear: assignments (names of folders in ``source/``) to add to the gradebook when the
            configuration gives them a due date and they are not there yet, as formgrader's own
            due-date dialog does: a draft's due date is in formgrader before *Generate*.
        saltar: ``(tarea, alumno)`` pairs left exactly as the gradebook has them (extension and penalty):
            the extensions that cannot be read (:meth:`PlazosDelCurso.invalidas`), when the rest is applied.

    Returns:
        The Spanish notes about what the configuration replaced (also logged).

    Raises:
        PlazoInvalido: a date or an extension in the configuration cannot be read.
    """
    from nbgrader.api import Assignment, SubmittedAssignment, SubmittedNotebook
    from .notas_en_bloque import leer as leer_en_bloque
    notas: list[str] = []
    existentes = {a.name for a in gb.db.query(Assignment.name)}
    for tarea in sorted(set(crear) - existentes):
        if (tareas is None or tarea in tareas) and plazos.plazo(tarea) is not None:
            gb.update_or_create_assignment(tarea, duedate=utc_ingenua(plazos.plazo(tarea)))
    libro = leer_en_bloque(gb, tareas, alumnos)
    db = gb.db
    nuevos_plazos = {}
    for tarea, actual in libro.duedates.items():
        plazo = plazos.plazo(tarea)
        nuevo = utc_ingenua(plazo) if plazo is not None else None
        nuevos_plazos[tarea] = nuevo
        if actual != nuevo:
            if actual is not None:
                notas.append(f"{tarea}: el plazo del libro de notas ({mostrar(actual, plazos.zona)}) no es el de "
                             f"{plazos.nombre_del_archivo} ({mostrar(nuevo, plazos.zona)}); manda "
                             f"{plazos.nombre_del_archivo}")
            db.query(Assignment).filter(Assignment.name == tarea).update({"duedate": nuevo})
    filtro_alumnos = set(alumnos) if alumnos is not None else None
    for (tarea, alumno), e in libro.entregas.items():
        if (filtro_alumnos is not None and alumno not in filtro_alumnos) or (tarea, alumno) in saltar:
            continue
        extension = plazos.prorroga(tarea, alumno)
        if e.extension != extension:
            if e.extension and extension is None:
                notas.append(f"{alumno} / {tarea}: se quita la prórroga del libro de notas "
                             f"({duracion(e.extension.total_seconds())}): no está en {plazos.nombre_del_archivo}")
            db.query(SubmittedAssignment).filter(SubmittedAssignment.id == e.id).update({"extension": extension})
        e.duedate, e.extension = nuevos_plazos[tarea], extension
        segundos = e.segundos_tarde
        for cuaderno, snid in e.ids_de_cuaderno.items():
            puntos = e.puntos_del_cuaderno(cuaderno)
            penal = politica.late_submission_penalty(alumno, puntos, segundos) if segundos > 0 else None
            if penal is not None:
                penal = min(max(0.0, penal), puntos)
            anterior = e.penalizaciones.get(cuaderno)
            if (anterior is None) != (penal is None) or (penal is not None and abs(anterior - penal) > 1e-9):
                db.query(SubmittedNotebook).filter(SubmittedNotebook.id == snid).update(
                    {"late_submission_penalty": penal})
    db.commit()
    for nota in notas:
        if log is not None:
            log.warning("Plazos: %s", nota)
    return notas


class AplicarPlazos(NbGraderPreprocessor):
    """In nbgrader's pipelines: this submission's due date, extension and penalty from the course's config.

    Autograde: before ``AssignLatePenalties`` (which then computes the penalty
    with the same policy).  generate_feedback: before ``GetGrades``, so the
    feedback shows the penalty of the score the submission has now; it also
    leaves the Spanish line of the delay in ``resources["nbgrader"]["curso_retraso"]``.
    """

    def preprocess(self, nb, resources):
        from nbgrader.api import Gradebook
        from nbgrader.coursedir import CourseDirectory
        datos = resources.get("nbgrader") or {}
        tarea, alumno, url = datos.get("assignment"), datos.get("student"), datos.get("db_url")
        if not (tarea and alumno and url):
            return nb, resources
        raiz = CourseDirectory(config=self.config).root
        plazos, politica, _ = leer(raiz)
        with Gradebook(url) as gb:
            sincronizar(gb, plazos, politica, tareas=[tarea], alumnos=[alumno], log=self.log)
            e = estado(gb.find_submission(tarea, alumno))
        datos["curso_retraso"] = para_el_alumno(e, politica, plazos.zona)
        return nb, resources


class ComprobarPlazos(NbGraderPreprocessor):
    """Autograde's first step: refuse this submission when its due date or its extension cannot be read.

    Before anything runs or is saved (the first of ``Autograde.sanitize_preprocessors``): the student's
    previous grades stay as they were, the error names the student, the value and the accepted format,
    and nbgrader goes on with the rest of the class.  Raises :class:`PlazoInvalido`.
    """

    def preprocess(self, nb, resources):
        from nbgrader.coursedir import CourseDirectory
        datos = resources.get("nbgrader") or {}
        tarea, alumno = datos.get("assignment"), datos.get("student")
        if not (tarea and alumno):
            return nb, resources
        plazos, _, _ = leer(CourseDirectory(config=self.config).root)
        try:
            plazos.prorroga(tarea, alumno)
            plazos.plazo(tarea)
        except PlazoInvalido as error:
            raise PlazoInvalido(f"No se califica a {alumno} en {tarea} (sus notas anteriores no cambian): {error}. "
                                f"Corrígelo en {plazos.nombre_del_archivo} y vuelve a calificar.") from None
        return nb, resources


def para_el_alumno(e: EstadoDeEntrega, politica: PenalizacionPorRetraso, zona: str = ZONA_DEL_CURSO) -> str | None:
    """The sentence the student's feedback shows under a late penalty (None when on time)."""
    if not e.tarde or not politica.tarde(e.segundos_tarde):
        return None
    plazo = ("de tu prórroga, " if e.prorroga else "del ") + mostrar(e.plazo_efectivo, zona)
    return f"Entregaste {duracion(e.segundos_tarde)} después del plazo {plazo}. {politica.descripcion()}"


# ------------------------------------------------------------------------------ what students see

def ficha_de_alumno(clave: bytes, curso: str, alumno: str) -> str:
    """The name of a student's extension file: a keyed hash only the hub can compute for that student."""
    return hmac.new(clave, f"{curso}\0{alumno}".encode("utf-8"), hashlib.sha256).hexdigest()[:40]


def clave_del_entorno() -> bytes | None:
    """The hub's key for students' extension files (``CURSO_PLAZOS_CLAVE``, hex), None without one."""
    texto = os.environ.get(VARIABLE_CLAVE, "").strip()
    try:
        return bytes.fromhex(texto) if texto else None
    except ValueError:
        return None


def _iso(ingenua_utc: dt.datetime | None) -> str | None:
    return None if ingenua_utc is None else consciente(ingenua_utc).isoformat().replace("+00:00", "Z")


def _escribir_si_cambia(ruta: str, datos: dict) -> bool:
    texto = json.dumps(datos, ensure_ascii=False, sort_keys=True, indent=1)
    try:
        with open(ruta, encoding="utf-8") as f:
            if f.read() == texto:
                return False
    except OSError:
        pass
    temporal = f"{ruta}.{os.getpid()}.tmp"
    with open(temporal, "w", encoding="utf-8") as f:
        f.write(texto)
    os.chmod(temporal, 0o644)
    os.replace(temporal, ruta)
    return True


def _publicada(ruta: str, tarea: str) -> dict | None:
    """The entry of ``tarea`` in a student's published extension file, None without one."""
    try:
        with open(ruta, encoding="utf-8") as f:
            entrada = json.load(f).get("tareas", {}).get(tarea)
    except (OSError, ValueError, AttributeError):
        return None
    return entrada if isinstance(entrada, dict) else None


def publicar(carpeta_curso: str, curso: str, plazos: PlazosDelCurso, politica: PenalizacionPorRetraso,
             clave: bytes | None = None, tareas=(), comentarios_viejos=None) -> str | None:
    """Write the due dates students see into the exchange (``<carpeta_curso>/plazos/``); returns the folder.

    ``plazos.json`` (readable by everyone): the due date in UTC of each
    assignment of ``tareas`` and of the configuration (the configuration is
    the only source: :func:`sincronizar` writes the same dates into the
    gradebook), the zone and the policy.  With ``clave`` (the hub's), one
    file per student with an extension, named :func:`ficha_de_alumno`,
    holding that student's due dates; the folder is not listable (0711).
    Files for extensions that no longer exist are removed; an extension that
    cannot be read keeps what was published for it before.  ``comentarios_viejos``
    (``{(alumno, tarea)}``, with ``clave``): the students whose released feedback no longer
    states their grade (``huella_de_comentarios.desactualizados``): their file marks that
    assignment ``"comentarios_desactualizados": true`` and the Assignments tab says so.
    None when the exchange's course folder does not exist.

    Raises:
        PlazoInvalido: ``plazos.toml`` or a due date cannot be read (nothing is written).
    """
    if not os.path.isdir(carpeta_curso):
        return None
    mal = plazos.invalidas()
    if mal["archivo"] or mal["fechas"]:
        raise PlazoInvalido("; ".join([mal["archivo"]] if mal["archivo"] else list(mal["fechas"].values())))
    nombres = sorted(set(tareas) | set(plazos.fechas))
    fechas = {t: plazos.plazo(t) for t in nombres}
    carpeta = os.path.join(carpeta_curso, CARPETA_PUBLICADA)
    os.makedirs(carpeta, exist_ok=True)
    os.chmod(carpeta, 0o711)
    _escribir_si_cambia(os.path.join(carpeta, ARCHIVO_PUBLICO), {
        "version": VERSION_PUBLICADA, "curso": curso, "zona": plazos.zona,
        "tareas": {t: {"plazo": _iso(utc_ingenua(f)) if f is not None else None} for t, f in fechas.items()},
        "politica": {"por_dia": politica.por_dia, "maximo": politica.maximo,
                     "gracia_s": politica.gracia_minutos * 60, "texto": politica.descripcion()}})
    fichas: set[str] = set()
    if clave:
        por_alumno: dict[str, dict] = {}
        for tarea, alumnos in plazos.prorrogas.items():
            if not isinstance(alumnos, dict) or fechas.get(tarea) is None:
                continue
            for alumno in alumnos:
                if (tarea, alumno) in mal["prorrogas"]:
                    # unreadable: the student keeps what was published for it (the course page says so in red)
                    anterior = _publicada(os.path.join(carpeta, f"{ficha_de_alumno(clave, curso, alumno)}.json"), tarea)
                    anterior = {k: v for k, v in (anterior or {}).items() if k in ("plazo", "prorroga")}
                    if anterior.get("plazo"):
                        por_alumno.setdefault(alumno, {})[tarea] = anterior
                    continue
                extension = plazos.prorroga(tarea, alumno)
                if extension is not None:
                    por_alumno.setdefault(alumno, {})[tarea] = {
                        "plazo": _iso(utc_ingenua(fechas[tarea] + extension)), "prorroga": True}
        for alumno, tarea in sorted(comentarios_viejos or ()):
            por_alumno.setdefault(alumno, {}).setdefault(tarea, {})["comentarios_desactualizados"] = True
        for alumno, suyas in por_alumno.items():
            nombre = ficha_de_alumno(clave, curso, alumno)
            fichas.add(f"{nombre}.json")
            _escribir_si_cambia(os.path.join(carpeta, f"{nombre}.json"),
                                {"version": VERSION_PUBLICADA, "tareas": suyas})
    for nombre in os.listdir(carpeta):
        if nombre.endswith(".json") and nombre != ARCHIVO_PUBLICO and nombre not in fichas:
            try:
                os.unlink(os.path.join(carpeta, nombre))
            except OSError:
                pass
    return carpeta
