"""JupyterLab + Chromium for the browser tests and the widget benchmark.

Everything the browser tests share lives here, so ``scripts/mediciones/bench_widgets.py``
can use the same server and browser without importing pytest fixtures:

- ``ServidorLab``: a real ``jupyter lab`` from the project's environment on a
  random free localhost port, with a token, a root directory of our choice and
  empty user settings (so the interface is what the course environment gives a
  student by default: Spanish, from ajustes_jupyterlab/), stopped afterwards.
- ``lanzar_chromium``: Debian's Chromium driven by Playwright's sync API.
- helpers to open a notebook, run all its cells, read cell outputs and hash
  the PNG a widget is showing.
"""
from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]
PROFESORADO = RAIZ / "ajustes_jupyterlab" / "profesorado"
"""The teacher's JupyterLab (``make lab``): the environment alone is the student's."""
CHROMIUM = Path(os.environ.get("CURSO_CHROMIUM") or "/usr/bin/chromium")
ARTEFACTOS = RAIZ / "test-artifacts" / "navegador"

ARGS_CHROMIUM = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]


def bin_entorno() -> Path:
    """The bin/ of the project's environment (.venv), or of the running Python."""
    venv = RAIZ / ".venv" / "bin"
    return venv if (venv / "jupyter").exists() else Path(sys.executable).parent


def puerto_libre() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def faltas_del_navegador() -> str | None:
    """What is missing to run the browser tests here (Spanish), or None if nothing is."""
    faltan = []
    if not CHROMIUM.exists():
        faltan.append(f"no está Chromium en {CHROMIUM}")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        faltan.append("no está instalado el paquete de Python playwright")
    return " y ".join(faltan) or None


COMO_ACTIVARLAS = ("Para activarlas instala Chromium (`sudo apt-get install -y chromium` en "
                   "Debian/Ubuntu, queda en /usr/bin/chromium; otra ruta con CURSO_CHROMIUM=...) "
                   "y ejecuta `make test`, que instala playwright (requirements-dev.txt).")


