"""nbgrader settings shared by every account of the course's hub (students, TAs, the service).

nbgrader reads this through JUPYTER_CONFIG_PATH, set by the hub for each server
(despliegue/hub/jupyterhub_config.py).  The course's own nbgrader_config.py
(course root) adds the course settings for the formgrader service.

- Validate (button and `nbgrader validate` in a terminal) judges as the course
  does: the hub starts each student's server in their home, not in the
  assignment folder whose nbgrader_config.py carries these limits, so they are
  repeated here (tests/test_configuracion_alumno.py keeps them equal).
- Submission times are written in UTC: with a zone such as Europe/Madrid
  nbgrader writes «CEST», which it reads back as UTC.
- The Assignments tab lists each assignment's due date (plazos_assignments,
  despliegue/plazos_assignments/), published by the formgrader service.
- Validate retries once when the kernel dies while starting, then explains in
  Spanish (validar_con_reintento.py).
- Validate's kernel on Unix sockets, never on TCP ports any account can read.
"""
import os
import sys

from nbgrader.auth import JupyterHubAuthPlugin

# entrega_honesta.py and validar_con_reintento.py, next to this file (the profiles are readable by every account)
if os.path.dirname(os.path.abspath(__file__)) not in sys.path:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

c = get_config()  # noqa: F821

# Validate's kernel (button and terminal) on Unix sockets next to its connection file, in the owner's runtime
# folder: a TCP port of 127.0.0.1 lets any account of the machine read every cell it runs (issue 19, a second
# hostile student's F1; jupyter_server_config.py here does the same for the notebooks' kernels).
c.KernelManager.transport = "ipc"

# Which courses a user takes comes from the hub's groups (nbgrader-<course>, formgrade-<course>).
c.Authenticator.plugin_class = JupyterHubAuthPlugin
c.CourseDirectory.course_id = os.environ.get("CURSO_HUB_CURSO", "atencion-y-posicion")

# The shared exchange: <root>/<course>/{outbound,inbound,feedback}.
c.Exchange.root = os.environ.get("CURSO_HUB_INTERCAMBIO", "/srv/nbgrader/exchange")
c.Exchange.path_includes_course = True

# Submit only as oneself, the entry writable by its author alone (entrega_honesta.py); the TA's
# collect refuses entries whose owner is not the student they name (grader_tests/extensiones_nbgrader/intercambio.py).
c.ExchangeFactory.submit = "entrega_honesta.EntregaHonesta"

# Validate: the limits of the course's grading (source/<tarea>/nbgrader_config.py).
c.Execute.timeout = 60
c.Execute.interrupt_on_timeout = True
c.Validator.Execute.extra_arguments = [
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.exec_lines=import sys; sys.stderr.name = 'stdout'",
]

# Validate when the kernel dies while starting (a port race on a loaded machine): one quiet retry,
# then a Spanish message instead of nbgrader's traceback (validar_con_reintento.py, next to this file).
import validar_con_reintento  # noqa: E402

validar_con_reintento.aplicar()

# Submit: links and special files left out (named), a failed submission said in Spanish (entrega_honesta.py).
import entrega_honesta  # noqa: E402

entrega_honesta.aplicar()

# Timestamps nbgrader reads back exactly (grader_tests/extensiones_nbgrader/plazos.py, zona_de_marcas_segura).
c.Exchange.timezone = "UTC"

# The Assignments tab with each assignment's due date and the student's delay (issue 21).
try:
    import plazos_assignments  # noqa: F401
except ImportError:
    pass
else:
    c.ExchangeFactory.list = "plazos_assignments.lista.ListaConPlazos"
