"""``nbgrader <orden>`` in the course root, as the TA would type it.

The venv's tools come first on PATH (nbgrader runs alembic from there).  The
output (nbgrader logs on stderr, kernels print on stdout) is read as one
stream, line by line, so the caller can follow a long batch (progress bar)
and still gets the whole text at the end.  ``db_url`` points one run at another
gradebook (a worker's copy): it goes on the command line, which wins over
nbgrader_config.py; a server URL with a password never goes there (the
environment's ``CURSO_DB_URL`` carries it instead).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable


class Nbgrader:
    """Callable ``nbgrader(*args, check=True, al_leer=None) -> CompletedProcess`` for one course.

    Args:
        raiz: the course root (working directory of every run).
        db_url: gradebook for every run (None: the course's own, from its config).
        excluidos: a JSON list of student ids every run leaves out (None: nobody).
    """

    def __init__(self, raiz: Path, db_url: str | None = None, excluidos: Path | None = None):
        self.raiz = Path(raiz)
        self.db_url = db_url
        self.excluidos = excluidos

    def entorno(self) -> dict:
        env = dict(os.environ)
        env.pop("CURSO_ALUMNOS_EXCLUIDOS", None)
        if self.excluidos is not None:       # grader_tests.extensiones_nbgrader.nbgrader_seguro leaves these students out
            env["CURSO_ALUMNOS_EXCLUIDOS"] = str(self.excluidos)
        env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
        return env

    def __call__(self, *args: str, check: bool = True,
                 al_leer: Callable[[str], None] | None = None) -> subprocess.CompletedProcess:
        """Run ``nbgrader <args>``; ``al_leer`` gets each output line as it comes.

        Returns the CompletedProcess, text decoded as UTF-8.  With ``al_leer``,
        its ``stdout`` holds stdout and stderr together, in the order they came
        (``stderr`` is empty); without it, each apart as nbgrader wrote them.

        Raises:
            SystemExit: ``check`` and nbgrader failed (its output goes to stderr first).
        """
        cmd = [str(Path(sys.executable).parent / "nbgrader"), *args]
        if self.db_url is not None:
            cmd.append(f"--CourseDirectory.db_url={self.db_url}")
        if al_leer is None:
            completado = subprocess.run(cmd, cwd=self.raiz, env=self.entorno(), capture_output=True,
                                        stdin=subprocess.DEVNULL, text=True, encoding="utf-8", errors="replace")
            return self._comprobar(completado, args, check)
        lineas: list[str] = []
        with subprocess.Popen(cmd, cwd=self.raiz, env=self.entorno(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
                              encoding="utf-8", errors="replace") as proceso:
            for linea in proceso.stdout:
                lineas.append(linea)
                if al_leer is not None:
                    al_leer(linea)
        completado = subprocess.CompletedProcess(cmd, proceso.returncode, stdout="".join(lineas), stderr="")
        return self._comprobar(completado, args, check)

    @staticmethod
    def _comprobar(completado: subprocess.CompletedProcess, args, check: bool) -> subprocess.CompletedProcess:
        if check and completado.returncode != 0:
            sys.stderr.write(completado.stdout + completado.stderr)
            raise SystemExit(f"Falló: nbgrader {' '.join(args)}")
        return completado
