"""The pip path (requirements.txt) and the conda path (environment.yml) install the same course."""
from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import RAIZ


def _pins_requirements() -> dict[str, str]:
    pins = {}
    for linea in (RAIZ / "requirements.txt").read_text().splitlines():
        linea = linea.split("#")[0].strip()
        if linea and not linea.startswith("./"):
            nombre, version = linea.split("==")
            pins[nombre.lower()] = version
    return pins


def _pins_environment() -> dict[str, str]:
    texto = (RAIZ / "environment.yml").read_text()
    return {n.lower(): v for n, v in re.findall(r"^\s+- ([\w.-]+)==([\w.]+)\s*$", texto, re.M)}


def test_requirements_y_environment_fijan_las_mismas_versiones():
    assert _pins_requirements() == _pins_environment()


def test_el_entorno_tiene_los_cinco_paquetes_del_curso_y_python_311():
    pins = _pins_requirements()
    assert {"jupyterlab", "nbgrader", "numpy", "ipywidgets", "matplotlib"} <= set(pins)
    assert re.search(r"^\s+- python=3\.11\s*$", (RAIZ / "environment.yml").read_text(), re.M)


LOCAL = "./ajustes_jupyterlab"
AJUSTES = RAIZ / "ajustes_jupyterlab" / "overrides.d" / "curso-atencion-es.json"


def test_los_dos_caminos_instalan_los_ajustes_de_jupyterlab():
    """Both install the course's default JupyterLab settings (Spanish), and only those local paths."""
    locales_pip = [l.split("#")[0].strip() for l in (RAIZ / "requirements.txt").read_text().splitlines()
                   if l.strip().startswith("./")]
    locales_conda = re.findall(r"^\s+- (\./[\w.-]+)", (RAIZ / "environment.yml").read_text(), re.M)
    assert locales_pip == locales_conda == [LOCAL]
    proyecto = (RAIZ / "ajustes_jupyterlab" / "pyproject.toml").read_text()
    assert '"share/jupyter/lab/settings/overrides.d" = ["overrides.d/curso-atencion-es.json"]' in proyecto


def test_ajustes_ponen_jupyterlab_en_espanol_con_menus_ejecutar_y_pestanas():
    ajustes = json.loads(AJUSTES.read_text(encoding="utf-8"))
    assert ajustes["@jupyterlab/translation-extension:plugin"]["locale"] == "es_ES"
    menus = {m["id"]: m["label"] for m in ajustes["@jupyterlab/mainmenu-extension:plugin"]["menus"]}
    assert menus == {"jp-mainmenu-run": "Ejecutar", "jp-mainmenu-tabs": "Pestañas"}


def test_el_entorno_del_proyecto_tiene_los_ajustes_instalados():
    """The .venv that `make` builds got the file where jupyterlab_server reads defaults."""
    from jupyterlab.commands import get_app_dir
    from jupyterlab_server.settings_utils import _get_overrides

    ajustes, error = _get_overrides(str(Path(get_app_dir()) / "settings"))
    assert not error
    assert ajustes["@jupyterlab/translation-extension:plugin"]["locale"] == "es_ES"
