"""What the hub tests share: the trial hub as a fixture and a browser-less user of it.

- ``que_impide_el_hub()``: why the hub tests cannot run here (not root, no
  ``.venv-hub``...), or None.  With ``CURSO_EXIGIR_HUB=1`` (``.ci/run``) the
  tests fail with that reason instead of being skipped.
- ``hub_de_prueba(...)``: ``despliegue/hub/prueba.py``'s ``HubDePrueba`` with
  throwaway accounts of random names, started and cleaned up.
- ``Usuario``: one person on the hub over HTTP (``requests``): logs in through
  the hub's form, starts a server through the hub's REST API, and calls
  nbgrader's own HTTP endpoints (Assignments tab, Validate, formgrader) with
  the XSRF token each server expects, as the JupyterLab front end does; types
  commands in a JupyterLab terminal of a server (jupyter_server's terminal API
  and its websocket, as JupyterLab's Terminal does).
- ``editar_curso``: change the service's copy of the course's nbgrader_config.py
  as a TA does in the service's editor (its owner kept).

The hub gives every server and the formgrader an origin of its own
(``<user>.localhost``, ``<course>--service.localhost``; jupyterhub_config.py,
``subdomain_host``).  Browsers and curl resolve ``*.localhost`` to loopback;
glibc here does not, so importing this module makes this process resolve
them to 127.0.0.1 too (``_resolver_localhost``).
"""
from __future__ import annotations

import contextlib
import html
import json
import os
import re
import secrets
import socket
import sys
import time
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path
from urllib.parse import quote, urlparse

import pytest

RAIZ = Path(__file__).resolve().parent.parent
DESPLIEGUE_HUB = RAIZ / "despliegue" / "hub"
if str(DESPLIEGUE_HUB) not in sys.path:
    sys.path.insert(0, str(DESPLIEGUE_HUB))

import prueba  # noqa: E402  (despliegue/hub/prueba.py)

_getaddrinfo = socket.getaddrinfo


def _resolver_localhost(host, *args, **kwargs):
    """``*.localhost`` is loopback (RFC 6761), as Chromium and curl resolve it."""
    if isinstance(host, (str, bytes)) and (host.decode() if isinstance(host, bytes) else host).rstrip(".") \
            .lower().endswith(".localhost"):
        host = "127.0.0.1"
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _resolver_localhost


def _en_localhost(request) -> bool:
    host = (urlparse(request.get_full_url()).hostname or "").lower()
    return host == "localhost" or host.endswith(".localhost")


def _dominio_localhost(original):
    """Cookies with ``Domain=localhost`` (JupyterHub's session cookie with subdomains) as a browser keeps
    them: http.cookiejar refuses a domain without a dot for the dotless host ``localhost``."""
    def comprobar(self, cookie, request):
        if cookie.domain.lstrip(".") == "localhost":
            return _en_localhost(request)
        return original(self, cookie, request)
    return comprobar


# requests copies a session's cookies into jars with the default policy: patch the policy itself
# (this test process only, like the resolver above)
DefaultCookiePolicy.set_ok_domain = _dominio_localhost(DefaultCookiePolicy.set_ok_domain)
DefaultCookiePolicy.return_ok_domain = _dominio_localhost(DefaultCookiePolicy.return_ok_domain)

EXIGIR = os.environ.get("CURSO_EXIGIR_HUB", "").strip() not in ("", "0", "no", "false")
ARTEFACTOS = RAIZ / "test-artifacts" / "hub"


def que_impide_el_hub() -> str | None:
    return prueba.que_falta()


def omitir_o_fallar() -> None:
    """Skip (developer without root or .venv-hub) or fail (CI) when the hub cannot run."""
    motivo = que_impide_el_hub()
    if motivo:
        texto = f"pruebas del hub: {motivo}. Se ejecutan como root tras `make test` (crea .venv-hub)."
        if EXIGIR:
            pytest.fail("CURSO_EXIGIR_HUB=1 exige las pruebas del hub, pero " + texto, pytrace=False)
        pytest.skip(texto)


@contextlib.contextmanager
def hub_de_prueba(nombre_registro: str, alumnos: int = 2):
    """A started trial hub with one TA and ``alumnos`` students (random names); cleaned up after."""
    omitir_o_fallar()
    sufijo = secrets.token_hex(3)
    ARTEFACTOS.mkdir(parents=True, exist_ok=True)
    registro = ARTEFACTOS / f"{nombre_registro}.log"
    registro.unlink(missing_ok=True)
    hub = prueba.HubDePrueba([f"hp{sufijo}-ta"], [f"hp{sufijo}-al{i}" for i in range(1, alumnos + 1)],
                             cuenta_servicio=f"hp{sufijo}-grader", registro=registro)
    with hub:
        yield hub
        grupo = hub.proceso.pid
    # nothing the hub started survives it (proxy, service, user servers)
    assert not prueba._grupo_vivo(grupo), "quedan procesos del hub tras pararlo"
    assert not hub.pids_del_proxy(), "queda el proxy del hub tras pararlo"


