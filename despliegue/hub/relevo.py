"""The formgrader service behind a port no student can take: a relay in the hub's process.

On one machine (LocalProcessSpawner) every account shares the loopback interface.  A managed
service that listens on ``127.0.0.1:<port ≥ 1024>`` leaves that port free while it restarts
(a crash, the OOM killer, a slow start that JupyterHub gives up on), and JupyterHub starts it
again on the same port while the proxy keeps routing ``<course>--service.<host>`` there.  A
student's process that binds the port first serves the service's origin to the TA's browser
(issue 19, a hostile student's report, F1: a service worker planted there ran in every later
formgrader page of the TA, with the TA's cookies).

So the service listens on a Unix socket in a folder only its account can open
(``ServerApp.sock``), and the hub (root) relays a privileged port (below 1024: no
unprivileged account can bind it, ever) to that socket, byte for byte (HTTP and WebSockets
alike).  The hub's own port and the proxy's API port are privileged too (``prueba.py``,
``despliegue/README.md``).  Nothing here reads or changes the traffic.

Used by ``jupyterhub_config.py``: :func:`preparar_carpeta` before the hub starts, :func:`iniciar`
from the hub's event loop when it starts the service.
"""
from __future__ import annotations

import asyncio
import os
import pwd
import stat
import sys
from pathlib import Path

# who owns a connection (ss) and the per-account caps of a tornado server, shared with the hub's single-user servers
if str(Path(__file__).resolve().parent / "jupyter" / "comun") not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent / "jupyter" / "comun"))
import conexiones_por_cuenta  # noqa: E402
from conexiones_por_cuenta import (MAX_EN_ESPERA, SS, Cubos, DEMASIADAS, duenos, leer_ss,  # noqa: E402,F401
                                   ESTADOS)

PUERTO_PRIVILEGIADO = 1024      # Linux's net.ipv4.ip_unprivileged_port_start by default
_BLOQUE = 64 * 1024
_servidores: dict[tuple[str, int], asyncio.AbstractServer] = {}


def preparar_carpeta(socket: Path, cuenta: str) -> None:
    """Create (or check) the socket's folder: owned by ``cuenta``, mode 0700, not a link.

    Raises:
        RuntimeError: the folder exists and is a link, or belongs to another account (someone
            made it first: the socket inside would be theirs), with the reason in Spanish.
    """
    carpeta = socket.parent
    usuario = pwd.getpwnam(cuenta)
    carpeta.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mkdir(carpeta, 0o700)
    except FileExistsError:
        pass
    datos = os.lstat(carpeta)
    if stat.S_ISLNK(datos.st_mode) or not stat.S_ISDIR(datos.st_mode):
        raise RuntimeError(f"{carpeta} no es una carpeta (¿un enlace?): el socket del servicio no puede ir ahí")
    if datos.st_uid not in (0, usuario.pw_uid):
        raise RuntimeError(f"{carpeta} es de otra cuenta (uid {datos.st_uid}): el socket del servicio no puede "
                           "ir ahí; bórrala o elige otra ruta (CURSO_HUB_SOCKET_SERVICIO)")
    os.chown(carpeta, usuario.pw_uid, usuario.pw_gid, follow_symlinks=False)
    os.chmod(carpeta, 0o700, follow_symlinks=False)
    try:
        os.unlink(socket)                    # a socket left by an earlier run: the server binds it again
    except FileNotFoundError:
        pass


async def _copiar(origen: asyncio.StreamReader, destino: asyncio.StreamWriter) -> None:
    try:
        while True:
            datos = await origen.read(_BLOQUE)
            if not datos:
                break
            destino.write(datos)
            await destino.drain()
    except (ConnectionError, OSError, asyncio.IncompleteReadError):
        pass
    finally:
        try:
            if destino.can_write_eof():
                destino.write_eof()
        except (OSError, RuntimeError):
            destino.close()


# who may connect: the proxy (configurable-http-proxy, started by the hub as root) and the hub itself.  Any other
# account's connection is closed at once: a student holding 10 000 idle connections filled the hub's open files
# and took logins down (issue 19, a second attacker's F5).
CUENTAS_DE_CONFIANZA = frozenset({0, os.geteuid()})
MAX_CONEXIONES = 1024
_abiertas = 0
async def uid_del_otro_extremo(escritor: asyncio.StreamWriter) -> int | None:
    """The uid owning the other end of the TCP connection ``escritor`` holds (None: gone, another machine, or no
    ``ss``)."""
    par, propio = escritor.get_extra_info("peername"), escritor.get_extra_info("sockname")
    if not par or not propio or len(par) < 2 or len(propio) < 2:
        return None
    return await duenos.de(propio[:2], par[:2])


