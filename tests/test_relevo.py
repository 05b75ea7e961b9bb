"""The hub's relay from a privileged port to the formgrader service's Unix socket (``despliegue/hub/relevo.py``).

Issue 19, a hostile student's report F1: a student took the service's port while it restarted. The relay
holds a port below 1024 and copies bytes both ways to a socket in a folder only the service's account opens.
"""
from __future__ import annotations

import asyncio
import os
import pwd
import socket
import stat
import sys

import pytest

from conftest import RAIZ

sys.path.insert(0, str(RAIZ / "despliegue" / "hub"))
import relevo  # noqa: E402

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="el relevo del hub corre como root")


def _correr(corrutina) -> None:
    """``asyncio.run(corrutina)`` in a thread of its own: another test of the session (Playwright's sync API) may
    have left an event loop running in this one."""
    import threading
    errores: list[BaseException] = []

    def hilo():
        try:
            asyncio.run(corrutina)
        except BaseException as error:  # noqa: BLE001 - re-raised below, in the test's thread
            errores.append(error)
    t = threading.Thread(target=hilo)
    t.start()
    t.join(120)
    if errores:
        raise errores[0]


def _puerto_libre() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_el_relevo_copia_los_bytes_en_los_dos_sentidos_y_aguanta_sin_servicio(tmp_path):
    ruta = tmp_path / "servicio" / "formgrader.sock"
    ruta.parent.mkdir()

    async def eco(lector, escritor):                     # the service: answers with what it got, reversed
        datos = await lector.read()                       # until the client's EOF (the relay passes it on)
        escritor.write(datos[::-1])
        await escritor.drain()
        escritor.close()

    async def prueba():
        puerto = _puerto_libre()
        await relevo.iniciar("127.0.0.1", puerto, ruta)
        assert await relevo.iniciar("127.0.0.1", puerto, ruta) is await relevo.iniciar("127.0.0.1", puerto, ruta)
        # the service is not up: the connection is accepted and closed, the relay keeps listening
        lector, escritor = await asyncio.open_connection("127.0.0.1", puerto)
        assert await lector.read() == b""
        escritor.close()
        servicio = await asyncio.start_unix_server(eco, str(ruta))
        grande = os.urandom(3 * 1024 * 1024 + 17)         # more than one block, both ways
        lector, escritor = await asyncio.open_connection("127.0.0.1", puerto)
        escritor.write(grande)
        await escritor.drain()
        escritor.write_eof()
        assert await lector.read() == grande[::-1]
        escritor.close()
        servicio.close()
        await servicio.wait_closed()
        # the service gone again: the port is still the relay's
        lector, escritor = await asyncio.open_connection("127.0.0.1", puerto)
        assert await lector.read() == b""
        escritor.close()

    _correr(prueba())


def test_la_carpeta_del_socket_es_de_la_cuenta_del_servicio_y_no_un_enlace(tmp_path):
    cuenta = "nobody"
    usuario = pwd.getpwnam(cuenta)
    ruta = tmp_path / "servicio" / "formgrader.sock"
    relevo.preparar_carpeta(ruta, cuenta)
    datos = ruta.parent.stat()
    assert stat.S_IMODE(datos.st_mode) == 0o700 and datos.st_uid == usuario.pw_uid
    relevo.preparar_carpeta(ruta, cuenta)                 # again (the hub restarts): the same folder, still 0700
    # a link where the folder goes (someone made it first): refused, nothing followed
    otra = tmp_path / "otra"
    otra.mkdir()
    enlace = tmp_path / "enlazada" / "formgrader.sock"
    enlace.parent.symlink_to(otra)
    with pytest.raises(RuntimeError, match="no es una carpeta"):
        relevo.preparar_carpeta(enlace, cuenta)
    assert otra.stat().st_uid == 0
    # a folder of another account (a student made it first): refused
    ajena = tmp_path / "ajena" / "formgrader.sock"
    ajena.parent.mkdir()
    os.chown(ajena.parent, 12345, 12345)
    with pytest.raises(RuntimeError, match="es de otra cuenta"):
        relevo.preparar_carpeta(ajena, cuenta)


