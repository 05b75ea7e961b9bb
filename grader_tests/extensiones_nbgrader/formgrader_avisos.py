"""What formgrader's pages say about late work and held reviews: the course's data, formgrader's login.

nbgrader 0.9.6's formgrader shows every score before the late penalty and
nothing about a resubmission held for review (``revision``), while grades.csv,
the TA table and the student's feedback apply the penalty.  The course's
scripts on formgrader's pages (``plantillas/formgrader/static/``) draw what is
missing from two read-only endpoints registered next to nbgrader's API by
``formgrader_seguro`` (same login, JSON served as text, nothing rendered here):

* ``GET /formgrader/curso/api/retrasos[?tarea=…][&alumno=…]`` -- :func:`retrasos`:
  the late submissions with nbgrader's numbers (``total_seconds_late``, each
  notebook's ``late_submission_penalty``), after :func:`plazos.sincronizar`
  brought them up to date with ``plazos.toml`` and with the scores the
  gradebook has now (a manual grade changes the penalty).  Manage Students,
  a student's assignments and notebooks, an assignment's submissions and
  Manual Grading's list mark them «⚠ tarde: −1 → 9 / 18».
* ``GET /formgrader/curso/api/entrega/<submission id>`` -- :func:`entrega`:
  for the submission page, the same for its assignment and notebook, and what
  is still held for review in that notebook (each held grade and comment with
  formgrader's own ids, so the page's «Aceptar la nota automática» saves them
  through nbgrader's API, ``PUT /formgrader/api/grade/<id>``).

:func:`negativa_por_revision` turns the result of formgrader's Generate /
Release Feedback that stopped *only* because of held submissions, or Release
Feedback that withheld stale feedback (``huella_de_comentarios``), into the
Spanish reason (who, and what to do, with a link to each submission page):
no template paths, no traceback.
"""
from __future__ import annotations

import json
import os
import re
import time

from tornado import ioloop, web

from . import notas_en_bloque, plazos, revision

RUTA_RETRASOS = "/formgrader/curso/api/retrasos"
RUTA_ENTREGA = "/formgrader/curso/api/entrega/"


# ------------------------------------------------------------------------------ late submissions

def _sincronizar(gb, raiz: str, tareas, alumnos, log) -> tuple[plazos.PlazosDelCurso, plazos.PenalizacionPorRetraso,
                                                                  str | None]:
    """The course's dates and policy, written into the gradebook first; a Spanish warning if that failed."""
    try:
        config_plazos, politica, _ = plazos.leer(raiz)
    except Exception as error:  # noqa: BLE001 - a broken config: nbgrader's numbers as they are
        return plazos.PlazosDelCurso(), plazos.PenalizacionPorRetraso(), (
            f"No se pudo leer nbgrader_config.py ({error}): se muestran los retrasos del libro de notas tal cual.")
    try:
        # an unreadable extension keeps that student's as it was; everybody else's is brought up to date
        saltar = set(config_plazos.invalidas()["prorrogas"])
        plazos.sincronizar(gb, config_plazos, politica, tareas=tareas, alumnos=alumnos, log=log, saltar=saltar)
    except Exception as error:  # noqa: BLE001 - a bad date or a busy database: say it, show what is there
        gb.db.rollback()
        return config_plazos, politica, (f"No se pudieron poner al día los plazos ({error}): se muestran los "
                                         "retrasos del libro de notas tal cual.")
    return config_plazos, politica, None


def plazos_al_dia(gb, raiz: str, fuentes, log=None) -> str | None:
    """The course's due dates in the gradebook now, drafts of ``fuentes`` included (formgrader's list).

    Returns the Spanish warning when the configuration could not be applied (None when it was).
    """
    try:
        config_plazos, politica, _ = plazos.leer(raiz)
        plazos.sincronizar(gb, config_plazos, politica, log=log, crear=sorted(fuentes))
    except Exception as error:  # noqa: BLE001 - a bad date or a busy database: the gradebook as it is
        gb.db.rollback()
        if log is not None:
            log.warning("Plazos: no se pudieron poner al día (%s)", error)
        return f"No se pudieron poner al día los plazos ({error})."
    return None


