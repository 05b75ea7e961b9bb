"""Python environments other than the course's ``.venv``, and an unprivileged TA, for the sandbox's tests.

The sandbox must start from whatever Python runs the grading (issue 19).  No
conda can be installed offline, so ``prefijo_como_conda`` lays one out the
way conda does: a prefix that is not a venv (no ``pyvenv.cfg``), with
``bin/pythonX.Y``, ``lib/libpythonX.Y.so``, ``lib/pythonX.Y/`` (the standard
library) and ``lib/pythonX.Y/site-packages`` holding the course's packages,
the interpreter's library path made relative (``$ORIGIN/../lib``) by
replacing the old prefix in the binary, padded with NUL bytes: what conda
itself does when it installs a package into an environment.  Files are hard
links where the file system allows it (seconds, no space).

``venv_sobre`` makes a venv over such a prefix (a "venv outside the course")
with the course's packages and console scripts; ``UsuarioDeUsarYTirar`` a throwaway Unix account
(random name, removed afterwards) that runs commands as a hub service or a
Kubernetes Job would: an unprivileged uid, no groups.
"""
from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

VERSION = f"python{sys.version_info[0]}.{sys.version_info[1]}"
OMITIR_STDLIB = {"site-packages", "dist-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip"}


def _enlazar_arbol(origen: Path, destino: Path, omitir=lambda ruta: False) -> None:
    """Hard-link every file of ``origen`` into ``destino`` (copy across file systems); links kept as links."""
    for carpeta, subcarpetas, archivos in os.walk(origen):
        relativa = Path(carpeta).relative_to(origen)
        subcarpetas[:] = [s for s in subcarpetas if not omitir(relativa / s)]
        (destino / relativa).mkdir(parents=True, exist_ok=True)
        os.chmod(destino / relativa, 0o755)
        for nombre in subcarpetas:
            if os.path.islink(Path(carpeta) / nombre):
                os.symlink(os.readlink(Path(carpeta) / nombre), destino / relativa / nombre)
        for nombre in archivos:
            if omitir(relativa / nombre):
                continue
            fuente, meta = Path(carpeta) / nombre, destino / relativa / nombre
            if fuente.is_symlink():
                os.symlink(os.readlink(fuente), meta)
                continue
            try:
                os.link(fuente, meta)
            except OSError:
                shutil.copy2(fuente, meta)


def _scripts(origen: Path, destino: Path, python: Path) -> None:
    """The console scripts of ``origen`` (a venv's bin/) for another interpreter: shebang replaced."""
    destino.mkdir(parents=True, exist_ok=True)
    for script in sorted(origen.iterdir()):
        if script.is_symlink() or not script.is_file() or (destino / script.name).exists():
            continue
        with open(script, "rb") as f:
            cabecera = f.read(2)
        if cabecera != b"#!":
            continue
        lineas = script.read_text(errors="surrogateescape").splitlines(keepends=True)
        if "python" not in lineas[0]:
            continue
        (destino / script.name).write_text(f"#!{python}\n" + "".join(lineas[1:]), errors="surrogateescape")
        (destino / script.name).chmod(0o755)


