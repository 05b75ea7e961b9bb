"""Who owns each loopback connection, from the kernel, and what a tornado HTTP server lets each account do.

Shared by the hub's process (``despliegue/hub/relevo.py``: the formgrader's relay and the hub's own port) and every
single-user server of the hub (``jupyter_server_config.py`` next to this file).  On one machine every account
shares the loopback interface: any student can open TCP connections to the hub's port and to a classmate's server.
The kernel knows whose socket is at the other end; iproute2's ``ss`` asks it through netlink, filtered by port in
the kernel (not /proc/net/tcp, which any account can make huge), in a child process, one run at a time.

:func:`limitar_servidores_tornado` patches tornado's ``HTTPServer`` (the class, so every server of the process):
each new connection is attributed to its owner as soon as the kernel says; an account not trusted keeps at most
``tope`` connections at a time; each request waits for its connection's owner and, with a bucket, draws from that
account's (:class:`Cubos`): past it, a 429 with :data:`DEMASIADAS`, never handed to the application.

stdlib and tornado only (a server of the hub imports it from its configuration folder).
"""
from __future__ import annotations

import asyncio
import os
import re

# connections waiting to learn their owner: more are closed at once (a flood of connections cannot fill the
# process's open files while the kernel is asked)
MAX_EN_ESPERA = 512

# the states of a client's socket whose owner the kernel still knows: connected, or already half-closed by its
# client (a request sent and the writing side shut: FIN-WAIT). Not TIME-WAIT: a socket there has no owner any more
# and ss says root for it.
ESTADOS = ("state", "established", "state", "fin-wait-1", "state", "fin-wait-2")
SS = next((r for r in ("/usr/bin/ss", "/bin/ss", "/usr/sbin/ss", "/sbin/ss") if os.access(r, os.X_OK)), None)


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


