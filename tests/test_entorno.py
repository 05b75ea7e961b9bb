"""The pip path (requirements.txt) and the conda path (environment.yml) install the same course."""
from __future__ import annotations

import re

from conftest import RAIZ


def _pins_requirements() -> dict[str, str]:
    pins = {}
    for linea in (RAIZ / "requirements.txt").read_text().splitlines():
        linea = linea.split("#")[0].strip()
        if linea:
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
