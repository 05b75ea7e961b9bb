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
# connections waiting to learn their owner: more are closed at once (a flood of connections cannot fill the hub's
# open files while the kernel is asked)
MAX_EN_ESPERA = 512
_abiertas = 0
# the states of a client's socket whose owner the kernel still knows: connected, or already half-closed by its
# client (a request sent and the writing side shut: FIN-WAIT). Not TIME-WAIT: a socket there has no owner any more
# and ss says root for it.
ESTADOS = ("state", "established", "state", "fin-wait-1", "state", "fin-wait-2")
_SS = next((r for r in ("/usr/bin/ss", "/bin/ss", "/usr/sbin/ss", "/sbin/ss") if os.access(r, os.X_OK)), None)


def leer_ss(texto: str) -> dict[tuple[str, int, str, int], int]:
    """``ss -Htne`` lines → ``{(local ip, local port, remote ip, remote port): uid}`` (``ss`` writes «uid:N» only
    for a socket whose owner is not root)."""
    import re
    tabla = {}
    for linea in texto.splitlines():
        campos = linea.split()
        if campos and not campos[0].isdigit():      # the State column (ss writes it when asked for several states)
            campos = campos[1:]
        if len(campos) < 4:
            continue
        local, remoto = _extremo(campos[2]), _extremo(campos[3])
        uid = re.search(r"(?:^|\s)uid:(\d+)", linea)
        if local and remoto:
            tabla[(*local, *remoto)] = int(uid.group(1)) if uid else 0
    return tabla


def _extremo(texto: str) -> tuple[str, int] | None:
    """``127.0.0.1:880``, ``[::1]:880``, ``[::ffff:127.0.0.1]:880`` → ``(ip, port)`` (an IPv4-mapped address as IPv4)."""
    import ipaddress
    ip, _, puerto = texto.rpartition(":")
    try:
        direccion = ipaddress.ip_address(ip.strip("[]").split("%")[0])
        return str(getattr(direccion, "ipv4_mapped", None) or direccion), int(puerto)
    except ValueError:
        return None


