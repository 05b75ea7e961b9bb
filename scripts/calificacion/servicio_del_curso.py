"""The course's page in the formgrader service of the hub: the whole class without a terminal.

A Jupyter server extension, on in the service's profile only
(``despliegue/hub/jupyter/servicio/jupyter_server_config.d/curso.json``), at
``…/services/<curso>/curso/``, where the hub's Services menu lands (its first
link opens the formgrader, ``…/formgrader``):

* **Recoger y calificar toda la clase**: ``nbgrader collect`` of every
  released assignment, then ``make grade`` (``scripts/calificacion/grade.py
  --sin-muestras``: autograde with the course's workers, feedback,
  ``grades.csv``, the class report), in the background; the page shows its
  output (the TA table) as it comes.  One run at a time.
* **Descargar grades.csv**: ``nbgrader export`` now (the course's exporter,
  due dates and penalties brought up to date), as a download.
* **Informe de la clase**: ``make informe`` now, shown with a policy that
  lets it run nothing (it is self-contained: no scripts, images inline).
* The due dates (``plazos.toml``, ``grader_tests/extensiones_nbgrader/plazos.py``) and the
  policy, as the students see them; each extension with the due date it gives, and any value that
  cannot be read in red, with what holds meanwhile.

In the background, every few seconds, the due dates students see in their
Assignments tab are published into the exchange (``plazos.publicar``) and,
when ``plazos.toml`` or ``nbgrader_config.py`` changed, written into the gradebook with their
penalties (``plazos.sincronizar``): a TA edits the file (JupyterLab's editor
in the service) and the Assignments tab follows, no restart.

Only TAs reach the service (the hub's ``access:services`` scope); every
request is jupyter_server's authenticated handler, POSTs with its XSRF check.
Nothing a student wrote is interpreted: the page prints the TA table as text.
"""
from __future__ import annotations

import collections
import html
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import ioloop, web

RAIZ = Path(__file__).resolve().parents[2]
INTERVALO_PUBLICACION = float(os.environ.get("CURSO_PLAZOS_INTERVALO", "5"))
INTERVALO_PAGINA = 10.0          # seconds between the course page's status checks when nothing runs
INTERVALO_COMENTARIOS = 15.0     # seconds between two readings of which released feedback is stale
CSP_INFORME = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'self'"


def _jupyter_server_extension_points():
    return [{"module": "scripts.calificacion.servicio_del_curso"}]


# ------------------------------------------------------------------------------ the course's jobs

class Trabajo:
    """One background run of commands; its output kept for the page (the last lines)."""

    def __init__(self):
        self.lineas: collections.deque[str] = collections.deque(maxlen=4000)
        self.proceso: subprocess.Popen | None = None
        self.inicio: float | None = None
        self.fin: float | None = None
        self.codigo: int | None = None
        self._cerrojo = threading.Lock()

    @property
    def en_marcha(self) -> bool:
        return self.inicio is not None and self.fin is None

    def lanzar(self, ordenes: list[tuple[list[str], bool]], cwd: Path, env: dict) -> bool:
        """Run ``ordenes`` (command, go on if it fails; optionally a Spanish label) one after another in a thread.

        Returns False when a run is already going on.
        """
        with self._cerrojo:
            if self.en_marcha:
                return False
            self.lineas.clear()
            self.inicio, self.fin, self.codigo = time.time(), None, None
        threading.Thread(target=self._ejecutar, args=(ordenes, cwd, env), daemon=True).start()
        return True

    def _ejecutar(self, ordenes, cwd, env):
        codigo = 0
        try:
            for numero, (orden, seguir, *etiqueta) in enumerate(ordenes, 1):
                if etiqueta:
                    self.lineas.append(f"— Paso {numero} de {len(ordenes)}: {etiqueta[0]} "
                                       f"({hora_del_curso()}) —")
                self.lineas.append("$ " + " ".join(os.path.basename(x) if i == 0 else x for i, x in enumerate(orden)))
                self.proceso = subprocess.Popen(orden, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
                                                encoding="utf-8", errors="replace")
                for linea in self.proceso.stdout:
                    self.lineas.append(linea.rstrip("\n"))
                codigo = self.proceso.wait()
                if codigo != 0 and not seguir:
                    break
                if codigo != 0:
                    self.lineas.append(f"(terminó con el código {codigo}; se sigue)")
                    codigo = 0
        except OSError as error:
            self.lineas.append(f"No se pudo ejecutar: {error}")
            codigo = 1
        finally:
            self.codigo, self.fin = codigo, time.time()

    def estado(self) -> dict:
        return {"en_marcha": self.en_marcha, "codigo": self.codigo, "inicio": self.inicio, "fin": self.fin,
                "salida": "\n".join(self.lineas)}


def entorno(raiz: Path) -> dict:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(raiz) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("PYTHONIOENCODING", "utf-8")
    # the page shows the output as it comes: unbuffered, with plain progress lines (scripts/calificacion/progreso.py)
    env["PYTHONUNBUFFERED"] = "1"
    env["CURSO_PROGRESO"] = "lineas"
    return env


def tareas_publicadas(raiz: Path) -> list[str]:
    """The course's assignments released to the exchange (the ones to collect)."""
    intercambio, curso = os.environ.get("CURSO_HUB_INTERCAMBIO"), os.environ.get("CURSO_HUB_CURSO")
    fuentes = sorted(p.name for p in (raiz / "source").iterdir() if p.is_dir() and any(p.glob("*.ipynb")))
    if not intercambio or not curso:
        return []
    return [t for t in fuentes if (Path(intercambio) / curso / "outbound" / t).is_dir()]