def retrasos(gb, raiz: str, tareas: list[str] | None = None, alumnos: list[str] | None = None, log=None) -> dict:
    """The late submissions of the gradebook ``gb`` (of these assignments / students), as formgrader draws them.

    Returns ``{"entregas": [...], "politica": Spanish sentence, "aviso": Spanish text or None}``; each
    submission ``{"tarea", "alumno", "segundos_tarde", "penalizacion", "puntos", "nota", "maximo",
    "texto", "cuadernos": {name: {"id", "penalizacion", "puntos"}}}``: ``puntos`` is nbgrader's score
    (what formgrader shows), ``nota`` the score after the penalty (grades.csv), ``texto`` the TA
    table's observation.  Only submissions after their due date (extension included) are listed.
    """
    config_plazos, politica, aviso = _sincronizar(gb, raiz, tareas, alumnos, log)
    libro = notas_en_bloque.leer(gb, tareas)
    quienes = set(alumnos) if alumnos is not None else None
    entregas = []
    for (tarea, alumno), e in sorted(libro.entregas.items()):
        if (quienes is not None and alumno not in quienes) or e.segundos_tarde <= 0:
            continue
        estado = plazos.EstadoDeEntrega(e.duedate, e.extension, e.timestamp, e.segundos_tarde, e.penalizacion)
        entregas.append({
            "tarea": tarea, "alumno": alumno, "segundos_tarde": e.segundos_tarde,
            "penalizacion": round(e.penalizacion, 6), "puntos": e.puntos, "nota": e.nota, "maximo": e.maximo,
            "texto": plazos.texto_del_retraso(estado, politica, config_plazos.zona),
            "cuadernos": {nombre: {"id": snid, "penalizacion": float(e.penalizaciones.get(nombre) or 0.0),
                                   "puntos": e.puntos_del_cuaderno(nombre)}
                          for nombre, snid in sorted(e.ids_de_cuaderno.items())}})
    return {"entregas": entregas, "politica": politica.descripcion(), "aviso": aviso,
            "errores_plazos": errores_de_plazos(gb, config_plazos)}


_GRUPO_DEL_HUB: dict = {}
SEGUNDOS_GRUPO_DEL_HUB = 60.0


def _grupo_del_hub() -> tuple[set[str], list[str]]:
    """The hub group's members (``plazos.clase_del_curso`` without the gradebook), asked at most once a minute:
    formgrader's pages ask for the late marks on every view."""
    import time
    ahora = time.monotonic()
    if _GRUPO_DEL_HUB and ahora - _GRUPO_DEL_HUB["cuando"] < SEGUNDOS_GRUPO_DEL_HUB:
        return _GRUPO_DEL_HUB["clase"], _GRUPO_DEL_HUB["fuentes"]
    clase, fuentes = plazos.clase_del_curso(None)
    _GRUPO_DEL_HUB.update(cuando=ahora, clase=clase, fuentes=fuentes)
    return clase, fuentes


def errores_de_plazos(gb, config_plazos: plazos.PlazosDelCurso) -> list[str]:
    """What formgrader's Manage Assignments shows in red (TA round 7, P4): every value of plazos.toml that
    cannot be read, and every extension for someone who is not in the class, in Spanish.

    The class is the gradebook's students and, on the hub, the course's group (the same as the course
    page's: early in the semester the gradebook may have nobody yet; TA round 8)."""
    try:
        errores = config_plazos.errores()
        clase, fuentes = plazos.clase_del_curso(gb, curso="") if gb is not None else (set(), [])
        del_hub, fuentes_del_hub = _grupo_del_hub()
        clase, fuentes = clase | del_hub, fuentes + fuentes_del_hub
        errores += list(plazos.prorrogas_de_desconocidos(config_plazos, clase, fuentes).values())
    except Exception as error:  # noqa: BLE001 - the page without this list rather than no page
        return [f"No se pudieron comprobar los plazos: {error}"]
    return errores


