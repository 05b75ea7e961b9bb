"""Validate several notebooks as a student's JupyterLab «Validate» button does, in one process.

Usage (run it in a student's assignment folder, which holds the released
``nbgrader_config.py``)::

    python validar_lote.py resultados.json cuaderno1.ipynb cuaderno2.ipynb ...

The configuration is loaded exactly as nbgrader's validate server extension
loads it (``ValidateAssignmentHandler.load_config``: the working folder, then
Jupyter's config path), and each notebook goes through ``Validator.validate``,
the call behind both the button and ``nbgrader validate``.  Loading nbgrader
once for the whole batch is what makes validating a battery affordable; each
notebook still gets its own kernel, as in the button.  Writes one JSON object
``{notebook path: Validator result}`` (``{"error": traceback}`` when the
validation itself crashed).

A kernel that dies before answering ``kernel_info`` is started again (up to
``INTENTOS`` times, as a student would press the button again): with several
batches validating at once on one machine, jupyter_client's TCP ports are
picked before the kernel binds them and two kernels can race for one.  Only
that start-up failure is retried; every other error is recorded as it is.
"""
from __future__ import annotations

import json
import os
import sys
import traceback

INTENTOS = 3
ARRANQUE_FALLIDO = "Kernel died before replying to kernel_info"


def configuracion():
    """nbgrader's config as the Validate button loads it (working folder first)."""
    from jupyter_core.paths import jupyter_config_path
    from nbgrader.apps import NbGrader

    rutas = jupyter_config_path()
    rutas.insert(0, os.getcwd())
    app = NbGrader()
    app.config_file_paths.append(rutas)
    app.load_config_file()
    return app.config


def main(argv: list[str]) -> int:
    from nbgrader.validator import Validator

    destino, cuadernos = argv[0], argv[1:]
    resultados = {}
    for cuaderno in cuadernos:
        for intento in range(1, INTENTOS + 1):
            try:
                resultados[cuaderno] = Validator(config=configuracion()).validate(os.path.abspath(cuaderno))
            except Exception as e:  # noqa: BLE001 - recorded, the batch goes on
                if ARRANQUE_FALLIDO in str(e) and intento < INTENTOS:
                    print(f"{cuaderno}: el kernel murió al arrancar; intento {intento + 1}", file=sys.stderr)
                    continue
                resultados[cuaderno] = {"error": traceback.format_exc()}
            break
        with open(destino, "w", encoding="utf-8") as f:     # partial results survive a crash
            json.dump(resultados, f, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