def ordenes_de_calificar(raiz: Path) -> list[tuple[list[str], bool, str]]:
    """``nbgrader collect --update`` of each released assignment (as formgrader's Collect: newer submissions
    replace older ones; a failure does not stop the rest), then make grade; each with its Spanish label."""
    nbgrader = str(Path(sys.executable).parent / "nbgrader")
    return ([([nbgrader, "collect", "--update", t], True, f"recoger las entregas de {t}")
             for t in tareas_publicadas(raiz)]
            + [([sys.executable, str(raiz / "scripts" / "calificacion" / "grade.py"), "--sin-muestras"], False,
                "calificar toda la clase, generar los comentarios, grades.csv y el informe (make grade)")])


# ------------------------------------------------------------------------------ due dates, published

class Publicador:
    """Due dates into the exchange (every few seconds) and into the gradebook (when the config changes)."""

    def __init__(self, raiz: Path, log):
        self.raiz = raiz
        self.log = log
        self.mtime: float | None = None
        self.config = None                       # (PlazosDelCurso, PenalizacionPorRetraso, config) when readable
        self.sincronizadas: list[str] | None = None   # the gradebook's assignments synced with this config
        self._cerrojo = threading.Lock()
        self._comentarios: set = set()                  # (alumno, tarea) with stale released feedback
        self._comentarios_leidos = -INTERVALO_COMENTARIOS

    def una_vez(self) -> None:
        if not self._cerrojo.acquire(blocking=False):
            return
        try:
            self._publicar()
        except Exception:  # noqa: BLE001 - a bad date must not stop the service: say it and go on
            self.log.exception("Plazos: no se pudieron publicar")
        finally:
            self._cerrojo.release()

    def _publicar(self) -> None:
        from grader_tests.extensiones_nbgrader import plazos
        from scripts.calificacion import libro_de_notas
        intercambio, curso = os.environ.get("CURSO_HUB_INTERCAMBIO"), os.environ.get("CURSO_HUB_CURSO")
        rutas = [self.raiz / "nbgrader_config.py", self.raiz / plazos.ARCHIVO_DEL_TA]
        mtime = tuple(r.stat().st_mtime if r.exists() else None for r in rutas)
        if mtime != self.mtime:
            self.mtime, self.config, self.sincronizadas = mtime, None, None
            leido = plazos.leer(self.raiz)
            mal = leido[0].invalidas()
            if mal["archivo"] or mal["fechas"]:
                self.log.error("Plazos: no se publica ningún cambio (el alumnado sigue viendo lo anterior): %s",
                               "; ".join(leido[0].errores()))
                return
            for texto in mal["prorrogas"].values():
                self.log.error("Plazos: %s (no se aplica: ese alumno conserva la prórroga anterior)", texto)
            self.config = leido
        if self.config is None:
            return
        config_plazos, politica, _ = self.config
        saltar = set(config_plazos.invalidas()["prorrogas"])
        fuentes = [p.name for p in (self.raiz / "source").iterdir() if p.is_dir()] \
            if (self.raiz / "source").is_dir() else []
        if intercambio and curso:
            plazos.publicar(os.path.join(intercambio, curso), curso, config_plazos, politica,
                            plazos.clave_del_entorno(), tareas=fuentes,
                            comentarios_viejos=self._comentarios_viejos(intercambio, curso))
        url = libro_de_notas.url_del_curso(self.raiz)
        if libro_de_notas.existe(url):
            with libro_de_notas.abrir(self.raiz) as gb:
                tareas = sorted(a.name for a in gb.assignments)
                if tareas != self.sincronizadas:       # a changed config, or an assignment formgrader just created
                    # drafts with a due date join the gradebook, so formgrader shows it before Generate
                    for nota in plazos.sincronizar(gb, config_plazos, politica, crear=fuentes, saltar=saltar):
                        self.log.warning("Plazos: %s", nota)
                    self.sincronizadas = sorted(a.name for a in gb.assignments)


    def _comentarios_viejos(self, intercambio: str, curso: str) -> set:
        """``{(alumno, tarea)}`` whose released feedback no longer states the gradebook's grade, read at most
        every :data:`INTERVALO_COMENTARIOS` seconds (the Assignments tab says so: sixth TA report, P3-2)."""
        from grader_tests.extensiones_nbgrader import huella_de_comentarios
        from scripts.calificacion import libro_de_notas
        ahora = time.monotonic()
        if ahora - self._comentarios_leidos < INTERVALO_COMENTARIOS:
            return self._comentarios
        self._comentarios_leidos = ahora
        try:
            if libro_de_notas.existe(libro_de_notas.url_del_curso(self.raiz)):
                with libro_de_notas.abrir(self.raiz) as gb:
                    self._comentarios = set(huella_de_comentarios.desactualizados(
                        gb, str(self.raiz / "feedback"), carpeta_publicada=os.path.join(intercambio, curso, "feedback")))
        except Exception:  # noqa: BLE001 - the tab without the mark rather than no due dates
            self.log.exception("Plazos: no se pudo saber qué comentarios publicados están desactualizados")
        return self._comentarios


# ------------------------------------------------------------------------------ the page

def _zona_del_curso() -> str:
    from grader_tests.extensiones_nbgrader import plazos
    return plazos.ZONA_DEL_CURSO


ZONA = _zona_del_curso()
LUGAR = "hora de " + ZONA.rsplit("/", 1)[-1].replace("_", " ")


def hora_del_curso(instante: float | None = None) -> str:
    """``15:21:55 hora de Madrid``: a time on the course page (the step lines of make grade's output), in the
    course's zone and labelled, as every other time the page shows (TA round 7, P3-8)."""
    import datetime as dt
    from zoneinfo import ZoneInfo
    momento = dt.datetime.fromtimestamp(time.time() if instante is None else instante, ZoneInfo(ZONA))
    return f"{momento:%H:%M:%S} {LUGAR}"


