"""A trial of the course's JupyterHub on this machine, on loopback (``make hub``, as root).

    sudo make hub                                   # or: sudo .venv/bin/python despliegue/hub/prueba.py
    sudo make hub HUB_ARGS="--puerto 8080 --conservar"

It creates what a department server has, in a private temporary folder:

- Unix accounts: one TA (``prueba-profesora``), two students
  (``prueba-alumna1``, ``prueba-alumno2``), each with a random password it
  prints, and the formgrader service's account (``grader-<course>``), every
  home private (0700);
- a copy of the course owned by the service's account, mode 0700 (students
  cannot read that copy's hidden tests or gradebook; the hub itself runs from
  this clone, whose profiles every account must read: if the clone is
  readable by other accounts, as ``git clone`` leaves it, the trial's students
  can read its ``source/`` and ``grader_tests/`` too, and the trial says so
  when it starts, :func:`aviso_de_clon_legible`);
- the nbgrader exchange (root 1777, the course's folder owned by the service,
  its ``inbound`` 3733: sticky, setgid to the service's group);
- the hub's log, private to root (0600, in a 0700 folder): every student's
  server writes into it (LocalProcessSpawner), and nothing in it is for them;

then starts ``jupyterhub -f despliegue/hub/jupyterhub_config.py`` on
127.0.0.1 and waits.  The hub is at ``http://localhost:<port>``, each
server at ``http://<user>.localhost:<port>`` and the formgrader at
``http://<course>--service.localhost:<port>``: one origin each
(``subdomain_host``), names Chromium, Firefox and curl resolve to loopback
with no DNS set-up (Python's resolver here does not: the hub tests map
``*.localhost`` themselves, tests/hub_cliente.py).  Ctrl-C stops the hub, its servers and the proxy, and
removes the accounts and folders it created (``--conservar`` keeps them).
It never touches an account it did not create: if a name exists, it stops.

The hub tests (tests/test_hub.py, tests/navegador/test_6_hub.py) drive the
same class, :class:`HubDePrueba`.
"""
from __future__ import annotations

import argparse
import os
import pwd
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

AQUI = Path(__file__).resolve().parent
if str(AQUI) not in sys.path:
    sys.path.insert(0, str(AQUI))
from ajustes import PROXY_LOCAL, RAIZ_REPO, accesible_para_todos, bin_hub  # noqa: E402

CONFIGURACION = AQUI / "jupyterhub_config.py"
# what the service's copy of the course holds: a TA's clone without .git or .venv (every versioned entry
# of the repository's root: make grade, make informe and make test find everything they name)
COPIAR = ["nbgrader_config.py", "plazos.toml", "grader_tests", "source", "release", "examples", "scripts", "plantillas", "lms",
          "despliegue", "pyproject.toml", "Makefile", "README.md", "docs", "requirements.txt", "environment.yml",
          "ajustes_jupyterlab", "requirements-dev.txt", "tests", ".ci", ".gitignore", "autograded"]
CURSO_POR_DEFECTO = "atencion-y-posicion"
MODO_CASA = 0o700          # every account's home: only its owner enters
MODO_INBOUND = 0o3733      # the exchange's inbound: sticky, setgid, writable and not listable by others
MODO_REGISTRO = 0o600      # the hub's log: root's alone (every student's server holds it open for writing)


def aviso_de_clon_legible(raiz: Path) -> str | None:
    """The Spanish warning the trial prints when its students can read the clone's solutions or hidden tests."""
    legibles = [n for n in ("source", "grader_tests", "gradebook.db") if (raiz / n).exists()
                and accesible_para_todos(raiz / n)]
    if not legibles:
        return None
    return (f"AVISO: las cuentas de la prueba pueden leer {', '.join(legibles)} de {raiz} (las soluciones, las "
            "pruebas ocultas, un libro de notas): el hub de la prueba arranca desde este clon, legible por todas las "
            "cuentas. Es una prueba: no des acceso a alumnos de verdad a esta máquina. En un servidor de verdad el "
            "clon del curso sólo lo lee la cuenta del servicio (despliegue/README.md).")


