"""The course's JupyterHub (despliegue/hub/) end to end over HTTP, as each person uses it.

As root: a TA and two students (real Unix accounts made for the test, PAM
passwords), the formgrader service under its own account, the hub and the
proxy on free loopback ports.  Every step goes through the hub and nbgrader's
own HTTP endpoints (what JupyterLab's Assignments tab and the formgrader
pages call): the TA generates and releases a lesson, each student fetches it,
answers (the sample answers ``perfecta`` and ``pe_concatenada``), validates
and submits; the TA collects, autogrades, generates and releases feedback;
the students fetch it.  Scores must equal the command-line run of the same
answers (``curso_calificado``), the feedback must be Spanish without hidden
test code, students get 403 on the formgrader and no instructor extension.

A semester on the same hub (issue 21): the TA gives the lesson a due date an
hour ago in the service's ``plazos.toml`` and the first student an
extension; the Assignments tab shows each student their own due date, the
second student's submission is marked late with the policy's share; the
feedback, the course page's grades.csv, the class report and the table of
«calificar toda la clase» (make grade, without a terminal) mark it with its
penalty; an extension removes it.  A resubmission after a manual grade is held
for review (formgrader's Generate/Release feedback refuse it) until the TA
grades the cell again, and the feedback never contradicts itself.  In hub
terminals (the service's, a TA's, a student's) the course's commands are on
PATH: ``nbgrader autograde`` and ``make grade`` in the service, ``nbgrader
validate`` of a correct function that prints a warning in a student's.
The accounts and folders are removed afterwards.
"""
from __future__ import annotations

import csv
from html import unescape as desescapar_html
import datetime as dt
import io
import json
import os
import pwd
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from zoneinfo import ZoneInfo

import nbformat
import pytest

from hub_cliente import ARTEFACTOS, RAIZ, Usuario, editar_curso, escribir_plazos, hub_de_prueba
from test_intercambio import ATAQUE

sys.path.insert(0, str(RAIZ))
from scripts.calificacion import samples  # noqa: E402

pytestmark = pytest.mark.slow

TAREA = "02_codificacion_posicional"
CUADERNO = "codificacion_posicional.ipynb"
MUESTRAS = ("perfecta", "pe_concatenada")     # what each student types: examples/respuestas/<muestra>.py
HACE_UNA_HORA = dt.datetime.now(ZoneInfo("Europe/Madrid")) - dt.timedelta(hours=1)
PLAZO = HACE_UNA_HORA.strftime("%Y-%m-%d %H:%M")      # the lesson's due date, Madrid wall time
try:
    from grader_tests.extensiones_nbgrader.plazos import PlazoInvalido, fecha
    fecha(PLAZO)
except PlazoInvalido:                          # within the hour of a daylight-saving change: with its offset
    PLAZO = HACE_UNA_HORA.strftime("%Y-%m-%d %H:%M%z")
ESTADO: dict = {}                              # what the first test leaves for the semester test


@pytest.fixture(scope="module")
def hub():
    with hub_de_prueba("hub-http") as h:
        yield h


def _cuaderno_contestado(muestra: str, destino: Path) -> dict:
    """The release notebook with ``muestra``'s answers planted where the student writes."""
    samples.build_student(muestra, samples.RESPUESTAS / f"{muestra}.py", RAIZ / "release", destino)
    return json.loads((destino / muestra / TAREA / CUADERNO).read_text(encoding="utf-8"))


def _notas_linea_de_ordenes(curso: Path) -> dict[str, tuple[float, float]]:
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{curso / 'gradebook.db'}") as gb:
        return {s.student.id: (s.score, s.max_score) for s in gb.find_assignment(TAREA).submissions}


def _config_de_pagina(html: str) -> dict:
    m = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html, re.S)
    assert m, "la página de JupyterLab no trae su configuración"
    return json.loads(m[1])


def _esperar(condicion, segundos: float = 60, que: str = ""):
    limite = time.monotonic() + segundos
    while time.monotonic() < limite:
        valor = condicion()
        if valor:
            return valor
        time.sleep(1)
    raise AssertionError(f"no pasó en {segundos} s: {que}")


# A student's ~/.jupyter/jupyter_server_config.py (attack report A1: it served a folder without login,
# with «Service-Worker-Allowed: /»): the hub must not read it.
CONFIG_DEL_ALUMNO = """
c.ServerApp.tornado_settings = {"headers": {"X-Configuracion-Del-Alumno": "leida"}}
"""


def _entorno_del_proceso(uid: int, marca: str) -> dict[str, str]:
    """The environment of the running process of ``uid`` whose command line holds ``marca``."""
    for entrada in Path("/proc").iterdir():
        if not entrada.name.isdigit():
            continue
        try:
            if entrada.stat().st_uid != uid or marca not in (entrada / "cmdline").read_text(errors="replace"):
                continue
            crudo = (entrada / "environ").read_bytes()
        except OSError:
            continue
        return dict(v.split("=", 1) for v in crudo.decode(errors="replace").split("\0") if "=" in v)
    raise AssertionError(f"no hay proceso de {uid} con {marca}")


def test_un_origen_por_servidor_y_nada_de_la_casa_del_alumno(hub):
    """Attack report A1: the hub, each student's server and the formgrader are origins of their own; a
    student's server reads no ~/.jupyter config and no ~/.local packages; the TA-side servers and their
    kernels start with PYTHONSAFEPATH (A2)."""
    from urllib.parse import urlparse
    alumna = hub.alumnado[0]
    casa = Path(pwd.getpwnam(alumna).pw_dir)
    _como(alumna, "import os, sys; d = os.path.join(sys.argv[2], '.jupyter'); os.makedirs(d, exist_ok=True); "
                  "open(os.path.join(d, 'jupyter_server_config.py'), 'w').write(sys.argv[1])",
          CONFIG_DEL_ALUMNO, str(casa))
    assert (casa / ".jupyter" / "jupyter_server_config.py").exists()
    usuaria = Usuario(hub, alumna).entrar().arrancar_servidor()
    origenes = {urlparse(u).netloc for u in (hub.url, hub.url_de_usuario(alumna), hub.url_del_formgrader(),
                                              hub.url_de_usuario(hub.profesorado[0]))}
    assert len(origenes) == 4, origenes
    assert urlparse(usuaria.base).hostname == f"{alumna}.localhost"
    estado = usuaria.get("api/status")
    assert estado.status_code == 200 and "X-Configuracion-Del-Alumno" not in estado.headers, estado.headers
    entorno = _entorno_del_proceso(pwd.getpwnam(alumna).pw_uid, "jupyterhub-singleuser")
    for clave, valor in (("PYTHONNOUSERSITE", "1"), ("JUPYTERHUB_DISABLE_USER_CONFIG", "1")):
        assert entorno.get(clave) == valor, (clave, entorno.get(clave))
    # the TA-side servers (the formgrader here; TAs' servers alike): no student's Python at a kernel's start
    servicio = _entorno_del_proceso(pwd.getpwnam(hub.cuenta_servicio).pw_uid, "jupyterhub-singleuser")
    assert servicio.get("PYTHONSAFEPATH") == "1" and servicio.get("PYTHONNOUSERSITE") == "1", servicio
    assert os.access(servicio["PYTHONSTARTUP"], os.R_OK) and servicio["PYTHONSTARTUP"].endswith("arranque_kernel.py")
    # the TA's formgrader, asked from the student's origin with the TA's cookies: no CORS grant
    ta = Usuario(hub, hub.profesorado[0]).entrar()
    assert ta.abrir_formgrader().status_code == 200
    respuesta = ta.s.get(f"{hub.url_del_formgrader()}formgrader/api/students",
                         headers={"Origin": f"http://{urlparse(usuaria.base).netloc}"}, timeout=60)
    assert "access-control-allow-origin" not in {k.lower() for k in respuesta.headers}, respuesta.headers
    # and the student's browser session does not reach it at all
    assert usuaria.abrir_formgrader().status_code == 403
    # a kernel of the student's server talks through Unix sockets in her 0700 home, never a TCP port of 127.0.0.1
    # that any account could subscribe to (issue 19, a second attacker's F1: every cell a TA ran, read by a student)
    nucleo = usuaria.post("api/kernels", json={"name": "python3"})
    assert nucleo.status_code == 201, nucleo.text
    conexion = casa / ".jr" / f"kernel-{nucleo.json()['id']}.json"
    _esperar(lambda: conexion.exists(), 60, "el archivo de conexión del núcleo")
    assert json.loads(conexion.read_text())["transport"] == "ipc"
    uid = pwd.getpwnam(alumna).pw_uid
    puertos = [l.split()[1] for l in Path("/proc/net/tcp").read_text().splitlines()[1:]
               if l.split()[3] == "0A" and int(l.split()[7]) == uid]
    assert len(puertos) <= 1, puertos               # her server's own port, nothing of her kernel
    assert usuaria.s.delete(f"{usuaria.base}api/kernels/{nucleo.json()['id']}", timeout=60,
                            headers={"X-XSRFToken": usuaria._xsrf(usuaria.base)}).status_code == 204