async def _atender(socket: str, lector: asyncio.StreamReader, escritor: asyncio.StreamWriter) -> None:
    global _abiertas
    if _abiertas >= MAX_CONEXIONES or duenos.en_espera() >= MAX_EN_ESPERA \
            or await uid_del_otro_extremo(escritor) not in CUENTAS_DE_CONFIANZA:
        escritor.close()
        return
    _abiertas += 1
    try:
        await _relevar(socket, lector, escritor)
    finally:
        _abiertas -= 1


async def _relevar(socket: str, lector: asyncio.StreamReader, escritor: asyncio.StreamWriter) -> None:
    try:
        lector_servicio, escritor_servicio = await asyncio.open_unix_connection(socket)
    except OSError:                           # the service is not up (yet): the connection is refused
        escritor.close()
        return
    try:
        await asyncio.gather(_copiar(lector, escritor_servicio), _copiar(lector_servicio, escritor))
    finally:
        for extremo in (escritor, escritor_servicio):
            extremo.close()


async def iniciar(host: str, puerto: int, socket: Path) -> asyncio.AbstractServer:
    """Listen on ``host:puerto`` (once; later calls return the same server) and relay to ``socket``.

    The relay lives as long as the hub: the port stays taken while the service restarts.  A port of
    1024 or more still leaves the hub's own restarts open (``jupyterhub_config.py`` warns).

    Raises:
        OSError: the port is taken.
    """
    clave = (host, puerto)
    if clave not in _servidores:
        _servidores[clave] = await asyncio.start_server(
            lambda lector, escritor: _atender(str(socket), lector, escritor), host, puerto)
    return _servidores[clave]


# ------------------------------------------------------------------------------ the hub's own port

TOPE_POR_CUENTA_HUB = 64
RAFAGA_HUB = 200           # requests one local account may send the hub's port at once (a token bucket) ...
POR_SEGUNDO_HUB = 50       # ... refilled at this many a second (the proxy's CURSO_HUB_PROXY_RAFAGA/_POR_SEGUNDO)
# the largest request body the hub takes, from anyone (a login form, an API call's JSON: a few KiB). tornado keeps
# a body whole in memory: one student's 12 requests of 95 MiB held took the hub to 1.28 GB (a sixth attacker's F4)
MAX_CUERPO_HUB = 8 * 1024 ** 2


def limitar_servidor_del_hub(tope: int = TOPE_POR_CUENTA_HUB, rafaga: int = RAFAGA_HUB,
                             por_segundo: int = POR_SEGUNDO_HUB) -> None:
    """Cap, per local account, the connections the hub's own HTTP server holds and the requests it takes (the hub's
    process only).

    The hub's port (``hub_bind_url``: students' servers call the hub's API there) accepted TCP from every local
    account with no cap: one student holding about 20 000 idle connections from a few processes filled the hub's
    open files, and nobody logged in (issue 19, a new attacker's report, F1). Now every tornado ``HTTPServer`` of
    this process (the hub's) gets each new connection at once and, as soon as the kernel says whose it is
    (``conexiones_por_cuenta.Duenos``, ``ss``), closes it when that account (not root, not the hub's) already holds
    ``tope``. A student's server needs a handful. tornado's own timeout for a connection without headers stays (an
    hour): the proxy keeps its connections to the hub alive, and a shorter one would cut them under its requests.

    Requests, not only connections (a fifth attacker's F1, against the proxy: a burst of requests on connections
    closed at once held almost none): each request waits until its connection's owner is known, then draws from
    that account's bucket (``rafaga`` at once, ``por_segundo`` a second after); one past it gets 429 from here and
    never reaches the hub's handlers. No login here from a local account (403, ``ENTRAR_POR_EL_PROXY``): people log
    in through the proxy, which limits logins per account (a sixth attacker's F1); a second budget here let a
    seventh attacker double her password guesses (F2). Root and the hub's account (the proxy, the hub itself) are
    not limited. No request body above ``MAX_CUERPO_HUB``, from anyone. And every password check, whatever its URL,
    counts again where the hub runs it (``conexiones_por_cuenta.limitar_logins_del_hub``: a fresh attacker's F1s
    found URL spellings that both gates above missed). Idempotent.
    """
    conexiones_por_cuenta.limitar_servidores_tornado(CUENTAS_DE_CONFIANZA, tope, rafaga, por_segundo,
                                                     logins=conexiones_por_cuenta.Logins(en_curso=0),
                                                     max_cuerpo=MAX_CUERPO_HUB)
    conexiones_por_cuenta.limitar_logins_del_hub()
