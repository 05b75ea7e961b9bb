"""Settings of the course's JupyterHub, read from ``CURSO_HUB_*`` environment variables.

One place for what changes between a department's server and the loopback
trial (``make hub``, the hub tests): ``jupyterhub_config.py`` and
``prueba.py`` both read them through :func:`leer`.  Every variable has the
default a single-machine department server would use (``despliegue/README.md``).

=============================  ==============================================  =========================================
variable                       meaning                                         default
=============================  ==============================================  =========================================
``CURSO_HUB_CURSO``            course id (``c.CourseDirectory.course_id``)     ``atencion-y-posicion``
``CURSO_HUB_RAIZ_CURSO``       course root the formgrader service runs in      ``/srv/curso-atencion/curso``
``CURSO_HUB_INTERCAMBIO``      nbgrader exchange root (mode 1777)              ``/srv/nbgrader/exchange``
``CURSO_HUB_CUENTA_SERVICIO``  Unix account of the formgrader service          ``grader-<course id>``
``CURSO_HUB_PROFESORADO``      TAs / instructors (names, comma-separated)     (none)
``CURSO_HUB_ALUMNADO``         students (names, or ``@file`` with one a line)  (none)
``CURSO_HUB_ADMIN``            hub administrators                              (none)
``CURSO_HUB_URL``              URL the proxy listens on                        ``http://127.0.0.1:880``
``CURSO_HUB_URL_PUBLICA``      the hub's public address; every user's server   ``http://localhost:<port of CURSO_HUB_URL>``
                               and the formgrader get a subdomain of it
                               (``c.JupyterHub.subdomain_host``): wildcard
                               DNS ``*.<name>`` (``*.localhost`` is loopback)
``CURSO_HUB_URL_INTERNA``      the hub's own API (servers talk to it)          ``http://127.0.0.1:881``
``CURSO_HUB_URL_PROXY``        the proxy's REST API                            ``http://127.0.0.1:882``
``CURSO_HUB_URL_SERVICIO``     where the proxy reaches the formgrader service  ``http://127.0.0.1:883``
                               (the hub's relay to its socket, ``relevo.py``)
``CURSO_HUB_SOCKET_SERVICIO``  the formgrader service's Unix socket, in a      ``/run/curso-<course id>/formgrader.sock``
                               folder only its account opens
                               (the three ports below 1024: no unprivileged
                               account can take them while a process restarts)
``CURSO_HUB_AUTENTICADOR``     JupyterHub authenticator class or entry point   ``pam``
``CURSO_HUB_PROXY``            ``configurable-http-proxy`` command             ``.venv-hub/proxy`` copy, else on ``PATH``
``CURSO_HUB_ESTADO``           folder of jupyterhub.sqlite and the cookie key  the current folder
``CURSO_HUB_ESPERA_SERVICIO``  extra seconds for a slow formgrader start       ``90`` (read by jupyterhub_config.py)
``CURSO_HUB_MEMORIA_SERVIDOR_MIB``  MiB for all the processes of one student's  ``2048`` (0: no limit)
                               server together (``servidor_limitado.py``)
``CURSO_HUB_PROCESOS_SERVIDOR``  processes and threads of one student's server  ``1024``
``CURSO_HUB_CPU_SERVIDOR``     CPU share of one student's server (cgroup v1     ``256`` (0: none)
                               cpu.shares; an ordinary process weighs 1024)
``CURSO_HUB_SOCKETS_SERVIDOR``  TCP sockets of one student's account; past     ``2000`` (0: not watched)
                               them the hub stops her server
``CURSO_HUB_PROXY_DELANTE``    the HTTPS proxy in front: its Unix accounts     (none: browsers reach the proxy directly)
                               on this machine (names or uids: nginx's
                               ``www-data``, ``caddy``, ``root`` if it runs as
                               root) or its addresses on another machine
                               (``10.0.0.5``): the proxy's limits count each of
                               its requests for the address it forwards
                               (X-Forwarded-For), not for its account or address
=============================  ==============================================  =========================================
"""
from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