PAGINA = """<!DOCTYPE html>
<html lang="es"><head><meta charset="utf-8"><title>Calificación de la clase</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 70em; margin: 1.5em auto; padding: 0 1em; color: #222; }}
button, a.boton {{ font-size: 1em; padding: .45em .9em; margin: .2em .4em .2em 0; border: 1px solid #1565c0;
  background: #1976d2; color: white; border-radius: 4px; cursor: pointer; text-decoration: none; display: inline-block; }}
button[disabled] {{ background: #90a4ae; border-color: #90a4ae; cursor: default; }}
pre {{ background: #f5f5f5; border: 1px solid #ddd; padding: .7em; white-space: pre-wrap; max-height: 40em; overflow: auto; }}
pre:empty {{ display: none; }}
td, th {{ padding: .2em .8em; text-align: left; border-bottom: 1px solid #eee; }}
.nota {{ color: #555; }}
.error {{ color: #b71c1c; font-weight: 600; }}
.aviso {{ color: #8a4b00; font-weight: 600; }}
</style></head><body>
<h1>Calificación de la clase <small class="nota">({curso})</small></h1>
<p><a class="boton" href="{base}formgrader">Abrir el Formgrader</a>
<span class="nota">publicar, recoger, calificar a mano, comentarios</span></p>
<p><a href="{base}lab">JupyterLab del curso</a> <span class="nota">(editar <code>plazos.toml</code>,
terminal con <code>make grade</code> y las órdenes de nbgrader)</span></p>
<h2>Plazos</h2>
{plazos}
<p class="nota">Los plazos y las prórrogas se cambian en <code>plazos.toml</code> (en la raíz del curso, hora de
Madrid; ábrelo en el JupyterLab del curso); el alumnado los ve en su pestaña Tareas en unos segundos.
Recarga esta página para comprobar lo que escribiste.</p>
<h2>Pendientes de revisión</h2>
<div id="pendientes">{pendientes}</div>
<h2>Comentarios desactualizados</h2>
<div id="desactualizados">{desactualizados}</div>
<h2>Toda la clase</h2>
<p><button id="calificar">Recoger las entregas y calificar toda la clase</button>
<a class="boton" id="notas" href="{base}curso/grades.csv">Descargar grades.csv</a>
<a class="boton" id="informe" href="{base}curso/informe" target="_blank" rel="noopener">Informe de la clase</a>
<span id="aviso-descarga" class="nota" role="status"></span></p>
<p class="nota">«Calificar» ejecuta <code>nbgrader collect</code> de cada tarea publicada y después
<code>make grade</code>: califica todas las entregas, genera los comentarios (salvo los pendientes de revisión),
<code>grades.csv</code> y el informe. Mientras tanto, no califiques en el Formgrader.</p>
<p id="estado" class="nota"></p>
<pre id="salida"></pre>
<script nonce="{nonce}">
(function () {{
  var estado = document.getElementById('estado'), salida = document.getElementById('salida');
  var boton = document.getElementById('calificar'), cajaPendientes = document.getElementById('pendientes');
  var siguiente = null;
  function xsrf() {{ var m = document.cookie.match(/(?:^|; )_xsrf=([^;]*)/); return m ? decodeURIComponent(m[1]) : ''; }}
  // «Pendientes de revisión» as the server reads it now (after a run, a review in the Formgrader, a
  // terminal's make grade): ids are text, never HTML
  function pintarPendientes(p) {{
    if (!p) {{ return; }}
    var nueva = document.createElement('div');
    var texto = document.createElement('p');
    if (p.error) {{
      texto.textContent = p.error;
      nueva.appendChild(texto);
    }} else if (!p.entregas.length) {{
      texto.textContent = 'Ninguna.';
      nueva.appendChild(texto);
    }} else {{
      texto.textContent = {intro_pendientes};
      var lista = document.createElement('ul');
      // each one links to its page in the Formgrader (the «⚠ PENDIENTE DE REVISIÓN» box), one per notebook
      p.entregas.forEach(function (e) {{
        var li = document.createElement('li'), cuadernos = e.cuadernos || [];
        cuadernos.forEach(function (c, i) {{
          var a = document.createElement('a');
          a.href = '{base}formgrader/submissions/' + encodeURIComponent(c.id);
          a.textContent = i === 0 ? e.alumno + ' / ' + e.tarea : c.cuaderno;
          if (i > 0) {{ li.appendChild(document.createTextNode(i === 1 ? ' — también: ' : ', ')); }}
          li.appendChild(a);
        }});
        if (!cuadernos.length) {{ li.textContent = e.alumno + ' / ' + e.tarea; }}
        lista.appendChild(li);
      }});
      nueva.appendChild(texto);
      nueva.appendChild(lista);
    }}
    cajaPendientes.replaceChildren.apply(cajaPendientes, Array.prototype.slice.call(nueva.childNodes));
    document.body.dataset.pendientes = String(p.entregas ? p.entregas.length : '');
    pintarDesactualizados(p.desactualizados || [], (p.entregas || []).length);
  }}
  // «Comentarios desactualizados»: feedback that no longer says what the gradebook says (Release Feedback
  // withholds it until Generate Feedback writes it again); ids and reasons are text, never HTML
  function pintarDesactualizados(lista, pendientes) {{
    var caja = document.getElementById('desactualizados'), nueva = document.createElement('div');
    var texto = document.createElement('p');
    if (!lista.length) {{
      texto.textContent = pendientes ? {ninguno_salvo_pendientes} : 'Ninguno.';
      nueva.appendChild(texto);
    }} else {{
      texto.textContent = {intro_desactualizados};
      var ul = document.createElement('ul');
      lista.forEach(function (e) {{
        var li = document.createElement('li');
        var a = document.createElement('a');
        a.href = '{base}formgrader/manage_submissions/' + encodeURIComponent(e.tarea);
        a.textContent = e.alumno + ' / ' + e.tarea;
        li.appendChild(a);
        li.appendChild(document.createTextNode(': ' + e.motivo));
        ul.appendChild(li);
      }});
      nueva.appendChild(texto);
      nueva.appendChild(ul);
      if (pendientes) {{
        var nota = document.createElement('p');
        nota.textContent = {nota_pendientes};
        nueva.appendChild(nota);
      }}
    }}
    caja.replaceChildren.apply(caja, Array.prototype.slice.call(nueva.childNodes));
    document.body.dataset.desactualizados = String(lista.length);
  }}
  // every time on this page in the course's zone, labelled, as the make grade output below it
  function horaCurso(ms) {{
    try {{ return new Date(ms).toLocaleTimeString('es-ES', {{timeZone: {zona_js}}}) + ' ({lugar_js})'; }}
    catch (e) {{ return new Date(ms).toISOString().slice(11, 19) + ' (UTC)'; }}
  }}
  function mostrar(d) {{
    pintarPendientes(d.pendientes);
    salida.textContent = d.salida || '';
    boton.disabled = d.en_marcha;
    if (d.en_marcha) {{
      var s = Math.max(0, Math.round(Date.now() / 1000 - d.inicio)), m = Math.floor(s / 60);
      estado.textContent = 'Calificando… (empezó a las ' + horaCurso(d.inicio * 1000) +
        '; lleva ' + (m ? m + ' min y ' : '') + (s % 60) + ' s). Lo que va haciendo sale abajo.';
    }}
    else if (d.codigo === 0) {{ estado.textContent = 'Terminado a las ' + horaCurso(d.fin * 1000) + '.'; }}
    else if (d.codigo !== null) {{ estado.textContent = 'Terminó con error (código ' + d.codigo + '): mira la salida.'; }}
    else {{ estado.textContent = ''; }}
  }}
  function programar(ms) {{
    if (siguiente !== null) {{ clearTimeout(siguiente); }}
    siguiente = setTimeout(function () {{ siguiente = null; consultar(); }}, ms);
  }}
  function consultar() {{
    if (document.visibilityState === 'hidden') {{ return; }}     // again when the TA comes back
    // JupyterHub only accepts a cookie on a script's request with the XSRF token: without it,
    // the request is sent to the login page and the browser refuses the cross-origin redirect.
    fetch('{base}curso/estado', {{credentials: 'same-origin', headers: {{'X-XSRFToken': xsrf()}}}})
      .then(function (r) {{ if (!r.ok) {{ throw new Error(r.status); }} return r.json(); }})
      .then(function (d) {{
        document.body.dataset.estado = 'consultado';
        // while grading, every 2 s; otherwise every {intervalo_s} s (a review done in the Formgrader)
        mostrar(d); programar(d.en_marcha ? 2000 : {intervalo_ms});
      }})
      .catch(function () {{
        document.body.dataset.estado = 'error';
        estado.textContent = 'No se pudo consultar el estado de la calificación (¿ha caducado la sesión? ' +
          'Recarga la página). Se vuelve a intentar en unos segundos.';
        programar(5000);
      }});
  }}
  document.addEventListener('visibilitychange', function () {{
    if (document.visibilityState === 'visible') {{ programar(0); }}
  }});
  // grades.csv and the report take seconds (nbgrader export, make informe): say so until they arrive
  var avisoDescarga = document.getElementById('aviso-descarga'), notas = document.getElementById('notas');
  function hora() {{ return horaCurso(Date.now()); }}
  notas.onclick = function (evento) {{
    if (notas.dataset.ocupado) {{ evento.preventDefault(); return; }}
    if (!window.fetch || !window.URL || !URL.createObjectURL) {{ return; }}      // the plain link
    evento.preventDefault();
    notas.dataset.ocupado = '1';
    avisoDescarga.textContent = 'Exportando grades.csv (nbgrader export)… puede tardar unos segundos.';
    fetch(notas.href, {{credentials: 'same-origin', headers: {{'X-XSRFToken': xsrf()}}}})
      .then(function (r) {{
        if (!r.ok) {{ return r.text().then(function (t) {{ throw new Error(t.slice(0, 500) || String(r.status)); }}); }}
        return r.blob();
      }})
      .then(function (datos) {{
        var enlace = document.createElement('a');
        enlace.href = URL.createObjectURL(datos);
        enlace.download = 'grades.csv';
        document.body.appendChild(enlace);
        enlace.click();
        enlace.remove();
        setTimeout(function () {{ URL.revokeObjectURL(enlace.href); }}, 60000);
        avisoDescarga.textContent = 'grades.csv descargado a las ' + hora() + '.';
      }})
      .catch(function (error) {{
        avisoDescarga.textContent = 'No se pudo exportar grades.csv: ' + error.message;
      }})
      .then(function () {{ delete notas.dataset.ocupado; }});
  }};
  document.getElementById('informe').addEventListener('click', function () {{
    var texto = 'Preparando el informe de la clase en una pestaña nueva (make informe)… puede tardar unos segundos.';
    avisoDescarga.textContent = texto;
    setTimeout(function () {{ if (avisoDescarga.textContent === texto) {{ avisoDescarga.textContent = ''; }} }}, 60000);
  }});
  boton.onclick = function () {{
    boton.disabled = true;
    fetch('{base}curso/calificar', {{method: 'POST', credentials: 'same-origin', headers: {{'X-XSRFToken': xsrf()}}}})
      .then(function (r) {{ return r.json(); }}).then(function () {{ consultar(); }});
  }};
  consultar();
}})();
</script>
</body></html>
"""