class ServidorLab:
    """A JupyterLab server on 127.0.0.1:<free port> serving ``raiz``.

    ``cwd`` is where the server process runs (nbgrader's server extensions
    read ``nbgrader_config.py`` from there); by default, ``raiz``.  The user
    settings live in a private, empty folder (``JUPYTERLAB_SETTINGS_DIR``;
    ``ajustes`` copies a folder of settings into it): the interface is the
    environment's default, what a student's own ``jupyter lab`` shows, and
    nothing the browser changes is written into the repo or ~/.jupyter.
    ``perfil`` (e.g. ``PROFESORADO``) goes first in ``JUPYTER_CONFIG_PATH``, as
    ``make lab`` and the hub's profiles do.
    """

    def __init__(self, raiz: Path, cwd: Path | None = None, registro: Path | None = None,
                 ajustes: Path | None = None, perfil: Path | None = None):
        self.raiz = Path(raiz).resolve()
        self.cwd = Path(cwd or raiz).resolve()
        self.token = secrets.token_hex(16)
        self.puerto = 0
        self.proceso: subprocess.Popen | None = None
        self._privado = Path(tempfile.mkdtemp(prefix="lab-privado-"))
        self.registro = registro or (self._privado / "servidor.log")
        self.ajustes = ajustes
        self.perfil = perfil

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.puerto}"

    def enlace(self, ruta: str = "lab") -> str:
        separador = "&" if "?" in ruta else "?"
        return f"{self.url}/{ruta.lstrip('/')}{separador}token={self.token}"

    def entorno(self) -> dict:
        ajustes = self._privado / "user-settings"
        if self.ajustes is not None and self.ajustes.is_dir():
            shutil.copytree(self.ajustes, ajustes, dirs_exist_ok=True)
        else:
            ajustes.mkdir(parents=True, exist_ok=True)
        # No "get notified about Jupyter news?" toast: the environment's own settings turn it off
        # (ajustes_jupyterlab/overrides.d), so the tests see what a student sees.
        env = dict(os.environ)
        env.update({
            "PATH": str(bin_entorno()) + os.pathsep + env.get("PATH", ""),
            "JUPYTERLAB_SETTINGS_DIR": str(ajustes),
            "JUPYTERLAB_WORKSPACES_DIR": str(self._privado / "workspaces"),
            "JUPYTER_CONFIG_DIR": str(self._privado / "config"),   # nothing from ~/.jupyter
            "JUPYTER_RUNTIME_DIR": str(self._privado / "runtime"),
            "IPYTHONDIR": str(self._privado / "ipython"),
            "MPLCONFIGDIR": str(self._privado / "matplotlib"),
            "PYTHONDONTWRITEBYTECODE": "1",
            # as `make lab` runs it (Makefile): no student's ipykernel_launcher.py or numpy.py first
            "PYTHONSAFEPATH": "1", "PYTHONNOUSERSITE": "1",
            "PYTHONSTARTUP": str(RAIZ / "despliegue" / "hub" / "jupyter" / "comun" / "arranque_kernel.py"),
        })
        env.pop("JUPYTER_TOKEN", None)
        env.pop("JUPYTER_CONFIG_PATH", None)
        if self.perfil is not None:
            env["JUPYTER_CONFIG_PATH"] = str(self.perfil)
        return env

    def arrancar(self, espera: float = 90.0) -> "ServidorLab":
        env = self.entorno()
        self.registro.parent.mkdir(parents=True, exist_ok=True)
        for _intento in range(3):
            self.puerto = puerto_libre()
            cmd = [
                str(bin_entorno() / "jupyter"), "lab", "--no-browser", "--allow-root",
                f"--ServerApp.token={self.token}", f"--ServerApp.root_dir={self.raiz}",
                "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.puerto}",
                "--ServerApp.port_retries=0",
                "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                "--LabApp.expose_app_in_browser=True",
            ]
            with open(self.registro, "ab") as log:
                self.proceso = subprocess.Popen(cmd, cwd=self.cwd, env=env, stdout=log,
                                                stderr=subprocess.STDOUT, start_new_session=True)
            if self._esperar(espera):
                return self
            self.parar()
        raise RuntimeError(f"JupyterLab no arrancó; mira {self.registro}:\n{self.leer_registro()[-3000:]}")

    def _esperar(self, espera: float) -> bool:
        limite = time.monotonic() + espera
        while time.monotonic() < limite:
            if self.proceso.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(self.enlace("api/status"), timeout=2) as r:
                    if r.status == 200:
                        return True
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.25)
        return False

    def leer_registro(self) -> str:
        try:
            return self.registro.read_text(errors="replace")
        except OSError:
            return ""

    def parar(self) -> None:
        if self.proceso and self.proceso.poll() is None:
            try:
                os.killpg(self.proceso.pid, signal.SIGTERM)   # the server and its kernels
            except ProcessLookupError:
                pass
            try:
                self.proceso.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proceso.pid, signal.SIGKILL)
                self.proceso.wait(timeout=5)
        self.proceso = None

    def limpiar(self) -> None:
        self.parar()
        shutil.rmtree(self._privado, ignore_errors=True)

    def __enter__(self) -> "ServidorLab":
        return self.arrancar()

    def __exit__(self, *exc) -> None:
        self.limpiar()


def lanzar_chromium(playwright):
    """Debian's Chromium through Playwright (``playwright install`` cannot download here)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS_CHROMIUM)


def nueva_pagina(navegador, ancho: int = 1400, alto: int = 1000):
    contexto = navegador.new_context(viewport={"width": ancho, "height": alto}, locale="es-ES")
    contexto.set_default_timeout(30_000)
    return contexto.new_page()


# ----------------------------------------------------------------- JupyterLab

def esperar_lab(pagina, timeout: float = 60_000) -> None:
    """Wait until JupyterLab's shell is up and the app object is exposed."""
    pagina.wait_for_selector("#jp-main-dock-panel", timeout=timeout)
    pagina.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=timeout)


def abrir_cuaderno(pagina, servidor: ServidorLab, ruta: str, timeout: float = 90_000) -> None:
    """Open ``ruta`` (relative to the server root) and wait until its kernel is idle."""
    pagina.goto(servidor.enlace(f"lab/tree/{ruta}?reset"))   # ?reset: no tabs of earlier tests
    esperar_lab(pagina, timeout)
    pagina.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=timeout)
    esperar_nucleo_libre(pagina, timeout)


def esperar_nucleo_libre(pagina, timeout: float = 90_000) -> None:
    pagina.wait_for_function(
        """() => {
            const p = window.jupyterapp.shell.currentWidget;
            if (!p || !p.sessionContext) return false;
            const s = p.sessionContext;
            return s.isReady && s.session && s.session.kernel &&
                   s.session.kernel.status === 'idle' && s.kernelDisplayStatus === 'idle';
        }""", timeout=timeout)


