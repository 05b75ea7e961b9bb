"""JupyterLab defaults of the hub's servers from the course's own JupyterLab defaults.

The course ships its JupyterLab defaults (Spanish locale, the Run and Kernel
menus' «restart and run» items as single commands) as the package
``ajustes_jupyterlab/`` (an ``overrides.d`` file every course environment
installs, with the course's Spanish language pack).  The hub's
``overrides.json`` repeats them and adds what only a class needs
(:data:`SOLO_HUB`), so every student starts in Spanish and can still change
it::

    python despliegue/hub/ajustes_lab.py      # rewrites jupyter/comun/lab/overrides.json

``tests/test_despliegue.py`` checks that the committed file matches.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import json5

AQUI = Path(__file__).resolve().parent
AJUSTES_CURSO = AQUI.parent.parent / "ajustes_jupyterlab" / "overrides.d"
OVERRIDES = AQUI / "jupyter" / "comun" / "lab" / "overrides.json"


# On the hub only: a class gets no "news about Jupyter?" pop-up nor update checks.
SOLO_HUB = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}


def overrides(ajustes: Path = AJUSTES_CURSO) -> dict:
    """``{"<extension>:<plugin>": {setting: value}}`` from an ``overrides.d`` folder, plus :data:`SOLO_HUB`."""
    resultado = dict(SOLO_HUB)
    for archivo in sorted(ajustes.glob("*.json")):
        for clave, valores in json5.loads(archivo.read_text(encoding="utf-8")).items():
            resultado[clave] = {**resultado.get(clave, {}), **valores}
    return resultado


def texto(ajustes: Path = AJUSTES_CURSO) -> str:
    return json.dumps(overrides(ajustes), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def main() -> int:
    OVERRIDES.parent.mkdir(parents=True, exist_ok=True)
    OVERRIDES.write_text(texto(), encoding="utf-8")
    print(f"Escrito {OVERRIDES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