def test_el_relevo_solo_atiende_al_proxy_y_al_hub(tmp_path):
    """A second attacker's F5: a student holding 10 000 idle connections to the relay's port filled the hub's open
    files (two per connection) and took logins down. Only connections from root or the hub's own account (the
    proxy) are relayed; another account's is closed at once."""
    import subprocess
    ruta = tmp_path / "servicio" / "formgrader.sock"
    ruta.parent.mkdir()
    os.chmod(tmp_path, 0o755)

    async def eco(lector, escritor):
        escritor.write(await lector.read())
        await escritor.drain()
        escritor.close()

    async def prueba():
        puerto = _puerto_libre()
        await relevo.iniciar("127.0.0.1", puerto, ruta)
        servicio = await asyncio.start_unix_server(eco, str(ruta))
        lector, escritor = await asyncio.open_connection("127.0.0.1", puerto)     # root: relayed
        escritor.write(b"hola")
        escritor.write_eof()
        assert await lector.read() == b"hola"
        escritor.close()
        ajeno = ("import socket, sys\n"
                 "s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=10)\n"
                 "s.sendall(b'hola'); s.shutdown(socket.SHUT_WR)\n"
                 "try:\n"
                 "    print(repr(s.recv(100)))\n"
                 "except ConnectionResetError:\n"
                 "    print(repr(b''))\n")
        proceso = await asyncio.create_subprocess_exec(
            "runuser", "-u", "nobody", "--", "/usr/bin/python3", "-I", "-c", ajeno, str(puerto),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        salida, errores = await asyncio.wait_for(proceso.communicate(), 60)
        assert salida.decode().strip() == "b''", (salida, errores)                 # closed, nothing relayed
        servicio.close()
        await servicio.wait_closed()

    _correr(prueba())
    # ss's lines (with the State column when several states are asked; «uid:» only for an owner that is not root)
    assert relevo.leer_ss("ESTAB 0 0 127.0.0.1:5 127.0.0.1:880 uid:1001 ino:1\n"
                          "FIN-WAIT-1 0 9 [::ffff:127.0.0.1]:6 [::ffff:127.0.0.1]:880 timer:(on,1ms,0) ino:2\n") == {
        ("127.0.0.1", 5, "127.0.0.1", 880): 1001, ("127.0.0.1", 6, "127.0.0.1", 880): 0}


def test_el_cubo_de_peticiones_de_cada_cuenta():
    """relevo.Cubos (the hub's port, a fifth attacker's F1): ``capacidad`` requests at once per account, then
    ``por_segundo`` a second; one account's burst never spends another's; full buckets are forgotten."""
    cubos = relevo.Cubos(3, 2)
    assert [cubos.gastar(1001, 0.0) for _ in range(4)] == [True, True, True, False]
    assert cubos.gastar(1002, 0.0)                      # a classmate's bucket is her own
    assert not cubos.gastar(1001, 0.2)                  # 0.4 of a token
    assert cubos.gastar(1001, 0.6) and not cubos.gastar(1001, 0.6)
    assert [cubos.gastar(1001, 100.0) for _ in range(4)] == [True, True, True, False]   # never above capacity
    for cuenta in range(5000):                          # many accounts: the full ones are forgotten
        cubos.gastar(("ip", cuenta), 200.0)
    cubos.gastar(1001, 10_000.0)
    assert len(cubos._cubos) < 4200


_SERVIDOR_LIMITADO = r"""
import asyncio, socket, sys
sys.path.insert(0, sys.argv[1])
import conexiones_por_cuenta
import tornado.httpserver, tornado.netutil, tornado.web
# nobody trusted, not even root: every connection of this machine is someone else's (tope 0)
conexiones_por_cuenta.limitar_servidores_tornado(frozenset(), 0, solo_de_esta_maquina=True)

class Hola(tornado.web.RequestHandler):
    def get(self):
        self.write("hola")

async def principal():
    servidor = tornado.httpserver.HTTPServer(tornado.web.Application([(r"/", Hola)]))
    [tcp] = tornado.netutil.bind_sockets(0, "127.0.0.1")
    servidor.add_sockets([tcp, tornado.netutil.bind_unix_socket(sys.argv[2])])
    print(tcp.getsockname()[1], flush=True)
    await asyncio.Event().wait()

asyncio.run(principal())
"""


def _pedir(familia, direccion) -> bytes:
    with socket.socket(familia, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(direccion)
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        respuesta = b""
        try:
            while parte := s.recv(65536):
                respuesta += parte
        except ConnectionResetError:
            pass
        return respuesta


def test_un_servidor_limitado_no_atiende_a_otras_cuentas_y_si_por_su_socket_unix(tmp_path):
    """conexiones_por_cuenta.limitar_servidores_tornado as a hub's single-user server applies it: a loopback
    connection of an account it does not trust is closed before its request reaches the application (no answer at
    all); one through a Unix socket is not looked at (its folder says who may connect)."""
    import subprocess
    ruta = tmp_path / "s.sock"
    servidor = subprocess.Popen([sys.executable, "-c", _SERVIDOR_LIMITADO,
                                 str(RAIZ / "despliegue" / "hub" / "jupyter" / "comun"), str(ruta)],
                                stdout=subprocess.PIPE, text=True)
    try:
        puerto = int(servidor.stdout.readline())
        assert _pedir(socket.AF_INET, ("127.0.0.1", puerto)) == b""
        assert _pedir(socket.AF_UNIX, str(ruta)).startswith(b"HTTP/1.1 200")
        assert servidor.poll() is None
    finally:
        servidor.kill()
        servidor.wait()


def test_los_fallos_de_identificacion_de_muchos_origenes_suman_un_tope_por_servidor(monkeypatch):
    """An eighth attacker's F3: a server's limit of unknown credentials per origin (X-Curso-Origen) let 23 addresses
    send 20 each, and every one was checked at the hub on the owner's account until her own requests got 500. Now
    the origins together have a total too; past it, an origin that failed lately gets 429 without asking the hub,
    while a credential already in HubAuth's cache (the owner's session) goes on, and so does a new one from an
    origin that has not failed (a tenth attacker's F1: the TA's valid login got 429 while others flooded)."""
    from types import SimpleNamespace
    from jupyterhub.services import auth
    from tornado import web
    from conexiones_por_cuenta import DEMASIADOS_FALLOS_EN_TOTAL, limitar_fallos_de_identificacion
    preguntas = []

    async def original(self, handler):
        preguntas.append(handler.token)
        return {"name": "bea"} if handler.token in ("buena", "nueva") else None

    monkeypatch.setattr(auth.HubAuth, "_get_user", original)
    monkeypatch.setattr(auth.HubOAuthCallbackHandler, "get", auth.HubOAuthCallbackHandler.get)   # restored after
    monkeypatch.setattr(auth.HubOAuthCallbackHandler, "write_error", auth.HubOAuthCallbackHandler.write_error)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.setattr(auth.HubAuth, "_curso_fallos", None, raising=False)
    monkeypatch.setattr(auth.HubAuth, "get_token", lambda self, handler, in_cookie=True: handler.token)
    monkeypatch.setattr(auth.HubAuth, "get_session_id", lambda self, handler: "")
    limitar_fallos_de_identificacion(fallos=5, por_segundo=0.001, fallos_total=10, por_segundo_total=0.001,
                                     limpio=2, limpio_s=1000)
    hub_auth = auth.HubAuth(api_token="x", api_url="http://127.0.0.1:1/hub/api")

    def peticion(origen, token):
        return SimpleNamespace(token=token, request=SimpleNamespace(headers={"X-Curso-Origen": origen}))

    async def intentar(origen, token):
        try:
            return await hub_auth._get_user(peticion(origen, token))
        except web.HTTPError as error:
            return error

    async def todo():
        import hashlib
        clave = "token::" + hashlib.sha256(b"buena").hexdigest()
        hub_auth.cache[clave] = {"name": "bea"}              # her session, checked before the attack
        resultados = [await intentar(f"ip 203.0.113.{i}", f"falsa{i}{j}") for i in range(8) for j in range(5)]
        return (resultados, await intentar("ip 198.51.100.7", "buena"), await intentar("ip 198.51.100.8", "nueva"),
                await intentar("ip 203.0.113.7", "nueva"))

    resultados, suya, nueva, de_quien_inunda = asyncio.run(todo())
    negadas = [r for r in resultados if isinstance(r, web.HTTPError)]
    # the first two origins spend the total (5 each); each of the other six has 2 checks more, then 429
    assert len([p for p in preguntas if p.startswith("falsa")]) == 10 + 6 * 2 and len(negadas) == 40 - 22
    assert all(r.status_code == 429 and r.log_message == DEMASIADOS_FALLOS_EN_TOTAL for r in negadas)
    assert suya == {"name": "bea"}                                     # her cached session is not refused
    assert nueva == {"name": "bea"}                                    # a new login from a clean origin goes on
    assert isinstance(de_quien_inunda, web.HTTPError) and de_quien_inunda.status_code == 429


def test_el_final_del_oauth_entra_con_un_origen_limpio_y_contesta_en_español(monkeypatch):
    """A tenth attacker's F1 and F2: random OAuth codes from a few addresses emptied a server's total, and then the
    owner's (or the TA's) own valid code got 429, with tornado's English page. Now a clean origin's code is still
    checked, the flooding origins get 429, and the callback's error pages are Spanish."""
    import sys
    from types import SimpleNamespace
    from jupyterhub.services import auth
    from tornado import web
    from conexiones_por_cuenta import (DEMASIADOS_FALLOS_EN_TOTAL, NO_SE_PUDO_ENTRAR,
                                       limitar_fallos_de_identificacion)
    codigos_vistos = []

    async def llamada(self):
        codigos_vistos.append(self.code)
        if self.code != "valido":
            raise web.HTTPError(500, "invalid_grant")
        return "dentro"

    monkeypatch.setattr(auth.HubAuth, "_get_user", auth.HubAuth._get_user)
    monkeypatch.setattr(auth.HubOAuthCallbackHandler, "get", llamada)
    monkeypatch.setattr(auth.HubOAuthCallbackHandler, "write_error", auth.HubOAuthCallbackHandler.write_error)
    monkeypatch.setattr(auth.HubAuth, "_curso_fallos", None, raising=False)
    limitar_fallos_de_identificacion(fallos=3, por_segundo=0.001, fallos_total=6, por_segundo_total=0.001,
                                     limpio=2, limpio_s=1000)

    def peticion(origen, code):
        return SimpleNamespace(code=code, request=SimpleNamespace(headers={"X-Curso-Origen": origen}))

    async def intentar(origen, code):
        try:
            return await auth.HubOAuthCallbackHandler.get(peticion(origen, code))
        except web.HTTPError as error:
            return error

    async def todo():
        inundacion = [await intentar(f"ip 203.0.113.{i}", f"azar{i}{j}") for i in range(4) for j in range(3)]
        return inundacion, await intentar("uid 1002", "valido"), await intentar("ip 203.0.113.3", "valido")

    inundacion, profesora, atacante = asyncio.run(todo())
    assert profesora == "dentro"
    assert isinstance(atacante, web.HTTPError) and atacante.status_code == 429
    assert atacante.log_message == DEMASIADOS_FALLOS_EN_TOTAL
    assert sum(isinstance(r, web.HTTPError) and r.status_code == 429 for r in inundacion) == 12 - 6 - 2 * 2
    # the page: Spanish text, never tornado's «429: Too Many Requests»
    for error, esperado in ((atacante, DEMASIADOS_FALLOS_EN_TOTAL), (inundacion[0], NO_SE_PUDO_ENTRAR)):
        escrito, cabeceras = [], {}
        pagina = SimpleNamespace(set_header=cabeceras.__setitem__, finish=escrito.append)
        auth.HubOAuthCallbackHandler.write_error(pagina, error.status_code,
                                                 exc_info=(type(error), error, sys.exc_info()[2]))
        assert escrito == [esperado + "\n"] and cabeceras["Content-Type"].startswith("text/plain")
        assert ("Retry-After" in cabeceras) == (error.status_code == 429)


def test_un_token_ajeno_y_un_codigo_oauth_falso_gastan_el_cupo_de_quien_los_manda(monkeypatch):
    """A ninth attacker's F1: a random OAuth ``code`` sent to a student's ``oauth_callback`` (anyone can get a valid
    state from her server) and a classmate's valid token were checked at the hub on her account without counting as
    failures: her submit and the TA's formgrader got 500. Both spend the sender's budget now, then 429."""
    from types import SimpleNamespace
    from jupyterhub.services import auth
    from tornado import web
    from conexiones_por_cuenta import DEMASIADOS_FALLOS, limitar_fallos_de_identificacion
    preguntas = []

    async def original(self, handler):
        preguntas.append(handler.token)
        return {"name": handler.token}                  # every token is someone's: «ana» is a classmate's

    async def llamada(self):
        preguntas.append("code")
        raise web.HTTPError(500, "invalid_grant")

    monkeypatch.setattr(auth.HubAuth, "_get_user", original)
    monkeypatch.setattr(auth.HubOAuthCallbackHandler, "get", llamada)
    monkeypatch.setattr(auth.HubOAuthCallbackHandler, "write_error", auth.HubOAuthCallbackHandler.write_error)
    monkeypatch.setattr(auth.HubAuth, "_curso_fallos", None, raising=False)
    monkeypatch.setattr(auth.HubAuth, "get_token", lambda self, handler, in_cookie=True: handler.token)
    monkeypatch.setenv("JUPYTERHUB_USER", "bea")
    limitar_fallos_de_identificacion(fallos=3, por_segundo=0.001)
    hub_auth = auth.HubAuth(api_token="x", api_url="http://127.0.0.1:1/hub/api")
    peticion = lambda origen, token: SimpleNamespace(token=token, request=SimpleNamespace(  # noqa: E731
        headers={"X-Curso-Origen": origen}))

    async def todo():
        ajenos = []
        for _ in range(5):
            try:
                ajenos.append((await hub_auth._get_user(peticion("uid 1001", "ana")))["name"])
            except web.HTTPError as error:
                ajenos.append(error.status_code)
        codigos = []
        for _ in range(5):
            try:
                await auth.HubOAuthCallbackHandler.get(peticion("ip 203.0.113.9", None))
            except web.HTTPError as error:
                codigos.append((error.status_code, error.log_message))
        suya = (await hub_auth._get_user(peticion("uid 1002", "bea")))["name"]
        return ajenos, codigos, suya

    ajenos, codigos, suya = asyncio.run(todo())
    assert ajenos == ["ana", "ana", "ana", 429, 429], ajenos          # answered as before, then refused
    assert [c for c, _ in codigos] == [500, 500, 500, 429, 429], codigos
    assert codigos[-1][1] == DEMASIADOS_FALLOS
    assert suya == "bea" and preguntas.count("code") == 3