# ------------------------------------------------------------------------------ one submission page

def revision_de_cuaderno(gb, raiz: str, cuaderno) -> dict | None:
    """What is still held for review in a ``SubmittedNotebook`` (None: nothing), with formgrader's ids.

    ``{"desde": Spanish date of the new submission, "notas": [{"id", "grade_id", "anterior",
    "extra_anterior", "auto_score", "max_score"}], "comentarios": [{"id", "grade_id", "anterior"}]}``:
    ``anterior`` is what the TA had put by hand on the earlier submission.
    """
    tarea, alumno = cuaderno.assignment.assignment.name, cuaderno.student.id
    # read only: formgrader's autograde button or make grade may be writing the same record
    p = revision.pendientes_de_cuaderno(gb, os.path.join(raiz, revision.CARPETA), tarea, alumno, cuaderno,
                                        guardar=False)
    if not p["notas"] and not p["comentarios"]:
        return None
    notas = {g.name: g for g in cuaderno.grades}
    comentarios = {c.name: c for c in cuaderno.comments}
    return {
        "desde": revision.fecha_de_entrega(p.get("desde")),
        "notas": [{"id": notas[gid].id, "grade_id": gid, "anterior": d.get("manual_score"),
                   "extra_anterior": d.get("extra_credit"), "auto_score": notas[gid].auto_score,
                   "max_score": notas[gid].max_score} for gid, d in sorted(p["notas"].items())],
        "comentarios": [{"id": comentarios[gid].id, "grade_id": gid, "anterior": d.get("manual_comment")}
                        for gid, d in sorted(p["comentarios"].items())],
    }


def entrega(gb, raiz: str, submission_id: str, log=None) -> dict | None:
    """The submission page's notes: ``{"tarea", "alumno", "cuaderno", "retraso", "revision", "politica", "aviso"}``.

    ``retraso``: the assignment's entry of :func:`retrasos` (None when on time), plus
    ``cuaderno``: this notebook's ``{"penalizacion", "puntos"}``; ``revision``:
    :func:`revision_de_cuaderno`.  None when the gradebook has no such submitted notebook.
    """
    from nbgrader.api import MissingEntry
    try:
        cuaderno = gb.find_submission_notebook_by_id(submission_id)
    except MissingEntry:
        return None
    tarea, alumno, nombre = cuaderno.assignment.assignment.name, cuaderno.student.id, cuaderno.name
    datos = retrasos(gb, raiz, [tarea], [alumno], log)
    retraso = next(iter(datos["entregas"]), None)
    if retraso is not None:
        retraso["cuaderno"] = retraso["cuadernos"].get(nombre)
    gb.db.expire_all()
    cuaderno = gb.find_submission_notebook_by_id(submission_id)
    return {"tarea": tarea, "alumno": alumno, "cuaderno": nombre, "retraso": retraso,
            "revision": revision_de_cuaderno(gb, raiz, cuaderno), "politica": datos["politica"],
            "aviso": datos["aviso"]}


# ------------------------------------------------------------------------------ Generate / Release Feedback

_ERROR_DE_NBGRADER = re.compile(r"^\[ERROR\] There was an error processing assignment '(.*)' for student '(.*)'$", re.M)
# the refusal's own line (revision.ComprobarRevision); nbgrader's lines for it are filtered out of the log
_NEGATIVA_DE_REVISION = re.compile(r"^\[ERROR\] No se generan los comentarios de '(.*)' en '(.*)': ", re.M)
_FALLO_AL_PUBLICAR = "Comentarios sin publicar: "          # PublicarComentariosSeguro: another student's failure
_DESACTUALIZADOS = "comentarios desactualizados"           # PublicarComentariosSeguro: stale feedback withheld