def _prorrogas_de_desconocidos(raiz: Path, config_plazos) -> dict:
    """``(tarea, alumno)`` → the Spanish warning of an extension for an id not in the class (gradebook and hub)."""
    from grader_tests.extensiones_nbgrader import plazos
    from scripts.calificacion import libro_de_notas
    try:
        if libro_de_notas.existe(libro_de_notas.url_del_curso(raiz)):
            with libro_de_notas.abrir(raiz) as gb:
                clase, fuentes = plazos.clase_del_curso(gb)
        else:
            clase, fuentes = plazos.clase_del_curso(None)
    except Exception:  # noqa: BLE001 - the gradebook unreadable: the table without this check
        return {}
    return plazos.prorrogas_de_desconocidos(config_plazos, clase, fuentes)


def _recogidas_y_tarde(raiz: Path, config_plazos) -> dict:
    """``tarea`` → ``(recogidas, [(alumno, segundos tarde)])``: the collected submissions of the gradebook and,
    among them, those late by the due dates and extensions of ``plazos.toml`` as it is now.

    So a TA who moves a due date earlier sees at once which submissions already collected it makes late (a hub
    TA's report, stop 31: they got no warning).  One bulk query; the gradebook missing or unreadable: ``{}``.
    """
    import datetime as dt

    from nbgrader.api import Assignment, Student, SubmittedAssignment

    from grader_tests.extensiones_nbgrader import plazos
    from scripts.calificacion import libro_de_notas
    try:
        if not libro_de_notas.existe(libro_de_notas.url_del_curso(raiz)):
            return {}
        with libro_de_notas.abrir(raiz) as gb:
            filas = (gb.db.query(Assignment.name, Student.id, SubmittedAssignment.timestamp)
                     .join(SubmittedAssignment.assignment).join(SubmittedAssignment.student).all())
    except Exception:  # noqa: BLE001 - the gradebook unreadable: the table without this column
        return {}
    resultado: dict = {}
    for tarea, alumno, entregada in filas:
        recogidas, tarde = resultado.setdefault(tarea, [0, []])
        resultado[tarea][0] = recogidas + 1
        if entregada is None:
            continue
        try:
            plazo, extension = config_plazos.plazo(tarea), config_plazos.prorroga(tarea, alumno)
        except plazos.PlazoInvalido:
            continue
        if plazo is None:
            continue
        retraso = (entregada.replace(tzinfo=dt.timezone.utc) - (plazo + (extension or dt.timedelta(0)))).total_seconds()
        if retraso > 0:
            tarde.append((alumno, retraso))
    return {t: (n, sorted(tarde, key=lambda x: -x[1])) for t, (n, tarde) in resultado.items()}


