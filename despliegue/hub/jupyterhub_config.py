"""JupyterHub for a class of the course (one machine, real Unix accounts).

    jupyterhub -f despliegue/hub/jupyterhub_config.py      # as root, from the course's environment

What it sets up (nbgrader's "one class, multiple graders" layout, with
nbgrader's JupyterHub auth plugin; despliegue/README.md explains each choice):

- Accounts: real Unix users, PAM by default (``CURSO_HUB_AUTENTICADOR`` names
  another authenticator: LDAP, LTI 1.3, OAuth...).  Only the listed TAs and
  students (and users an admin adds) may log in.
- Groups: ``formgrade-<course>`` (TAs: access to the formgrader service) and
  ``nbgrader-<course>`` (students: the course's assignments in the
  Assignments tab).  nbgrader's ``JupyterHubAuthPlugin`` reads them.
- The formgrader runs as a hub service named after the course, under its own
  Unix account, in the course root (which only that account can read: hidden
  tests, gradebook and submissions stay private).  TAs reach it from the hub's
  Services menu; students get 403.
- Single-user servers (LocalProcessSpawner) get a JupyterLab profile by group:
  students only see nbgrader's Assignments tab and Validate button; TAs also
  see the course list; the service has the formgrader and Create Assignment.
  All of them open JupyterLab in Spanish.
- The exchange is a shared folder with nbgrader's permissions (root 1777),
  ``inbound`` sticky and setgid to the service's group (3733); the hub's
  ``submit`` (``jupyter/comun/entrega_honesta.py``) keeps each entry private
  to its author and that group.
- The hub's output (its log) is every student server's output too
  (LocalProcessSpawner): keep it where no student reads it (systemd's journal,
  or a 0600 file).
- One origin per user and per service (``c.JupyterHub.subdomain_host``):
  ``<user>.<host>`` for each server, ``<course>--service.<host>`` for the
  formgrader and the course page, the hub at ``<host>``.  A page a student's
  server serves can neither read the formgrader nor install a service worker
  over it.  No server reads its owner's ``~/.jupyter`` (``disable_user_config``)
  or ``~/.local`` packages (``PYTHONNOUSERSITE``), and every TA-side kernel starts
  with ``PYTHONSAFEPATH`` (never a student's ``ipykernel_launcher.py`` from the folder).

Every path, name and port comes from ``CURSO_HUB_*`` variables (ajustes.py).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ajustes import (ARRANQUE_KERNEL, aviso_sin_proxy_delante, bin_entorno, clave_de_plazos,  # noqa: E402
                     ficha_de_alumno, leer, orden_del_proxy)

c = get_config()  # noqa: F821
a = leer()
BIN = bin_entorno()
RUTA = os.pathsep.join([str(BIN), "/usr/local/bin", "/usr/bin", "/bin"])
# the key that names each student's extension file in the exchange (issue 21: due dates in the
# Assignments tab); only the service and the hub know it, each student's server gets its own name
CLAVE_PLAZOS = clave_de_plazos(a.estado)

# ---------------------------------------------------------------- network and state
c.JupyterHub.bind_url = a.url
# One origin per user's server and per service (despliegue/README.md, «Un origen por servidor»):
# without it the hub, every student's server and the formgrader share one origin, and any page a
# student's server serves owns the TA's formgrader (scripts, service workers).
c.JupyterHub.subdomain_host = a.url_publica
if a.url_publica.startswith("https://"):
    c.JupyterHub.cookie_host_prefix_enabled = True     # __Host- cookies: no subdomain can set them
c.JupyterHub.hub_bind_url = a.url_interna
# the hub's own port takes at most 64 connections at a time from each local account other than root and the hub's
# (relevo.limitar_servidor_del_hub; issue 19: one student's idle connections filled the hub's open files)
import relevo  # noqa: E402
relevo.limitar_servidor_del_hub()
c.ConfigurableHTTPProxy.api_url = a.url_proxy
if a.proxy:
    # with a cap on the connections each local account holds (proxy/tope_por_cuenta.js; issue 19)
    c.ConfigurableHTTPProxy.command, _aviso_proxy = orden_del_proxy(a.proxy)
    if _aviso_proxy:
        print(f"[curso] AVISO: {_aviso_proxy}", file=sys.stderr)
# the HTTPS proxy in front (nginx, Caddy): its requests count for the addresses it forwards, not for its account
# (the proxy inherits the hub's environment; a seventh attacker's F1)
os.environ["CURSO_HUB_PROXY_DELANTE_UIDS"] = ",".join(map(str, a.delante))
os.environ["CURSO_HUB_PROXY_DELANTE_IPS"] = ",".join(a.delante_ips)
_aviso_delante = aviso_sin_proxy_delante(a)
if _aviso_delante:
    print(f"[curso] AVISO: {_aviso_delante}", file=sys.stderr)
c.ConfigurableHTTPProxy.pid_file = str(a.estado / "jupyterhub-proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{a.estado / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(a.estado / "jupyterhub_cookie_secret")
# the hub's own pages (login, «your server is starting», the top bar) in Spanish: despliegue/hub/plantillas extends
# JupyterHub's templates and only translates their words
c.JupyterHub.template_paths = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "plantillas")]
c.JupyterHub.template_vars = {
    "announcement_login": "Curso «Atención multicabeza y codificación posicional»: "
                          "entra con tu usuario y contraseña del departamento.",
}

# ---------------------------------------------------------------- who may log in
c.JupyterHub.authenticator_class = a.autenticador
# a failed PAM login holds its thread 2-3 s (pam_unix's delay): enough threads that the few each account may have
# at once (one; proxy/tope_por_cuenta.js, relevo.py) never make the others wait (a sixth attacker's F1)
c.PAMAuthenticator.executor_threads = 64      # (32 filled with 8 addresses' failures: an eighth attacker's F1)
c.Authenticator.allowed_users = set(a.profesorado) | set(a.alumnado)
c.Authenticator.admin_users = set(a.admin)
c.Authenticator.allow_existing_users = True     # users an admin adds later may log in too

# nbgrader's groups: TAs grade, students take the course.  Students added later
# from the formgrader (or `nbgrader db student add`) join nbgrader-<course>
# through nbgrader's JupyterHubAuthPlugin, with the service's token below.
# The service's account is a hub user in the TAs' group too, as nbgrader's docs do:
# the formgrader lists the exchange through the auth plugin, which asks the hub
# for that user's groups (404 and a formgrader error page if it is not there).
# It has no password, so nobody logs in as it.
c.JupyterHub.load_groups = {
    a.grupo_profesorado: {"users": [*a.profesorado, a.cuenta_servicio]},
    a.grupo_alumnado: {"users": list(a.alumnado)},
}

c.JupyterHub.load_roles = [
    # Server tokens may read their owner's groups (nbgrader's auth plugin asks
    # the hub which courses the user takes) and, for TAs, find the course's
    # service (nbgrader's course list).  A token never gets more than its owner has.
    {
        "name": "server",
        "scopes": ["users:activity!user", "access:servers!server", "read:users:name!user",
                   "read:users:groups!user", "list:services", f"read:services!service={a.curso}"],
    },
    # TAs: open the formgrader service and see it listed.
    {
        "name": f"profesorado-{a.curso}",
        "groups": [a.grupo_profesorado],
        "scopes": [f"access:services!service={a.curso}", "list:services",
                   f"read:services!service={a.curso}"],
    },
    # The formgrader service: read who is in which group, and enrol students
    # in the course's student group (and only there).
    {
        "name": f"servicio-{a.curso}",
        "services": [a.curso],
        "scopes": ["list:users", "read:users:name", "read:users:groups", "list:groups",
                   "read:groups", f"groups!group={a.grupo_alumnado}"],
    },
]

def sin_python_del_alumno(arranque) -> dict:
    """Environment of the TA-side servers (the service, TAs' servers): no student's Python runs.

    PYTHONSAFEPATH: a kernel started in a folder with a student's ``ipykernel_launcher.py`` (or
    ``numpy.py``) never runs it; the folder goes back at the end of sys.path
    (``jupyter/comun/arranque_kernel.py``, the kernels' PYTHONSTARTUP) for the lessons' explorables.
    PYTHONNOUSERSITE: nothing from ~/.local (every server has it).
    """
    return {"PYTHONNOUSERSITE": "1", "PYTHONSAFEPATH": "1", "PYTHONSTARTUP": str(arranque)}


# ---------------------------------------------------------------- the formgrader service
c.JupyterHub.services = [
    {
        "name": a.curso,
        "display": True,
        # the proxy reaches it through the hub's relay on a privileged port (relevo.py); the server itself
        # listens on a Unix socket in a folder only its account opens. --ServerApp.port repeats Jupyter
        # Server's default so that it accepts --sock (JupyterHub would set the relay's port otherwise).
        "url": a.url_servicio,
        "command": [str(BIN / "jupyterhub-singleuser"), f"--ServerApp.sock={a.socket_servicio}",
                    "--ServerApp.sock_mode=0600", "--ServerApp.port=8888"],
        "user": a.cuenta_servicio,
        "cwd": str(a.raiz_curso),            # nbgrader reads the course's nbgrader_config.py here
        "oauth_no_confirm": True,
        "environment": {
            "JUPYTER_CONFIG_PATH": a.perfil("servicio"),
            # the hub's Services menu opens the course page (scripts/calificacion/servicio_del_curso.py): the
            # formgrader, the whole class without a terminal, due dates, held reviews
            "JUPYTERHUB_DEFAULT_URL": "/curso/",
            "JUPYTERHUB_USER": a.cuenta_servicio,      # nbgrader's exchange code requires it
            # grader_tests comes from the course root (nbgrader's process and the sandboxed
            # kernels alike): the shared environment holds no course code students could read
            "PYTHONPATH": str(a.raiz_curso),
            **sin_python_del_alumno(ARRANQUE_KERNEL),
            "CURSO_HUB_CURSO": a.curso,
            "CURSO_HUB_INTERCAMBIO": str(a.intercambio),
            "PATH": RUTA,
            # make grade / make informe in the service's terminal use this environment, not a .venv
            "CURSO_ENTORNO": str(BIN.parent),
            # the due dates it publishes for the Assignments tab (scripts/calificacion/servicio_del_curso.py)
            "CURSO_PLAZOS_CLAVE": CLAVE_PLAZOS,
        },
    },
]

# ---------------------------------------------------------------- single-user servers
# LocalProcessSpawner with a cgroup per student's server: memory and processes of all its kernels and terminals
# together (servidor_limitado.py; a fresh attacker's F3: 60 kernels in 6 s, nothing refused)
from servidor_limitado import ServidorLimitado, avisos_de_la_maquina, retirar_grupos_vacios  # noqa: E402
retirar_grupos_vacios()          # those a hub stopped abruptly left behind
c.JupyterHub.spawner_class = ServidorLimitado
c.ServidorLimitado.memoria = a.memoria_servidor_mib * 1024 ** 2
c.ServidorLimitado.procesos = a.procesos_servidor
c.ServidorLimitado.sockets = a.sockets_servidor
c.ServidorLimitado.cpu = a.cpu_servidor
for _aviso_maquina in avisos_de_la_maquina(a.procesos_servidor):
    print(f"[curso] AVISO: {_aviso_maquina}", file=sys.stderr)
c.ServidorLimitado.grupo_sin_limite = a.grupo_profesorado
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.environment = {"CURSO_HUB_CURSO": a.curso, "CURSO_HUB_INTERCAMBIO": str(a.intercambio), "PATH": RUTA,
                         "CURSO_ENTORNO": str(BIN.parent), "PYTHONNOUSERSITE": "1",
                         # each server answers only the proxy, the hub (this account) and its owner
                         # (jupyter/comun/jupyter_server_config.py)
                         "CURSO_HUB_UID": str(os.geteuid())}
# A student's ~/.jupyter (a jupyter_server_config.py that serves files without login, adds headers,
# loads extensions) is not read; PYTHONNOUSERSITE above does the same for ~/.local's packages.
c.Spawner.disable_user_config = True


def perfil_por_grupo(spawner):
    """Students get the student profile; members of formgrade-<course> the TAs' one.

    Every server also gets the name of its owner's extension file (``CURSO_PLAZOS_FICHA``):
    the Assignments tab shows a student's own due date when they have an extension.
    """
    grupos = {g.name for g in spawner.user.groups}
    perfil = "profesorado" if a.grupo_profesorado in grupos else "alumnado"
    spawner.environment = {**spawner.environment, "JUPYTER_CONFIG_PATH": a.perfil(perfil),
                           "CURSO_PLAZOS_FICHA": ficha_de_alumno(CLAVE_PLAZOS, a.curso, spawner.user.name)}
    if perfil == "profesorado":
        # a TA may open a student's notebook there: no student's Python at the kernel's start
        spawner.environment.update(sin_python_del_alumno(ARRANQUE_KERNEL))
        # nbgrader's course list links to the formgrader on the TA's own origin; it is on its own
        # (jupyter/comun/jupyter_server_config.py rewrites the link with this)
        spawner.environment["CURSO_HUB_FORMGRADER"] = a.url_del_formgrader()


c.Spawner.pre_spawn_hook = perfil_por_grupo


# ---------------------------------------------------------------- a slow start of the formgrader
# JupyterHub 5.5 gives a managed service ten 1-second tries and exits when it is not up; the
# formgrader (JupyterLab + nbgrader) takes longer on a loaded machine.  A service that is still
# starting gets up to CURSO_HUB_ESPERA_SERVICIO seconds more (90 by default); one that exited does not.
def _esperar_al_servicio(espera: float) -> None:
    from urllib.parse import urlparse

    from jupyterhub.app import JupyterHub
    from jupyterhub.objects import Server
    from jupyterhub.utils import AnyTimeoutError

    import relevo

    original = JupyterHub.start_service

    async def start_service(self, service_name, service, ssl_context=None):
        if service_name == a.curso:
            # the socket's folder (its account's, 0700) and the relay from the privileged port to the socket
            # (relevo.py), before the service starts; again on every restart (the relay is started once)
            relevo.preparar_carpeta(a.socket_servicio, a.cuenta_servicio)
            destino = urlparse(a.url_servicio)
            await relevo.iniciar(destino.hostname, destino.port, a.socket_servicio)
        if await original(self, service_name, service, ssl_context):
            return True
        if not (service.managed and service.url) or await service.spawner.poll() is not None:
            return False
        try:
            await Server.from_orm(service.orm.server).wait_up(http=True, timeout=espera, ssl_context=ssl_context)
        except AnyTimeoutError:
            return False
        self.log.info("Service %s up after a slow start", service_name)
        return True

    JupyterHub.start_service = start_service


_esperar_al_servicio(float(os.environ.get("CURSO_HUB_ESPERA_SERVICIO", "90")))


# ---------------------------------------------------------------- ports no student can take
# A warning for every TA-side port an unprivileged account could bind while its process restarts (issue 19,
# F1: a student served the formgrader's origin to a TA that way; relevo.py).
def _puertos_privilegiados() -> None:
    from urllib.parse import urlparse

    import relevo
    for variable, url in (("CURSO_HUB_URL_INTERNA", a.url_interna), ("CURSO_HUB_URL_PROXY", a.url_proxy),
                          ("CURSO_HUB_URL_SERVICIO", a.url_servicio)):
        puerto = urlparse(url).port or 80
        if puerto >= relevo.PUERTO_PRIVILEGIADO:
            print(f"AVISO: {variable} usa el puerto {puerto}: cualquier cuenta de la máquina puede ocuparlo mientras "
                  f"su proceso arranca otra vez. Usa uno menor que {relevo.PUERTO_PRIVILEGIADO} "
                  "(despliegue/README.md).", file=sys.stderr)


_puertos_privilegiados()