AQUI = Path(__file__).resolve().parent
PERFILES = AQUI / "jupyter"
RAIZ_REPO = AQUI.parent.parent
# The environment `make hub` builds for the trial and the hub tests: Python from the
# system (every account must be able to run it; a Python under /root is not),
# requirements.txt + requirements-hub.txt, and configurable-http-proxy from npm.
# `make hub CURSO_ENTORNO_HUB=/other/clone/.venv-hub` runs this with that environment's Python: then that
# environment, proxy included, is the one to use (a TA tester: the proxy was looked for only in this clone).
_PROXY_EN = Path("proxy") / "node_modules" / ".bin" / "configurable-http-proxy"
ENTORNO_LOCAL = Path(sys.prefix) if (Path(sys.prefix) / _PROXY_EN).exists() else RAIZ_REPO / ".venv-hub"
PROXY_LOCAL = ENTORNO_LOCAL / _PROXY_EN

NOMBRE_VALIDO = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
# the PYTHONSTARTUP of the kernels of the TA-side servers (PYTHONSAFEPATH=1; the file says why),
# in the common profile, which every server of the hub can read
ARRANQUE_KERNEL = PERFILES / "comun" / "arranque_kernel.py"


class AjustesInvalidos(ValueError):
    """A ``CURSO_HUB_*`` variable holds something the hub cannot use (Spanish message)."""


def _nombres(valor: str, variable: str) -> list[str]:
    """Names separated by commas or blanks; ``@path`` reads them from a file (one a line, # comments)."""
    valor = valor.strip()
    if valor.startswith("@"):
        ruta = Path(valor[1:])
        try:
            texto = ruta.read_text(encoding="utf-8")
        except OSError as error:
            raise AjustesInvalidos(f"{variable}: no se puede leer la lista {ruta}: {error}") from None
        valor = "\n".join(linea.split("#", 1)[0] for linea in texto.splitlines())
    nombres = [n for n in re.split(r"[\s,]+", valor) if n]
    malos = [n for n in nombres if not NOMBRE_VALIDO.match(n)]
    if malos:
        raise AjustesInvalidos(
            f"{variable}: nombres de usuario no válidos {malos} (minúsculas, dígitos, '-' o '_', "
            "empezando por letra, hasta 32 caracteres)")
    return list(dict.fromkeys(nombres))


@dataclass(frozen=True)
class AjustesHub:
    """What the hub needs to know about this installation (see the module's table)."""

    curso: str = "atencion-y-posicion"
    raiz_curso: Path = Path("/srv/curso-atencion/curso")
    intercambio: Path = Path("/srv/nbgrader/exchange")
    cuenta_servicio: str = ""
    profesorado: tuple[str, ...] = ()
    alumnado: tuple[str, ...] = ()
    admin: tuple[str, ...] = ()
    url: str = "http://127.0.0.1:880"
    url_publica: str = "http://localhost:880"
    url_interna: str = "http://127.0.0.1:881"
    url_proxy: str = "http://127.0.0.1:882"
    url_servicio: str = "http://127.0.0.1:883"
    socket_servicio: Path = Path("/run/curso-atencion-y-posicion/formgrader.sock")
    autenticador: str = "pam"
    proxy: str = ""
    estado: Path = field(default_factory=Path.cwd)
    delante: tuple[int, ...] = ()
    delante_ips: tuple[str, ...] = ()
    memoria_servidor_mib: int = 2048
    procesos_servidor: int = 1024
    sockets_servidor: int = 2000
    cpu_servidor: int = 256

    @property
    def grupo_profesorado(self) -> str:
        """nbgrader's JupyterHub group of the course's graders (formgrader access)."""
        return f"formgrade-{self.curso}"

    @property
    def grupo_alumnado(self) -> str:
        """nbgrader's JupyterHub group of the course's students (Assignments tab)."""
        return f"nbgrader-{self.curso}"

    def _en_subdominio(self, nombre: str, tipo: str) -> str:
        """``scheme://<subdomain>[:port]`` of a user's server or a service, as JupyterHub names it."""
        from urllib.parse import urlparse
        from jupyterhub.utils import subdomain_hook_idna      # JupyterHub 5's default subdomain_hook
        publica = urlparse(self.url_publica)
        host = f"{publica.scheme}://{subdomain_hook_idna(nombre, publica.hostname, tipo)}"
        return f"{host}:{publica.port}" if publica.port else host

    def url_de_usuario(self, nombre: str) -> str:
        """Public URL of ``nombre``'s server: its own origin (``<nombre>.<host>``), ``/user/<nombre>/``."""
        return f"{self._en_subdominio(nombre, 'user')}/user/{nombre}/"

    def url_del_formgrader(self) -> str:
        """Public URL of the course's service: its own origin (``<course>--service.<host>``)."""
        return f"{self._en_subdominio(self.curso, 'service')}/services/{self.curso}/"

    def perfil(self, nombre: str) -> str:
        """``JUPYTER_CONFIG_PATH`` of a profile: its own folder, then the common one."""
        return os.pathsep.join(str(PERFILES / p) for p in (nombre, "comun"))