def _celda_de_recogidas(datos: tuple | None) -> str:
    """«3 recogidas; 1 tarde con estos plazos: ana (2 h)» (escaped), or «—» without any."""
    from grader_tests.extensiones_nbgrader import plazos
    if not datos or not datos[0]:
        return "—"
    recogidas, tarde = datos
    texto = f"{recogidas} {'recogida' if recogidas == 1 else 'recogidas'}"
    if not tarde:
        return html.escape(texto + "; ninguna tarde con estos plazos")
    nombres = ", ".join(f"{alumno} ({plazos.duracion(segundos)})" for alumno, segundos in tarde[:10])
    resto = f" y {len(tarde) - 10} más" if len(tarde) > 10 else ""
    return (html.escape(texto + "; ") + f'<span class="aviso">{len(tarde)} tarde con estos plazos: '
            f"{html.escape(nombres + resto)}</span>")


def _tabla_de_plazos(raiz: Path) -> str:
    """The «Plazos» section: each assignment's due date and each extension with the due date it gives,
    or, in red, why it cannot be read and what holds meanwhile (``plazos.toml`` read now; every value escaped)."""
    from grader_tests.extensiones_nbgrader import plazos
    try:
        config_plazos, politica, _ = plazos.leer(raiz)
        mal = config_plazos.invalidas()
        fuentes = sorted(p.name for p in (raiz / "source").iterdir() if p.is_dir() and any(p.glob("*.ipynb")))
        desconocidos = _prorrogas_de_desconocidos(raiz, config_plazos)
        recogidas = _recogidas_y_tarde(raiz, config_plazos)
        filas = []
        for tarea in fuentes:
            try:
                plazo = config_plazos.plazo(tarea)
                texto = html.escape(plazos.mostrar(plazo) if plazo else "sin plazo")
            except plazos.PlazoInvalido as error:
                plazo = None
                texto = (f'<span class="error">⚠ {html.escape(str(error))}. No se publica: el alumnado sigue viendo '
                         "el plazo anterior y no se califica esta tarea hasta que lo corrijas.</span>")
            prorrogas = []
            alumnos = config_plazos.prorrogas.get(tarea) or {}
            for alumno, valor in sorted(alumnos.items() if isinstance(alumnos, dict) else []):
                if (tarea, alumno) in mal["prorrogas"]:
                    prorrogas.append(
                        f'<li class="error">⚠ {html.escape(mal["prorrogas"][(tarea, alumno)])}. No se aplica: '
                        f"{html.escape(alumno)} conserva la prórroga anterior (o ninguna) y no se le califica esta "
                        "tarea hasta que la corrijas (al resto de la clase, sí).</li>")
                    continue
                if (tarea, alumno) in desconocidos:
                    prorrogas.append(f'<li class="error">⚠ {html.escape(desconocidos[(tarea, alumno)])}</li>')
                    continue
                try:
                    extension = config_plazos.prorroga(tarea, alumno)
                    efectivo = (f"plazo: {plazos.mostrar(plazo + extension)}" if plazo is not None and extension
                                else "sin efecto: la tarea no tiene plazo")
                except plazos.PlazoInvalido:
                    efectivo = "sin efecto mientras el plazo de la tarea no se pueda leer"
                prorrogas.append(f"<li>{html.escape(alumno)}: «{html.escape(str(valor))}» → {html.escape(efectivo)}</li>")
            filas.append(f"<tr><td>{html.escape(tarea)}</td><td>{texto}</td>"
                         f"<td>{'<ul>' + ''.join(prorrogas) + '</ul>' if prorrogas else '—'}</td>"
                         f"<td>{_celda_de_recogidas(recogidas.get(tarea))}</td></tr>")
        aviso = ""
        if mal["archivo"]:
            aviso = (f'<p class="error">⚠ {html.escape(mal["archivo"])}. No se publica nada nuevo: el alumnado sigue '
                     "viendo los plazos anteriores y <code>make grade</code> no califica hasta que lo corrijas.</p>")
        elif mal["fechas"] or mal["prorrogas"]:
            n = len(mal["fechas"]) + len(mal["prorrogas"])
            aviso = (f'<p class="error">⚠ {n} {"valor" if n == 1 else "valores"} de '
                     f"<code>{html.escape(config_plazos.nombre_del_archivo)}</code> no se "
                     f"{'puede' if n == 1 else 'pueden'} leer: {'está marcado' if n == 1 else 'están marcados'} "
                     "abajo, con el formato que se espera.</p>")
        if desconocidos and not mal["archivo"]:
            n = len(desconocidos)
            aviso += (f'<p class="error">⚠ {n} {"prórroga es" if n == 1 else "prórrogas son"} para alguien que no '
                      f"está en la clase (¿un nombre mal escrito?): {'está marcada' if n == 1 else 'están marcadas'} "
                      "abajo. Nadie la tiene hasta que escribas el nombre de usuario correcto.</p>")
        return (aviso + "<table><tr><th>tarea</th><th>plazo</th><th>prórrogas (plazo de cada alumno)</th>"
                "<th>entregas recogidas (las que llegan tarde con estos plazos y prórrogas)</th></tr>"
                + "".join(filas) + "</table>" + f"<p>{html.escape(politica.descripcion())}</p>")
    except Exception as error:  # noqa: BLE001 - show why instead of failing the page
        return f'<p class="error">⚠ No se pueden leer los plazos: {html.escape(str(error))}</p>'