def _sin_depuracion(log: str) -> str:
    """A captured log without its DEBUG records (nbconvert's template paths, one per line)."""
    registros, actual = [], None
    for linea in log.splitlines():
        if re.match(r"^\[[A-Z]+\] ", linea):
            actual = [] if linea.startswith("[DEBUG] ") else [linea]
            if actual:
                registros.append(actual)
        elif actual:
            actual.append(linea)
    return "\n".join("\n".join(r) for r in registros) + ("\n" if registros else "")


def negativa_por_revision(resultado: dict, gb, raiz: str, tarea: str, alumno: str | None, accion: str) -> dict:
    """formgrader's result of Generate / Release Feedback, with the Spanish reason when review held it back.

    ``accion``: ``"generar"`` or ``"publicar"``.  When the step failed and every student it failed
    for is held for review (``revision.con_pendientes``), the result becomes ``{"success": False,
    "log": Spanish reason, "curso_revision": {"accion", "tarea", "mensaje", "que_hacer",
    "entregas": [{"alumno", "cuaderno", "id"}]}}``: no template paths, no traceback.  Any other
    failure keeps nbgrader's log (without DEBUG records) and traceback; a success, its log without
    DEBUG records.
    """
    if not isinstance(resultado, dict):
        return resultado
    resultado = dict(resultado)
    if resultado.get("log"):
        resultado["log"] = _sin_depuracion(str(resultado["log"]))
    if resultado.get("success"):
        return resultado
    log, error = str(resultado.get("log") or ""), str(resultado.get("error") or "")
    if accion == "publicar":
        from .intercambio import sin_publicar_en_este_hilo
        registros = sin_publicar_en_este_hilo(tarea)
        if registros is None:
            registros = _sin_publicar_del_registro(log, tarea)
        registros = [r for r in registros if alumno is None or r["alumno"] == alumno]
        tipos = {r["tipo"] for r in registros}
        if "fallo" in tipos or len(tipos) > 1:
            return _negativa_al_publicar(gb, tarea, alumno, registros)
    if accion == "publicar" and _DESACTUALIZADOS in error and _FALLO_AL_PUBLICAR not in log:
        return _negativa_por_desactualizados(gb, raiz, tarea, alumno)
    retenidos = {a for a, t in revision.con_pendientes(gb, os.path.join(raiz, revision.CARPETA), tarea,
                                                        guardar=False)
                 if alumno is None or a == alumno}
    if not retenidos:
        return resultado
    if accion == "generar":
        fallidos = {a for t, a in _ERROR_DE_NBGRADER.findall(log)} | {a for a, t in _NEGATIVA_DE_REVISION.findall(log)}
        if not fallidos or not fallidos <= retenidos:
            return resultado
        quienes = sorted(fallidos)
    else:
        if "pendientes de revisión" not in error or _FALLO_AL_PUBLICAR in log:
            return resultado
        quienes = sorted(retenidos)
    enlaces = _enlaces(gb, tarea, quienes)
    verbo, resto = (("se generaron", "generaron") if accion == "generar" else ("se publicaron", "publicaron"))
    n = len(quienes)
    mensaje = (f"No {verbo} los comentarios de {'este alumno' if n == 1 else f'estos {n} alumnos'} en «{tarea}»: "
               f"{', '.join(quienes)}. {'Su entrega está' if n == 1 else 'Sus entregas están'} pendiente"
               f"{'' if n == 1 else 's'} de revisión: {'es una entrega nueva' if n == 1 else 'son entregas nuevas'} "
               "y lo que se puso a mano en la anterior (notas o comentarios) no se ha aplicado."
               + ("" if alumno is not None else f" Los del resto de la clase sí se {resto}."))
    que_hacer = ("Qué hacer: abre la entrega (el enlace de cada una en esta ventana, o Manage Students → alumno → tarea → cuaderno). "
                 "En el recuadro rojo «⚠ PENDIENTE DE REVISIÓN», encima del cuaderno, pulsa «Aceptar la nota automática» "
                 "o escribe tu nota en cada celda marcada, y cambia la nota ⚠ de la casilla de comentario por tu "
                 "comentario para esta entrega (o bórrala). Cuando el recuadro diga «Revisada», vuelve a pulsar "
                 + ("Generate Feedback." if accion == "generar" else "Generate Feedback y después Release Feedback."))
    return {"success": False, "log": mensaje + "\n\n" + que_hacer + "\n",
            "curso_revision": {"accion": accion, "tarea": tarea, "mensaje": mensaje, "que_hacer": que_hacer,
                               "entregas": enlaces}}