def leer(entorno: dict | None = None) -> AjustesHub:
    """The settings from ``entorno`` (default ``os.environ``); raises :class:`AjustesInvalidos`."""
    e = os.environ if entorno is None else entorno
    curso = e.get("CURSO_HUB_CURSO", AjustesHub.curso).strip()
    if not re.match(r"^[A-Za-z0-9][A-Za-z0-9_-]*$", curso):
        raise AjustesInvalidos(f"CURSO_HUB_CURSO: «{curso}» no vale como nombre de curso y de servicio")
    cuenta = e.get("CURSO_HUB_CUENTA_SERVICIO", f"grader-{curso}").strip()
    if not NOMBRE_VALIDO.match(cuenta):
        raise AjustesInvalidos(f"CURSO_HUB_CUENTA_SERVICIO: «{cuenta}» no es un nombre de cuenta válido")
    profesorado = _nombres(e.get("CURSO_HUB_PROFESORADO", ""), "CURSO_HUB_PROFESORADO")
    alumnado = _nombres(e.get("CURSO_HUB_ALUMNADO", ""), "CURSO_HUB_ALUMNADO")
    ambos = sorted(set(profesorado) & set(alumnado))
    if ambos:
        raise AjustesInvalidos(f"{ambos} están a la vez en CURSO_HUB_PROFESORADO y CURSO_HUB_ALUMNADO")
    url = e.get("CURSO_HUB_URL", AjustesHub.url)
    url_publica = e.get("CURSO_HUB_URL_PUBLICA") or _publica_por_defecto(url)
    _comprobar_publica(url_publica)
    proxy = e.get("CURSO_HUB_PROXY") or (str(PROXY_LOCAL) if PROXY_LOCAL.exists() else
                                         shutil.which("configurable-http-proxy") or "")
    return AjustesHub(
        curso=curso,
        raiz_curso=Path(e.get("CURSO_HUB_RAIZ_CURSO", AjustesHub.raiz_curso)),
        intercambio=Path(e.get("CURSO_HUB_INTERCAMBIO", AjustesHub.intercambio)),
        cuenta_servicio=cuenta,
        profesorado=tuple(profesorado),
        alumnado=tuple(alumnado),
        admin=tuple(_nombres(e.get("CURSO_HUB_ADMIN", ""), "CURSO_HUB_ADMIN")),
        url=url,
        url_publica=url_publica.rstrip("/"),
        url_interna=e.get("CURSO_HUB_URL_INTERNA", AjustesHub.url_interna),
        url_proxy=e.get("CURSO_HUB_URL_PROXY", AjustesHub.url_proxy),
        url_servicio=e.get("CURSO_HUB_URL_SERVICIO", AjustesHub.url_servicio),
        socket_servicio=Path(e.get("CURSO_HUB_SOCKET_SERVICIO") or f"/run/curso-{curso}/formgrader.sock"),
        autenticador=e.get("CURSO_HUB_AUTENTICADOR", AjustesHub.autenticador),
        proxy=proxy,
        estado=Path(e.get("CURSO_HUB_ESTADO") or Path.cwd()),
        delante=_delante(e.get("CURSO_HUB_PROXY_DELANTE", ""))[0],
        delante_ips=_delante(e.get("CURSO_HUB_PROXY_DELANTE", ""))[1],
        memoria_servidor_mib=_entero(e, "CURSO_HUB_MEMORIA_SERVIDOR_MIB", AjustesHub.memoria_servidor_mib),
        procesos_servidor=_entero(e, "CURSO_HUB_PROCESOS_SERVIDOR", AjustesHub.procesos_servidor),
        sockets_servidor=_entero(e, "CURSO_HUB_SOCKETS_SERVIDOR", AjustesHub.sockets_servidor),
        cpu_servidor=_entero(e, "CURSO_HUB_CPU_SERVIDOR", AjustesHub.cpu_servidor),
    )


