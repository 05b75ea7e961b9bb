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
from pathlib import Path

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


def uid_del_otro_extremo(par) -> int | None:
    """The uid owning the local TCP socket at ``par`` (``(ip, puerto)`` as ``getpeername`` gives it), from
    ``/proc/net/tcp`` or ``/proc/net/tcp6``; None when it is not there (gone, another machine)."""
    if not par or len(par) < 2:
        return None
    ip, puerto = par[0], int(par[1])
    for archivo in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(archivo, encoding="ascii") as f:
                lineas = f.read().splitlines()[1:]
        except OSError:
            continue
        for linea in lineas:
            campos = linea.split()
            if len(campos) < 8 or ":" not in campos[1]:
                continue
            direccion, puerto_hex = campos[1].rsplit(":", 1)
            if int(puerto_hex, 16) != puerto or _ip_de(direccion) != ip:
                continue
            return int(campos[7])
    return None


def _ip_de(hexadecimal: str) -> str | None:
    """``0100007F`` → ``127.0.0.1`` (IPv4, as /proc/net/tcp writes it); an IPv4-mapped IPv6 address likewise."""
    import ipaddress
    try:
        crudo = bytes.fromhex(hexadecimal)
    except ValueError:
        return None
    if len(crudo) == 4:
        return str(ipaddress.IPv4Address(crudo[::-1]))
    if len(crudo) == 16:
        palabras = b"".join(crudo[i:i + 4][::-1] for i in range(0, 16, 4))
        direccion = ipaddress.IPv6Address(palabras)
        return str(direccion.ipv4_mapped or direccion)
    return None


async def _atender(socket: str, lector: asyncio.StreamReader, escritor: asyncio.StreamWriter) -> None:
    global _abiertas
    if _abiertas >= MAX_CONEXIONES or uid_del_otro_extremo(escritor.get_extra_info("peername")) \
            not in CUENTAS_DE_CONFIANZA:
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