def cerrar_dialogos(pagina) -> None:
    """Dismiss a dialog JupyterLab may show at start (kernel choice, news...)."""
    for _ in range(3):
        dialogo = pagina.locator(".jp-Dialog")
        if dialogo.count() == 0:
            return
        boton = dialogo.locator(".jp-Dialog-button.jp-mod-accept")
        if boton.count():
            boton.first.click()
        else:
            pagina.keyboard.press("Escape")
        pagina.wait_for_timeout(300)


def menu(pagina, *etiquetas: str) -> None:
    """Click a path in the main menu bar, e.g. ``menu(p, "Ejecutar", "Ejecutar todas las celdas")``."""
    primera, *resto = etiquetas
    exacta = lambda e: re.compile(rf"^\s*{re.escape(e)}\s*$")  # noqa: E731 - not «… todas las celdas de encima»
    # a click while the menu bar is still closing an earlier menu toggles it shut: open it until it shows
    # its first item (a loaded machine)
    for intento in range(3):
        pagina.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text=exacta(primera)).first.click()
        if not resto:
            return
        try:
            pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel").filter(
                has_text=exacta(resto[0])).first.wait_for(state="visible", timeout=10_000)
            break
        except Exception:  # noqa: BLE001 - playwright's TimeoutError: try again, the last time raises below
            pagina.keyboard.press("Escape")
            pagina.wait_for_timeout(300)
    for etiqueta in resto:
        item = pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel").filter(
            has_text=exacta(etiqueta)).first
        item.hover()
        item.click()


def ejecutar_todo(pagina, timeout: float = 180_000) -> None:
    """Run all cells from the «Ejecutar» menu, then wait until the kernel is idle again.

    Run All stops at the first cell that raises (the release's stubs do, by
    design), so "done" means: nothing queued or running and the kernel idle.
    """
    menu(pagina, "Ejecutar", "Ejecutar todas las celdas")
    pagina.wait_for_timeout(500)
    pagina.wait_for_function(
        """() => {
            const p = window.jupyterapp.shell.currentWidget;
            if (!p || !p.content) return false;
            const k = p.sessionContext.session && p.sessionContext.session.kernel;
            const ocupadas = p.content.widgets.filter(
                c => c.model.type === 'code' && c.node.querySelector('.jp-InputPrompt') &&
                     c.node.querySelector('.jp-InputPrompt').textContent.includes('*'));
            return k && k.status === 'idle' && ocupadas.length === 0;
        }""", timeout=timeout, polling=250)


def celdas(pagina) -> list[dict]:
    """The open notebook's cells as the browser holds them (type, nbgrader metadata, outputs)."""
    return pagina.evaluate(
        """() => window.jupyterapp.shell.currentWidget.content.widgets.map(c => ({
            tipo: c.model.type,
            fuente: c.model.sharedModel.getSource(),
            nbgrader: c.model.getMetadata('nbgrader') || null,
            ejecucion: c.model.type === 'code' ? c.model.executionCount : null,
            salidas: c.model.type === 'code' ? c.model.outputs.toJSON() : [],
        }))""")


def indice_primera_calificada(lista: list[dict]) -> int:
    """Index of the first cell nbgrader manages (the quiz or exercise starts there)."""
    for i, c in enumerate(lista):
        meta = c.get("nbgrader") or {}
        if meta.get("grade") or meta.get("solution") or meta.get("task"):
            return i
    return len(lista)


def errores_en(lista: list[dict]) -> list[str]:
    """``"celda i: Ename: evalue"`` for every error output in ``lista``."""
    errores = []
    for i, c in enumerate(lista):
        for salida in c["salidas"]:
            if salida.get("output_type") == "error":
                errores.append(f"celda {i}: {salida.get('ename')}: {salida.get('evalue')}")
    return errores


def huella_imagen(pagina, selector: str) -> dict:
    """SHA-256, size and base64 of the PNG an ``<img>`` (an ipywidgets Image) is showing."""
    return pagina.evaluate(
        """async (sel) => {
            const img = document.querySelector(sel);
            if (!img || !img.src) return null;
            const datos = await (await fetch(img.src)).arrayBuffer();
            const h = await crypto.subtle.digest('SHA-256', datos);
            const hex = Array.from(new Uint8Array(h)).map(b => b.toString(16).padStart(2, '0')).join('');
            let bin = ''; const bytes = new Uint8Array(datos);
            for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
            return {sha: hex, bytes: bytes.length, src: img.src, b64: btoa(bin)};
        }""", selector)


