"""A private PostgreSQL cluster for a test: ``initdb`` + ``pg_ctl`` in a temporary folder, on loopback.

``ClusterTemporal`` starts Debian's PostgreSQL (``apt-get install postgresql``;
``.ci/run`` installs it) on 127.0.0.1 and a free port, with a random password,
as a non-root user when the tests run as root (PostgreSQL refuses root), and
stops it and removes its folder afterwards.  ``que_falta()`` says why it
cannot run here; with ``CURSO_EXIGIR_POSTGRESQL=1`` (``.ci/run``) the tests
fail instead of being skipped.
"""
from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

EXIGIR = os.environ.get("CURSO_EXIGIR_POSTGRESQL", "").strip() not in ("", "0", "no", "false")


def binarios() -> Path | None:
    """Folder of initdb / pg_ctl (Debian keeps them in /usr/lib/postgresql/<versión>/bin)."""
    en_path = shutil.which("initdb")
    if en_path:
        return Path(os.path.realpath(en_path)).parent
    candidatos = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda r: int(r.split("/")[4]) if r.split("/")[4].isdigit() else 0)
    return Path(candidatos[-1]).parent if candidatos else None


def _usuario() -> str | None:
    """The account that runs the cluster: ours, or (as root) ``postgres`` / ``nobody``."""
    if os.geteuid() != 0:
        return None
    for nombre in ("postgres", "nobody"):
        try:
            pwd.getpwnam(nombre)
            return nombre
        except KeyError:
            continue
    return None


def que_falta() -> str | None:
    if binarios() is None:
        return "no está PostgreSQL (apt-get install postgresql)"
    try:
        import psycopg2  # noqa: F401
    except ImportError:
        return "falta psycopg2 (pip install -r despliegue/requirements-calificador.txt)"
    return None


def omitir_o_fallar() -> None:
    motivo = que_falta()
    if motivo:
        texto = f"pruebas con PostgreSQL: {motivo}"
        if EXIGIR:
            pytest.fail("CURSO_EXIGIR_POSTGRESQL=1 exige las pruebas con PostgreSQL, pero " + texto, pytrace=False)
        pytest.skip(texto)


def _puerto_libre() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ClusterTemporal:
    """A started PostgreSQL cluster; ``url(base)`` gives a ``postgresql+psycopg2://`` URL."""

    def __init__(self):
        self.carpeta = Path(tempfile.mkdtemp(prefix="curso-postgresql-"))
        self.datos = self.carpeta / "datos"
        self.clave = secrets.token_hex(12)
        self.puerto = _puerto_libre()
        self.usuario = _usuario()
        self.bin = binarios()

    def _ejecutar(self, *args: str) -> subprocess.CompletedProcess:
        proceso = subprocess.run(list(args), user=self.usuario, capture_output=True, text=True, timeout=120,
                                 cwd=self.carpeta, env={**os.environ, "LC_ALL": "C.UTF-8"})
        if proceso.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} falló:\n{proceso.stdout}\n{proceso.stderr}")
        return proceso

    def arrancar(self) -> "ClusterTemporal":
        claves = self.carpeta / "clave"
        claves.write_text(self.clave)
        if self.usuario:
            entrada = pwd.getpwnam(self.usuario)
            for ruta in (self.carpeta, claves):
                os.chown(ruta, entrada.pw_uid, entrada.pw_gid)
        self._ejecutar(str(self.bin / "initdb"), "-D", str(self.datos), "-U", "nbgrader", "--pwfile", str(claves),
                       "--auth", "scram-sha-256", "-E", "UTF8", "--no-sync")
        claves.unlink()
        self._ejecutar(str(self.bin / "pg_ctl"), "-D", str(self.datos), "-l", str(self.carpeta / "registro.log"),
                       "-w", "-t", "60", "-o",
                       f"-c listen_addresses=127.0.0.1 -p {self.puerto} -k {self.carpeta} -c fsync=off",
                       "start")
        return self

    def url(self, base: str = "postgres") -> str:
        return f"postgresql+psycopg2://nbgrader:{self.clave}@127.0.0.1:{self.puerto}/{base}"

    def crear_base(self, nombre: str) -> str:
        """A new empty database; returns its URL."""
        import psycopg2
        conexion = psycopg2.connect(host="127.0.0.1", port=self.puerto, user="nbgrader", password=self.clave,
                                    dbname="postgres")
        try:
            conexion.autocommit = True
            with conexion.cursor() as cursor:
                cursor.execute(f'CREATE DATABASE "{nombre}"')
        finally:
            conexion.close()
        return self.url(nombre)

    def parar(self) -> None:
        if self.datos.is_dir():
            subprocess.run([str(self.bin / "pg_ctl"), "-D", str(self.datos), "-m", "immediate", "-w", "stop"],
                           user=self.usuario, capture_output=True, timeout=60, cwd=self.carpeta)
        shutil.rmtree(self.carpeta, ignore_errors=True)