class ErrorDePrueba(RuntimeError):
    """The trial cannot start (Spanish message for the TA)."""


def puerto_libre() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_DADOS_PRIVILEGIADOS: set[int] = set()
# ports Chromium and Firefox refuse to open (their «restricted ports» lists), between 600 and 999
_VETADOS_POR_CHROMIUM = {601, 636, 989, 990, 993, 995}


def puerto_privilegiado_libre() -> int:
    """A free port below 1024 on 127.0.0.1 (as root): no unprivileged account can take it, not even while the
    process that owns it restarts (relevo.py).  Never the same one twice in this process."""
    import random
    candidatos = [p for p in range(600, 1000) if p not in _DADOS_PRIVILEGIADOS and p not in _VETADOS_POR_CHROMIUM]
    random.shuffle(candidatos)
    for puerto in candidatos:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", puerto))
            except OSError:
                continue
        _DADOS_PRIVILEGIADOS.add(puerto)
        return puerto
    raise ErrorDePrueba("no queda ningún puerto libre entre 600 y 999 en 127.0.0.1")


def existe_cuenta(nombre: str) -> bool:
    try:
        pwd.getpwnam(nombre)
        return True
    except KeyError:
        return False


def que_falta() -> str | None:
    """Why the trial cannot run here (Spanish), or None."""
    faltas = []
    if os.geteuid() != 0:
        faltas.append("hay que ejecutarlo como root (crea cuentas Unix y arranca servidores a su nombre)")
    if not (bin_hub() / "jupyterhub").exists():
        faltas.append(f"no está jupyterhub en {bin_hub()} (make hub crea .venv-hub con él)")
    elif not accesible_para_todos(bin_hub() / "python"):
        faltas.append(f"el Python de {bin_hub()} no lo pueden ejecutar las demás cuentas (¿está bajo /root?); "
                      "make hub crea .venv-hub con el Python del sistema (PYTHON_HUB=/usr/bin/python3)")
    if not (PROXY_LOCAL.exists() or shutil.which("configurable-http-proxy")):
        faltas.append("no está configurable-http-proxy (make hub lo instala con npm en .venv-hub/proxy)")
    for orden in ("useradd", "userdel", "chpasswd"):
        if shutil.which(orden) is None:
            faltas.append(f"no está la orden {orden}")
    return "; ".join(faltas) or None