class Usuario:
    """One account of the hub, driven over HTTP."""

    def __init__(self, hub: "prueba.HubDePrueba", nombre: str):
        import requests
        self.hub = hub
        self.nombre = nombre
        self.s = requests.Session()

    # ------------------------------------------------------------ hub
    def entrar(self) -> "Usuario":
        """Log in with the hub's login form (PAM and the password the trial set)."""
        pagina = self.s.get(f"{self.hub.url}/hub/login", timeout=30)
        pagina.raise_for_status()
        xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', pagina.text)
        datos = {"username": self.nombre, "password": self.hub.claves[self.nombre]}
        if xsrf:
            datos["_xsrf"] = html.unescape(xsrf[1])
        r = self.s.post(f"{self.hub.url}/hub/login?next=", data=datos, allow_redirects=False, timeout=60)
        assert r.status_code == 302, f"{self.nombre} no pudo entrar ({r.status_code}): {r.text[:500]}"
        return self

    def _xsrf(self, url: str) -> str:
        """The ``_xsrf`` cookie the origin and path of ``url`` set (the hub's, a server's, the formgrader's)."""
        partes = urlparse(url)
        host = partes.hostname or ""
        # http.cookiejar stores a cookie of a dotless host («localhost») as «localhost.local»
        dominios = {host, f"{host}.local"}
        candidatas = [c for c in self.s.cookies if c.name == "_xsrf" and c.domain in dominios
                      and partes.path.startswith(c.path or "/")]
        assert candidatas, f"sin cookie _xsrf para {url}: {[(c.name, c.domain, c.path) for c in self.s.cookies]}"
        return max(candidatas, key=lambda c: len(c.path or "")).value

    def arrancar_servidor(self, espera: float = 150) -> "Usuario":
        """Start the user's server through the hub's REST API and open its JupyterLab (OAuth)."""
        self.s.get(f"{self.hub.url}/hub/home", timeout=30).raise_for_status()     # sets the hub's _xsrf
        api = f"{self.hub.url}/hub/api/users/{self.nombre}"
        r = self.s.post(f"{api}/server", headers={"X-XSRFToken": self._xsrf(api)}, timeout=60)
        assert r.status_code in (201, 202, 400), f"arrancar el servidor de {self.nombre}: {r.status_code} {r.text}"
        limite = time.monotonic() + espera
        while time.monotonic() < limite:
            modelo = self.s.get(api, headers={"X-XSRFToken": self._xsrf(api)}, timeout=30).json()
            servidor = modelo.get("servers", {}).get("")
            if servidor and servidor.get("ready"):
                break
            time.sleep(0.5)
        else:
            raise AssertionError(f"el servidor de {self.nombre} no arrancó en {espera} s")
        lab = self.s.get(f"{self.base}lab", timeout=60)
        assert lab.status_code == 200, f"JupyterLab de {self.nombre}: {lab.status_code}"
        self.pagina_lab = lab.text
        return self

    # ------------------------------------------------------------ the user's server
    @property
    def base(self) -> str:
        """``http://<user>.localhost:<port>/user/<user>/``: the user's server, on its own origin."""
        return self.hub.url_de_usuario(self.nombre)

    def get(self, ruta: str, **kw):
        return self.s.get(f"{self.base}{ruta}", timeout=120, **kw)

    def post(self, ruta: str, datos=None, json=None, **kw):
        cabeceras = {"X-XSRFToken": self._xsrf(self.base)}
        return self.s.post(f"{self.base}{ruta}", data=datos, json=json, headers=cabeceras, timeout=600, **kw)

    def put(self, ruta: str, json=None):
        cabeceras = {"X-XSRFToken": self._xsrf(self.base)}
        return self.s.put(f"{self.base}{ruta}", json=json, headers=cabeceras, timeout=120)

    def tareas(self) -> dict[str, dict]:
        """nbgrader's Assignments tab list: ``{assignment_id: {status, path, ...}}``."""
        r = self.get(f"assignments?course_id={quote(self.hub.curso)}")
        r.raise_for_status()
        respuesta = r.json()
        assert respuesta["success"], respuesta
        return {t["assignment_id"]: t for t in respuesta["value"]}

    def accion(self, accion: str, tarea: str) -> dict:
        """Fetch / submit / fetch_feedback from the Assignments tab."""
        r = self.post(f"assignments/{accion}", datos={"assignment_id": tarea, "course_id": self.hub.curso})
        r.raise_for_status()
        return r.json()

    # ------------------------------------------------------------ the formgrader service
    @property
    def servicio(self) -> str:
        """``http://<course>--service.localhost:<port>/services/<course>/``: the formgrader's origin."""
        return self.hub.url_del_formgrader()

    def abrir_formgrader(self):
        """GET the formgrader through the hub (OAuth); returns the final response."""
        return self.s.get(f"{self.servicio}formgrader", timeout=60)

    def formgrader(self, metodo: str, ruta: str, **kw):
        cabeceras = {"X-XSRFToken": self._xsrf(self.servicio)}
        r = self.s.request(metodo, f"{self.servicio}formgrader/api/{ruta}", headers=cabeceras,
                           timeout=900, **kw)
        r.raise_for_status()
        return r.json()


    # ------------------------------------------------------------ a terminal of a server
    def terminal(self, base: str, orden: str, espera: float = 600) -> tuple[int | None, str]:
        """Type ``orden`` in a new terminal of the server at ``base`` (its full URL, on its own origin:
        :attr:`base` for the user's server, :attr:`servicio` for the course's service).

        Returns the shell's exit code of ``orden`` (None if it did not finish within ``espera``
        seconds) and everything the terminal printed.
        """
        import asyncio
        import concurrent.futures

        import requests
        from tornado import httpclient, websocket
        marca = f"FIN{secrets.token_hex(4)}"
        r = self.s.post(f"{base}api/terminals", headers={"X-XSRFToken": self._xsrf(base)}, timeout=60)
        r.raise_for_status()
        nombre = r.json()["name"]
        # the cookies a browser sends to that origin and path (the server's own, and the hub's session)
        cookies = requests.cookies.get_cookie_header(self.s.cookies, requests.Request("GET", base).prepare()) or ""
        partes = urlparse(base)
        origen = f"{partes.scheme}://{partes.netloc}"
        url = base.replace("http", "ws", 1) + f"terminals/websocket/{nombre}"
        # tornado resolves the name itself (not through socket.getaddrinfo's patch above): connect to
        # loopback and keep the server's Host
        url_loopback = url.replace(f"//{partes.netloc}", f"//127.0.0.1:{partes.port}", 1) \
            if (partes.hostname or "").endswith(".localhost") or partes.hostname == "localhost" else url

        async def hablar() -> str:
            peticion = httpclient.HTTPRequest(url_loopback, headers={"Cookie": cookies, "Origin": origen,
                                                                     "Host": partes.netloc})
            ws = await websocket.websocket_connect(peticion)
            salida: list[str] = []
            await ws.write_message(json.dumps(["stdin", f"{orden}; echo {marca}=$?={marca}\r"]))
            limite = time.monotonic() + espera
            try:
                while time.monotonic() < limite:
                    try:
                        mensaje = await asyncio.wait_for(ws.read_message(), timeout=max(1.0, limite - time.monotonic()))
                    except asyncio.TimeoutError:
                        break
                    if mensaje is None:
                        break
                    datos = json.loads(mensaje)
                    if datos[0] == "stdout":
                        salida.append(datos[1])
                        if re.search(rf"{marca}=\d+={marca}", "".join(salida)):
                            break
            finally:
                ws.close()
            return "".join(salida)

        # in a thread of its own: the browser tests' Playwright keeps an event loop running in this one
        with concurrent.futures.ThreadPoolExecutor(1) as hilo:
            texto = hilo.submit(asyncio.run, hablar()).result()
        self.s.delete(f"{base}api/terminals/{nombre}", headers={"X-XSRFToken": self._xsrf(base)}, timeout=60)
        codigo = re.findall(rf"{marca}=(\d+)={marca}", texto)
        return (int(codigo[-1]) if codigo else None), texto