def sin_secreto(raiz: Path) -> list[dict]:
    """Feedback in ``feedback/`` that Release Feedback can never publish: its submission has no
    ``submission_secret.txt`` (an entry made by hand, not by Submit).  ``[{"alumno", "tarea", "motivo"}]`` with
    what to do (TA round 7, P3-5: the page did not list them).  Nothing is followed: links are skipped."""
    from grader_tests.caja import archivos_alumno as aa
    from grader_tests.extensiones_nbgrader.intercambio import QUE_HACER_SIN_SECRETO
    lista = []
    carpeta = raiz / "feedback"
    try:
        alumnos = sorted(e.name for e in os.scandir(carpeta) if e.is_dir(follow_symlinks=False))
    except OSError:
        return []
    for alumno in alumnos:
        try:
            tareas = sorted(e.name for e in os.scandir(carpeta / alumno) if e.is_dir(follow_symlinks=False))
        except OSError:
            continue
        for tarea in tareas:
            suya = carpeta / alumno / tarea
            try:
                con_html = any(e.name.endswith(".html") for e in os.scandir(suya))
            except OSError:
                continue
            if con_html and not (aa.leer_pequeño(str(suya / "submission_secret.txt"), 1024) or "").strip():
                lista.append({"alumno": alumno, "tarea": tarea, "motivo": "no se pueden publicar: su entrega no trae "
                              f"submission_secret.txt. Qué hacer: {QUE_HACER_SIN_SECRETO}"})
    return lista


MOTIVO_SIN_COMENTARIOS = ("todavía no tiene comentarios generados, y otros alumnos de esta tarea sí (por ejemplo, "
                          "una entrega nueva que ya revisaste): pulsa Generate Feedback y después Release Feedback")


def sin_comentarios(raiz: Path, gb, excluir=()) -> list[dict]:
    """Graded submissions without feedback in ``feedback/`` in an assignment where others have it.

    ``[{"alumno", "tarea", "motivo"}]``: a resubmission reviewed after Generate Feedback, or a student
    graded later, would otherwise be listed nowhere (TA round 8, P3).  Only submissions nbgrader graded
    (``notas_en_bloque.calificadas_en_disco``) and in the gradebook; ``excluir``: ``(alumno, tarea)``
    pairs already listed (held for review).  Before the first Generate Feedback of an assignment
    nothing of it is listed: that is the normal state.  Links are not followed.
    """
    from grader_tests.extensiones_nbgrader import notas_en_bloque
    con_comentarios = notas_en_bloque.pares_con_archivos(raiz / "feedback", ".html") or set()
    empezadas = {t for (_, t) in con_comentarios}
    calificadas = notas_en_bloque.calificadas_en_disco(raiz) or set()
    fuera = con_comentarios | set(excluir)
    candidatas = {(a, t) for (a, t) in calificadas if t in empezadas and (a, t) not in fuera}
    if not candidatas:
        return []
    en_libro = {(a, t) for (t, a) in notas_en_bloque.leer(gb, sorted({t for _, t in candidatas})).entregas}
    return [{"alumno": a, "tarea": t, "motivo": MOTIVO_SIN_COMENTARIOS} for (a, t) in sorted(candidatas & en_libro)]


INTRO_PENDIENTES = ("Entregas nuevas con notas o comentarios a mano de la anterior, retenidos: sus comentarios no "
                    "se generan ni se publican hasta que los revises. Cada enlace abre la entrega en el Formgrader, "
                    "con el recuadro «⚠ PENDIENTE DE REVISIÓN» (docs/profesorado.md, «Entregas nuevas y notas a "
                    "mano»).")