def _texto_visible(pagina: str) -> str:
    sin_codigo = re.sub(r"<(script|style)\b.*?</\1>", " ", pagina, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", sin_codigo).split())


def test_el_curso_entero_por_http(hub, curso_calificado, tmp_path):
    # the hub's own pages in Spanish (issue 22, a new student: «Sign in», «Username:», «Logout»)
    portada = Usuario(hub, hub.profesorado[0]).s.get(f"{hub.url}/hub/login", timeout=30)
    visible = _texto_visible(portada.content.decode("utf-8"))
    assert "Entrar" in visible and "Usuario:" in visible and "Contraseña:" in visible, visible[:800]
    assert not re.search(r"Sign in|Username|Password|Logout", visible), visible[:800]
    # ... also what a tenth attacker found outside the blocks: the logo's alt/title, «requires JavaScript» (hidden
    # by a style that applies only without JavaScript, where the Spanish one shows) and the error dialog's labels
    html = portada.content.decode("utf-8")
    assert "alt='Logotipo de JupyterHub'" in html and "title='Home'" not in html and "alt='JupyterHub logo'" not in html
    assert "#noscript { display: none !important; }" in html and "El hub necesita JavaScript" in html
    assert '"OK") { boton.textContent = "Aceptar"' in html and "'.ajax-error'" in html
    # a wrong password: the error in Spanish too (a new attacker's side note), the name typed escaped
    intento = Usuario(hub, hub.profesorado[0])
    xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', intento.s.get(f"{hub.url}/hub/login", timeout=30).text)
    mal = intento.s.post(f"{hub.url}/hub/login", data={"username": "<b>x</b>", "password": "no",
                                                        "_xsrf": desescapar_html(xsrf[1]) if xsrf else ""}, timeout=60)
    texto_mal = mal.content.decode("utf-8")
    assert "Usuario o contraseña incorrectos." in texto_mal and "Invalid username" not in texto_mal, texto_mal[-1500:]
    assert "<b>x</b>" not in texto_mal
    ta = Usuario(hub, hub.profesorado[0]).entrar()
    inicio = _texto_visible(ta.s.get(f"{hub.url}/hub/home", timeout=30).content.decode("utf-8"))
    assert "Salir" in inicio and "Inicio" in inicio and "servidor" in inicio, inicio[:800]
    assert not re.search(r"Logout|My Server|Home\b|Token\b.*Admin", inicio), inicio[:800]
    alumnos = {nombre: Usuario(hub, nombre).entrar() for nombre in hub.alumnado}
    muestra_de = dict(zip(hub.alumnado, MUESTRAS))
    con_prorroga, tarde = hub.alumnado[0], hub.alumnado[1]
    # the TA's one place for due dates: the service's plazos.toml (Madrid time), an hour ago;
    # the first student has a day's extension
    escribir_plazos(hub, {TAREA: PLAZO}, {TAREA: {con_prorroga: "1 día"}})

    # --- the TA: the formgrader service, generate and release the lesson
    pagina = ta.abrir_formgrader()
    assert pagina.status_code == 200 and "Manage Assignments" in pagina.text, pagina.text[:500]
    assert ta.formgrader("POST", f"assignment/{TAREA}/assign")["success"]
    liberada = ta.formgrader("POST", f"assignment/{TAREA}/release")
    assert liberada["success"], liberada

    # --- the TA's own server: no formgrader there, but the course list links to the service
    ta.arrancar_servidor()
    assert ta.get("formgrader").status_code == 404
    cursos = ta.get("formgraders").json()
    assert cursos["success"], cursos
    assert [c["course_id"] for c in cursos["value"]] == [hub.curso], cursos
    # ... on the formgrader's own origin, not the TA's (subdomains)
    assert cursos["value"][0]["url"] == f"{hub.url_del_formgrader()}lab?formgrader=true", cursos

    # --- each student: Assignments tab, answer, Validate, submit
    entradas = {}
    for nombre, alumno in alumnos.items():
        alumno.arrancar_servidor()
        config = _config_de_pagina(alumno.pagina_lab)
        desactivadas = set(config.get("disabledExtensions", []))
        assert {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
                "@jupyter/nbgrader:course-list"} <= desactivadas, desactivadas
        assert "@jupyter/nbgrader:assignment-list" not in desactivadas
        ajustes = alumno.get("lab/api/settings/@jupyterlab/translation-extension:plugin").json()
        # Spanish is the default (overrides.json), not a setting written in the student's home
        assert ajustes["schema"]["properties"]["locale"]["default"] == "es_ES", ajustes["schema"]
        assert alumno.get("formgrader").status_code == 404          # no formgrader server extension
        assert alumno.get("formgraders").status_code == 404         # no course list either

        assert alumno.tareas()[TAREA]["status"] == "released"
        # each student sees their own due date (published by the service within seconds)
        plazo = _esperar(lambda: alumno.tareas()[TAREA].get("curso_plazo", {}).get("plazo"), 60,
                         f"{nombre} no ve el plazo en la pestaña Assignments")
        esperado = HACE_UNA_HORA.replace(second=0, microsecond=0) + dt.timedelta(days=1 if nombre == con_prorroga else 0)
        assert dt.datetime.fromisoformat(plazo.replace("Z", "+00:00")) == esperado, (nombre, plazo)
        assert alumno.tareas()[TAREA]["curso_plazo"]["prorroga"] == (nombre == con_prorroga)
        alumno.accion("fetch", TAREA)
        tarea = alumno.tareas()[TAREA]
        assert tarea["status"] == "fetched", tarea
        ruta = f"{hub.curso}/{TAREA}/{CUADERNO}"
        assert alumno.get(f"api/contents/{ruta}?content=0").status_code == 200

        contenido = _cuaderno_contestado(muestra_de[nombre], tmp_path / nombre)
        guardado = alumno.put(f"api/contents/{ruta}", json={"type": "notebook", "format": "json",
                                                              "content": contenido})
        assert guardado.status_code in (200, 201), guardado.text[:300]
        validacion = alumno.post("assignments/validate", datos={"path": ruta}).json()
        assert validacion["success"], validacion
        if muestra_de[nombre] == "perfecta":
            resultado = validacion["value"]
            resultado = json.loads(resultado) if isinstance(resultado, str) else resultado
            assert not resultado.get("failed") and not resultado.get("changed"), resultado
        alumno.accion("submit", TAREA)
        enviadas = alumno.tareas()[TAREA]
        assert enviadas["status"] == "submitted" and enviadas["submissions"], enviadas
        # the hub's submit (entrega_honesta.py): the entry is its author's and the graders' group's alone
        inbound = hub.intercambio / hub.curso / "inbound"
        [entrada] = inbound.glob(f"{nombre}+{TAREA}+*")
        entradas[nombre] = entrada
        assert entrada.stat().st_uid == pwd.getpwnam(nombre).pw_uid
        assert entrada.stat().st_gid == inbound.stat().st_gid == pwd.getpwnam(hub.cuenta_servicio).pw_gid
        for ruta in [entrada, *entrada.rglob("*")]:
            modo = stat.S_IMODE(ruta.stat().st_mode) & 0o777
            assert modo == (0o750 if ruta.is_dir() else 0o640), (ruta, oct(modo))
        # the Assignments tab says whether it was late, and how much the policy takes
        ultima = enviadas["submissions"][-1]
        if nombre == tarde:
            assert 3000 < ultima["curso_segundos_tarde"] < 86400 and ultima["curso_fraccion"] == 0.1, ultima
        else:
            assert ultima["curso_segundos_tarde"] == 0 and ultima["curso_fraccion"] == 0, ultima

        # students never reach the course's service
        assert alumno.abrir_formgrader().status_code == 403

    # --- a hostile student (issue 19.1): from their own account, entries in inbound named after the
    # classmate (newer than the classmate's own, a blank notebook) and with an unreadable date
    atacante, victima = hub.alumnado
    _como(atacante, FORJAR, str(hub.intercambio / hub.curso / "inbound"), victima, TAREA)
    # ... and, knowing the name of the classmate's entry, tries to rename, move, replace, remove, list, read,
    # hard-link and re-date it (issue 19, second attack): inbound is sticky, the entry private
    antes = entradas[victima].stat()
    intento = _como(atacante, ATAQUE, str(hub.intercambio / hub.curso / "inbound"), entradas[victima].name,
                    entradas[atacante].name)
    resultado = json.loads(intento.stdout)
    assert resultado.pop("renombrar la propia") == "OK"
    assert all(r != "OK" for r in resultado.values()), resultado
    assert entradas[victima].stat().st_ctime_ns == antes.st_ctime_ns

    # --- the TA: collect (formgrader's button), autograde each submission, compare with the command line
    recogida = ta.formgrader("POST", f"assignment/{TAREA}/collect")
    assert recogida["success"], recogida
    registro = recogida.get("log", "")
    assert f"suplantación: dice ser de «{victima}» pero la creó la cuenta «{atacante}»" in registro, registro
    assert "fecha ilegible" in registro and "fecha en el futuro" in registro, registro
    for nombre in alumnos:
        resultado = ta.formgrader("POST", f"submission/{TAREA}/{nombre}/autograde")
        assert resultado["success"], resultado.get("error") or resultado
    entregas = {e["student"]: e for e in ta.formgrader("GET", f"submissions/{TAREA}")}
    linea = _notas_linea_de_ordenes(curso_calificado.curso)
    for nombre, muestra in muestra_de.items():
        assert entregas[nombre]["autograded"], entregas[nombre]
        assert (entregas[nombre]["score"], entregas[nombre]["max_score"]) == linea[muestra], (
            f"{nombre} ({muestra}): hub {entregas[nombre]['score']} / {entregas[nombre]['max_score']}, "
            f"línea de órdenes {linea[muestra]}")
    perfecta = next(n for n, m in muestra_de.items() if m == "perfecta")
    otra = next(n for n in alumnos if n != perfecta)
    assert entregas[perfecta]["score"] == entregas[perfecta]["max_score"]
    assert 0 < entregas[otra]["score"] < entregas[otra]["max_score"]

    # --- feedback: generated and released from the formgrader, fetched by each student
    # the course page (on the service's origin) has nothing held for review yet: first submissions only
    pendientes = ta.s.get(f"{ta.servicio}curso/", timeout=60).text.split("Pendientes de revisión</h2>")[1].split("<h2>")[0]
    assert "Ninguna." in pendientes and tarde not in pendientes, pendientes
    generada = ta.formgrader("POST", f"assignment/{TAREA}/generate_feedback")
    assert generada["success"], generada.get("error") or generada
    publicada = ta.formgrader("POST", f"assignment/{TAREA}/release_feedback")
    assert publicada["success"], publicada.get("error") or publicada
    for nombre, alumno in alumnos.items():
        alumno.accion("fetch_feedback", TAREA)
        carpeta = alumno.get(f"api/contents/{hub.curso}/{TAREA}/feedback").json()
        marcas = [c["path"] for c in carpeta["content"] if c["type"] == "directory"]
        assert marcas, f"{nombre}: no llegó ningún comentario"
        html = alumno.get(f"files/{marcas[-1]}/{CUADERNO.replace('.ipynb', '.html')}").content.decode("utf-8")
        (ARTEFACTOS / f"comentarios-{muestra_de[nombre]}.html").write_text(html, encoding="utf-8")
        assert "Puntos:" in html and "Celda de prueba" in html, f"{nombre}: comentarios no en español"
        for oculto in ("BEGIN HIDDEN TESTS", "corregir(", "grader_tests"):
            assert oculto not in html, f"{nombre}: los comentarios enseñan código oculto ({oculto})"
        if muestra_de[nombre] != "perfecta":
            assert "Diagnóstico probable" in html, f"{nombre}: el comentario no explica el error"
        # the late one is told so in Spanish, with the penalty
        assert ("Penalización por entrega tardía" in html and "Entregaste" in html) == (nombre == tarde), nombre

    # --- the hub's log (every student's server writes into it): root's alone, and nothing in it opens
    # another's entry or feedback (issue 19, second attack: the log held every entry's random code)
    assert stat.S_IMODE(hub.registro.stat().st_mode) == 0o600
    texto = hub.leer_registro()
    for entrada in inbound.iterdir():
        codigo = entrada.name.rsplit("+", 1)[-1]
        if entrada.name.count("+") == 3 and len(codigo) >= 12:
            assert codigo not in texto, f"el registro del hub lleva el código de {entrada.name}"
    for publicado in (hub.intercambio / hub.curso / "feedback").glob("*.html"):
        assert publicado.stem not in texto, "el registro del hub lleva el nombre de un comentario publicado"
    # a student's server holds the log open as its output: reopened from /proc, the file's mode says no
    servidor = _pid_del_servidor(victima)
    leer = subprocess.run(["runuser", "-u", victima, "--", "/usr/bin/python3", "-c",
                           f"print(len(open('/proc/{servidor}/fd/1', 'rb').read()))"],
                          capture_output=True, text=True, timeout=60, cwd="/")
    assert leer.returncode != 0 and "Permission denied" in leer.stderr, (leer.stdout, leer.stderr)

    ESTADO.update(ta=ta, alumnos=alumnos, muestra_de=muestra_de, con_prorroga=con_prorroga, tarde=tarde,
                  entregas=entregas)


def _csv(texto: str) -> dict[str, dict]:
    return {f["student_id"]: f for f in csv.DictReader(io.StringIO(texto)) if f["assignment"] == TAREA}


def _con_celda(ta, alumno: str, nombre_celda: str, tipo: str = "grades") -> dict:
    """The formgrader's grade (or comment) ``nombre_celda`` of the student's submitted notebook."""
    cuaderno = CUADERNO.removesuffix(".ipynb")
    [enviado] = [e for e in ta.formgrader("GET", f"submitted_notebooks/{TAREA}/{cuaderno}") if e["student"] == alumno]
    [celda] = [g for g in ta.formgrader("GET", f"{tipo}?submission_id={enviado['id']}") if g["name"] == nombre_celda]
    return celda


def test_un_semestre_plazos_prorroga_reentrega_y_terminales(hub, tmp_path):
    if not ESTADO:
        pytest.skip("necesita el curso de test_el_curso_entero_por_http en este mismo hub")
    ta, alumnos, tarde, con_prorroga = ESTADO["ta"], ESTADO["alumnos"], ESTADO["tarde"], ESTADO["con_prorroga"]
    # the course page is the service's: on its own origin (<course>--service.localhost), like the formgrader
    servicio = ta.servicio
    pagina = f"{servicio}curso/"
    xsrf = {"X-XSRFToken": ta._xsrf(servicio)}
    raw = ESTADO["entregas"][tarde]["score"]

    # --- the course page: grades.csv and the class report mark the late submission and its penalty
    portada = ta.s.get(pagina, timeout=60)
    assert portada.status_code == 200 and "Recoger las entregas y calificar toda la clase" in portada.text
    assert TAREA in portada.text and "1 día" in portada.text          # due dates and extensions, as configured
    # its one script runs by the nonce of this response; no other may (a fresh attacker's P3: only frame-ancestors)
    politica = portada.headers.get("Content-Security-Policy", "")
    nonce = re.search(r"script-src 'nonce-([A-Za-z0-9_-]+)'", politica)
    assert nonce and "default-src 'none'" in politica, politica
    assert re.findall(r"<script\b[^>]*>", portada.text) == [f'<script nonce="{nonce[1]}">'], portada.text[:300]
    assert alumnos[tarde].s.get(pagina, timeout=60).status_code == 403
    notas = _csv(ta.s.get(f"{pagina}grades.csv", timeout=300).text)
    assert float(notas[tarde]["late_submission_penalty"]) == pytest.approx(0.1 * raw)
    assert float(notas[tarde]["score"]) == pytest.approx(0.9 * raw) and float(notas[tarde]["seconds_late"]) > 3000
    assert float(notas[con_prorroga]["late_submission_penalty"]) == 0 and notas[con_prorroga]["extension_seconds"] == "86400"
    # nbgrader's duedate stays naive UTC; its copy in the course's zone says the offset (Madrid's wall time)
    assert re.fullmatch(rf"{re.escape(PLAZO[:16])}:00\+0[12]:00", notas[tarde]["duedate_course_time"]), notas[tarde]
    informe = ta.s.get(f"{pagina}informe", timeout=300)
    assert informe.status_code == 200 and "script-src" not in informe.headers["Content-Security-Policy"]
    assert "Plazo, entregas tardías" in informe.text and tarde in informe.text

    # --- the whole class without a terminal: collect and make grade from the page; the table marks it
    assert ta.s.post(f"{pagina}calificar", headers=xsrf, timeout=60).json()["lanzado"]
    estado = _esperar(lambda: (lambda e: e if not e["en_marcha"] else None)(
        ta.s.get(f"{pagina}estado", timeout=60).json()), 900, "«calificar toda la clase» no terminó")
    (ARTEFACTOS / "calificar-toda-la-clase.txt").write_text(estado["salida"], encoding="utf-8")
    assert estado["codigo"] == 0, estado["salida"][-3000:]
    [fila] = [l for l in estado["salida"].splitlines() if l.startswith(tarde + " ")]
    assert "(tarde: -" in fila, fila
    assert f"{tarde} / {TAREA}: entregada 1 h" in estado["salida"]

    # --- an extension removes it: the student's tab, grades.csv
    antes = f'{json.dumps(con_prorroga)} = "1 día"\n'
    editar_curso(hub, {antes: antes + f'{json.dumps(tarde)} = "2 días"\n'}, archivo="plazos.toml")
    _esperar(lambda: alumnos[tarde].tareas()[TAREA]["curso_plazo"]["prorroga"], 60,
             "la prórroga no llegó a la pestaña Assignments")
    assert alumnos[tarde].tareas()[TAREA]["submissions"][-1]["curso_segundos_tarde"] == 0
    notas = _csv(ta.s.get(f"{pagina}grades.csv", timeout=300).text)
    assert float(notas[tarde]["late_submission_penalty"]) == 0 and float(notas[tarde]["score"]) == raw
    assert notas[tarde]["extension_seconds"] == "172800"
    assert notas[tarde]["student_duedate_course_time"].startswith(
        (dt.datetime.strptime(PLAZO[:16], "%Y-%m-%d %H:%M") + dt.timedelta(days=2)).strftime("%Y-%m-%d %H:%M"))
    # ... but the feedback generated before it still states the penalty: listed on the course page, and
    # Release Feedback withholds it (the rest of the class gets theirs) until Generate Feedback runs again
    desactualizados = ta.s.get(f"{pagina}estado", timeout=60).json()["pendientes"]["desactualizados"]
    assert [(e["alumno"], e["tarea"]) for e in desactualizados] == [(tarde, TAREA)], desactualizados
    publicada = ta.formgrader("POST", f"assignment/{TAREA}/release_feedback")
    assert not publicada["success"] and "error" not in publicada, publicada
    assert publicada["curso_revision"]["titulo"] == "Comentarios sin publicar: desactualizados", publicada
    assert [e["alumno"] for e in publicada["curso_revision"]["entregas"]] == [tarde], publicada

    # --- a manual grade, then a corrected resubmission: held for review, feedback refused until resolved
    celda = "positional_encoding_valores"
    nota = _con_celda(ta, tarde, celda)
    ta.formgrader("PUT", f"grade/{nota['id']}", json={"manual_score": 1, "extra_credit": None})
    comentario = _con_celda(ta, tarde, "positional_encoding", "comments")
    ta.formgrader("PUT", f"comment/{comentario['id']}", json={"manual_comment": "Concatenas senos y cosenos."})
    alumno = alumnos[tarde]
    contenido = _cuaderno_contestado("perfecta", tmp_path / "corregida")
    ruta = f"{hub.curso}/{TAREA}/{CUADERNO}"
    assert alumno.put(f"api/contents/{ruta}", json={"type": "notebook", "format": "json",
                                                    "content": contenido}).status_code in (200, 201)
    alumno.accion("submit", TAREA)
    assert ta.formgrader("POST", f"assignment/{TAREA}/collect")["success"]
    assert ta.formgrader("POST", f"submission/{TAREA}/{tarde}/autograde")["success"]
    entrega = {e["student"]: e for e in ta.formgrader("GET", f"submissions/{TAREA}")}[tarde]
    assert entrega["needs_manual_grade"] and entrega["score"] == entrega["max_score"], entrega
    nota = _con_celda(ta, tarde, celda)
    assert nota["manual_score"] is None and nota["needs_manual_grade"] and nota["auto_score"] == nota["max_score"]
    assert _con_celda(ta, tarde, "positional_encoding", "comments")["manual_comment"].startswith("⚠ PENDIENTE")
    pendientes = ta.s.get(pagina, timeout=60).text.split("Pendientes de revisión</h2>")[1].split("<h2>")[0]
    assert f"{tarde} / {TAREA}" in pendientes, pendientes            # the course page lists it too
    retenidas = ta.s.get(f"{pagina}estado", timeout=60).json()["pendientes"]["entregas"]   # redrawn without a reload
    assert [(e["alumno"], e["tarea"], [c["cuaderno"] for c in e["cuadernos"]]) for e in retenidas] == [
        (tarde, TAREA, [CUADERNO.replace(".ipynb", "")])], retenidas
    # each one links to its submission in the formgrader, where the TA reviews it
    enlace = f'formgrader/submissions/{retenidas[0]["cuadernos"][0]["id"]}">{tarde} / {TAREA}</a>'
    assert enlace in pendientes, pendientes
    abierta = ta.s.get(f"{ta.servicio}formgrader/submissions/{retenidas[0]['cuadernos'][0]['id']}", timeout=120)
    assert abierta.status_code == 200 and 'id="positional_encoding-comment"' in abierta.text, abierta.text[:300]
    # formgrader's Generate / Release Feedback: the Spanish reason, who and a link, no traceback
    generada = ta.formgrader("POST", f"assignment/{TAREA}/generate_feedback")
    assert not generada["success"] and "error" not in generada and "pendiente de revisión" in generada["log"], generada
    assert [e["alumno"] for e in generada["curso_revision"]["entregas"]] == [tarde]
    publicada = ta.formgrader("POST", f"assignment/{TAREA}/release_feedback")
    assert not publicada["success"] and "error" not in publicada and "pendiente de revisión" in publicada["log"], publicada
    alumno.accion("fetch_feedback", TAREA)
    assert not alumno.tareas()[TAREA]["submissions"][-1]["has_local_feedback"]
    # the TA reviews it in formgrader: the automatic score stands, a new comment
    ta.formgrader("PUT", f"grade/{nota['id']}", json={"manual_score": None, "extra_credit": None})
    ta.formgrader("PUT", f"comment/{comentario['id']}", json={"manual_comment": "Ahora la tabla es la del artículo."})
    assert ta.formgrader("POST", f"assignment/{TAREA}/generate_feedback")["success"]
    assert ta.formgrader("POST", f"assignment/{TAREA}/release_feedback")["success"]
    alumno.accion("fetch_feedback", TAREA)
    ultima = alumno.tareas()[TAREA]["submissions"][-1]
    assert ultima["has_local_feedback"], ultima
    html = alumno.get(f"files/{ultima['local_feedback_path']}/{CUADERNO.replace('.ipynb', '.html')}").content.decode("utf-8")
    (ARTEFACTOS / "comentarios-reentrega.html").write_text(html, encoding="utf-8")
    assert "Ahora la tabla es la del artículo." in html and "Concatenas senos" not in html
    assert "Puntos: 1.0 / 3.0" not in html and "PENDIENTE" not in html

    # --- hub terminals: the course's commands on PATH; nbgrader autograde and make grade in the service's
    for usuario, base in ((ta, servicio), (ta, ta.base), (alumno, alumno.base)):
        codigo, texto = usuario.terminal(base, "command -v nbgrader jupyter make", espera=120)
        assert codigo == 0 and "/bin/nbgrader" in texto and "/bin/jupyter" in texto, f"{base}: {texto[-1000:]}"
    codigo, texto = ta.terminal(servicio, f"nbgrader autograde {TAREA} --student {con_prorroga} --force 2>&1 | tail -3 "
                                          "&& make grade 2>&1 | tail -30", espera=900)
    (ARTEFACTOS / "terminal-del-servicio.txt").write_text(texto, encoding="utf-8")
    assert codigo == 0 and "Setting destination file permissions" in texto, texto[-3000:]
    assert re.search(rf"^{re.escape(con_prorroga)} +", texto, re.M) and "Notas:" in texto, texto[-3000:]

    # --- Validate in a student's hub terminal and button: a correct function that prints a warning passes
    otra = alumnos[con_prorroga]
    contenido = _cuaderno_contestado("perfecta", tmp_path / "avisos")
    codigo_avisos = (RAIZ / "grader_tests" / "ejercicios" / "positional_encoding" / "bateria" /
                     "c05_avisos.py").read_text(encoding="utf-8")
    nb = nbformat.reads(json.dumps(contenido), as_version=4)
    samples.plant(nb, "positional_encoding", "\n".join(l for l in codigo_avisos.splitlines() if not l.startswith("#")))
    assert otra.put(f"api/contents/{ruta}", json={"type": "notebook", "format": "json",
                                                  "content": nb}).status_code in (200, 201)
    resultado = otra.post("assignments/validate", datos={"path": ruta}).json()
    valor = json.loads(resultado["value"]) if isinstance(resultado["value"], str) else resultado["value"]
    assert resultado["success"] and not valor.get("failed") and not valor.get("changed"), valor
    codigo, texto = otra.terminal(otra.base, f"cd {hub.curso}/{TAREA} && nbgrader validate {CUADERNO}", espera=300)
    assert "Success! Your notebook passes all the tests." in texto, texto[-2000:]


# What the hostile student runs from their own account: an entry in inbound with a classmate's name
# (newer than the classmate's own), and their own entries dated 2099 and with an unreadable date.
FORJAR = """
import datetime, os, sys
inbound, victima, tarea = sys.argv[1:]
ahora = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
yo = os.environ["USER"]
for nombre in (f"{victima}+{tarea}+{ahora}+forjada", f"{yo}+{tarea}+2099-01-01 00:00:00.000000 UTC+x",
               f"{yo}+{tarea}+pasado mañana+y"):
    os.mkdir(os.path.join(inbound, nombre))
    with open(os.path.join(inbound, nombre, "codificacion_posicional.ipynb"), "w") as f:
        f.write('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
"""


def _pid_del_servidor(usuario: str) -> int:
    """The pid of ``usuario``'s single-user server (started by the hub with the hub's own output)."""
    uid = pwd.getpwnam(usuario).pw_uid
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and proc.stat().st_uid == uid and \
                    b"jupyterhub-singleuser" in (proc / "cmdline").read_bytes():
                return int(proc.name)
        except OSError:
            continue
    raise AssertionError(f"no está el servidor de {usuario}")


def _como(usuario: str, programa: str, *argumentos: str) -> subprocess.CompletedProcess:
    """Run ``python -c programa`` as ``usuario`` (with their own environment), as their terminal would."""
    proceso = subprocess.run(["runuser", "-u", usuario, "--", "env", f"USER={usuario}", "/usr/bin/python3", "-c",
                              programa, *argumentos], capture_output=True, text=True, timeout=60, cwd="/")
    assert proceso.returncode == 0, proceso.stderr
    return proceso


def test_casas_privadas_y_permisos_del_intercambio(hub):
    """Issue 19.6: every account's home is 0700 (nobody reads a classmate's notebook or submission secret);
    the exchange keeps nbgrader's modes (inbound not listable, feedback not listable), inbound sticky and
    setgid to the service's group (issue 19, second attack)."""
    cuentas = [*hub.profesorado, *hub.alumnado, hub.cuenta_servicio]
    for nombre in cuentas:
        casa = pwd.getpwnam(nombre).pw_dir
        assert stat.S_IMODE(os.stat(casa).st_mode) == 0o700, (nombre, oct(os.stat(casa).st_mode))
    uno, otro = hub.alumnado
    casa_otro = pwd.getpwnam(otro).pw_dir
    intento = subprocess.run(["runuser", "-u", uno, "--", "ls", casa_otro], capture_output=True, text=True)
    assert intento.returncode != 0 and "Permission denied" in intento.stderr, intento
    raiz = hub.intercambio
    curso = raiz / hub.curso
    assert stat.S_IMODE(raiz.stat().st_mode) == 0o1777
    assert stat.S_IMODE(curso.stat().st_mode) == 0o755
    assert curso.stat().st_uid == pwd.getpwnam(hub.cuenta_servicio).pw_uid
    for carpeta, modo in (("inbound", 0o3733), ("outbound", 0o755)):
        if (curso / carpeta).exists():
            assert stat.S_IMODE((curso / carpeta).stat().st_mode) == modo, (carpeta,
                                                                          oct((curso / carpeta).stat().st_mode))
    intento = subprocess.run(["runuser", "-u", uno, "--", "ls", str(curso / "inbound")], capture_output=True, text=True)
    assert intento.returncode != 0, "un alumno puede listar inbound"


# shared by the scripts below: how many of the held connections are still open after the proxy had time to
# learn their owner (and close those over the cap)
_VIVAS = r"""
import socket, time
def vivas(abiertas):
    time.sleep(1.5)
    cuenta = 0
    for s in abiertas:
        s.setblocking(False)
        try:
            cuenta += s.recv(1) != b""
        except BlockingIOError:
            cuenta += 1
        except OSError:
            pass
    return cuenta
"""

_INUNDAR = _VIVAS + r"""
import socket, sys, time
puerto, n = int(sys.argv[1]), int(sys.argv[2])
abiertas = []
for _ in range(n):
    s = socket.socket()
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", puerto))
        abiertas.append(s)
    except OSError:
        pass
print(len(abiertas), vivas(abiertas), flush=True)
time.sleep(float(sys.argv[3]))      # and holds the rest
"""


_RAFAGA = r"""
import http.client, sys, threading, time
puerto = int(sys.argv[1])
cuenta = {"200": 0, "429": 0}
texto = []
hecho = threading.Event()
cerrojo = threading.Lock()

def pedir():
    c = http.client.HTTPConnection("127.0.0.1", puerto, timeout=20)
    while not hecho.is_set():
        c.request("GET", "/hub/health")
        r = c.getresponse()
        cuerpo = r.read().decode("utf-8", "replace")
        with cerrojo:
            if r.status == 429:
                cuenta["429"] += 1
                texto[:] = [cuerpo]
                if cuenta["429"] >= 50:
                    hecho.set()
            else:
                cuenta["200"] += 1
            if cuenta["200"] + cuenta["429"] >= 4000:
                hecho.set()
        if r.will_close:
            c.close()
            c = http.client.HTTPConnection("127.0.0.1", puerto, timeout=20)

inicio = time.monotonic()
hilos = [threading.Thread(target=pedir) for _ in range(16)]
for h in hilos:
    h.start()
for h in hilos:
    h.join()
print(cuenta["200"], cuenta["429"], round(time.monotonic() - inicio, 3), "".join(texto[:1]), sep="\n")
"""


def test_ninguna_cuenta_llena_el_proxy_con_conexiones_vacias(hub):
    """Issue 19, a third attacker's F2: one student's idle TCP connections filled the proxy's open files and nobody
    reached the hub. The proxy now starts with tope_por_cuenta.js: a student keeps at most 64 connections to the
    public port (the rest are closed at once) and none to the proxy's API, while the TA still gets in; and the
    hub's own port keeps at most 64 of hers (relevo.limitar_servidor_del_hub; a fourth attacker's F1). A burst of
    requests (a fifth attacker's F1) gets 429 from the proxy and from the hub's port past her bucket."""
    alumna = hub.alumnado[0]
    linea = next(Path(f"/proc/{pid}/cmdline").read_bytes() for pid in hub.pids_del_proxy())
    assert b"tope_por_cuenta.js" in linea and b"--require" in linea, linea
    publico, api = hub.puertos["publico"], hub.puertos["proxy"]
    inundacion = subprocess.Popen(["runuser", "-u", alumna, "--", "/usr/bin/python3", "-c", _INUNDAR,
                                   str(publico), "400", "30"], stdout=subprocess.PIPE, text=True, cwd="/",
                                  start_new_session=True)
    try:
        abiertas, vivas = map(int, inundacion.stdout.readline().split())
        assert abiertas >= 300 and vivas == 64, (abiertas, vivas)
        # while she holds hers, the TA (root here) and anyone else still reach the hub's login page
        for _ in range(3):
            assert type(hub)._responde(f"{hub.url}/hub/login"), "el hub no responde mientras una alumna llena el proxy"
        # the API port: none of hers is kept (only the hub's account and root talk to it)
        api_suya = _como(alumna, _INUNDAR, str(api), "20", "0")
        assert api_suya.stdout.split()[1] == "0", api_suya.stdout
        # the hub's own port (her server calls the hub's API there): 64 at most too (a new attacker's F1)
        del_hub = _como(alumna, _INUNDAR, str(hub.puertos["hub"]), "400", "0")
        assert int(del_hub.stdout.split()[0]) >= 300 and int(del_hub.stdout.split()[1]) == 64, del_hub.stdout
        assert type(hub)._responde(f"{hub.url}/hub/login"), "el hub no responde"
        Usuario(hub, hub.profesorado[0]).entrar()                 # the TA logs in (the hub answers its API)
    finally:
        os.killpg(inundacion.pid, signal.SIGKILL)           # runuser and her python (which holds the connections)
        inundacion.wait()
    # requests, not connections (a fifth attacker's F1): her burst is answered by the proxy with 429 past her
    # bucket (200, then 50 a second), never forwarded; the TA still gets in right after
    rafaga = _como(alumna, _RAFAGA, str(publico))
    bien, demasiadas, segundos, texto = rafaga.stdout.split("\n", 3)
    bien, demasiadas, segundos = int(bien), int(demasiadas), float(segundos)
    assert demasiadas > 0 and "Demasiadas peticiones seguidas" in texto, (rafaga.stdout, rafaga.stderr[-3000:])
    assert bien <= 200 + 50 * segundos + 16, (bien, demasiadas, segundos)
    # ... and straight at the hub's own port (her server's way to the hub's API), bypassing the proxy
    rafaga = _como(alumna, _RAFAGA, str(hub.puertos["hub"]))
    bien, demasiadas, segundos, texto = rafaga.stdout.split("\n", 3)
    bien, demasiadas, segundos = int(bien), int(demasiadas), float(segundos)
    assert demasiadas > 0 and "Demasiadas peticiones seguidas" in texto, (rafaga.stdout, rafaga.stderr[-3000:])
    assert bien <= 200 + 50 * segundos + 16, (bien, demasiadas, segundos)
    Usuario(hub, hub.profesorado[0]).entrar()


_PEDIR = _VIVAS + r"""
import socket, sys
puerto, ruta, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
s = socket.create_connection(("127.0.0.1", puerto), timeout=10)
s.sendall(f"GET {ruta} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
respuesta = b""
try:
    while True:
        parte = s.recv(65536)
        if not parte:
            break
        respuesta += parte
except OSError as error:
    respuesta = respuesta or f"ERROR {error}".encode()
print((respuesta.split(b"\r\n", 1)[0] or b"CERRADA").decode("ascii", "replace"))
abiertas = [socket.create_connection(("127.0.0.1", puerto), timeout=10) for _ in range(n)]
print(vivas(abiertas))
"""


_LOGINS = r"""
import http.cookiejar, re, sys, threading, time, urllib.error, urllib.parse, urllib.request
base, victima, segundos = sys.argv[1], sys.argv[2], float(sys.argv[3])
estados, textos = [], []
fin = time.monotonic() + segundos

def intentar():
    abridor = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    while time.monotonic() < fin:
        try:
            pagina = abridor.open(f"{base}/hub/login", timeout=30).read().decode()
            xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', pagina)
            datos = {"username": victima, "password": "mala"}
            if xsrf:
                datos["_xsrf"] = xsrf[1].replace("&#34;", '"')
            r = abridor.open(f"{base}/hub/login?next=", urllib.parse.urlencode(datos).encode(), timeout=60)
            estados.append(r.status)
        except urllib.error.HTTPError as error:
            texto = error.read().decode("utf-8", "replace")
            estados.append("interno" if "Este puerto es interno del hub" in texto else error.code)
            if error.code == 429:
                textos.append(texto)

hilos = [threading.Thread(target=intentar) for _ in range(10)]
for h in hilos:
    h.start()
for h in hilos:
    h.join()
print(sum(e not in (429, "interno") for e in estados), estados.count(429), estados.count("interno"),
      any("Demasiados intentos de entrar" in t for t in textos))
"""

_TOKENS_CON_CLAVE = r"""
import json, socket, sys, threading, time
puerto, victima, segundos = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
# the token API checks a password sent in the body; spellings that ran PAM uncounted (a fresh attacker's F1/F2)
rutas = ["/hub/api/users/%2F/tokens", "/hub/api\\users/x/tokens", "/hub\\api/users/x/tokens",
         "/hub/api/users/../tokens", "/hub/api/users/a%2Fb/tokens"]
estados, textos, fin = [], [], time.monotonic() + segundos

def intentar(n):
    cuerpo = json.dumps({"auth": {"username": victima, "password": "mala"}}).encode()
    while time.monotonic() < fin:
        ruta = rutas[n % len(rutas)]
        n += 1
        s = socket.create_connection(("127.0.0.1", puerto), timeout=60)
        s.sendall(f"POST {ruta} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(cuerpo)}\r\nConnection: close\r\n\r\n".encode() + cuerpo)
        respuesta = b""
        while True:
            parte = s.recv(65536)
            if not parte:
                break
            respuesta += parte
        s.close()
        codigo = int(respuesta.split(b" ", 2)[1]) if respuesta.startswith(b"HTTP/") else 0
        estados.append(codigo)
        if codigo == 429:
            textos.append(respuesta.decode("utf-8", "replace"))

hilos = [threading.Thread(target=intentar, args=(i,)) for i in range(10)]
for h in hilos:
    h.start()
for h in hilos:
    h.join()
# every refusal in Spanish: her login limit, or her bucket of requests once refusals come back at once
print(sum(e != 429 for e in estados), estados.count(429), any("Demasiados intentos de entrar" in t for t in textos)
      and all("Demasiados intentos de entrar" in t or "Demasiadas peticiones seguidas" in t for t in textos))
"""

_TOKENS_AL_AZAR = r"""
import secrets, sys, urllib.error, urllib.request
url, host, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
estados, texto = [], ""
for _ in range(n):
    peticion = urllib.request.Request(url, headers={"Host": host, "Authorization": f"token {secrets.token_hex(16)}"})
    try:
        estados.append(urllib.request.urlopen(peticion, timeout=30).status)
    except urllib.error.HTTPError as error:
        estados.append(error.code)
        if error.code == 429:
            texto = error.read().decode("utf-8", "replace")
print(sum(e != 429 for e in estados), estados.count(429), "Demasiados intentos fallidos" in texto)
"""


def test_nadie_bloquea_la_entrada_ni_gasta_el_cupo_de_otra(hub):
    """A sixth attacker's F1: 40 failed logins at once from one student (PAM takes 2-3 s each) made the TA's login
    wait 46 s; now a login waits for no other of its account's, at most one at a time per account and five failed
    ones (then one every 10 s) on the proxy, none on the hub's port (a seventh attacker's F2), and the hub has 32
    PAM threads. F2: requests
    with random tokens sent to a classmate's server made it ask the hub on its owner's account until the owner's
    own requests failed; now whoever sends them spends their own budget (X-Curso-Origen, set by the proxy)."""
    ana, bea = hub.alumnado[0], hub.alumnado[1]
    profesora = hub.profesorado[0]
    intento = _como(ana, _LOGINS, f"http://127.0.0.1:{hub.puertos['publico']}", profesora, "6")
    pasaron, parados, internos, dice = intento.stdout.split()
    # one at a time, five failures and then one every 10 s: never the dozens ten threads would send
    assert int(parados) > 0 and dice == "True" and internos == "0", intento.stdout
    assert int(pasaron) <= 5 + 2, intento.stdout
    Usuario(hub, profesora).entrar()                 # the TA gets in meanwhile
    # the hub's own port takes no login from a local account (a seventh attacker's F2: a second budget there
    # doubled her guesses): every one is refused before PAM, with the Spanish reason
    intento = _como(ana, _LOGINS, f"http://127.0.0.1:{hub.puertos['hub']}", profesora, "3")
    pasaron, parados, internos, _ = intento.stdout.split()
    assert pasaron == "0" and int(internos) > 0, intento.stdout
    Usuario(hub, profesora).entrar()
    # the token API with a password, spelled as a fresh attacker did (%2F, backslashes, '..'): counted with her
    # logins (the proxy's gate and the hub's own count where it checks), never the ~30 ten threads would get
    intento = _como(ana, _TOKENS_CON_CLAVE, str(hub.puertos['publico']), profesora, "6")
    pasaron, parados, dice = intento.stdout.split()
    assert int(parados) > 0 and dice == "True" and int(pasaron) <= 5 + 2, intento.stdout
    Usuario(hub, profesora).entrar()
    from urllib.parse import urlsplit
    suya = Usuario(hub, bea).entrar().arrancar_servidor()
    url = f"http://127.0.0.1:{hub.puertos['publico']}/user/{bea}/api/status"
    host = urlsplit(hub.url_de_usuario(bea)).netloc
    azar = _como(ana, _TOKENS_AL_AZAR, url, host, "80")
    preguntadas, parados, dice = azar.stdout.split()
    assert int(parados) > 0 and dice == "True", azar.stdout
    assert int(preguntadas) <= 20 + 2 * 10, azar.stdout     # the server asked the hub about these at most
    assert suya.get("api/status").status_code == 200


_INUNDAR_CON_TOKENS = r"""
import secrets, sys, time, urllib.error, urllib.request
url, host, segundos = sys.argv[1], sys.argv[2], float(sys.argv[3])
fin, estados = time.monotonic() + segundos, []
while time.monotonic() < fin:
    peticion = urllib.request.Request(url, headers={"Host": host, "Authorization": f"token {secrets.token_hex(16)}"})
    try:
        estados.append(urllib.request.urlopen(peticion, timeout=30).status)
    except urllib.error.HTTPError as error:
        estados.append(error.code)
print(len(estados), estados.count(429))
"""

_ENTRAR_DE_NUEVO = r"""
import re, socket, sys, urllib.error, urllib.parse, urllib.request
from http.cookiejar import CookieJar, DefaultCookiePolicy
base, servidor, nombre, clave = sys.argv[1:5]
_resolver = socket.getaddrinfo                     # *.localhost is loopback, and Domain=localhost cookies are kept,
def resolver(host, *a, **k):                       # as a browser does (tests/hub_cliente.py does the same)
    return _resolver("127.0.0.1" if str(host).endswith(".localhost") else host, *a, **k)
socket.getaddrinfo = resolver
def localhost(original):
    def comprobar(self, cookie, request):
        if cookie.domain.lstrip(".") == "localhost":
            return (urllib.parse.urlparse(request.get_full_url()).hostname or "").endswith("localhost")
        return original(self, cookie, request)
    return comprobar
DefaultCookiePolicy.set_ok_domain = localhost(DefaultCookiePolicy.set_ok_domain)
DefaultCookiePolicy.return_ok_domain = localhost(DefaultCookiePolicy.return_ok_domain)
abridor = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
pagina = abridor.open(f"{base}/hub/login", timeout=30).read().decode()
xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', pagina)
datos = {"username": nombre, "password": clave, **({"_xsrf": xsrf[1].replace("&#34;", '"')} if xsrf else {})}
try:             # the hub's login sends her on to her running server: the whole OAuth login, with a new session
    abridor.open(f"{base}/hub/login?next=", urllib.parse.urlencode(datos).encode(), timeout=60).read()
    r = abridor.open(f"{servidor}api/status", timeout=60)
    print(r.status, "")
except urllib.error.HTTPError as error:
    print(error.code, error.url, error.read().decode("utf-8", "replace")[:300].replace(chr(10), " "))
"""


def test_una_inundacion_de_credenciales_al_azar_no_impide_entrar_a_la_duena(hub):
    """A tenth attacker's F1: random credentials from a few origins at once (three addresses, or three students
    working together) emptied a server's total of unknown credentials, and then its owner's own fresh login
    (the OAuth callback with her valid code) got 429: no JupyterLab, no submitting, while it lasted. Now an origin
    that has not failed lately is still checked: she gets in during the flood."""
    import subprocess as sp
    from urllib.parse import urlsplit
    bea = hub.alumnado[1]
    Usuario(hub, bea).entrar().arrancar_servidor()
    servidor = hub.url_de_usuario(bea)
    url = f"http://127.0.0.1:{hub.puertos['publico']}/user/{bea}/api/status"
    host = urlsplit(servidor).netloc
    # ten origins (the other student, the TA's account, system accounts), 2 a second each past their 20: four times
    # what the server's total refills (5 a second), so it stays empty while she logs in
    cuentas = [hub.alumnado[0], hub.profesorado[0], "nobody", "daemon", "bin", "sys", "games", "man", "lp", "mail"]
    inundaciones = [sp.Popen(["runuser", "-u", c, "--", "/usr/bin/python3", "-c", _INUNDAR_CON_TOKENS, url, host, "25"],
                             stdout=sp.PIPE, stderr=sp.PIPE, text=True, cwd="/") for c in cuentas]
    try:
        time.sleep(12)                    # their bursts (200 > 60) spent the total; now each sends 2 a second
        entrada = _como(bea, _ENTRAR_DE_NUEVO, hub.url, servidor, bea, hub.claves[bea])
    finally:
        resultados = [p.communicate(timeout=90) for p in inundaciones]
    assert entrada.stdout.split(" ", 1)[0] == "200", (entrada.stdout, entrada.stderr[-2000:])
    enviadas, negadas = zip(*(map(int, r[0].split()) for r in resultados))
    assert sum(negadas) > 0, resultados                                  # the flood was refused meanwhile


_CUERPOS = r"""
import socket, sys, time
puerto, ruta, host = int(sys.argv[1]), sys.argv[2], sys.argv[3]
mib = 1024 * 1024

def empezar(tamano):
    s = socket.create_connection(("127.0.0.1", puerto), timeout=20)
    s.sendall(f"POST {ruta} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
              f"Content-Length: {tamano}\r\n\r\n".encode() + b"{" * 1000)
    return s

def respuesta(s):
    s.settimeout(5)
    try:
        return s.recv(65536).decode("utf-8", "replace")
    except socket.timeout:
        return "ESPERANDO"

grande = respuesta(empezar(100 * mib))
retenidas = [empezar(50 * mib) for _ in range(2)]
esperan = [respuesta(s) for s in retenidas]
tercera = respuesta(empezar(50 * mib))
print(*(r.split("\r\n", 1)[0] for r in [grande, *esperan, tercera]), sep="|")
print("sube el archivo en partes" in grande + tercera)
"""


def test_ningun_cuerpo_enorme_llena_la_memoria_del_hub_ni_la_de_un_servidor(hub):
    """A sixth attacker's F4: the hub keeps a request's body whole in memory (tornado); one student's 12 requests of
    95 MiB, held unanswered, took the hub from 111 MB to 1.28 GB. Now the proxy refuses (413, in Spanish) a body over
    64 MiB and more than 128 MiB of an account's bodies not yet answered (a user's server, which keeps bodies
    too), and the hub any body over 8 MiB, whoever sends it."""
    from urllib.parse import urlsplit
    ana = hub.alumnado[0]
    Usuario(hub, ana).entrar().arrancar_servidor()
    host = urlsplit(hub.url_de_usuario(ana)).netloc
    al_servidor = _como(ana, _CUERPOS, str(hub.puertos["publico"]), f"/user/{ana}/api/contents/x.ipynb", host)
    grande, primera, segunda, tercera = al_servidor.stdout.split("\n")[0].split("|")
    assert grande.startswith("HTTP/1.1 413") and tercera.startswith("HTTP/1.1 413"), al_servidor.stdout
    assert primera == segunda == "ESPERANDO", al_servidor.stdout      # her server waits for those two bodies
    assert al_servidor.stdout.split("\n")[1] == "True", al_servidor.stdout
    # and her server itself takes no body over 64 MiB (c.ServerApp.max_body_size), even from her own account
    propio = _como(ana, _CUERPOS, str(_puerto_del_servidor(ana)), f"/user/{ana}/api/contents/x.ipynb", "127.0.0.1")
    assert propio.stdout.split("|")[0] != "ESPERANDO", propio.stdout
    ruta = "/hub/api/groups/nuevo"                  # any of the hub's (not a login, which goes one at a time)
    for puerto in (hub.puertos["publico"], hub.puertos["hub"]):      # the hub: nothing over 8 MiB, from anyone
        al_hub = _como(ana, _CUERPOS, str(puerto), ruta, urlsplit(hub.url).netloc)
        assert all(r.startswith("HTTP/1.1 413") for r in al_hub.stdout.split("\n")[0].split("|")), al_hub.stdout
    assert type(hub)._responde(f"{hub.url}/hub/login")


def _puerto_del_servidor(usuario: str) -> int:
    """The TCP port the user's single-user server listens on (ss: the listening sockets of that account)."""
    uid = pwd.getpwnam(usuario).pw_uid
    salida = subprocess.run(["ss", "-Htlne"], capture_output=True, text=True, check=True).stdout
    puertos = [int(l.split()[3].rpartition(":")[2]) for l in salida.splitlines() if re.search(rf"\buid:{uid}\b", l)]
    assert len(puertos) == 1, (usuario, salida)
    return puertos[0]


def test_el_servidor_de_una_alumna_solo_atiende_al_proxy_al_hub_y_a_ella(hub):
    """Issue 19: each student's server listens on a TCP port of 127.0.0.1 that any account can reach; a classmate
    could hold its connections or flood it with requests. Now a server closes every connection of another account
    of the machine as soon as the kernel says whose it is, before any request reaches it
    (jupyter/comun/conexiones_por_cuenta.py); its owner, the proxy and the hub still reach it."""
    ana, bea = hub.alumnado[0], hub.alumnado[1]
    usuarias = {nombre: Usuario(hub, nombre).entrar().arrancar_servidor() for nombre in (ana, bea)}
    puerto_de_bea = _puerto_del_servidor(bea)
    # Ana at Bea's server: no answer to her request, none of her 100 connections kept
    ajena = _como(ana, _PEDIR, str(puerto_de_bea), f"/user/{bea}/api/status", "100")
    lineas = ajena.stdout.strip().split("\n")
    primera, vivas = lineas[0], lineas[-1]
    assert not primera.startswith("HTTP") and vivas == "0", ajena.stdout
    # Bea at her own server, from her terminal's account: answered (the server decides what it says)
    propia = _como(bea, _PEDIR, str(puerto_de_bea), f"/user/{bea}/api/status", "3")
    assert propia.stdout.startswith("HTTP/1.1 ") and propia.stdout.strip().split("\n")[-1] == "3", propia.stdout
    # through the proxy (root) Bea's JupyterLab works as before
    r = usuarias[bea].get("api/status")
    assert r.status_code == 200, r.text[:300]


_OCUPAR = r"""
import socket, sys, time
puerto, registro = int(sys.argv[1]), sys.argv[2]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # past the TIME-WAIT of the proxy's old connections
fin = time.monotonic() + 30
while True:                                   # the port, the moment its server lets it go
    try:
        s.bind(("127.0.0.1", puerto))
        break
    except OSError:
        if time.monotonic() > fin:
            sys.exit(3)
        time.sleep(0.002)
s.listen(64)
print("OCUPADO", flush=True)
s.settimeout(25)
try:
    while True:
        c, _ = s.accept()
        c.settimeout(2)
        try:
            datos = c.recv(65536)
        except OSError:
            datos = b""
        with open(registro, "ab") as f:
            f.write(datos + b"\n----\n")
        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 12\r\n\r\nSERVIDOR-FALSO")
        c.close()
except socket.timeout:
    pass
"""


def test_nadie_recibe_las_peticiones_de_otra_por_el_puerto_de_su_servidor_caido(hub):
    """A fresh attacker's F3 (issue 19): when a student's server died, the proxy kept routing to its port until the
    hub noticed (about 7 s); a classmate bound the freed port 30 ms later and got her requests with her token and
    her server's cookie (then her files). Now the proxy hands a connection to a request only once the kernel says
    the port is the server's own account's (or root's): the squatter gets nothing, and she gets the 503 of a server
    that is down, then her server again."""
    ana, bea = hub.alumnado[0], hub.alumnado[1]
    usuaria = Usuario(hub, ana).entrar().arrancar_servidor()
    assert usuaria.get("api/status").status_code == 200
    puerto = _puerto_del_servidor(ana)
    registro = Path(tempfile.mkdtemp(prefix="curso-ocupa-")) / "peticiones.log"
    os.chmod(registro.parent, 0o777)
    ocupa = subprocess.Popen(["runuser", "-u", bea, "--", "/usr/bin/python3", "-c", _OCUPAR, str(puerto), str(registro)],
                             stdout=subprocess.PIPE, text=True, cwd="/")
    try:
        time.sleep(0.5)
        os.kill(_pid_del_servidor(ana), signal.SIGKILL)
        assert ocupa.stdout.readline().strip() == "OCUPADO"
        respuestas = []
        for _ in range(5):
            r = usuaria.get("api/status", allow_redirects=False)
            respuestas.append((r.status_code, r.text[:200]))
            time.sleep(0.2)
        assert all("SERVIDOR-FALSO" not in texto for _, texto in respuestas), respuestas
        # the proxy may connect (to ask the kernel whose port it is), but it sends nothing: no request, no cookie
        recibido = registro.read_bytes() if registro.exists() else b""
        assert recibido.replace(b"\n----\n", b"") == b"", recibido[:2000]
    finally:
        ocupa.kill()
        ocupa.wait()
        shutil.rmtree(registro.parent, ignore_errors=True)
    # the hub sees it down, and her server starts again on a port that is hers
    api = f"{hub.url}/hub/api/users/{ana}"
    _esperar(lambda: not usuaria.s.get(api, headers={"X-XSRFToken": usuaria._xsrf(api)}, timeout=30).json()
             .get("servers"), 90, "que el hub viera caído el servidor de Ana")
    assert usuaria.arrancar_servidor().get("api/status").status_code == 200


def _escucha_en(puerto: int) -> bool:
    """Whether something listens on 127.0.0.1:``puerto``."""
    import socket
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(2)
        return s.connect_ex(("127.0.0.1", puerto)) == 0


def test_ningun_alumno_puede_ocupar_los_puertos_del_lado_del_profesorado(hub):
    """Issue 19, a hostile student's report F1: the formgrader service listened on a port ≥ 1024, which a student's
    process took while the service restarted, and served the formgrader's origin to the TA. Now the hub, the
    proxy's API and the service's relay listen on ports below 1024 (no unprivileged account binds them), the
    service itself on a Unix socket in a 0700 folder of its account, and the relay keeps the port while the
    service restarts."""
    import signal
    alumna = hub.alumnado[0]
    servicio = pwd.getpwnam(hub.cuenta_servicio)
    for clave in ("hub", "proxy", "servicio"):
        puerto = hub.puertos[clave]
        assert puerto < 1024 and _escucha_en(puerto), (clave, puerto)
        intento = subprocess.run(["runuser", "-u", alumna, "--", "/usr/bin/python3", "-c",
                                  "import socket, sys; s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1])))",
                                  str(puerto)], capture_output=True, text=True, timeout=60)
        assert intento.returncode != 0 and "Permission denied" in intento.stderr, (clave, intento.stderr)
    sock = Path(hub.entorno_hub["CURSO_HUB_SOCKET_SERVICIO"])
    assert stat.S_ISSOCK(sock.stat().st_mode) and sock.stat().st_uid == servicio.pw_uid
    assert stat.S_IMODE(sock.parent.stat().st_mode) == 0o700 and sock.parent.stat().st_uid == servicio.pw_uid
    # the service's server has no TCP port of its own
    pids = [p.name for p in Path("/proc").iterdir() if p.name.isdigit() and p.stat().st_uid == servicio.pw_uid
            and "jupyterhub-singleuser" in (p / "cmdline").read_text(errors="replace")]
    assert pids
    # the service dies (the OOM killer, a crash): the relay keeps its port while the hub starts it again behind it
    # (the last test of the module: nothing after it needs the service back; that it comes back is JupyterHub's)
    os.kill(int(pids[0]), signal.SIGKILL)
    for _ in range(3):
        time.sleep(1)
        assert _escucha_en(hub.puertos["servicio"]), "el puerto del servicio quedó libre mientras arranca otra vez"


def test_cada_servidor_de_alumno_tiene_su_memoria_y_sus_procesos(hub):
    """A fresh attacker's F3 (issue 19): one student opened 60 kernels and 40 terminals in 6 s (3 GB, nothing
    refused); about 350 would have filled the machine and taken the hub, the TA and every classmate with it. Now
    each student's server runs, from its first instruction, in a cgroup of its own (servidor_limitado.py: 2 GiB
    for all its processes, 1024 processes), or under the hub's watchdog where none can be made: a terminal that
    allocates past it loses that process only, and the hub and the TA go on."""
    sys.path.insert(0, str(RAIZ / "grader_tests" / "caja"))
    import limites_kernel
    bea = Usuario(hub, hub.alumnado[1]).entrar().arrancar_servidor()
    orden = ("grep NoNewPrivs /proc/self/status; cat /proc/self/cgroup; /usr/bin/python3 -c \"b = bytearray(3 * 1024 ** 3); print('SOBRE' + 'VIVIO')\"; "
             "echo codigo=$?")
    codigo, texto = bea.terminal(bea.base, orden, espera=120)
    assert codigo == 0 and "SOBREVIVIO" not in texto, texto[-2000:]
    assert re.search(r"codigo=(137|9)\b", texto), texto[-2000:]            # SIGKILL: the OOM killer or the watchdog
    if limites_kernel.disponible():
        assert "curso-servidor-" in texto, texto[-2000:]                    # her terminal is in her server's group
    # no setuid program gains privileges in her server: `su <TA>` cannot check the TA's password from there
    assert re.search(r"NoNewPrivs:\s*1", texto), texto[-2000:]
    # her server (and all it starts) writes to a pipe of its own, never to the hub's log file: a fresh attacker's
    # kernel forged and truncated the hub's log through the inherited descriptor
    servidor = _pid_del_servidor(hub.alumnado[1])
    abiertos = []
    for fd in Path(f"/proc/{servidor}/fd").iterdir():
        try:
            abiertos.append(os.readlink(fd))
        except OSError:
            pass
    assert str(hub.registro) not in abiertos and not any("jupyterhub.log" in a for a in abiertos), abiertos
    assert f"[servidor de {hub.alumnado[1]}] " in hub.leer_registro()
    # a global out-of-memory kill takes her processes before the hub's, the proxy's or a TA's
    assert Path(f"/proc/{servidor}/oom_score_adj").read_text().strip() == "500"
    # and her whole server weighs a quarter of one of the hub's processes for the CPU (cgroup v1 here)
    grupos = dict(l.split(":", 2)[1:] for l in Path(f"/proc/{servidor}/cgroup").read_text().splitlines())
    if "cpu" in grupos and Path("/sys/fs/cgroup/cpu").is_dir() and limites_kernel.disponible():
        assert "curso-servidor-" in grupos["cpu"], grupos
        assert Path("/sys/fs/cgroup/cpu", grupos["cpu"].lstrip("/"), "cpu.shares").read_text().strip() == "256"
    # her server answers again, and the hub and the TA were never touched
    assert bea.get("api/status").status_code == 200
    Usuario(hub, hub.profesorado[0]).entrar()
    # what she detaches from her server dies with it (a fresh attacker kept 2 GiB per stop and start that way)
    segundos = 700000 + os.getpid() % 100000
    codigo, texto = bea.terminal(bea.base, f"setsid -f sleep {segundos} < /dev/null > /dev/null 2>&1", espera=60)
    uid = pwd.getpwnam(hub.alumnado[1]).pw_uid

    def sueltos() -> list[str]:
        hallados = []
        for entrada in Path("/proc").iterdir():
            try:
                if entrada.name.isdigit() and entrada.stat().st_uid == uid and \
                        (entrada / "cmdline").read_text(errors="replace") == f"sleep\0{segundos}\0":
                    hallados.append(entrada.name)
            except OSError:
                pass
        return hallados

    assert sueltos(), texto[-2000:]
    # what she leaves in /dev/shm (tmpfs: memory) or in System V shared memory is her server's alone, and goes
    # with it: in the machine's, a fresh attacker kept 1.4 GB per stop and start, out of her group
    marca = f"curso-prueba-{os.getpid()}"
    codigo, texto = bea.terminal(bea.base, f"head -c 8M /dev/zero > /dev/shm/{marca} && ipcmk -M 65536 && "
                                           f"grep -c ' /dev/shm .* - tmpfs ' /proc/self/mountinfo", espera=60)
    assert codigo == 0, texto[-2000:]
    assert not Path(f"/dev/shm/{marca}").exists()                         # not in the machine's /dev/shm
    segmento = re.search(r"Shared memory id: (\d+)", texto)
    assert segmento, texto[-2000:]
    ipcs_maquina = subprocess.run(["ipcs", "-m"], capture_output=True, text=True).stdout
    assert not re.search(rf"^\S+\s+{segmento[1]}\s+{re.escape(hub.alumnado[1][:10])}", ipcs_maquina, re.M), ipcs_maquina
    api = f"{hub.url}/hub/api/users/{hub.alumnado[1]}"
    r = bea.s.delete(f"{api}/server", headers={"X-XSRFToken": bea._xsrf(api)}, timeout=120)
    assert r.status_code in (202, 204), r.text
    limite = time.monotonic() + 60
    while sueltos() and time.monotonic() < limite:
        time.sleep(0.5)
    assert not sueltos()
    bea.arrancar_servidor()
    codigo, texto = bea.terminal(bea.base, "ls /dev/shm; ipcs -m; echo fin-de-la-lista", espera=60)
    assert codigo == 0 and "fin-de-la-lista" in texto, texto[-2000:]
    assert marca not in texto and not re.search(rf"^\S+\s+{segmento[1]}\s", texto, re.M), texto[-2000:]


def test_quien_acapara_los_puertos_de_la_maquina_pierde_su_servidor(hub):
    """A fresh attacker bound 19 000 listening sockets in 32 s from one kernel: two processes would take all 28 232
    ephemeral ports of the machine, and then no server could start and no connection of the proxy, the hub or the
    grading could be made. The hub counts each limited account's TCP sockets every 2 s and, past 2000, kills
    everything of that server (servidor_limitado.py): the ports are free again, the hub sees her server stopped and
    its log says why; a classmate's server goes on."""
    ana, bea = hub.alumnado[0], hub.alumnado[1]
    vecina = Usuario(hub, ana).entrar().arrancar_servidor()
    usuaria = Usuario(hub, bea).entrar().arrancar_servidor()
    uid = pwd.getpwnam(bea).pw_uid
    programa = ("import socket, time\\nl = [socket.socket() for _ in range(2600)]\\nfor s in l:\\n"
                "    s.bind(('127.0.0.1', 0)); s.listen(1)\\ntime.sleep(300)\\n")
    codigo, texto = usuaria.terminal(usuaria.base, f"printf \"{programa}\" > /tmp/puertos-{uid}.py && "
                                                   f"setsid -f /usr/bin/python3 /tmp/puertos-{uid}.py "
                                                   "< /dev/null > /dev/null 2>&1", espera=60)
    assert codigo == 0, texto[-2000:]

    def sockets_de_bea() -> int:
        salida = subprocess.run(["ss", "-Htane"], capture_output=True, text=True).stdout
        return len(re.findall(rf"(?:^|\s)uid:{uid}\b", salida))

    api = f"{hub.url}/hub/api/users/{bea}"
    _esperar(lambda: not usuaria.s.get(api, headers={"X-XSRFToken": usuaria._xsrf(api)}, timeout=30).json()
             .get("servers"), 90, "que el hub parara el servidor de quien acapara los puertos")
    _esperar(lambda: sockets_de_bea() < 100, 30, "que sus sockets se cerraran")
    assert "sockets TCP (tope 2000" in hub.leer_registro()
    assert vecina.get("api/status").status_code == 200
    Path(f"/tmp/puertos-{uid}.py").unlink(missing_ok=True)
    assert usuaria.arrancar_servidor().get("api/status").status_code == 200


def test_quien_llena_colas_de_netlink_pierde_su_servidor(hub):
    """A fresh attacker queued 2.4 GB of netlink error ACKs from her server (each echoes its whole request, up to
    twice rmem_max per socket) while her cgroup showed 147 MiB: memory no cgroup counts. The hub's 2 s watch reads
    the machine's netlink queues and, past 64 MiB of one account, stops her server; a classmate's goes on."""
    ana, bea = hub.alumnado[0], hub.alumnado[1]
    vecina = Usuario(hub, ana).entrar().arrancar_servidor()
    usuaria = Usuario(hub, bea).entrar().arrancar_servidor()
    guion = Path(tempfile.mkdtemp(prefix="curso-netlink-")) / "colas.py"
    from test_archivos_alumno import _COLAS_NETLINK
    guion.write_text(_COLAS_NETLINK)
    os.chmod(guion.parent, 0o755)
    os.chmod(guion, 0o644)
    try:
        codigo, texto = usuaria.terminal(usuaria.base, f"setsid -f /usr/bin/python3 {guion} < /dev/null > /dev/null 2>&1",
                                         espera=60)
        assert codigo == 0, texto[-2000:]
        api = f"{hub.url}/hub/api/users/{bea}"
        _esperar(lambda: not usuaria.s.get(api, headers={"X-XSRFToken": usuaria._xsrf(api)}, timeout=30).json()
                 .get("servers"), 90, "que el hub parara el servidor de quien llena colas de netlink")
        assert "MiB en colas de netlink (tope 64 MiB)" in hub.leer_registro()
        assert vecina.get("api/status").status_code == 200
    finally:
        shutil.rmtree(guion.parent, ignore_errors=True)
    assert usuaria.arrancar_servidor().get("api/status").status_code == 200