class _Duenos:
    """Who owns the other end of each loopback connection to the relay's ports, from the kernel (iproute2's ``ss``,
    netlink, filtered by port in the kernel), in a child process: the hub's loop keeps running meanwhile.

    Not by reading /proc/net/tcp: any account can make that table huge (600 000 sockets of its own: 1.4 s a reading,
    in the hub's only thread; issue 19, a new attacker's report).  At most one ``ss`` at a time; the connections that
    arrive meanwhile wait for the next one, which starts after the connection arrived (a reading from before may
    hold the same port for a closed socket of another account).
    """

    def __init__(self) -> None:
        self._esperando: list[tuple[tuple, asyncio.Future]] = []
        self._leyendo = False

    def en_espera(self) -> int:
        return len(self._esperando)

    async def de(self, local: tuple, remoto: tuple) -> int | None:
        """The uid owning the socket at ``remoto`` connected to our ``local``; None if the kernel did not say."""
        futuro = asyncio.get_running_loop().create_future()
        self._esperando.append(((remoto[0], int(remoto[1]), local[0], int(local[1])), futuro))
        if not self._leyendo:
            asyncio.ensure_future(self._leer())
        return await futuro

    async def _leer(self) -> None:
        self._leyendo = True
        try:
            while self._esperando:
                ahora, self._esperando = self._esperando, []
                puertos = sorted({clave[3] for clave, _ in ahora})
                tabla = {}
                if _SS:
                    filtro = "( " + " or ".join(f"dport = :{p}" for p in puertos) + " )"
                    try:
                        proceso = await asyncio.create_subprocess_exec(
                            _SS, "-Htne", *ESTADOS, filtro,
                            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
                        salida, _ = await asyncio.wait_for(proceso.communicate(), 10)
                        tabla = leer_ss(salida.decode("ascii", "replace"))
                    except (OSError, asyncio.TimeoutError):
                        tabla = {}
                for clave, futuro in ahora:
                    if not futuro.done():
                        futuro.set_result(tabla.get(_normalizar(clave)))
        finally:
            self._leyendo = False


def _normalizar(clave: tuple) -> tuple:
    ip1, p1, ip2, p2 = clave
    a, b = _extremo(f"[{ip1}]:{p1}"), _extremo(f"[{ip2}]:{p2}")
    return (*a, *b) if a and b else clave


_duenos = _Duenos()


async def uid_del_otro_extremo(escritor: asyncio.StreamWriter) -> int | None:
    """The uid owning the other end of the TCP connection ``escritor`` holds (None: gone, another machine, or no
    ``ss``)."""
    par, propio = escritor.get_extra_info("peername"), escritor.get_extra_info("sockname")
    if not par or not propio or len(par) < 2 or len(propio) < 2:
        return None
    return await _duenos.de(propio[:2], par[:2])


async def _atender(socket: str, lector: asyncio.StreamReader, escritor: asyncio.StreamWriter) -> None:
    global _abiertas
    if _abiertas >= MAX_CONEXIONES or _duenos.en_espera() >= MAX_EN_ESPERA \
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
DEMASIADAS = "Demasiadas peticiones seguidas desde esta cuenta: espera unos segundos y vuelve a intentarlo.\n"


class Cubos:
    """A token bucket per account: ``capacidad`` requests at once, refilled at ``por_segundo`` a second.

    Full buckets are forgotten (``gastar`` keeps at most the accounts seen since they last filled up).
    """

    def __init__(self, capacidad: float, por_segundo: float) -> None:
        self.capacidad, self.por_segundo = capacidad, por_segundo
        self._cubos: dict[object, tuple[float, float]] = {}

    def gastar(self, cuenta: object, ahora: float | None = None) -> bool:
        """Whether ``cuenta`` may send one more request now (then one token is taken)."""
        import time
        ahora = time.monotonic() if ahora is None else ahora
        fichas, en = self._cubos.get(cuenta, (self.capacidad, ahora))
        fichas = min(self.capacidad, fichas + (ahora - en) * self.por_segundo)
        if len(self._cubos) > 4096:              # forget the ones full again
            self._cubos = {c: (f, e) for c, (f, e) in self._cubos.items()
                           if f + (ahora - e) * self.por_segundo < self.capacidad}
        if fichas < 1:
            self._cubos[cuenta] = (fichas, ahora)
            return False
        self._cubos[cuenta] = (fichas - 1, ahora)
        return True


_CONFIABLE = object()


def _con_cupo(delegado, conexion, dueno: asyncio.Future, cubos: Cubos):
    """An ``HTTPMessageDelegate`` that lets a request through to ``delegado`` once its connection's owner is known
    (``dueno``: a uid, None when the kernel did not say, or _CONFIABLE) and only if that account's bucket allows;
    otherwise the hub's port answers 429 itself, with :data:`DEMASIADAS`, and closes the connection."""
    from tornado import httputil

    class ConCupo(httputil.HTTPMessageDelegate):
        pasa: bool | None = None

        async def headers_received(self, start_line, headers):
            cuenta = await dueno
            self.pasa = cuenta is _CONFIABLE or cubos.gastar(cuenta)
            if self.pasa:
                hecho = delegado.headers_received(start_line, headers)
                if hecho is not None:
                    await hecho
                return
            cuerpo = DEMASIADAS.encode()
            conexion.write_headers(
                httputil.ResponseStartLine("HTTP/1.1", 429, "Too Many Requests"),
                httputil.HTTPHeaders({"Content-Type": "text/plain; charset=utf-8", "Retry-After": "1",
                                      "Connection": "close", "Content-Length": str(len(cuerpo))}), cuerpo)
            conexion.finish()

        def data_received(self, chunk):
            return delegado.data_received(chunk) if self.pasa else None

        def finish(self):
            if self.pasa:
                delegado.finish()

        def on_connection_close(self):
            if self.pasa is not False:
                delegado.on_connection_close()

    return ConCupo()


def limitar_servidor_del_hub(tope: int = TOPE_POR_CUENTA_HUB, rafaga: int = RAFAGA_HUB,
                             por_segundo: int = POR_SEGUNDO_HUB) -> None:
    """Cap, per local account, the connections the hub's own HTTP server holds and the requests it takes (the hub's
    process only).

    The hub's port (``hub_bind_url``: students' servers call the hub's API there) accepted TCP from every local
    account with no cap: one student holding about 20 000 idle connections from a few processes filled the hub's
    open files, and nobody logged in (issue 19, a new attacker's report, F1). Now every tornado ``HTTPServer`` of
    this process (the hub's) gets each new connection at once and, as soon as the kernel says whose it is
    (:class:`_Duenos`, ``ss``), closes it when that account (not root, not the hub's) already holds ``tope``. A
    student's server needs a handful. tornado's own timeout for a connection without headers stays (an hour):
    the proxy keeps its connections to the hub alive, and a shorter one would cut them under its requests.

    Requests, not only connections (a fifth attacker's F1, against the proxy: a burst of requests on connections
    closed at once held almost none): each request waits until its connection's owner is known, then draws from
    that account's bucket (``rafaga`` at once, ``por_segundo`` a second after); one past it gets 429 from here and
    never reaches the hub's handlers. Root and the hub's account (the proxy, the hub itself) are not limited.
    Idempotent.
    """
    import tornado.httpserver
    servidor = tornado.httpserver.HTTPServer
    if getattr(servidor, "_curso_limitado", False):
        return
    atender_original = servidor.handle_stream
    empezar_original = servidor.start_request
    abiertas: dict[int | None, list] = {}
    cubos = Cubos(rafaga, por_segundo)

    async def decidir(stream, address, dueno: asyncio.Future) -> None:
        cuenta = None
        try:
            try:
                propio = stream.socket.getsockname()
            except (OSError, AttributeError):
                return
            if _duenos.en_espera() >= MAX_EN_ESPERA:
                stream.close()
                return
            uid = await _duenos.de(propio[:2], tuple(address[:2])) if address and len(address) >= 2 else None
            if uid in CUENTAS_DE_CONFIANZA:
                cuenta = _CONFIABLE
                return
            cuenta = uid
            if stream.closed():
                return
            vivas = [s for s in abiertas.get(uid, []) if not s.closed()]
            if len(vivas) >= tope:
                stream.close()
                return
            abiertas[uid] = vivas + [stream]
        finally:
            if not dueno.done():
                dueno.set_result(cuenta)

    def handle_stream(self, stream, address):
        dueno = asyncio.get_running_loop().create_future()
        stream._curso_dueno = dueno
        atender_original(self, stream, address)
        asyncio.ensure_future(decidir(stream, address, dueno))

    def start_request(self, server_conn, request_conn):
        delegado = empezar_original(self, server_conn, request_conn)
        dueno = getattr(getattr(server_conn, "stream", None), "_curso_dueno", None)
        return delegado if dueno is None else _con_cupo(delegado, request_conn, dueno, cubos)

    servidor.handle_stream = handle_stream
    servidor.start_request = start_request
    servidor._curso_limitado = True