def pendientes(raiz: Path) -> dict:
    """Submissions held for review (``grader_tests.extensiones_nbgrader.revision``), read now.

    ``{"entregas": [{"alumno", "tarea", "cuadernos": [{"cuaderno", "id"}]}, ...]}`` sorted, with the
    submitted notebooks that hold something (``id``: formgrader's ``/formgrader/submissions/<id>``);
    ``"desactualizados": [{"alumno", "tarea", "motivo"}, ...]``: the feedback in ``feedback/`` that no longer
    states what the gradebook says (``huella_de_comentarios``: Release Feedback withholds it), or whose
    released copy in the exchange is older than it (Release Feedback not pressed since), and graded
    submissions still without feedback where others of the assignment have it (:func:`sin_comentarios`),
    held submissions left out; ``{"entregas": [], "desactualizados": [], "error": Spanish text}``
    when the gradebook cannot be read.  What the page shows when loaded and after every status check.
    """
    from grader_tests.extensiones_nbgrader import huella_de_comentarios, revision
    from scripts.calificacion import libro_de_notas
    try:
        if not libro_de_notas.existe(libro_de_notas.url_del_curso(raiz)):
            return {"entregas": [], "desactualizados": []}
        carpeta = str(raiz / revision.CARPETA)
        entregas = []
        with libro_de_notas.abrir(raiz) as gb:
            # read only: a grading run may be writing the same records while the page asks
            for alumno, tarea in sorted(revision.con_pendientes(gb, carpeta, guardar=False)):
                entrega = gb.find_submission(tarea, alumno)
                cuadernos = [{"cuaderno": nb.name, "id": nb.id} for nb in sorted(entrega.notebooks, key=lambda n: n.name)
                             if any(revision.pendientes_de_cuaderno(gb, carpeta, tarea, alumno, nb, guardar=False)[k]
                                    for k in ("notas", "comentarios"))]
                entregas.append({"alumno": alumno, "tarea": tarea, "cuadernos": cuadernos})
            intercambio, curso = os.environ.get("CURSO_HUB_INTERCAMBIO"), os.environ.get("CURSO_HUB_CURSO")
            publicada = os.path.join(intercambio, curso, "feedback") if intercambio and curso else None
            desactualizados = [{"alumno": a, "tarea": t, "motivo": m} for (a, t), m in sorted(
                huella_de_comentarios.desactualizados(gb, str(raiz / "feedback"), carpeta_publicada=publicada).items())
                if (a, t) not in {(e["alumno"], e["tarea"]) for e in entregas}]
            ya = {(e["alumno"], e["tarea"]) for e in desactualizados}
            desactualizados += [e for e in sin_secreto(raiz) if (e["alumno"], e["tarea"]) not in ya]
            retenidas = {(e["alumno"], e["tarea"]) for e in entregas}
            desactualizados += sin_comentarios(raiz, gb, retenidas | {(e["alumno"], e["tarea"]) for e in desactualizados})
    except Exception as error:  # noqa: BLE001 - show why instead of failing the page
        return {"entregas": [], "desactualizados": [], "error": f"No se pudo leer el libro de notas: {error}"}
    return {"entregas": entregas, "desactualizados": desactualizados}


INTRO_DESACTUALIZADOS = ("Comentarios que ya no dicen lo que dice el libro de notas: la nota, la penalización por "
                         "retraso o un comentario cambió después de Generate Feedback (una nota a mano, una prórroga o "
                         "un plazo nuevo). Release Feedback no los publica: pulsa Generate Feedback y después Release "
                         "Feedback (docs/profesorado.md, «Comentarios desactualizados»). Si ya se publicaron, el alumno "
                         "tiene todavía los viejos; si ya los generaste de nuevo, falta Release Feedback. Los que no se "
                         "pueden publicar por cómo se entregaron, y los que faltan, dicen en su línea qué hacer.")


NOTA_PENDIENTES = ("Además, los alumnos de «Pendientes de revisión» todavía tienen publicados los comentarios de su "
                   "entrega anterior, que ya no valen: revisa su entrega nueva en el Formgrader y después pulsa "
                   "Generate Feedback y Release Feedback.")
NINGUNO_SALVO_PENDIENTES = ("Ninguno fuera de «Pendientes de revisión». Los alumnos de esa lista todavía tienen "
                            "publicados los comentarios de su entrega anterior, que ya no valen: revisa su entrega "
                            "nueva en el Formgrader y después pulsa Generate Feedback y Release Feedback.")


def _desactualizados(datos: dict, base: str) -> str:
    """The «Comentarios desactualizados» box as HTML (every value escaped), as the page's script draws it too.

    Held resubmissions (``datos["entregas"]``) are listed under «Pendientes de revisión», not here; the box
    says that those students still hold the feedback of their older submission (sixth TA report, P4-5).
    """
    from urllib.parse import quote
    lista = datos.get("desactualizados") or []
    pendientes = len(datos.get("entregas") or [])
    if not lista:
        return f"<p>{html.escape(NINGUNO_SALVO_PENDIENTES)}</p>" if pendientes else "<p>Ninguno.</p>"
    filas = "".join(
        f'<li><a href="{html.escape(base)}formgrader/manage_submissions/{html.escape(quote(e["tarea"], safe=""))}">'
        f'{html.escape(e["alumno"] + " / " + e["tarea"])}</a>: {html.escape(e["motivo"])}</li>' for e in lista)
    nota = f"<p>{html.escape(NOTA_PENDIENTES)}</p>" if pendientes else ""
    return f"<p>{html.escape(INTRO_DESACTUALIZADOS)}</p><ul>{filas}</ul>{nota}"


def _pendientes(raiz: Path, base: str, datos: dict | None = None) -> str:
    """The «Pendientes de revisión» box as HTML (every value escaped), as the page's script draws it too.

    Each submission links to its page in the Formgrader (``{base}formgrader/submissions/<id>``), where
    the TA reviews it; an assignment with several notebooks held gets one link per notebook.
    """
    from urllib.parse import quote
    datos = pendientes(raiz) if datos is None else datos
    if datos.get("error"):
        return f"<p>{html.escape(datos['error'])}</p>"
    if not datos["entregas"]:
        return "<p>Ninguna.</p>"

    def fila(e: dict) -> str:
        enlaces = [f'<a href="{html.escape(base)}formgrader/submissions/{html.escape(quote(str(c["id"]), safe=""))}">'
                   f'{html.escape(e["alumno"] + " / " + e["tarea"] if i == 0 else c["cuaderno"])}</a>'
                   for i, c in enumerate(e["cuadernos"])]
        if not enlaces:
            return f"<li>{html.escape(e['alumno'])} / {html.escape(e['tarea'])}</li>"
        resto = f" — también: {', '.join(enlaces[1:])}" if len(enlaces) > 1 else ""
        return f"<li>{enlaces[0]}{resto}</li>"
    filas = "".join(fila(e) for e in datos["entregas"])
    return f"<p>{html.escape(INTRO_PENDIENTES)}</p><ul>{filas}</ul>"