def esperar_imagen_nueva(pagina, selector: str, anterior: dict | None, timeout: float = 30_000) -> dict:
    """Wait until the image at ``selector`` shows a PNG different from ``anterior``; return it."""
    limite = time.monotonic() + timeout / 1000
    ultima = None
    while time.monotonic() < limite:
        ultima = huella_imagen(pagina, selector)
        if ultima and (anterior is None or ultima["sha"] != anterior["sha"]):
            return ultima
        pagina.wait_for_timeout(100)
    raise AssertionError(f"la imagen {selector} no cambió en {timeout / 1000:.0f} s")


def ocultar_barra_lateral(pagina) -> None:
    """Collapse the left sidebar (more room for the explorable in the screenshots)."""
    pagina.evaluate("""() => { const s = window.jupyterapp.shell;
        if (!s.leftCollapsed) return window.jupyterapp.commands.execute('application:toggle-left-area'); }""")


def ejecutar_leccion(pagina, servidor: ServidorLab, ruta: str) -> list[dict]:
    """Open a notebook, Run All from the menu; return its cells after the run.

    Fails if a lesson cell (any cell before the first nbgrader-managed one:
    the quiz / exercise, whose stubs raise by design) has an error output or
    did not run.
    """
    abrir_cuaderno(pagina, servidor, ruta)
    cerrar_dialogos(pagina)
    ocultar_barra_lateral(pagina)
    ejecutar_todo(pagina)
    lista = celdas(pagina)
    fin = indice_primera_calificada(lista)
    assert fin < len(lista), f"{ruta}: no hay celdas de nbgrader; ¿es el cuaderno del alumno?"
    errores = errores_en(lista[:fin])
    assert not errores, f"{ruta}: salidas de error en las celdas de la lección: {errores}"
    sin_ejecutar = [i for i, c in enumerate(lista[:fin]) if c["tipo"] == "code" and not c["ejecucion"]]
    assert not sin_ejecutar, f"{ruta}: celdas de la lección sin ejecutar: {sin_ejecutar}"
    return lista


def esperar_imagen_tras_accion(pagina, selector: str, anterior: dict | None,
                               timeout: float = 30_000) -> dict:
    """After a widget interaction: the new PNG, once the kernel is idle and the image is stable."""
    esperar_imagen_nueva(pagina, selector, anterior, timeout)
    esperar_nucleo_libre(pagina, timeout)
    pagina.wait_for_timeout(150)
    return huella_imagen(pagina, selector)


def ejecutar_celda_del_explorable(pagina, timeout: float = 90_000) -> None:
    """Run only the cell that shows the explorable (the one calling ``crear_explorable``), wait idle.

    What a student does when the explorable's hint says «ejecuta esta celda otra vez».
    """
    pagina.evaluate("""() => {
        const p = window.jupyterapp.shell.currentWidget;
        const i = p.content.widgets.findIndex(c => c.model.type === 'code' &&
            c.model.sharedModel.getSource().includes('crear_explorable('));
        p.content.activeCellIndex = i;
        window.jupyterapp.commands.execute('notebook:run-cell');
    }""")
    pagina.wait_for_timeout(300)
    esperar_nucleo_libre(pagina, timeout)


def reiniciar_nucleo(pagina, timeout: float = 90_000) -> None:
    """Restart the open notebook's kernel as a student does (menu command, then the dialog's button)."""
    pagina.evaluate("() => { window.jupyterapp.commands.execute('notebook:restart-kernel'); }")
    pagina.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept").click()
    pagina.wait_for_timeout(500)
    esperar_nucleo_libre(pagina, timeout)


def salidas_de_la_celda_del_explorable(pagina):
    """The output area (a locator) of the cell that shows the explorable."""
    pagina.evaluate("""() => {
        const p = window.jupyterapp.shell.currentWidget;
        const celda = p.content.widgets.find(c => c.model.type === 'code' &&
            c.model.sharedModel.getSource().includes('crear_explorable('));
        celda.node.setAttribute('data-celda-explorable', '1');
    }""")
    return pagina.locator("[data-celda-explorable] .jp-OutputArea").first


def errores_de_la_celda_del_explorable(pagina) -> list[str]:
    """Error outputs of the cell that shows the explorable (``errores_en`` of that cell alone)."""
    lista = [c for c in celdas(pagina) if c["tipo"] == "code" and "crear_explorable(" in c["fuente"]]
    return errores_en(lista)
