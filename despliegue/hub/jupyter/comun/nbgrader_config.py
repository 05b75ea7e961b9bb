"""nbgrader settings shared by every account of the course's hub (students, TAs, the service).

nbgrader reads this through JUPYTER_CONFIG_PATH, set by the hub for each server
(despliegue/hub/jupyterhub_config.py).  The course's own nbgrader_config.py
(course root) adds the course settings for the formgrader service.
"""
import os
import sys

from nbgrader.auth import JupyterHubAuthPlugin

# entrega_honesta.py, next to this file (the profiles are readable by every account)
if os.path.dirname(os.path.abspath(__file__)) not in sys.path:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

c = get_config()  # noqa: F821

# Which courses a user takes comes from the hub's groups (nbgrader-<course>, formgrade-<course>).
c.Authenticator.plugin_class = JupyterHubAuthPlugin
c.CourseDirectory.course_id = os.environ.get("CURSO_HUB_CURSO", "atencion-y-posicion")

# The shared exchange: <root>/<course>/{outbound,inbound,feedback}.
c.Exchange.root = os.environ.get("CURSO_HUB_INTERCAMBIO", "/srv/nbgrader/exchange")
c.Exchange.path_includes_course = True

# Submit only as oneself, the entry writable by its author alone (entrega_honesta.py); the TA's
# collect refuses entries whose owner is not the student they name (grader_tests/intercambio.py).
c.ExchangeFactory.submit = "entrega_honesta.EntregaHonesta"