class Duenos:
    """Who owns the other end of each loopback connection to our ports, from the kernel (iproute2's ``ss``,
    netlink, filtered by port in the kernel), in a child process: the event loop keeps running meanwhile.

    Not by reading /proc/net/tcp: any account can make that table huge (600 000 sockets of its own: 1.4 s a reading,
    in the process's only thread; issue 19, a new attacker's report).  At most one ``ss`` at a time; the connections that
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
                if SS:
                    filtro = "( " + " or ".join(f"dport = :{p}" for p in puertos) + " )"
                    try:
                        proceso = await asyncio.create_subprocess_exec(
                            SS, "-Htne", *ESTADOS, filtro,
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


duenos = Duenos()


# ------------------------------------------------------------------------------ requests per account

DEMASIADAS = ("Demasiadas peticiones seguidas desde tu cuenta o tu dirección: espera unos segundos y vuelve a "
              "intentarlo.\n")


class Cubos:
    """A token bucket per account: ``capacidad`` requests at once, refilled at ``por_segundo`` a second.

    Full buckets are forgotten (``gastar`` keeps at most the accounts seen since they last filled up).
    """

    def __init__(self, capacidad: float, por_segundo: float) -> None:
        self.capacidad, self.por_segundo = capacidad, por_segundo
        self._cubos: dict[object, tuple[float, float]] = {}

    def queda(self, cuenta: object, ahora: float | None = None) -> bool:
        """Whether ``cuenta`` has a token now (none is taken)."""
        import time
        ahora = time.monotonic() if ahora is None else ahora
        fichas, en = self._cubos.get(cuenta, (self.capacidad, ahora))
        return min(self.capacidad, fichas + (ahora - en) * self.por_segundo) >= 1

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


DEMASIADOS_LOGIN = ("Demasiados intentos de entrar seguidos desde tu cuenta o tu dirección: espera unos segundos "
                    "y vuelve a intentarlo.\n")
# a login, or an API token asked with a password: what makes the hub run PAM (2-3 s per failure, in a few threads).
# Matched by segments, not by a route (fresh attackers' F1s: '/hub//login', '//hub/login', '/hub\login' and
# '/hub/api/users/%2F/tokens' reached a password check uncounted; tornado routes the raw path, the proxy and
# browsers read a backslash as a slash): a POST to the hub (see ``es_login``) with a segment ``login`` or ``tokens``,
# in any spelling, counts. Counting a spelling the hub answers 404 costs nothing. The hub checks again where the
# password is checked (``limitar_logins_del_hub``): this is the cheap first gate, in the proxy and on the hub's port.
ES_LOGIN = re.compile(r"^(login|tokens)$")


def _ruta_descodificada(url: str) -> str:
    """The path of ``url``: no scheme, host, query or fragment; percent-decoded (kept raw if it does not decode);
    a backslash read as a slash (as the WHATWG URL parser, and so the proxy, reads it)."""
    from urllib.parse import unquote
    ruta = re.sub(r"^[a-z][a-z0-9+.-]*://[^/]*", "", str(url or ""), flags=re.I)
    ruta = re.split(r"[?#]", ruta, maxsplit=1)[0]
    try:
        ruta = unquote(ruta, errors="strict")
    except UnicodeDecodeError:
        pass
    return ruta.replace("\\", "/")


def ruta_normalizada(url: str) -> str:
    """The path of ``url`` as a router that forgives may read it (:func:`_ruta_descodificada`, lower case, empty and
    ``.`` segments dropped and ``..`` applied); the twin of ``rutaNormalizada`` in
    ``despliegue/hub/proxy/tope_por_cuenta.js``."""
    trozos: list[str] = []
    for trozo in _ruta_descodificada(url).lower().split("/"):
        if trozo == "..":
            if trozos:
                trozos.pop()
        elif trozo not in ("", "."):
            trozos.append(trozo)
    return "/" + "/".join(trozos)


def es_login(url: str) -> bool:
    """Whether a POST to ``url`` may make the hub check a password: its normalised path goes to the hub (a segment
    ``hub`` before any ``user`` or ``services``: a user's server or a service never runs PAM) and its path, read
    before or after ``..`` is applied, has a segment ``login`` or ``tokens`` (:data:`ES_LOGIN`)."""
    normalizada = ruta_normalizada(url).split("/")
    servidor = next((t for t in normalizada if t in ("hub", "user", "services")), None)
    if servidor != "hub":
        return False
    return any(ES_LOGIN.match(t) for t in _ruta_descodificada(url).lower().split("/"))


ENTRAR_POR_EL_PROXY = ("Este puerto es interno del hub: para entrar, usa la dirección del hub en el navegador.\n")


class Logins:
    """Logins per account (a sixth attacker's F1: 40 failed logins at once from one student made the TA's wait
    46 s): at most ``en_curso`` at a time, and each failed one (any answer but a redirect, 302) spends one of
    ``fallos`` tokens, given back one every ``recarga_s`` seconds.  The proxy does the same
    (``despliegue/hub/proxy/tope_por_cuenta.js``).

    ``en_curso=0``: no login at all from an untrusted account (the hub's internal port, where people never log in:
    a seventh attacker's F2 doubled her guesses by alternating it with the proxy's), answered with
    :data:`ENTRAR_POR_EL_PROXY`."""

    def __init__(self, en_curso: int = 1, fallos: int = 5, recarga_s: float = 10) -> None:
        self.en_curso = en_curso
        self._curso: dict[object, int] = {}
        self._fallos = Cubos(fallos, 1 / recarga_s)

    def empezar(self, cuenta: object) -> bool:
        """Whether a login of ``cuenta`` may go on now (then it counts until :meth:`terminar`)."""
        if self._curso.get(cuenta, 0) >= self.en_curso or not self._fallos.queda(cuenta):
            return False
        self._curso[cuenta] = self._curso.get(cuenta, 0) + 1
        return True

    def terminar(self, cuenta: object, codigo: int | None) -> None:
        quedan = self._curso.get(cuenta, 1) - 1
        if quedan > 0:
            self._curso[cuenta] = quedan
        else:
            self._curso.pop(cuenta, None)
        if codigo != 302:
            self._fallos.gastar(cuenta)


CONFIABLE = object()       # the connection's owner is trusted (or it is not from this machine, when so configured)
RECHAZADA = object()       # the connection was closed (over its account's cap, or a flood): its requests are dropped


# a request's connection whose owner this process was not told (a server :func:`limitar_servidores_tornado` did not
# patch)
SIN_DUENO = object()
POR_IP = 16                # an address from another machine gets this many times an account's logins (the proxy's)


def origen_del_login(handler) -> object:
    """Who asks the hub to check a password in ``handler``'s request: the account or address the course's proxy
    wrote in ``X-Curso-Origen`` when the connection is the proxy's (a trusted account's), :data:`CONFIABLE` when the
    proxy says so (root, the TA's test browser) or the connection is trusted and carries no such header,
    :data:`RECHAZADA` for a connection of any other local account (the hub's own port, where nobody logs in), and
    :data:`SIN_DUENO` when the server was not patched (nothing known: not limited here)."""
    cuenta = getattr(getattr(handler.request, "connection", None), "_curso_cuenta", SIN_DUENO)
    if cuenta is SIN_DUENO:
        return SIN_DUENO
    if cuenta is not CONFIABLE:
        return RECHAZADA
    origen = handler.request.headers.get("X-Curso-Origen", "")
    return CONFIABLE if origen in ("", "confiable") else origen


def limitar_logins_del_hub(cuentas: Logins | None = None, direcciones: Logins | None = None) -> None:
    """The hub's process: every password check (``BaseHandler.authenticate``: the login form, an API token asked with
    a password, whatever route reaches them) counts for the account or address that asked (:func:`origen_del_login`),
    with :class:`Logins`' rules: one at a time, five failures then one every 10 s (an address from another machine,
    :data:`POR_IP` times that, four at a time: the proxy's rules). Past them the hub answers 429 in Spanish
    (:data:`DEMASIADOS_LOGIN`, plain text as the proxy's) without running the authenticator; a local account straight
    on the hub's port gets 403 (:data:`ENTRAR_POR_EL_PROXY`). The answer is sent at once and the handler stopped
    (``tornado.web.Finish``): the token API would turn any error into a bare 403, as a wrong password.

    Why here and not only by URL (issue 19, fresh attackers' F1s): the proxy and the hub's port match the URL, and
    every spelling they missed ran PAM uncounted ('/hub//login'; then '/hub\\login', which the proxy forwards as
    '/hub/login', and '/hub/api/users/%2F/tokens', which tornado routes to the token API): 680 guesses a minute
    against the TA's password from one student. The URL gate stays in front (cheap, and its 429 has Spanish text
    on every page); this one cannot be missed. A failure is a check that returns no user or raises. Idempotent.

    Raises (from the patched method):
        tornado.web.Finish: after answering 429 or 403 as above.
    """
    from jupyterhub.handlers.base import BaseHandler
    from tornado import web
    if getattr(BaseHandler, "_curso_logins", None) is not None:
        return
    cuentas = cuentas or Logins()
    direcciones = direcciones or Logins(en_curso=4, fallos=5 * POR_IP, recarga_s=10 / POR_IP)
    original = BaseHandler.authenticate

    def negar(handler, codigo: int, motivo: str, texto: str):
        handler.clear()
        handler.set_status(codigo, motivo)
        handler.set_header("Content-Type", "text/plain; charset=utf-8")
        handler.set_header("Retry-After", "10")
        handler.finish(texto)
        raise web.Finish()

    async def authenticate(self, data):
        origen = origen_del_login(self)
        if origen is SIN_DUENO or origen is CONFIABLE:
            return await original(self, data)
        if origen is RECHAZADA:
            negar(self, 403, "Forbidden", ENTRAR_POR_EL_PROXY)
        logins = direcciones if str(origen).startswith("ip ") else cuentas
        if not logins.empezar(origen):
            negar(self, 429, "Too Many Requests", DEMASIADOS_LOGIN)
        usuario = None
        try:
            usuario = await original(self, data)
            return usuario
        finally:
            logins.terminar(origen, 302 if usuario else None)

    BaseHandler.authenticate = authenticate
    BaseHandler._curso_logins = (cuentas, direcciones)
    BaseHandler._curso_authenticate_original = original


def _responder_429(conexion, texto: str, codigo: int = 429, motivo: str = "Too Many Requests") -> None:
    from tornado import httputil
    cuerpo = texto.encode()
    conexion.write_headers(
        httputil.ResponseStartLine("HTTP/1.1", codigo, motivo),
        httputil.HTTPHeaders({"Content-Type": "text/plain; charset=utf-8", "Retry-After": "1",
                              "Connection": "close", "Content-Length": str(len(cuerpo))}), cuerpo)
    conexion.finish()


def _contar_login(conexion, cuenta, logins: Logins) -> None:
    """Count this login until its answer is finished or its connection closes (with the answer's status)."""
    estado: dict = {"codigo": None, "hecho": False}
    escribir, acabar = conexion.write_headers, conexion.finish

    def terminar() -> None:
        if not estado["hecho"]:
            estado["hecho"] = True
            logins.terminar(cuenta, estado["codigo"])

    def write_headers(start_line, headers, chunk=None):
        estado["codigo"] = getattr(start_line, "code", estado["codigo"])
        return escribir(start_line, headers, chunk)

    def finish():
        try:
            return acabar()
        finally:
            terminar()

    conexion.write_headers, conexion.finish = write_headers, finish
    conexion._curso_terminar_login = terminar


DEMASIADO_GRANDE = ("La petición es demasiado grande para este servidor: sube el archivo en partes más "
                    "pequeñas.\n")


def _con_cupo(delegado, conexion, dueno: asyncio.Future, cubos: Cubos | None, logins: Logins | None = None,
              max_cuerpo: int | None = None):
    """An ``HTTPMessageDelegate`` that hands a request to ``delegado`` once its connection's owner is known
    (``dueno``: a uid, None when the kernel did not say, :data:`CONFIABLE` or :data:`RECHAZADA`) and only if that
    account's bucket allows; otherwise answers 429 itself (:data:`DEMASIADAS`) and closes the connection."""
    from tornado import httputil

    class ConCupo(httputil.HTTPMessageDelegate):
        pasa: bool | None = None

        async def headers_received(self, start_line, headers):
            cuenta = await dueno
            if cuenta is RECHAZADA:
                self.pasa = False
                return
            if max_cuerpo is not None:
                # whoever sends it (also through the proxy): tornado keeps a body whole in memory
                try:
                    declarado = int(headers.get("Content-Length", "0") or 0)
                except ValueError:
                    declarado = 0
                if declarado > max_cuerpo:
                    self.pasa = False
                    _responder_429(conexion, DEMASIADO_GRANDE, 413, "Payload Too Large")
                    return
                conexion.set_max_body_size(max_cuerpo)
            conexion._curso_cuenta = cuenta       # who is behind it, for the hub's password checks
            self.pasa = cuenta is CONFIABLE or cubos is None or cubos.gastar(cuenta)
            if not self.pasa:
                _responder_429(conexion, DEMASIADAS)
                return
            if logins is not None and cuenta is not CONFIABLE and getattr(start_line, "method", "") == "POST" \
                    and es_login(getattr(start_line, "path", "") or ""):
                if not logins.empezar(cuenta):
                    self.pasa = False
                    if logins.en_curso:
                        _responder_429(conexion, DEMASIADOS_LOGIN)
                    else:
                        _responder_429(conexion, ENTRAR_POR_EL_PROXY, 403, "Forbidden")
                    return
                _contar_login(conexion, cuenta, logins)
            hecho = delegado.headers_received(start_line, headers)
            if hecho is not None:
                await hecho

        def data_received(self, chunk):
            return delegado.data_received(chunk) if self.pasa else None

        def finish(self):
            if self.pasa:
                delegado.finish()

        def on_connection_close(self):
            terminar = getattr(conexion, "_curso_terminar_login", None)
            if terminar is not None:
                terminar()
            if self.pasa is not False:
                delegado.on_connection_close()

    return ConCupo()


def _es_de_esta_maquina(direccion) -> bool:
    import ipaddress
    try:
        ip = ipaddress.ip_address(str(direccion[0]).split("%")[0])
    except (ValueError, TypeError, IndexError):
        return False
    return (getattr(ip, "ipv4_mapped", None) or ip).is_loopback


def limitar_servidores_tornado(confiables: frozenset[int], tope: int, rafaga: int | None = None,
                               por_segundo: int | None = None, *, solo_de_esta_maquina: bool = False,
                               logins: Logins | None = None, max_cuerpo: int | None = None) -> None:
    """Patch tornado's ``HTTPServer`` (every server of this process): each connection counts for the account that
    owns its other end (:class:`Duenos`); one of an account not in ``confiables`` is closed when that account already
    holds ``tope`` (0: all of them); each request waits for its connection's owner and, with ``rafaga`` and
    ``por_segundo``, draws from that account's :class:`Cubos` (429 past it).  The kernel's silence (a socket gone,
    no ``ss``) counts as one more untrusted account (None).

    ``logins`` (the hub's port): an untrusted account's logins are also limited (:class:`Logins`).
    ``max_cuerpo`` (the hub's port): no request, whoever sends it, may bring a body larger (413).

    ``solo_de_esta_maquina``: a connection whose other end is not a loopback address (another machine or pod) or
    that comes through a Unix socket is trusted (a single-user server: the hub's proxy may live elsewhere; a Unix
    socket's folder already says who may connect).  Idempotent: the first call's values stay.
    """
    import socket as _socket

    import tornado.httpserver
    servidor = tornado.httpserver.HTTPServer
    if getattr(servidor, "_curso_limitado", False):
        return
    atender_original = servidor.handle_stream
    empezar_original = servidor.start_request
    abiertas: dict[int | None, list] = {}
    cubos = Cubos(rafaga, por_segundo) if rafaga is not None and por_segundo is not None else None

    async def decidir(stream, address, dueno: asyncio.Future) -> None:
        cuenta = None
        try:
            try:
                sock = stream.socket
                familia = sock.family
                propio = sock.getsockname()
            except (OSError, AttributeError):
                return
            if solo_de_esta_maquina and (familia == _socket.AF_UNIX or not _es_de_esta_maquina(address)):
                cuenta = CONFIABLE
                return
            if duenos.en_espera() >= MAX_EN_ESPERA:
                stream.close()
                cuenta = RECHAZADA
                return
            uid = await duenos.de(propio[:2], tuple(address[:2])) if address and len(address) >= 2 else None
            if uid in confiables:
                cuenta = CONFIABLE
                return
            if stream.closed():
                cuenta = RECHAZADA
                return
            vivas = [s for s in abiertas.get(uid, []) if not s.closed()]
            if len(vivas) >= tope:
                stream.close()
                cuenta = RECHAZADA
                return
            abiertas[uid] = vivas + [stream]
            cuenta = uid
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
        return delegado if dueno is None else _con_cupo(delegado, request_conn, dueno, cubos, logins, max_cuerpo)

    servidor.handle_stream = handle_stream
    servidor.start_request = start_request
    servidor._curso_limitado = True


# ------------------------------------------------------------------------------ a server's failed logins

DEMASIADOS_FALLOS = ("Demasiados intentos fallidos de identificarse en este servidor desde tu cuenta o tu dirección: "
                     "espera unos segundos y vuelve a intentarlo.")
DEMASIADOS_FALLOS_EN_TOTAL = ("Este servidor está recibiendo demasiadas credenciales que no conoce, y desde tu cuenta o "
                              "tu dirección han llegado otras hace poco: espera un minuto y vuelve a intentarlo (si ya "
                              "estabas dentro, tu sesión sigue valiendo).")
NO_SE_PUDO_ENTRAR = ("No se pudo terminar de entrar en este servidor: el hub no aceptó el código de inicio de sesión "
                     "(caduca enseguida y sirve una sola vez) o no contestó. Vuelve a abrirlo desde la página del hub.")


def _en_cache(auth, handler) -> bool:
    """Whether the request's token (header or cookie) is in HubAuth's cache of the hub's answers (JupyterHub 5's key,
    ``HubAuth.user_for_token``): then checking it costs the hub nothing."""
    import hashlib
    try:
        token = auth.get_token(handler, in_cookie=True)
        if not token:
            return False
        clave = "token:{}:{}".format(auth.get_session_id(handler),
                                     hashlib.sha256(token.encode("utf8", "replace")).hexdigest())
        return clave in auth.cache
    except Exception:  # noqa: BLE001 - another JupyterHub: treated as not cached (the total bucket applies)
        return False


def limitar_fallos_de_identificacion(fallos: int = 20, por_segundo: float = 2, fallos_total: int = 60,
                                     por_segundo_total: float = 5, limpio: int = 2, limpio_s: float = 30) -> None:
    """A hub's single-user server: a request with credentials it cannot identify spends one of ``fallos`` tokens of
    the account or address it came from (``X-Curso-Origen``, which the hub's proxy sets on every request,
    ``tope_por_cuenta.js``), given back ``por_segundo`` a second; with none left, the server answers 429 itself
    without asking the hub.

    Why (a sixth attacker's F2): the server asks the hub about every token it does not know, on its owner's account,
    and the hub's port limits each account's requests: two classmates sending a victim's server requests with
    random tokens spent the victim's budget at the hub, and the victim's own requests got 500.  Now whoever sends
    them spends their own.  Without the header (no course proxy in front, e.g. Kubernetes), nothing changes.

    And in total (an eighth attacker's F3: from 23 addresses, 20 failures each added up and spent the owner's budget
    again): at most ``fallos_total`` unknown credentials, then ``por_segundo_total`` a second, from every origin
    together.  Past it, a credential the server has not checked yet is still checked when its origin has failed
    fewer than ``limpio`` times in the last ``limpio_s`` seconds or so (one more every ``limpio_s``): the owner or
    the TA logging in anew while others flood the server (a tenth attacker's F1: their valid OAuth code got 429) gets
    in, and each flooding origin gets ``limpio`` checks, then one every ``limpio_s`` seconds; the others get 429
    (:data:`DEMASIADOS_FALLOS_EN_TOTAL`) without asking the hub.  A credential in HubAuth's cache (a session, or a
    token already known to be wrong) costs the hub nothing: it always goes on and never counts.  A valid token of
    someone else than a user server's owner counts as a failure too, and so does a failed end of the OAuth login
    (``HubOAuthCallbackHandler``: a random ``code`` is checked at the hub on the owner's account; a ninth
    attacker's F1), whose page says why in Spanish (:data:`NO_SE_PUDO_ENTRAR`, or the 429's text).  Idempotent;
    patches ``HubAuth._get_user`` and ``HubOAuthCallbackHandler.get`` / ``write_error``.
    """
    from jupyterhub.services import auth
    from tornado import web
    if getattr(auth.HubAuth, "_curso_fallos", None) is not None:
        return
    original = auth.HubAuth._get_user
    cubos = Cubos(fallos, por_segundo)
    total = Cubos(fallos_total, por_segundo_total)
    limpios = Cubos(limpio, 1 / limpio_s)

    def negar(origen: str) -> str | None:
        """Why a new credential from ``origen`` is not checked at the hub now (None: it is)."""
        if not cubos.queda(origen):
            return DEMASIADOS_FALLOS
        if not total.queda("todos") and not limpios.queda(origen):
            return DEMASIADOS_FALLOS_EN_TOTAL
        return None

    def fallo(origen: str) -> None:
        cubos.gastar(origen)
        total.gastar("todos")
        limpios.gastar(origen)

    async def _get_user(self, handler):
        if hasattr(handler, "_cached_hub_user"):
            return await original(self, handler)
        origen = handler.request.headers.get("X-Curso-Origen", "")
        credencial = origen and origen != "confiable" and bool(self.get_token(handler, in_cookie=True))
        nueva = credencial and not _en_cache(self, handler)
        motivo = negar(origen) if nueva else None
        if motivo:
            raise web.HTTPError(429, motivo, reason="Too Many Requests")
        usuario = await original(self, handler)
        dueno = os.environ.get("JUPYTERHUB_USER")           # a user's server (a service has none: TAs use it)
        if nueva and (not usuario or (dueno and usuario.get("name") != dueno)):
            # a classmate's valid token is a lookup on the owner's account too (a ninth attacker's F1): it counts
            fallo(origen)
        return usuario

    # the end of the OAuth login (``…/oauth_callback?code=…&state=…``): each one makes the server ask the hub on its
    # owner's account; a random code from anyone (a ninth attacker's F1: 105 a second for 16 s kept a student from
    # submitting and the TA from opening the formgrader) spends the same budgets as an unknown token
    llamada = auth.HubOAuthCallbackHandler.get

    async def get(self):
        origen = self.request.headers.get("X-Curso-Origen", "")
        cuenta = bool(origen) and origen != "confiable"
        motivo = negar(origen) if cuenta else None
        if motivo:
            raise web.HTTPError(429, motivo, reason="Too Many Requests")
        try:
            return await llamada(self)
        except Exception:
            if cuenta:
                fallo(origen)
            raise

    def write_error(self, status_code: int, **kwargs) -> None:
        """The callback's error page: plain Spanish text (tornado's own says only «429: Too Many Requests»)."""
        error = kwargs.get("exc_info", (None, None, None))[1]
        propio = isinstance(error, web.HTTPError) and error.log_message in (DEMASIADOS_FALLOS,
                                                                            DEMASIADOS_FALLOS_EN_TOTAL)
        if status_code == 429:
            self.set_header("Retry-After", "5")
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish((error.log_message if propio else NO_SE_PUDO_ENTRAR) + "\n")

    auth.HubOAuthCallbackHandler.get = get
    auth.HubOAuthCallbackHandler.write_error = write_error
    auth.HubAuth._get_user = _get_user
    auth.HubAuth._curso_fallos = cubos