class HubDePrueba:
    """The course's hub with throwaway accounts and folders under ``base``.

    ``claves`` maps each TA and student to the password the trial gave them;
    ``url`` is the hub's public address (``http://localhost:<port>``), ``url_de_usuario(n)``
    and ``url_del_formgrader()`` those of a server and of the formgrader (their own origins).
    """

    def __init__(self, profesorado: list[str], alumnado: list[str], base: Path | None = None,
                 curso: str = CURSO_POR_DEFECTO, cuenta_servicio: str | None = None,
                 puerto: int | None = None, registro: Path | None = None):
        self.profesorado = list(profesorado)
        self.alumnado = list(alumnado)
        self.curso = curso
        self.cuenta_servicio = cuenta_servicio or f"grader-{curso}"
        self.base = Path(base) if base else Path(tempfile.mkdtemp(prefix="curso-hub-"))
        self.raiz_curso = self.base / "curso"
        self.intercambio = self.base / "intercambio"
        self.estado = self.base / "estado"
        self.registro = registro or (self.estado / "jupyterhub.log")
        self.puerto = puerto
        self.puertos: dict[str, int] = {}
        self.claves: dict[str, str] = {}
        self.creadas: list[str] = []
        self.proceso: subprocess.Popen | None = None
        self.entorno_hub: dict = {}

    # ------------------------------------------------------------ set up
    @property
    def url(self) -> str:
        return f"http://localhost:{self.puertos['publico']}"

    def ajustes(self):
        """The hub's settings as jupyterhub_config.py reads them (ajustes.leer)."""
        from ajustes import leer
        return leer(self.entorno_hub)

    def url_de_usuario(self, nombre: str) -> str:
        """``http://<nombre>.localhost:<port>/user/<nombre>/``: the user's server, its own origin."""
        return self.ajustes().url_de_usuario(nombre)

    def url_del_formgrader(self) -> str:
        """``http://<course>--service.localhost:<port>/services/<course>/``: the formgrader's origin."""
        return self.ajustes().url_del_formgrader()

    def preparar(self) -> "HubDePrueba":
        falta = que_falta()
        if falta:
            raise ErrorDePrueba(f"No se puede probar el hub: {falta}.")
        personas = self.profesorado + self.alumnado
        ocupadas = [n for n in [*personas, self.cuenta_servicio] if existe_cuenta(n)]
        if ocupadas:
            raise ErrorDePrueba(
                f"Ya existen las cuentas {ocupadas}: la prueba no toca cuentas que no ha creado. "
                "Elige otros nombres (--profesorado, --alumnado) o bórralas antes.")
        self.base.mkdir(parents=True, exist_ok=True)
        os.chmod(self.base, 0o711)                      # traversable, not listable
        for nombre in [self.cuenta_servicio, *personas]:
            # private homes (0700): nobody reads a classmate's notebooks or submission secrets
            subprocess.run(["useradd", "--create-home", "-K", f"HOME_MODE={MODO_CASA:04o}", "--shell", "/bin/bash",
                            "--user-group", nombre], check=True, capture_output=True, text=True)
            self.creadas.append(nombre)
            os.chmod(pwd.getpwnam(nombre).pw_dir, MODO_CASA)    # whatever useradd's version did
        for nombre in personas:
            self.claves[nombre] = secrets.token_urlsafe(12)
        subprocess.run(["chpasswd"], input="".join(f"{n}:{c}\n" for n, c in self.claves.items()),
                       check=True, capture_output=True, text=True)
        cuenta = pwd.getpwnam(self.cuenta_servicio)
        # the course, private to the service's account
        ignorar = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", "node_modules", "build", "*.egg-info",
                                         ".pytest_cache")
        self.raiz_curso.mkdir()
        for nombre in COPIAR:
            origen = RAIZ_REPO / nombre
            if nombre == "autograded":          # only its README: never a local run's graded notebooks
                (self.raiz_curso / nombre).mkdir()
                if (origen / "README.md").is_file():
                    shutil.copy2(origen / "README.md", self.raiz_curso / nombre / "README.md")
            elif origen.is_dir():
                shutil.copytree(origen, self.raiz_curso / nombre, ignore=ignorar)
            elif origen.exists():
                shutil.copy2(origen, self.raiz_curso / nombre)
        if self.curso != CURSO_POR_DEFECTO:
            # another course id (--curso): the copy's nbgrader_config.py names it, so that the service releases
            # into that course's folder of the exchange (a hostile tester's F3: it released into the default one)
            config = self.raiz_curso / "nbgrader_config.py"
            texto, cambios = re.subn(r'^c\.CourseDirectory\.course_id = "[^"]*"$',
                                     f'c.CourseDirectory.course_id = "{self.curso}"', config.read_text(encoding="utf-8"),
                                     flags=re.MULTILINE)
            if cambios != 1:
                raise ErrorDePrueba(f"{config}: no se encuentra la línea del course_id para cambiarla a {self.curso}")
            config.write_text(texto, encoding="utf-8")
        _cambiar_dueno(self.raiz_curso, cuenta.pw_uid, cuenta.pw_gid)
        os.chmod(self.raiz_curso, 0o700)
        # the exchange: root like /tmp (anyone creates, nobody renames others'), the course's folder
        # created by the service so no student can take the name first
        self.intercambio.mkdir()
        os.chmod(self.intercambio, 0o1777)
        carpeta = self.intercambio / self.curso
        carpeta.mkdir()
        os.chown(carpeta, cuenta.pw_uid, cuenta.pw_gid)
        os.chmod(carpeta, 0o755)
        # inbound: anyone submits, nobody lists (nbgrader's 733), nobody renames or removes another's
        # entry (sticky), and entries belong to the service's group (setgid: the hub's submit makes
        # them private to their author and that group; despliegue/README.md)
        inbound = carpeta / "inbound"
        inbound.mkdir()
        os.chown(inbound, cuenta.pw_uid, cuenta.pw_gid)
        os.chmod(inbound, MODO_INBOUND)
        self.estado.mkdir(mode=0o700)
        return self

    def entorno(self) -> dict:
        # every port on 127.0.0.1 below 1024: no student's process can take one while what owns it restarts
        # (relevo.py; issue 19, F1 and F2: the formgrader's, the proxy's, the hub's)
        for clave in ("hub", "proxy", "servicio"):
            self.puertos[clave] = puerto_privilegiado_libre()
        self.puertos["publico"] = self.puerto or puerto_privilegiado_libre()
        # the trial sets every CURSO_HUB_ variable itself, except the front proxy's account (a trial behind a local
        # nginx: an eighth attacker's F6 found it dropped without a word) and the proxy's limits
        pasan = ("CURSO_HUB_PROXY_DELANTE", "CURSO_HUB_PROXY_TOPE_", "CURSO_HUB_PROXY_RAFAGA", "CURSO_HUB_PROXY_POR_",
                 "CURSO_HUB_PROXY_FALLOS_", "CURSO_HUB_PROXY_MAX_", "CURSO_HUB_PROXY_CUERPOS_", "CURSO_HUB_PROXY_CABECERAS_")
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("CURSO_HUB_", "JUPYTER")) or k.startswith(pasan)}
        env.update({
            "PATH": os.pathsep.join([str(bin_hub()), env.get("PATH", "/usr/bin:/bin")]),
            "CURSO_HUB_CURSO": self.curso,
            "CURSO_HUB_RAIZ_CURSO": str(self.raiz_curso),
            "CURSO_HUB_INTERCAMBIO": str(self.intercambio),
            "CURSO_HUB_CUENTA_SERVICIO": self.cuenta_servicio,
            "CURSO_HUB_PROFESORADO": ",".join(self.profesorado),
            "CURSO_HUB_ALUMNADO": ",".join(self.alumnado),
            "CURSO_HUB_URL": f"http://127.0.0.1:{self.puertos['publico']}",      # where the proxy listens
            "CURSO_HUB_URL_PUBLICA": self.url,                                    # subdomains of localhost
            "CURSO_HUB_URL_INTERNA": f"http://127.0.0.1:{self.puertos['hub']}",
            "CURSO_HUB_URL_PROXY": f"http://127.0.0.1:{self.puertos['proxy']}",
            "CURSO_HUB_URL_SERVICIO": f"http://127.0.0.1:{self.puertos['servicio']}",
            "CURSO_HUB_SOCKET_SERVICIO": str(self.base / "servicio" / "formgrader.sock"),
            "CURSO_HUB_ESTADO": str(self.estado),
        })
        self.entorno_hub = env
        return env

    # ------------------------------------------------------------ run
    def arrancar(self, espera: float = 120, intentos: int = 5) -> "HubDePrueba":
        """Start the hub; retried because JupyterHub gives its managed service only 10 s to answer.

        On a loaded machine the formgrader service (JupyterLab + nbgrader) can take
        longer, and the hub then exits ("Cannot connect to ... service"); a
        department's server restarts it the same way (systemd ``Restart=on-failure``).
        """
        self.registro.parent.mkdir(parents=True, exist_ok=True)
        for _intento in range(intentos):
            env = self.entorno()
            # private before anything is written: a student's server inherits it as its output, and a
            # descriptor reopened through /proc obeys the file's mode, not the folder's
            fd = os.open(self.registro, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, MODO_REGISTRO)
            os.fchmod(fd, MODO_REGISTRO)
            with os.fdopen(fd, "ab") as log:
                self.proceso = subprocess.Popen(
                    [str(bin_hub() / "jupyterhub"), "-f", str(CONFIGURACION)], cwd=self.estado, env=env,
                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            limite = time.monotonic() + espera
            while time.monotonic() < limite and self.proceso.poll() is None:
                if self._responde(f"{self.url}/hub/health") and self._responde(
                        f"http://127.0.0.1:{self.puertos['servicio']}/services/{self.curso}/api",
                        aceptar=(200, 403)):
                    return self
                time.sleep(0.3)
            self.parar()
        raise ErrorDePrueba(f"JupyterHub no arrancó; mira {self.registro}:\n{self.leer_registro()[-4000:]}")

    @staticmethod
    def _responde(url: str, aceptar=(200,)) -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                return r.status in aceptar
        except urllib.error.HTTPError as e:
            return e.code in aceptar
        except (urllib.error.URLError, OSError):
            return False

    def leer_registro(self) -> str:
        try:
            return self.registro.read_text(errors="replace")
        except OSError:
            return ""

    def parar(self) -> None:
        """Stop the hub (it stops its servers, the service and the proxy), then any leftover of our accounts."""
        if self.proceso:
            # the whole process group, even when the hub itself already exited: a hub that
            # gave up at start leaves its proxy (same group) running otherwise
            try:
                os.killpg(self.proceso.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proceso.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
            limite = time.monotonic() + 10
            while time.monotonic() < limite and _grupo_vivo(self.proceso.pid):
                time.sleep(0.2)
            try:
                os.killpg(self.proceso.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proceso.wait(timeout=10)
        self.proceso = None
        # JupyterHub starts the proxy in a session of its own and stops it on a clean exit
        # only; after a failed start it is still there, named in the hub's pid file
        for pid in self.pids_del_proxy():
            _terminar(pid)
        _terminar_procesos_de({pwd.getpwnam(n).pw_uid for n in self.creadas if existe_cuenta(n)})
        # the cgroups of the students' servers the hub did not stop itself (servidor_limitado.py)
        from servidor_limitado import retirar_grupos_vacios
        retirar_grupos_vacios()

    def pids_del_proxy(self) -> list[int]:
        """Running configurable-http-proxy processes of this trial (by their API port)."""
        if "proxy" not in self.puertos:
            return []
        marca = f"--api-port\0{self.puertos['proxy']}\0"
        pids = []
        for entrada in Path("/proc").iterdir():
            if entrada.name.isdigit():
                try:
                    linea = (entrada / "cmdline").read_text(errors="replace")
                except OSError:
                    continue
                if "configurable-http-proxy" in linea and marca in linea:
                    pids.append(int(entrada.name))
        return pids

    def limpiar(self) -> None:
        """Stop everything and remove the accounts and folders this trial created."""
        self.parar()
        for nombre in reversed(self.creadas):
            subprocess.run(["userdel", "--remove", nombre], capture_output=True, text=True)
            # userdel keeps the user's group when another account joined it; never the case here
            subprocess.run(["groupdel", nombre], capture_output=True, text=True)
        self.creadas.clear()
        shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> "HubDePrueba":
        try:
            return self.preparar().arrancar()
        except BaseException:
            self.limpiar()
            raise

    def __exit__(self, *exc) -> None:
        self.limpiar()


def _cambiar_dueno(raiz: Path, uid: int, gid: int) -> None:
    for carpeta, subcarpetas, archivos in os.walk(raiz):
        os.chown(carpeta, uid, gid)
        for nombre in archivos:
            os.chown(os.path.join(carpeta, nombre), uid, gid, follow_symlinks=False)


def _terminar(pid: int) -> None:
    """SIGTERM, then SIGKILL after 5 s, one process this trial started."""
    for sennal, espera in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 2.0)):
        try:
            os.kill(pid, sennal)
        except ProcessLookupError:
            return
        limite = time.monotonic() + espera
        while time.monotonic() < limite:
            if not Path(f"/proc/{pid}").exists() or "zombie" in _estado(pid):
                return
            time.sleep(0.1)


def _estado(pid: int) -> str:
    try:
        return next(l for l in Path(f"/proc/{pid}/status").read_text().splitlines() if l.startswith("State:"))
    except (OSError, StopIteration):
        return "zombie"


def _grupo_vivo(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def _terminar_procesos_de(uids: set[int]) -> None:
    """SIGKILL every process whose real uid is one of ``uids`` (accounts this trial created)."""
    if not uids:
        return
    for _intento in range(20):
        quedan = []
        for entrada in Path("/proc").iterdir():
            if not entrada.name.isdigit():
                continue
            try:
                linea = next(l for l in (entrada / "status").read_text().splitlines() if l.startswith("Uid:"))
            except (OSError, StopIteration):
                continue
            if int(linea.split()[1]) in uids:
                quedan.append(int(entrada.name))
        if not quedan:
            return
        for pid in quedan:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Prueba el JupyterHub del curso en 127.0.0.1 con cuentas de usar y tirar (como root).")
    parser.add_argument("--profesorado", default="prueba-profesora",
                        help="cuentas del profesorado, separadas por comas (por defecto: %(default)s)")
    parser.add_argument("--alumnado", default="prueba-alumna1,prueba-alumno2",
                        help="cuentas del alumnado, separadas por comas (por defecto: %(default)s)")
    parser.add_argument("--puerto", type=int, default=800,
                        help="puerto del hub en 127.0.0.1 (%(default)s; uno menor que 1024, que ningún alumno "
                             "puede ocupar si el proxy cae)")
    parser.add_argument("--curso", default=CURSO_POR_DEFECTO,
                        help="identificador del curso (nombre del servicio, de su cuenta grader-<curso> y de "
                             "la carpeta del intercambio); otro distinto deja arrancar dos pruebas a la vez "
                             "(con otro --puerto y otras cuentas) (por defecto: %(default)s)")
    parser.add_argument("--conservar", action="store_true",
                        help="al salir, no borra las cuentas ni la carpeta de la prueba")
    args = parser.parse_args(argv)
    hub = HubDePrueba([n for n in args.profesorado.split(",") if n],
                      [n for n in args.alumnado.split(",") if n], curso=args.curso, puerto=args.puerto)
    try:
        hub.preparar()
        hub.arrancar()
    except ErrorDePrueba as error:
        if hub.creadas:
            hub.limpiar()
        print(error, file=sys.stderr)
        return 1
    print(f"\nJupyterHub del curso en {hub.url}/  (registro: {hub.registro})\n")
    print("  cuenta                  papel        contraseña")
    for nombre in hub.profesorado:
        print(f"  {nombre:<22}  profesorado  {hub.claves[nombre]}")
    for nombre in hub.alumnado:
        print(f"  {nombre:<22}  alumnado     {hub.claves[nombre]}")
    print(f"\nPágina del curso (profesorado): {hub.url_del_formgrader()}curso/  (menú Services del hub)")
    print(f"Formgrader (profesorado): {hub.url_del_formgrader()}formgrader")
    print("Cada servidor y el Formgrader tienen su propio origen (<usuario>.localhost, "
          f"{hub.curso}--service.localhost): ábrelos con Chromium, Firefox o curl, que resuelven *.localhost.")
    print("El alumnado usa la pestaña Tareas de JupyterLab (menú Nbgrader → Lista de tareas).")
    print(f"Curso del servicio: {hub.raiz_curso}   Intercambio: {hub.intercambio}")
    aviso = aviso_de_clon_legible(RAIZ_REPO)
    if aviso:
        print(f"\n{aviso}")
    print("\nCtrl-C para parar" + (" (se conservan cuentas y carpetas)." if args.conservar
                                   else " y borrar las cuentas y carpetas de la prueba."))
    detener = []
    signal.signal(signal.SIGTERM, lambda *_: detener.append(1))
    signal.signal(signal.SIGINT, signal.default_int_handler)   # Ctrl-C, even when started in the background
    try:
        while not detener and hub.proceso and hub.proceso.poll() is None:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    if args.conservar:
        hub.parar()
        print(f"\nHub parado. Se conservan {', '.join(hub.creadas)} y {hub.base}.")
    else:
        hub.limpiar()
        print("\nHub parado; cuentas y carpetas de la prueba borradas.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