_FALLO_DE_ALUMNO = re.compile(r"^\[(?:[^\]\n]*\| )?ERROR\] .*? de '(.+?)' en '(.+?)': no se publican los comentarios de (.+?): (.*?)"
                              r"(?:\. Qué hacer: (.*))?$", re.M)


def _sin_publicar_del_registro(log: str, tarea: str) -> list[dict]:
    """The students a release's log says were left without feedback for a damaged folder (when the release
    ran elsewhere: the list of this thread is the one to trust)."""
    from .intercambio import QUE_HACER_OTRO
    return [{"alumno": a, "tipo": "fallo", "motivo": f"{cuaderno}: {motivo}", "que_hacer": que or QUE_HACER_OTRO}
            for a, t, cuaderno, motivo, que in _FALLO_DE_ALUMNO.findall(log) if t == tarea]


def _negativa_al_publicar(gb, tarea: str, alumno: str | None, registros: list[dict]) -> dict:
    """Release Feedback that left students out for several reasons, or for a damaged folder: each student with
    the reason and what to do, in Spanish (TA round 7, P2-4 and P3-5: never nbgrader's English, never
    «Success»)."""
    quienes = sorted({r["alumno"] for r in registros})
    n = len(quienes)
    mensaje = (f"No se publicaron los comentarios de {'este alumno' if n == 1 else f'estos {n} alumnos'} en "
               f"«{tarea}»: {', '.join(quienes)}."
               + ("" if alumno is not None else " Los del resto de la clase sí se publicaron."))
    detalles = []
    for r in sorted(registros, key=lambda r: (r["alumno"], r["tipo"])):
        detalles.append({"alumno": r["alumno"], "motivo": r["motivo"], "que_hacer": r["que_hacer"]})
    lineas = [f"• {d['alumno']}: {d['motivo']}. Qué hacer: {d['que_hacer']}" for d in detalles]
    que_hacer = "Qué hacer, alumno por alumno: lo dice cada línea de arriba."
    return {"success": False, "log": mensaje + "\n\n" + "\n".join(lineas) + "\n",
            "curso_revision": {"accion": "publicar", "tarea": tarea, "mensaje": mensaje, "que_hacer": que_hacer,
                               "titulo": "Comentarios sin publicar", "detalles": detalles,
                               "entregas": _enlaces(gb, tarea, quienes)}}


def _enlaces(gb, tarea: str, quienes) -> list[dict]:
    """Each student's submitted notebooks of ``tarea`` with formgrader's ids (the dialog links to them)."""
    from nbgrader.api import MissingEntry
    enlaces = []
    for a in quienes:
        try:
            for nb in sorted(gb.find_submission(tarea, a).notebooks, key=lambda n: n.name):
                enlaces.append({"alumno": a, "cuaderno": nb.name, "id": nb.id})
        except MissingEntry:
            enlaces.append({"alumno": a, "cuaderno": None, "id": None})
    return enlaces


