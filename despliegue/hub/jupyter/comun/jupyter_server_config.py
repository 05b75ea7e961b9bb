"""JupyterLab settings shared by every server of the course's hub.

- Spanish by default: lab/overrides.json holds the course's JupyterLab
  defaults (ajustes_jupyterlab/overrides.d of the course, as defaults a user can
  still change); despliegue/hub/ajustes_lab.py writes it and a test keeps both
  in sync.
- No news or update checks: a class gets no pop-ups about JupyterLab releases.
- Terminals keep the server's PATH (the course's environment first: nbgrader,
  jupyter, make grade): a login shell would reset it from /etc/profile.
"""
import os

c = get_config()  # noqa: F821

c.LabApp.app_settings_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lab")
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"

# An interactive shell that is not a login shell: the PATH the hub gave the server stays.
c.ServerApp.terminado_settings = {"shell_command": [os.environ.get("SHELL") or "/bin/bash"]}
