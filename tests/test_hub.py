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
The accounts and folders are removed afterwards.
"""
from __future__ import annotations

import json
import os
import pwd
import re
import stat
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from hub_cliente import ARTEFACTOS, RAIZ, Usuario, hub_de_prueba

sys.path.insert(0, str(RAIZ))
from scripts import samples  # noqa: E402

pytestmark = pytest.mark.slow

TAREA = "02_codificacion_posicional"
CUADERNO = "codificacion_posicional.ipynb"
MUESTRAS = ("perfecta", "pe_concatenada")     # what each student types: examples/respuestas/<muestra>.py


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


def test_el_curso_entero_por_http(hub, curso_calificado, tmp_path):
    ta = Usuario(hub, hub.profesorado[0]).entrar()
    alumnos = {nombre: Usuario(hub, nombre).entrar() for nombre in hub.alumnado}
    muestra_de = dict(zip(hub.alumnado, MUESTRAS))

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
        # the hub's submit (entrega_honesta.py): the entry is its author's alone
        [entrada] = (hub.intercambio / hub.curso / "inbound").glob(f"{nombre}+{TAREA}+*")
        assert entrada.stat().st_uid == pwd.getpwnam(nombre).pw_uid
        assert stat.S_IMODE(entrada.stat().st_mode) == 0o755, oct(entrada.stat().st_mode)

        # students never reach the course's service
        assert alumno.abrir_formgrader().status_code == 403

    # --- a hostile student (issue 19.1): from their own account, entries in inbound named after the
    # classmate (newer than the classmate's own, a blank notebook) and with an unreadable date
    atacante, victima = hub.alumnado
    _como(atacante, FORJAR, str(hub.intercambio / hub.curso / "inbound"), victima, TAREA)

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


def _como(usuario: str, programa: str, *argumentos: str) -> subprocess.CompletedProcess:
    """Run ``python -c programa`` as ``usuario`` (with their own environment), as their terminal would."""
    proceso = subprocess.run(["runuser", "-u", usuario, "--", "env", f"USER={usuario}", "/usr/bin/python3", "-c",
                              programa, *argumentos], capture_output=True, text=True, timeout=60, cwd="/")
    assert proceso.returncode == 0, proceso.stderr
    return proceso


def test_casas_privadas_y_permisos_del_intercambio(hub):
    """Issue 19.6: every account's home is 0700 (nobody reads a classmate's notebook or submission secret);
    the exchange keeps nbgrader's modes (inbound not listable, feedback not listable)."""
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
    for carpeta, modo in (("inbound", 0o733), ("outbound", 0o755)):
        if (curso / carpeta).exists():
            assert stat.S_IMODE((curso / carpeta).stat().st_mode) & 0o777 == modo, (carpeta,
                                                                                   oct((curso / carpeta).stat().st_mode))
    intento = subprocess.run(["runuser", "-u", uno, "--", "ls", str(curso / "inbound")], capture_output=True, text=True)
    assert intento.returncode != 0, "un alumno puede listar inbound"