def prefijo_como_conda(destino: Path, venv: Path | None = None) -> Path:
    """A conda-like prefix at ``destino`` with the packages of ``venv`` (default: this test's venv).

    Returns the prefix.  Raises AssertionError if its Python does not report
    ``sys.prefix == destino`` and cannot import nbgrader.
    """
    venv = Path(venv or sys.prefix)
    base = Path(sys.base_prefix)
    binario = Path(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))
    (destino / "bin").mkdir(parents=True, exist_ok=True)
    (destino / "lib").mkdir(exist_ok=True)
    for carpeta in (destino, destino / "bin", destino / "lib"):
        carpeta.chmod(0o755)
    # the interpreter, relocated as conda relocates binaries: old prefix replaced, NUL-padded
    datos = binario.read_bytes()
    viejo = str(base / "lib").encode()
    if viejo in datos:
        datos = datos.replace(viejo + b"\0", b"$ORIGIN/../lib".ljust(len(viejo), b"\0") + b"\0")
    python = destino / "bin" / VERSION
    python.write_bytes(datos)
    python.chmod(0o755)
    for alias in ("python", "python3"):
        os.symlink(VERSION, destino / "bin" / alias)
    libdir = Path(sysconfig.get_config_var("LIBDIR") or base / "lib")
    for biblioteca in libdir.glob("libpython*.so*"):
        _enlazar_arbol_archivo(biblioteca, destino / "lib" / biblioteca.name)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    _enlazar_arbol(stdlib, destino / "lib" / VERSION, lambda r: r.parts[0] in OMITIR_STDLIB)
    # the course's packages as conda would install them, not the course itself (it is on PYTHONPATH
    # or next to the config, as on the hub)
    paquetes = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    _enlazar_arbol(paquetes, destino / "lib" / VERSION / "site-packages",
                   lambda r: r.parts[0].startswith(("__editable__", "curso_atencion_grader_tests")))
    for carpeta in ("share", "etc"):
        if (venv / carpeta).is_dir():
            _enlazar_arbol(venv / carpeta, destino / carpeta)
    _scripts(venv / "bin", destino / "bin", python)
    comprobado = subprocess.run([str(python), "-c", "import sys, nbgrader, numpy, ipykernel; print(sys.prefix)"],
                                capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert comprobado.returncode == 0 and comprobado.stdout.strip() == str(destino), comprobado
    return destino


def _enlazar_arbol_archivo(fuente: Path, destino: Path) -> None:
    if fuente.is_symlink():
        os.symlink(os.readlink(fuente), destino)
        return
    try:
        os.link(fuente, destino)
    except OSError:
        shutil.copy2(fuente, destino)


def venv_sobre(prefijo: Path, destino: Path, venv_original: Path | None = None) -> Path:
    """A venv at ``destino`` over ``prefijo``'s Python with the course's packages of its own, as pip leaves it."""
    venv_original = Path(venv_original or sys.prefix)
    subprocess.run([str(prefijo / "bin" / VERSION), "-m", "venv", "--without-pip", str(destino)],
                   check=True, env={"PATH": "/usr/bin:/bin"})
    paquetes = Path(sysconfig.get_paths(vars={"base": str(venv_original), "platbase": str(venv_original)})["purelib"])
    _enlazar_arbol(paquetes, destino / "lib" / VERSION / "site-packages",
                   lambda r: r.parts[0].startswith(("__editable__", "curso_atencion_grader_tests")))
    for carpeta in ("share", "etc"):
        if (venv_original / carpeta).is_dir():
            _enlazar_arbol(venv_original / carpeta, destino / carpeta)
    _scripts(venv_original / "bin", destino / "bin", destino / "bin" / "python")
    return destino


def carpeta_compartida(prefijo: str) -> Path:
    """A fresh folder under /tmp that any account can cross (pytest's own are 0700 for root)."""
    import tempfile
    carpeta = Path(tempfile.mkdtemp(prefix=prefijo, dir="/tmp"))
    carpeta.chmod(0o755)
    return carpeta


class UsuarioDeUsarYTirar:
    """A throwaway Unix account (random name, no groups, no home) to run commands as a non-root TA.

    Only as root (``useradd``); ``ejecutar`` runs a command with ``setpriv``
    as that uid/gid with no supplementary groups, the environment given and
    nothing of root's.  ``borrar`` removes the account and kills what is left.
    """

    def __init__(self):
        self.nombre = "ta" + secrets.token_hex(4)
        # make test runs two pytest sessions at once (tests/dos_sesiones.py): the hub's test may be creating its
        # accounts; useradd then says «cannot lock /etc/passwd; try again later» and exits 1
        for intento in range(30):
            r = subprocess.run(["useradd", "--no-create-home", "--home-dir", "/nonexistent", "--shell",
                                "/usr/sbin/nologin", "--user-group", self.nombre], capture_output=True, text=True)
            if r.returncode == 0 or "lock" not in r.stderr or intento == 29:
                break
            time.sleep(1)
        r.check_returncode()
        import pwd
        entrada = pwd.getpwnam(self.nombre)
        self.uid, self.gid = entrada.pw_uid, entrada.pw_gid

    def dar(self, ruta: Path) -> None:
        """Give ``ruta`` (recursively, links not followed) to the account."""
        subprocess.run(["chown", "-R", "-h", f"{self.uid}:{self.gid}", str(ruta)], check=True)

    def orden(self, *args: str) -> list[str]:
        return ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups",
                "--inh-caps=-all", "--", *args]

    def ejecutar(self, *args: str, cwd: Path, env: dict, timeout: float = 900,
                 check: bool = True) -> subprocess.CompletedProcess:
        proceso = subprocess.run(self.orden(*args), cwd=cwd, env=env, capture_output=True, text=True,
                                 timeout=timeout, stdin=subprocess.DEVNULL)
        if check and proceso.returncode != 0:
            raise AssertionError(f"{' '.join(args)} falló ({proceso.returncode}) como {self.nombre}:\n"
                                 f"{proceso.stdout[-3000:]}\n{proceso.stderr[-3000:]}")
        return proceso

    def procesos(self) -> list[int]:
        """The pids of this account's processes (every one was started by the test)."""
        pids = []
        for proc in Path("/proc").iterdir():
            try:
                if proc.name.isdigit() and proc.stat().st_uid == self.uid:
                    pids.append(int(proc.name))
            except OSError:
                pass
        return pids

    def borrar(self) -> None:
        import signal
        for pid in self.procesos():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        subprocess.run(["userdel", self.nombre], capture_output=True)


def entorno_de(prefijo_bin: Path, **extra: str) -> dict:
    """A plain environment for the account: PATH with the given bin/ first, LANG, and ``extra``."""
    return {"PATH": f"{prefijo_bin}:/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp", **extra}


__all__ = ["prefijo_como_conda", "venv_sobre", "carpeta_compartida", "UsuarioDeUsarYTirar", "entorno_de"]
