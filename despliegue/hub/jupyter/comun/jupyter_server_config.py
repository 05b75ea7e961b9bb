"""JupyterLab settings shared by every server of the course's hub.

- Spanish by default: lab/overrides.json holds the course's JupyterLab
  defaults (ajustes_jupyterlab/overrides.d of the course, as defaults a user can
  still change); despliegue/hub/ajustes_lab.py writes it and a test keeps both
  in sync.
- No news or update checks: a class gets no pop-ups about JupyterLab releases.
- Terminals keep the server's PATH (the course's environment first: nbgrader,
  jupyter, make grade): a login shell would reset it from /etc/profile.
- Validate retries once when the kernel dies while starting (validar_con_reintento.py).
- Kernels on Unix sockets in the owner's runtime folder, never on TCP ports any account can read.
- Under the hub, the server answers only the proxy, the hub and its owner (conexiones_por_cuenta.py).
"""
import os
import sys

c = get_config()  # noqa: F821

# Validate: one quiet retry when the kernel dies while starting, then a Spanish message
# (validar_con_reintento.py, next to this file; nbgrader_config.py here installs it too).
if os.path.dirname(os.path.abspath(__file__)) not in sys.path:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import entrega_honesta
    import validar_con_reintento
except ImportError:           # nbgrader missing from this environment: nothing to wrap
    pass
else:
    validar_con_reintento.aplicar()
    entrega_honesta.aplicar()     # Submit's dialog: the Spanish message of a failed submission, not a traceback

c.LabApp.app_settings_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lab")
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"

# Every kernel of every server talks to it through Unix sockets in its owner's runtime folder (under the 0700
# home), not through TCP ports of 127.0.0.1: a kernel's IOPub is a ZeroMQ PUB socket with no authentication, and
# any account of the machine could subscribe to a TA's, the service's or a classmate's kernel and read every cell
# it runs and its output (issue 19, a second hostile student's F1).
c.KernelManager.transport = "ipc"
# ... in a short folder of the home (a Unix socket's path has at most 107 bytes: the kernel's, under
# ~/.local/share/jupyter/runtime, passed it for the service's account); the server's terminals and nbgrader's
# Validate inherit it
_RUNTIME = os.path.join(os.path.expanduser("~"), ".jr")
try:
    os.makedirs(_RUNTIME, mode=0o700, exist_ok=True)
    os.chmod(_RUNTIME, 0o700)
except OSError:              # a home that cannot be written: Jupyter's default folder
    pass
else:
    os.environ["JUPYTER_RUNTIME_DIR"] = _RUNTIME
    c.MultiKernelManager.connection_dir = _RUNTIME

# Under the hub, only the proxy, the hub and the server's owner talk to it: each server listens on a TCP port of
# 127.0.0.1, which any account of the machine can reach; a classmate holding its connections or flooding it with
# requests would block its owner (issue 19). A connection from another account of this machine is closed as soon as
# the kernel says whose it is (ss) and its requests never reach the server; one from another machine or pod (the
# proxy of a Kubernetes hub) or through a Unix socket (the formgrader service) is not looked at.
if os.environ.get("JUPYTERHUB_API_URL"):
    import conexiones_por_cuenta

    _CONFIABLES = {0, os.geteuid()}
    if os.environ.get("CURSO_HUB_UID", "").isdigit():     # the hub's account, when it does not run as root
        _CONFIABLES.add(int(os.environ["CURSO_HUB_UID"]))
    if conexiones_por_cuenta.SS:
        conexiones_por_cuenta.limitar_servidores_tornado(frozenset(_CONFIABLES), 0, solo_de_esta_maquina=True)
    # whoever sends this server credentials it cannot identify spends their own budget, not its owner's at the hub
    conexiones_por_cuenta.limitar_fallos_de_identificacion()

# A request body is kept whole in memory before anyone is identified (Jupyter Server's default: 512 MiB): four
# of 200 MiB from a classmate took a student's server from 140 MB to 960 MB (a sixth attacker's F4b). JupyterLab
# uploads a large file in pieces of 1 MiB, and the course's notebooks are far smaller; the hub's proxy also caps
# what each account has in flight (proxy/tope_por_cuenta.js).
c.ServerApp.max_body_size = 64 * 1024 * 1024
c.ServerApp.max_buffer_size = 64 * 1024 * 1024

# An interactive shell that is not a login shell: the PATH the hub gave the server stays.
c.ServerApp.terminado_settings = {"shell_command": [os.environ.get("SHELL") or "/bin/bash"]}

# One origin per server (jupyterhub_config.py, subdomain_host): nbgrader's course list (a TA's
# Nbgrader → Course List) links to /services/<course>/ on the TA's own origin, where nothing is.
# The hub gives TAs' servers the formgrader's own address in CURSO_HUB_FORMGRADER.  The list also
# asks the TA's own server, through its public name, for a local formgrader: a TA's server on the
# hub has none (its profile turns it off), and its public name may not resolve from inside the
# machine (*.localhost on the trial hub), so that question is not asked.
_FORMGRADER = os.environ.get("CURSO_HUB_FORMGRADER", "")
if _FORMGRADER:
    from nbgrader.server_extensions.course_list import handlers as _lista
    from tornado import gen as _gen

    _lista_original = _lista.CourseListHandler.check_for_jupyterhub_formgraders

    @_gen.coroutine
    def _formgrader_en_su_origen(self, config):
        cursos = yield _lista_original(self, config)
        for curso in cursos:
            if curso.get("kind") == "jupyterhub" and curso.get("course_id") == os.environ.get("CURSO_HUB_CURSO"):
                curso["url"] = _FORMGRADER.rstrip("/") + "/lab?formgrader=true"
        return cursos

    @_gen.coroutine
    def _sin_formgrader_local(self, config):
        return []

    _lista.CourseListHandler.check_for_jupyterhub_formgraders = _formgrader_en_su_origen
    _lista.CourseListHandler.check_for_local_formgrader = _sin_formgrader_local