def _negativa_por_desactualizados(gb, raiz: str, tarea: str, alumno: str | None) -> dict:
    """Release Feedback that withheld stale feedback (``huella_de_comentarios``): who, why and what to do."""
    from . import huella_de_comentarios
    quienes = sorted(a for a, _ in huella_de_comentarios.desactualizados(gb, os.path.join(raiz, "feedback"), tarea)
                     if alumno is None or a == alumno)
    retenidos = sorted(a for a, _ in revision.con_pendientes(gb, os.path.join(raiz, revision.CARPETA), tarea,
                                                             guardar=False) if alumno is None or a == alumno)
    n = len(quienes)
    mensaje = (f"No se publicaron los comentarios de {'este alumno' if n == 1 else f'estos {n} alumnos'} en "
               f"«{tarea}»: {', '.join(quienes) or '—'}. Están desactualizados: la nota, la penalización por retraso "
               "o un comentario cambió después de Generate Feedback (una nota a mano, una prórroga o un plazo "
               "nuevo), y lo que dicen ya no es lo que dice el libro de notas."
               + (f" También quedan sin publicar, pendientes de revisión: {', '.join(retenidos)}." if retenidos else "")
               + ("" if alumno is not None else " Los del resto de la clase sí se publicaron."))
    que_hacer = ("Qué hacer: pulsa Generate Feedback (los comentarios se escriben de nuevo con las notas de ahora) y "
                 "después Release Feedback.")
    return {"success": False, "log": mensaje + "\n\n" + que_hacer + "\n",
            "curso_revision": {"accion": "publicar", "tarea": tarea, "mensaje": mensaje, "que_hacer": que_hacer,
                               "titulo": "Comentarios sin publicar: desactualizados",
                               "entregas": _enlaces(gb, tarea, quienes)}}


# ------------------------------------------------------------------------------ handlers

def libro_de_notas(url: str, curso: str | None = None):
    """``Gradebook(url, curso)``, opened again once if another request was creating the same new gradebook.

    nbgrader's ``Gradebook`` creates its tables (``create_all``) when it opens; two requests of the formgrader
    page that open a brand-new SQLite gradebook at once race there, and the loser gets ``OperationalError:
    table base_cell already exists`` (a hub TA's log, stop 31).  The tables exist by then: opening it again works.
    """
    from nbgrader.api import Gradebook
    from sqlalchemy.exc import OperationalError
    try:
        return Gradebook(url, curso) if curso else Gradebook(url)
    except OperationalError as exc:
        if "already exists" not in str(exc):
            raise
        time.sleep(0.2)
        return Gradebook(url, curso) if curso else Gradebook(url)


def manejadores():
    """``(pattern, handler)`` of the two endpoints, formgrader's ``BaseApiHandler`` with the course's JSON rules."""
    from nbgrader.server_extensions.formgrader.base import BaseApiHandler, check_notebook_dir, check_xsrf

    from .formgrader_seguro import DatosSeguros

    class _Base(DatosSeguros, BaseApiHandler):
        def _en_otro_hilo(self, funcion, *args):
            """``funcion(gradebook, course root, *args, log)`` in a worker thread, with its own gradebook session."""
            url, curso, raiz, log = self.db_url, self.coursedir.course_id, self.coursedir.root, self.log

            def trabajo():
                with libro_de_notas(url, curso) as gb:
                    return funcion(gb, raiz, *args, log=log)
            return ioloop.IOLoop.current().run_in_executor(None, trabajo)

    class Retrasos(_Base):
        @web.authenticated
        @check_xsrf
        @check_notebook_dir
        async def get(self):
            tarea, alumno = self.get_argument("tarea", None), self.get_argument("alumno", None)
            datos = await self._en_otro_hilo(retrasos, [tarea] if tarea else None, [alumno] if alumno else None)
            self.write(json.dumps(datos))

    class Entrega(_Base):
        @web.authenticated
        @check_xsrf
        @check_notebook_dir
        async def get(self, submission_id):
            datos = await self._en_otro_hilo(entrega, submission_id)
            if datos is None:
                raise web.HTTPError(404, "Invalid submission")
            self.write(json.dumps(datos))

    return [(RUTA_RETRASOS, Retrasos), (RUTA_ENTREGA + r"([^/]+)", Entrega)]