def editar_curso(hub, sustituciones: dict[str, str], archivo: str = "nbgrader_config.py") -> None:
    """Replace text in a file of the service's course copy (owner and mode kept), as a TA edits it."""
    ruta = Path(hub.raiz_curso) / archivo
    texto = ruta.read_text(encoding="utf-8")
    for antes, despues in sustituciones.items():
        assert antes in texto, f"{archivo} no contiene {antes!r}"
        texto = texto.replace(antes, despues)
    estado = ruta.stat()
    temporal = ruta.with_name(f".{archivo}.tmp")
    temporal.write_text(texto, encoding="utf-8")
    os.chown(temporal, estado.st_uid, estado.st_gid)
    os.chmod(temporal, estado.st_mode & 0o7777)
    temporal.replace(ruta)


def escribir_plazos(hub, fechas: dict[str, str], prorrogas: dict[str, dict[str, str]] | None = None) -> None:
    """The TA's due dates and extensions in the service's ``plazos.toml`` (its empty tables filled).

    Keys and values are TOML basic strings, written as the TA would (``"1 día"``, not escaped).
    """
    import json

    def texto(valor: str) -> str:
        return json.dumps(valor, ensure_ascii=False)
    lineas = "".join(f"{texto(t)} = {texto(v)}\n" for t, v in fechas.items())
    tablas = "".join(f"\n[prorrogas.{texto(tarea)}]\n" + "".join(f"{texto(a)} = {texto(v)}\n" for a, v in alumnos.items())
                     for tarea, alumnos in (prorrogas or {}).items())
    editar_curso(hub, {"\n[fechas]\n": "\n[fechas]\n" + lineas, "\n[prorrogas]\n": "\n[prorrogas]\n" + tablas},
                 archivo="plazos.toml")
