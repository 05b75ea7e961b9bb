"""Build a throwaway copy of the course to run the real nbgrader pipeline in."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import RAIZ

COPIAR = ["nbgrader_config.py", "plazos.toml", "grader_tests", "source", "release", "examples", "scripts", "plantillas", "lms"]
BIN = Path(sys.executable).parent


def copiar_curso(destino: Path) -> Path:
    """Copy what a TA's clone holds (no gradebook, no submissions) into ``destino``."""
    destino.mkdir(parents=True, exist_ok=True)
    ignorar = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints")
    for nombre in COPIAR:
        origen = RAIZ / nombre
        if origen.is_dir():
            shutil.copytree(origen, destino / nombre, ignore=ignorar)
        elif origen.exists():
            shutil.copy2(origen, destino / nombre)
    return destino


def entorno() -> dict:
    env = dict(os.environ)
    env["PATH"] = str(BIN) + os.pathsep + env.get("PATH", "")
    return env


def ejecutar(curso: Path, *args: str, check: bool = True, timeout: int = 900,
             env: dict | None = None) -> subprocess.CompletedProcess:
    """Run a command (``nbgrader ...`` or ``python ...``) in the course copy (``env``: extra variables)."""
    cmd = list(args)
    if cmd[0] in ("nbgrader", "jupyter"):
        cmd[0] = str(BIN / cmd[0])
    elif cmd[0] == "python":
        cmd[0] = sys.executable
    proceso = subprocess.run(cmd, cwd=curso, env={**entorno(), **(env or {})}, capture_output=True, text=True,
                             timeout=timeout)
    if check and proceso.returncode != 0:
        raise AssertionError(f"{' '.join(args)} falló ({proceso.returncode}):\n{proceso.stdout}\n{proceso.stderr}")
    return proceso


def tareas(curso: Path = RAIZ) -> list[str]:
    return sorted(p.name for p in (curso / "source").iterdir() if p.is_dir() and any(p.glob("*.ipynb")))


class CalificacionEnSegundoPlano:
    """``python scripts/calificacion/grade.py`` in a temporary course copy, started in the background.

    Several suites need a course after the TA's job (the end-to-end tests, the
    formgrader in the browser); it takes minutes, so one copy is graded once per
    session, started as soon as the session starts.
    """

    def __init__(self, registro: Path):
        import tempfile
        self.base = Path(tempfile.mkdtemp(prefix="curso-calificado-"))
        self.curso = self.base / "curso"
        self.registro = registro
        self.proceso: subprocess.Popen | None = None

    def lanzar(self) -> None:
        copiar_curso(self.curso)
        self.registro.parent.mkdir(parents=True, exist_ok=True)
        with open(self.registro, "wb") as log:
            self.proceso = subprocess.Popen(
                [sys.executable, "scripts/calificacion/grade.py"], cwd=self.curso, env=entorno(),
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def esperar(self, timeout: float = 1200) -> Path:
        if self.proceso is None:
            self.lanzar()
        try:
            codigo = self.proceso.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.parar()
            raise AssertionError(f"scripts/calificacion/grade.py no terminó en {timeout} s; mira {self.registro}")
        if codigo != 0:
            raise AssertionError(f"scripts/calificacion/grade.py falló ({codigo}):\n"
                                 + self.registro.read_text(errors="replace")[-3000:])
        return self.curso

    def salida(self) -> str:
        return self.registro.read_text(errors="replace")

    def parar(self) -> None:
        import signal
        if self.proceso and self.proceso.poll() is None:
            os.killpg(self.proceso.pid, signal.SIGTERM)
            try:
                self.proceso.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proceso.pid, signal.SIGKILL)

    def limpiar(self) -> None:
        self.parar()
        shutil.rmtree(self.base, ignore_errors=True)
