"""``make test``: the whole suite as two pytest sessions at once (tests/README.md, «Dos sesiones a la vez»).

``--flujo=calculo`` (nbgrader and the in-process tests: CPU) prints here as it goes;
``--flujo=espera`` (a browser, the hub and the modules that read the samples' grading or
the hostile batch: they mostly wait) writes ``test-artifacts/pytest-espera.log``, printed
at the end.  Every collected test runs in exactly one of them (``flujo_de`` in
tests/conftest.py), each background batch is graded once.  Extra arguments go to both
(``python tests/dos_sesiones.py -x``).  Exit status: 0 only if both sessions passed.
Ctrl-C stops both (each pytest stops its background batches itself).

``python tests/dos_sesiones.py --reparto`` collects the suite (nothing runs) and prints, as JSON,
each test's session and the session-wide fixtures it uses (tests/test_dos_sesiones.py checks it).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
REGISTRO = RAIZ / "test-artifacts" / "pytest-espera.log"


class _Reparto:
    """pytest plugin: after collection, ``{nodeid: [session, [fixtures of the session-wide batches]]}``."""

    def __init__(self):
        self.reparto: dict[str, list] = {}

    def pytest_collection_finish(self, session):
        import conftest
        modulos: dict[str, list] = {}
        for item in session.items:
            modulos.setdefault(item.nodeid.split("::")[0], []).append(item)
        de = conftest.flujo_de(modulos)
        lotes = {"curso_calificado", *conftest.TRABAJOS}
        for modulo, items in modulos.items():
            for item in items:
                self.reparto[item.nodeid] = [de[modulo], sorted(lotes & set(getattr(item, "fixturenames", ())))]


def reparto() -> dict[str, list]:
    import pytest
    plugin = _Reparto()
    codigo = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", str(RAIZ / "tests")], plugins=[plugin])
    if codigo != 0:
        raise SystemExit(f"pytest --collect-only terminó con {codigo}")
    return plugin.reparto


def main(argumentos: list[str]) -> int:
    if argumentos == ["--reparto"]:
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):
            datos = reparto()
        print(json.dumps(datos))
        return 0
    REGISTRO.parent.mkdir(parents=True, exist_ok=True)
    pytest = [sys.executable, "-m", "pytest"]
    print(f"make test: dos sesiones de pytest a la vez; la de las pruebas que esperan (navegador, hub) "
          f"escribe en {REGISTRO.relative_to(RAIZ)} y se muestra al final.", flush=True)
    inicio = time.monotonic()
    # the background batches one after another, as in one session: the samples and the hostile batch
    # (espera), then the battery (calculo); a marker file says the first queue is done
    carpeta = Path(tempfile.mkdtemp(prefix="curso-dos-sesiones-"))
    hecho = carpeta / "lotes-de-espera-hechos"
    with open(REGISTRO, "wb") as registro:
        # the cache (--lf) stays with the session printed here: two sessions writing it at once could clash
        espera = subprocess.Popen([*pytest, "--flujo=espera", "-p", "no:cacheprovider", *argumentos],
                                  cwd=RAIZ, stdout=registro, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  env={**os.environ, "CURSO_SEGUNDO_PLANO_AVISA": str(hecho)})
        # if that session ends without saying so (it failed early), the battery does not wait for nothing
        aviso = threading.Thread(target=lambda: (espera.wait(), hecho.touch()), daemon=True)
        aviso.start()
        try:
            calculo = subprocess.call([*pytest, "--flujo=calculo", *argumentos], cwd=RAIZ,
                                      env={**os.environ, "CURSO_SEGUNDO_PLANO_TRAS": str(hecho)})
            fin_calculo = time.monotonic()
            codigo_espera = espera.wait()
            aviso.join()
        except KeyboardInterrupt:       # the terminal sent SIGINT to both pytests too: let them clean up
            espera.wait()
            shutil.rmtree(carpeta, ignore_errors=True)
            raise
    fin = time.monotonic()
    shutil.rmtree(carpeta, ignore_errors=True)
    print(f"\n{'=' * 30} sesión --flujo=espera ({REGISTRO.relative_to(RAIZ)}) {'=' * 30}", flush=True)
    sys.stdout.buffer.write(REGISTRO.read_bytes())
    print(f"\nmake test: --flujo=calculo terminó con {calculo} a los {fin_calculo - inicio:.0f} s; "
          f"--flujo=espera, con {codigo_espera} a los {fin - inicio:.0f} s.", flush=True)
    # pytest's codes: 0 all passed, 5 nothing collected (a selection that leaves one session empty)
    return 0 if {calculo, codigo_espera} <= {0, 5} and (calculo, codigo_espera) != (5, 5) else (calculo or codigo_espera)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
