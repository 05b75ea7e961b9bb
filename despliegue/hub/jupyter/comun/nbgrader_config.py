"""nbgrader settings shared by every account of the course's hub (students, TAs, the service).

nbgrader reads this through JUPYTER_CONFIG_PATH, set by the hub for each server
(despliegue/hub/jupyterhub_config.py).  The course's own nbgrader_config.py
(course root) adds the course settings for the formgrader service.
"""
import os

from nbgrader.auth import JupyterHubAuthPlugin

c = get_config()  # noqa: F821

# Which courses a user takes comes from the hub's groups (nbgrader-<course>, formgrade-<course>).
c.Authenticator.plugin_class = JupyterHubAuthPlugin
c.CourseDirectory.course_id = os.environ.get("CURSO_HUB_CURSO", "atencion-y-posicion")

# The shared exchange: <root>/<course>/{outbound,inbound,feedback}.
c.Exchange.root = os.environ.get("CURSO_HUB_INTERCAMBIO", "/srv/nbgrader/exchange")
c.Exchange.path_includes_course = True
