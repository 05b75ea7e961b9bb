"""nbgrader's exchange list with each assignment's due date and each submission's delay.

Registered as ``c.ExchangeFactory.list`` in the hub's common nbgrader
configuration, so the Assignments tab's own endpoint (``/assignments``) returns,
besides nbgrader's fields:

* on every assignment, ``curso_plazo``: ``{"plazo": "2026-03-20T22:59:00Z" or
  None, "prorroga": bool, "zona": "Europe/Madrid", "politica": {...},
  "comentarios_desactualizados": bool}`` (the feedback released to the student no longer
  states their grade: an extension, a review or a manual grade since);
* on every submission, ``curso_entregada`` (its time as an ISO instant in UTC,
  ``2026-12-01T23:03:25Z``, None when unreadable: the tab shows it in the
  student's zone, nbgrader shows its own UTC text), ``curso_segundos_tarde``
  (after the due date, the student's extension included; 0 when on time) and
  ``curso_fraccion`` (the part of the score the course's policy would take; 0
  within the grace), ``curso_hora_real`` (the copy was last changed after the time in its
  name, beyond collect's margin or across the due date: the times above are that change's,
  as collect will count them) and ``curso_omitidos`` (what the hub's submit left out of
  it: links and special files, ``[{"ruta", "motivo"}]``, and ``curso_omitidos_mas``,
  how many more; read from the student's own copy, ``.omitidos_en_la_entrega.json``).

The data come from the exchange: ``<exchange>/<course>/plazos/plazos.json``
(due dates and policy, published by the formgrader service from the course's
``plazos.toml``: ``grader_tests/extensiones_nbgrader/plazos.py``) and, for a student with an
extension or stale feedback, the file named by ``CURSO_PLAZOS_FICHA``, which the hub gives only
to that student's server.  Everything read is bounded and checked: a missing,
damaged or huge file means no due date, never an error in the tab.

The submission times are nbgrader's (the folder names of the student's own
submissions), read back with nbgrader's ``parse_utc``; the course's exchange
writes them in UTC.  The labextension (``labextension/static/remoteEntry.js``)
shows all this in the tab, in the browser's time zone.
"""
from __future__ import annotations

import datetime as dt
import json
import math
import os
import re

from nbgrader.exchange.default.list import ExchangeList
from nbgrader.utils import parse_utc

CARPETA = "plazos"
PUBLICO = "plazos.json"
VARIABLE_FICHA = "CURSO_PLAZOS_FICHA"
MAX_BYTES = 256 * 1024
_FICHA = re.compile(r"^[0-9a-f]{16,64}$")


