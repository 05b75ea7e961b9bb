"""The session's expensive fixtures, computed in the background while the other tests run.

Grading a whole batch with nbgrader takes minutes and keeps both cores busy;
the browser tests, the hub tests and most of the quick tests leave a core (or
both) idle while they wait.  So the batches a collected test needs are graded
in the background from the session's start, one after another (each already
uses every core), and the tests that read them run last
(``tests/conftest.py``: ``pytest_collection_modifyitems``); by then the work is
done or under way.  What each test checks does not change: the same batch,
graded by the same code, in the same kind of temporary folder.

Each job runs in a process of its own (``python tests/segundo_plano.py
<módulo> <función> <carpeta> <resultado>``): it calls ``<módulo>.<función>(fabrica)``
(``fabrica.mktemp(nombre)`` gives a new folder, as pytest's
``tmp_path_factory`` does) with the environment the session had when it
started (a test that sets ``CURSO_DB_URL`` or ``CURSO_TRABAJADORES`` meanwhile
changes nothing in the job), and pickles what it returns.  A job that fails
makes the tests that need it fail with its log; a session that ends (or is
interrupted) stops the jobs still running.
"""
from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

AQUI = Path(__file__).resolve().parent
RAIZ = AQUI.parent


class Fabrica:
    """``mktemp(nombre)`` as pytest's ``tmp_path_factory``: a new folder under ``base`` each call."""

    def __init__(self, base: Path):
        self.base = Path(base)

    def mktemp(self, nombre: str) -> Path:
        self.base.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f"{nombre}-", dir=self.base))


@dataclass
class Trabajo:
    """One background job: ``modulo.funcion(fabrica)`` in its own process, its result pickled."""
    nombre: str
    modulo: str
    funcion: str
    carpeta: Path
    registro: Path
    proceso: subprocess.Popen | None = None
    terminado: threading.Event = field(default_factory=threading.Event)
    cancelado: bool = False

    @property
    def resultado_en(self) -> Path:
        return self.carpeta / "resultado.pickle"

    def lanzar(self, entorno: dict) -> None:
        self.carpeta.mkdir(parents=True, exist_ok=True)
        self.registro.parent.mkdir(parents=True, exist_ok=True)
        with open(self.registro, "wb") as log:
            self.proceso = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), self.modulo, self.funcion,
                 str(self.carpeta / "tmp"), str(self.resultado_en)],
                cwd=AQUI, env=entorno, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def esperar(self, timeout: float) -> object:
        """The job's result; AssertionError (with its log) if it failed, was stopped or took too long."""
        if not self.terminado.wait(timeout):
            self.parar()
            raise AssertionError(f"el trabajo en segundo plano «{self.nombre}» no terminó en {timeout:.0f} s; "
                                 f"mira {self.registro}")
        if self.cancelado or not self.resultado_en.exists():
            raise AssertionError(f"el trabajo en segundo plano «{self.nombre}» falló (mira {self.registro}):\n"
                                 + self.registro.read_text(errors="replace")[-4000:])
        with open(self.resultado_en, "rb") as f:
            return pickle.load(f)

    def parar(self) -> None:
        self.cancelado = True
        if self.proceso and self.proceso.poll() is None:
            try:
                os.killpg(self.proceso.pid, signal.SIGTERM)
                self.proceso.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proceso.pid, signal.SIGKILL)
                self.proceso.wait()
            except ProcessLookupError:
                pass
        self.terminado.set()


class Cola:
    """Jobs run one after another in a thread of this process (which only starts and waits for them).

    ``antes``: a process to wait for before the first job (the samples' grading, which the browser
    tests need first; its own tests report how it went).
    """

    def __init__(self, trabajos: list[Trabajo], antes=None, tras: Path | None = None, avisa: Path | None = None):
        self.trabajos = {t.nombre: t for t in trabajos}
        self.antes = antes
        # make test's two sessions (tests/dos_sesiones.py) keep the batches one after another, as one session
        # does: ``tras`` is a file to wait for before the first job (the other session's queue is done), and
        # ``avisa`` the file this queue creates when it is done (or has nothing to do)
        self.tras, self.avisa = tras, avisa
        self.entorno = dict(os.environ)            # the session's environment, as it started
        self.entorno.pop("PYTEST_CURRENT_TEST", None)
        self._hilo = threading.Thread(target=self._correr, name="segundo-plano", daemon=True)
        self._parada = threading.Event()

    def lanzar(self) -> "Cola":
        if self.trabajos or self.avisa:
            self._hilo.start()
        return self

    def _correr(self) -> None:
        try:
            self._en_orden()
        finally:
            if self.avisa is not None:
                Path(self.avisa).touch()

    def _en_orden(self) -> None:
        if self.antes is not None:
            self.antes.wait()
        if self.trabajos and self.tras is not None:
            while not Path(self.tras).exists() and not self._parada.is_set():
                self._parada.wait(2)
        for trabajo in self.trabajos.values():
            if self._parada.is_set():
                trabajo.parar()
                continue
            try:
                trabajo.lanzar(self.entorno)
                trabajo.proceso.wait()
            except Exception:  # noqa: BLE001 - reported by esperar() from the log
                with open(trabajo.registro, "a") as log:
                    log.write(traceback.format_exc())
            trabajo.terminado.set()

    def __getitem__(self, nombre: str) -> Trabajo:
        return self.trabajos[nombre]

    def __contains__(self, nombre: str) -> bool:
        return nombre in self.trabajos

    def parar(self) -> None:
        self._parada.set()
        for trabajo in self.trabajos.values():
            trabajo.parar()
        if self._hilo.is_alive():
            self._hilo.join(timeout=60)


def main(argv: list[str]) -> int:
    modulo, funcion, carpeta, salida = argv
    for ruta in (str(AQUI), str(RAIZ)):
        if ruta not in sys.path:
            sys.path.insert(0, ruta)
    import importlib
    inicio = time.monotonic()
    resultado = getattr(importlib.import_module(modulo), funcion)(Fabrica(Path(carpeta)))
    temporal = Path(salida).with_suffix(".parcial")
    with open(temporal, "wb") as f:
        pickle.dump(resultado, f)
    temporal.rename(salida)
    print(f"{modulo}.{funcion}: {time.monotonic() - inicio:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