class _Base(JupyterHandler):
    @property
    def raiz(self) -> Path:
        return self.settings["curso_raiz"]

    @property
    def trabajo(self) -> Trabajo:
        return self.settings["curso_trabajo"]


def politica_de_pagina(nonce: str) -> str:
    """The course page's Content-Security-Policy: its own script (``nonce``), its own requests, nothing else."""
    return (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; img-src 'self' data:; "
            "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


class PaginaHandler(_Base):
    """The course page. Its one script runs with a nonce of this response: no other script may run there
    (a hostile student's name, id or file that got through the escaping would still not run)."""

    @property
    def nonce(self) -> str:
        if not hasattr(self, "_nonce"):
            self._nonce = secrets.token_urlsafe(18)
        return self._nonce

    @property
    def content_security_policy(self) -> str:
        return politica_de_pagina(self.nonce)

    @web.authenticated
    def get(self):
        base = url_path_join(self.base_url, "/")
        datos = pendientes(self.raiz)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(PAGINA.format(nonce=self.nonce, base=html.escape(base), curso=html.escape(os.environ.get("CURSO_HUB_CURSO", "")),
                                  zona_js=_en_guion(ZONA), lugar_js=html.escape(LUGAR),
                                  plazos=_tabla_de_plazos(self.raiz), pendientes=_pendientes(self.raiz, base, datos),
                                  desactualizados=_desactualizados(datos, base),
                                  intro_pendientes=_en_guion(INTRO_PENDIENTES),
                                  intro_desactualizados=_en_guion(INTRO_DESACTUALIZADOS),
                                  nota_pendientes=_en_guion(NOTA_PENDIENTES),
                                  ninguno_salvo_pendientes=_en_guion(NINGUNO_SALVO_PENDIENTES),
                                  intervalo_s=f"{INTERVALO_PAGINA:g}", intervalo_ms=int(INTERVALO_PAGINA * 1000)))


def _en_guion(texto: str) -> str:
    """A JavaScript string literal safe inside an HTML <script> (no «</script>», no «<!--»)."""
    return json.dumps(texto).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


class EstadoHandler(_Base):
    """The grading run's state and the submissions held for review now (the page asks every few seconds)."""

    @web.authenticated
    async def get(self):
        estado = self.trabajo.estado()
        estado["pendientes"] = await ioloop.IOLoop.current().run_in_executor(None, pendientes, self.raiz)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(estado))


class CalificarHandler(_Base):
    @web.authenticated
    def post(self):
        lanzado = self.trabajo.lanzar(ordenes_de_calificar(self.raiz), self.raiz, entorno(self.raiz))
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"lanzado": lanzado, **self.trabajo.estado()}))


class NotasHandler(_Base):
    @web.authenticated
    async def get(self):
        if self.trabajo.en_marcha:
            raise web.HTTPError(409, "Se está calificando: descarga grades.csv cuando termine.")
        with tempfile.TemporaryDirectory(prefix="curso-notas-") as carpeta:
            destino = Path(carpeta) / "grades.csv"
            orden = [str(Path(sys.executable).parent / "nbgrader"), "export", "--to", str(destino)]
            hecho = await ioloop.IOLoop.current().run_in_executor(None, lambda: subprocess.run(
                orden, cwd=self.raiz, env=entorno(self.raiz), capture_output=True, text=True, errors="replace"))
            if hecho.returncode != 0 or not destino.exists():
                raise web.HTTPError(500, "nbgrader export falló: " + (hecho.stdout + hecho.stderr)[-2000:])
            datos = destino.read_bytes()
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="grades.csv"')
        self.finish(datos)


class InformeHandler(_Base):
    @web.authenticated
    async def get(self):
        orden = [sys.executable, "-m", "scripts.informe"]
        hecho = await ioloop.IOLoop.current().run_in_executor(None, lambda: subprocess.run(
            orden, cwd=self.raiz, env=entorno(self.raiz), capture_output=True, text=True, errors="replace"))
        ruta = self.raiz / "informe" / "informe.html"
        if hecho.returncode != 0 or not ruta.exists():
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.set_status(409 if "Todavía no hay libro de notas" in hecho.stderr else 500)
            self.finish((hecho.stdout + hecho.stderr)[-3000:] or "No se pudo escribir el informe.")
            return
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Security-Policy", CSP_INFORME)
        self.finish(ruta.read_bytes())


def _load_jupyter_server_extension(serverapp):
    raiz = Path(os.getcwd()).resolve()
    web_app = serverapp.web_app
    web_app.settings["curso_raiz"] = raiz
    web_app.settings["curso_trabajo"] = Trabajo()
    base = web_app.settings["base_url"]
    web_app.add_handlers(".*$", [
        (url_path_join(base, r"curso/?"), PaginaHandler),
        (url_path_join(base, "curso/estado"), EstadoHandler),
        (url_path_join(base, "curso/calificar"), CalificarHandler),
        (url_path_join(base, "curso/grades.csv"), NotasHandler),
        (url_path_join(base, "curso/informe"), InformeHandler),
    ])
    publicador = Publicador(raiz, serverapp.log)

    def en_segundo_plano():
        threading.Thread(target=publicador.una_vez, daemon=True).start()

    # the first run after INTERVALO_PUBLICACION seconds: nothing slows the service's start-up (the hub
    # gives a managed service ten seconds to answer)
    ioloop.PeriodicCallback(en_segundo_plano, INTERVALO_PUBLICACION * 1000).start()
    serverapp.log.info("Página del curso en %scurso/ (calificar la clase, grades.csv, informe, plazos)", base)


load_jupyter_server_extension = _load_jupyter_server_extension