def _leer_json(ruta: str) -> dict | None:
    try:
        fd = os.open(ruta, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            datos = f.read(MAX_BYTES + 1)
    except OSError:
        return None
    if len(datos) > MAX_BYTES:
        return None
    try:
        valor = json.loads(datos.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return valor if isinstance(valor, dict) else None


def _instante(texto) -> dt.datetime | None:
    """An ISO instant of the published files → naive UTC; None if it is not one."""
    if not isinstance(texto, str):
        return None
    try:
        valor = dt.datetime.fromisoformat(texto.replace("Z", "+00:00"))
    except ValueError:
        return None
    if valor.tzinfo is None:
        return None
    return valor.astimezone(dt.timezone.utc).replace(tzinfo=None)


def _numero(valor, defecto: float, minimo: float = 0.0, maximo: float = math.inf) -> float:
    try:
        x = float(valor)
    except (TypeError, ValueError):
        return defecto
    return x if math.isfinite(x) and minimo <= x <= maximo else defecto


def plazos_publicados(raiz_intercambio: str, curso: str, ficha: str | None = None) -> dict:
    """``{"zona", "politica", "tareas": {tarea: {"plazo": naive UTC or None, "prorroga": bool}}}``; an
    assignment whose released feedback no longer states the student's grade also has
    ``"comentarios_desactualizados": True`` (the student's own file only)."""
    carpeta = os.path.join(raiz_intercambio, curso, CARPETA)
    publico = _leer_json(os.path.join(carpeta, PUBLICO)) or {}
    tareas = {}
    for tarea, datos in (publico.get("tareas") or {}).items():
        if isinstance(tarea, str) and isinstance(datos, dict):
            tareas[tarea] = {"plazo": _instante(datos.get("plazo")), "prorroga": False}
    if ficha and _FICHA.match(ficha):
        propias = _leer_json(os.path.join(carpeta, f"{ficha}.json")) or {}
        for tarea, datos in (propias.get("tareas") or {}).items():
            if not isinstance(tarea, str) or not isinstance(datos, dict):
                continue
            plazo = _instante(datos.get("plazo"))
            if plazo is not None:
                tareas[tarea] = {"plazo": plazo, "prorroga": True}
            if datos.get("comentarios_desactualizados") is True:
                tareas.setdefault(tarea, {"plazo": None, "prorroga": False})["comentarios_desactualizados"] = True
    politica = publico.get("politica") if isinstance(publico.get("politica"), dict) else {}
    zona = publico.get("zona") if isinstance(publico.get("zona"), str) else "Europe/Madrid"
    return {"zona": zona[:64], "tareas": tareas, "politica": {
        "por_dia": _numero(politica.get("por_dia"), 0.0, 0.0, 1.0),
        "maximo": _numero(politica.get("maximo"), 0.0, 0.0, 1.0),
        "gracia_s": _numero(politica.get("gracia_s"), 0.0),
        "texto": str(politica.get("texto") or "")[:300]}}


def fraccion(politica: dict, segundos: float) -> float:
    """The share of the score the course's policy takes ``segundos`` after the due date (grader_tests.extensiones_nbgrader.plazos)."""
    if segundos <= politica["gracia_s"]:
        return 0.0
    return min(politica["maximo"], politica["por_dia"] * math.ceil(segundos / 86400))


# the course's collect (grader_tests.extensiones_nbgrader.intercambio.IntercambioSeguro.margen_pasado): an entry
# last changed more than this after the date in its name, or across a due date, counts at its last change
MARGEN_PASADO_S = 900
MAX_ENTRADAS_MEDIDAS = 2000


def ultimo_cambio(carpeta) -> dt.datetime | None:
    """The newest ctime (naive UTC) of ``carpeta`` and what it holds, links not followed; None if unreadable.

    The same measure as the course's collect, on the student's own copy of the submission
    (nbgrader's cache): at most ``MAX_ENTRADAS_MEDIDAS`` entries are looked at.
    """
    if not isinstance(carpeta, str):
        return None
    try:
        cambio = os.stat(carpeta, follow_symlinks=False).st_ctime
    except OSError:
        return None
    pendientes, vistas = [carpeta], 0
    while pendientes and vistas < MAX_ENTRADAS_MEDIDAS:
        actual = pendientes.pop()
        try:
            with os.scandir(actual) as entradas:
                for e in entradas:
                    vistas += 1
                    if vistas > MAX_ENTRADAS_MEDIDAS:
                        break
                    try:
                        cambio = max(cambio, e.stat(follow_symlinks=False).st_ctime)
                        if e.is_dir(follow_symlinks=False):
                            pendientes.append(e.path)
                    except OSError:
                        continue
        except OSError:
            continue
    return dt.datetime.fromtimestamp(cambio, dt.timezone.utc).replace(tzinfo=None)


def anotar_entrega(entrega: dict, plazo: dt.datetime | None, politica: dict) -> dict:
    """Add ``curso_entregada``, ``curso_segundos_tarde``, ``curso_fraccion`` and ``curso_hora_real`` to one of nbgrader's submissions.

    ``plazo``: the due date that applies to the student (naive UTC, extension included) or None;
    ``politica``: as :func:`plazos_publicados` gives it.  The submission's ``timestamp`` is
    nbgrader's text (its folder name), read with nbgrader's ``parse_utc``; an unreadable one
    gives no time and no delay.  As the course's collect does, a copy last changed more than
    ``MARGEN_PASADO_S`` after that time, or after the due date when its name is before it,
    counts at its last change (``curso_hora_real``: True), so the tab never says «a tiempo»
    to a submission the grade will count late.
    """
    try:
        marca = parse_utc(str(entrega.get("timestamp")))
    except Exception:  # noqa: BLE001 - an unreadable time: nothing shown
        marca = None
    if not isinstance(marca, dt.datetime):
        marca = None
    real = False
    if marca is not None:
        cambio = ultimo_cambio(entrega.get("path"))
        if cambio is not None and (cambio - marca > dt.timedelta(seconds=MARGEN_PASADO_S)
                                   or (plazo is not None and marca <= plazo < cambio)):
            marca, real = cambio, True
    segundos = max(0.0, (marca - plazo).total_seconds()) if marca is not None and plazo is not None else 0.0
    entrega["curso_entregada"] = marca.replace(microsecond=0).isoformat() + "Z" if marca is not None else None
    entrega["curso_segundos_tarde"] = segundos
    entrega["curso_fraccion"] = fraccion(politica, segundos)
    entrega["curso_hora_real"] = real
    return entrega


OMITIDOS = ".omitidos_en_la_entrega.json"     # written by the hub's submit (despliegue/hub/jupyter/comun/entrega_honesta.py)


def anotar_omitidos(entrega: dict) -> dict:
    """Add ``curso_omitidos`` / ``curso_omitidos_mas``: what the submit left out (links, special files)."""
    omitidos, mas = [], 0
    carpeta = entrega.get("path")
    datos = _leer_json(os.path.join(carpeta, OMITIDOS)) if isinstance(carpeta, str) else None
    if datos:
        for o in (datos.get("omitidos") or [])[:50]:
            if isinstance(o, dict) and isinstance(o.get("ruta"), str) and isinstance(o.get("motivo"), str):
                omitidos.append({"ruta": o["ruta"][:200], "motivo": o["motivo"][:80]})
        mas = int(_numero(datos.get("mas"), 0.0, 0.0, 1e9))
    entrega["curso_omitidos"] = omitidos
    entrega["curso_omitidos_mas"] = mas
    return entrega


class ListaConPlazos(ExchangeList):
    """``ExchangeList`` whose assignments carry their due date and submissions their delay (module docstring)."""

    def parse_assignments(self):
        asignaciones = super().parse_assignments()
        por_curso: dict[str, dict] = {}
        ficha = os.environ.get(VARIABLE_FICHA, "").strip() or None
        for info in asignaciones:
            curso = info.get("course_id")
            if not isinstance(curso, str):
                continue
            if curso not in por_curso:
                por_curso[curso] = plazos_publicados(self.root, curso, ficha)
            publicados = por_curso[curso]
            datos = publicados["tareas"].get(info.get("assignment_id"), {"plazo": None, "prorroga": False})
            plazo = datos["plazo"]
            info["curso_plazo"] = {
                "plazo": plazo.isoformat() + "Z" if plazo is not None else None,
                "prorroga": datos["prorroga"], "zona": publicados["zona"], "politica": publicados["politica"],
                "comentarios_desactualizados": bool(datos.get("comentarios_desactualizados"))}
            for entrega in info.get("submissions") or []:
                anotar_entrega(entrega, plazo, publicados["politica"])
                anotar_omitidos(entrega)
        return asignaciones