def _entero(e, nombre: str, defecto: int) -> int:
    """A whole number ≥ 0 from the variable ``nombre`` of ``e`` (``defecto`` when unset or empty).

    Raises:
        AjustesInvalidos: not a whole number ≥ 0 (with the variable's name, in Spanish).
    """
    valor = (e.get(nombre) or "").strip()
    if not valor:
        return defecto
    if not valor.isdigit():
        raise AjustesInvalidos(f"{nombre} debe ser un número entero ≥ 0, no {valor!r}")
    return int(valor)


def _delante(valor: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """``CURSO_HUB_PROXY_DELANTE``: account names, uids or IP addresses separated by commas or blanks → (uids,
    addresses as ``ipaddress`` writes them).  Raises AjustesInvalidos for an unknown name: a typo there would leave
    the whole class in one bucket, or with no limit at all."""
    import ipaddress
    import pwd
    uids, ips = set(), set()
    for nombre in (n for n in re.split(r"[\s,]+", valor.strip()) if n):
        if nombre.isdigit():
            uids.add(int(nombre))
            continue
        try:
            ips.add(str(ipaddress.ip_address(nombre)))
            continue
        except ValueError:
            pass
        try:
            uids.add(pwd.getpwnam(nombre).pw_uid)
        except KeyError:
            raise AjustesInvalidos(f"CURSO_HUB_PROXY_DELANTE: «{nombre}» no es una cuenta de esta máquina ni una "
                                   "dirección IP") from None
    return tuple(sorted(uids)), tuple(sorted(ips))


def aviso_sin_proxy_delante(ajustes: "AjustesHub") -> str | None:
    """A Spanish warning for the hub's log when the public address is HTTPS (so an HTTPS proxy sits in front) and
    ``CURSO_HUB_PROXY_DELANTE`` does not name its account; None otherwise."""
    if ajustes.url_publica.startswith("https://") and not ajustes.delante and not ajustes.delante_ips:
        return ("CURSO_HUB_URL_PUBLICA es https:// (hay un proxy con HTTPS delante) y CURSO_HUB_PROXY_DELANTE no dice "
                "su cuenta: si ese proxy está en esta máquina, toda la clase llega desde su cuenta y los topes por "
                "cuenta del proxy (entradas, peticiones, conexiones, subidas) valen para todos juntos, o para nadie "
                "si corre como root. Pon su cuenta (www-data, caddy, root) en CURSO_HUB_PROXY_DELANTE "
                "(despliegue/README.md).")
    return None


def _publica_por_defecto(url: str) -> str:
    """``http://localhost:<port>`` for a hub listening on ``url`` (browsers and curl resolve
    ``localhost`` and every ``*.localhost`` name to loopback)."""
    from urllib.parse import urlparse
    puerto = urlparse(url).port
    return f"http://localhost:{puerto}" if puerto else "http://localhost"


def _comprobar_publica(url: str) -> None:
    """The public address must be a name with subdomains (not an IP address, no path)."""
    import ipaddress
    from urllib.parse import urlparse
    partes = urlparse(url)
    if partes.scheme not in ("http", "https") or not partes.hostname or partes.path.strip("/"):
        raise AjustesInvalidos(f"CURSO_HUB_URL_PUBLICA: «{url}» no es una dirección como https://hub.ejemplo.org")
    try:
        ipaddress.ip_address(partes.hostname)
    except ValueError:
        return
    raise AjustesInvalidos(
        f"CURSO_HUB_URL_PUBLICA: «{url}» es una dirección IP; cada servidor y el Formgrader necesitan un "
        "subdominio propio (un nombre con DNS comodín, *.localhost en una prueba local)")


def clave_de_plazos(estado: Path) -> str:
    """The hub's key for students' extension files (hex), created in the state folder (0600) the first time.

    The formgrader service names each student's extension file with it
    (``grader_tests.extensiones_nbgrader.plazos.ficha_de_alumno``) and the hub gives each student's
    server only its own name (:func:`ficha_de_alumno`): no student can find
    another's extension.
    """
    import secrets
    ruta = Path(estado) / "clave_plazos"
    try:
        texto = ruta.read_text().strip()
        bytes.fromhex(texto)
        if texto:
            return texto
    except (OSError, ValueError):
        pass
    ruta.parent.mkdir(parents=True, exist_ok=True)
    texto = secrets.token_hex(32)
    descriptor = os.open(ruta, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as archivo:
        archivo.write(texto)
    return texto


TOPE_POR_CUENTA = AQUI / "proxy" / "tope_por_cuenta.js"


def orden_del_proxy(proxy: str) -> tuple[list[str], str | None]:
    """The command that starts configurable-http-proxy with ``proxy/tope_por_cuenta.js`` loaded first.

    The module caps the connections each local account holds on the proxy's ports (issue 19, F2 of a third
    attacker: one student's idle connections filled the proxy's open files). It is loaded with
    ``node --require``, so ``proxy`` must be the proxy's own script (``#!/usr/bin/env node``, as npm installs
    it, through a link or not).

    Returns:
        (command, warning): the command for ``c.ConfigurableHTTPProxy.command`` and None; or ``[proxy]`` and a
        Spanish warning for the hub's log when the cap cannot be loaded (no ``node``, or ``proxy`` is not a
        node script: a wrapper of its own).
    """
    real = os.path.realpath(proxy)
    try:
        with open(real, "rb") as archivo:
            primera = archivo.readline(200)
    except OSError:
        primera = b""
    node = shutil.which("node")
    if node and primera.startswith(b"#!") and b"node" in primera:
        if str(PERFILES / "comun") not in sys.path:
            sys.path.insert(0, str(PERFILES / "comun"))
        from conexiones_por_cuenta import SS        # where the hub (relevo.py) looks for ss too
        if SS is None:
            return [node, "--require", str(TOPE_POR_CUENTA), real], (
                "No está ss (iproute2): el tope de conexiones del proxy no sabe de quién es cada conexión de la "
                "máquina y las cuenta todas como de una sola cuenta (64 a la vez, también las del profesorado). "
                "Instala iproute2.")
        return [node, "--require", str(TOPE_POR_CUENTA), real], None
    return [proxy], (f"El proxy ({proxy}) no es el programa de Node de configurable-http-proxy"
                     f"{'' if node else ' (no hay node en el PATH)'}: arranca sin el tope de conexiones por "
                     "cuenta (despliegue/hub/proxy/tope_por_cuenta.js), y una cuenta de la máquina puede llenar "
                     "sus archivos abiertos con conexiones vacías. Usa el de .venv-hub/proxy o pon "
                     "CURSO_HUB_PROXY en el script de configurable-http-proxy.")


def ficha_de_alumno(clave_hex: str, curso: str, alumno: str) -> str:
    """The same name as ``grader_tests.extensiones_nbgrader.plazos.ficha_de_alumno`` (a test keeps them equal)."""
    import hashlib
    import hmac
    return hmac.new(bytes.fromhex(clave_hex), f"{curso}\0{alumno}".encode("utf-8"), hashlib.sha256).hexdigest()[:40]


def bin_entorno() -> Path:
    """bin/ of the Python environment the hub runs from (single-user servers use the same)."""
    return Path(sys.executable).parent


def bin_hub() -> Path:
    """bin/ of the environment to start the hub from: ``.venv-hub`` if built, else this one."""
    local = ENTORNO_LOCAL / "bin"
    return local if (local / "jupyterhub").exists() else bin_entorno()


def accesible_para_todos(ruta: Path) -> bool:
    """Can any account run ``ruta`` (every folder above it searchable, the file readable)?

    The hub starts each user's server with this environment's Python: an
    interpreter under a private home (pyenv in /root, for instance) fails with
    "Permission denied" for everyone but its owner.
    """
    import stat
    real = Path(os.path.realpath(ruta))
    try:
        if not real.stat().st_mode & stat.S_IROTH:
            return False
        return all(p.stat().st_mode & stat.S_IXOTH for p in real.parents)
    except OSError:
        return False
