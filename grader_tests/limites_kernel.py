"""Limits on the whole process tree of a student's kernel: cgroups where the machine allows it.

``KernelAislado`` (``aislamiento``) asks ``crear_grupo`` for a control group
per kernel with a memory limit (every process of the kernel together, its
private ``/tmp`` and ``/dev/shm`` included) and a limit on processes and
threads.  The kernel's launcher joins the group before it starts
bubblewrap, so every process the student starts is in it.

Where a group can be made (only where this user may write the cgroup tree):

* cgroup v2: the current cgroup already delegates ``memory`` and ``pids`` to
  its children (``cgroup.subtree_control``) and is writable, e.g. a
  systemd ``Delegate=yes`` service or a container with a delegated tree;
* cgroup v1: the ``memory`` and ``pids`` hierarchies are mounted and the
  current groups in them are writable (usually only as root, e.g. CI and
  containers).

Otherwise ``crear_grupo`` returns None and the documented fallback applies:
``RLIMIT_NPROC`` set inside the sandbox's user namespace (a per-user count of
processes that, from Linux 5.14, counts only the sandbox's own processes) and
the per-process address-space limit; the memory of the tree as a whole is
then not limited (README, «Seguridad»).
"""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

RAIZ_CGROUP = Path("/sys/fs/cgroup")


def _montajes() -> dict[str, Path]:
    """Mount points of the cgroup hierarchies: ``{"v2": …, "memory": …, "pids": …}``."""
    montajes: dict[str, Path] = {}
    try:
        lineas = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return montajes
    for linea in lineas:
        izquierda, _, derecha = linea.partition(" - ")
        campos, resto = izquierda.split(), derecha.split()
        if len(campos) < 5 or len(resto) < 3:
            continue
        tipo, opciones = resto[0], resto[2].split(",")
        if tipo == "cgroup2":
            montajes.setdefault("v2", Path(campos[4]))
        elif tipo == "cgroup":
            for controlador in ("memory", "pids"):
                if controlador in opciones:
                    montajes.setdefault(controlador, Path(campos[4]))
    return montajes


def _grupos_actuales() -> dict[str, str]:
    """This process's cgroup path per hierarchy (``"v2"`` for the unified one)."""
    grupos: dict[str, str] = {}
    try:
        lineas = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return grupos
    for linea in lineas:
        partes = linea.split(":", 2)
        if len(partes) != 3:
            continue
        _, controladores, ruta = partes
        if controladores == "":
            grupos["v2"] = ruta
        for controlador in controladores.split(","):
            if controlador in ("memory", "pids"):
                grupos[controlador] = ruta
    return grupos


class GrupoKernel:
    """One kernel's control group(s): where to join, how to empty and remove them."""

    def __init__(self, carpetas: list[Path], version: str):
        self.carpetas = carpetas
        self.version = version

    @property
    def archivos_procs(self) -> list[str]:
        return [str(c / "cgroup.procs") for c in self.carpetas]

    def procesos(self) -> list[int]:
        pids: set[int] = set()
        for archivo in self.archivos_procs:
            try:
                pids.update(int(p) for p in Path(archivo).read_text().split())
            except (OSError, ValueError):
                pass
        return sorted(pids)

    def vaciar(self, espera: float = 5.0) -> None:
        """Wait until no process is left in the group (killing stragglers), then remove it."""
        limite = time.monotonic() + espera
        while self.procesos() and time.monotonic() < limite:
            time.sleep(0.05)
        for _ in range(20):
            restantes = self.procesos()
            if not restantes:
                break
            if self.version == "v2" and (self.carpetas[0] / "cgroup.kill").exists():
                try:
                    (self.carpetas[0] / "cgroup.kill").write_text("1")
                except OSError:
                    pass
            for pid in restantes:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.05)
        for carpeta in self.carpetas:
            try:
                carpeta.rmdir()
            except OSError:
                pass


def crear_grupo(nombre: str, memoria: int, procesos: int) -> GrupoKernel | None:
    """A fresh control group with these limits, or None where this machine does not allow it."""
    montajes, actuales = _montajes(), _grupos_actuales()
    # cgroup v2 with memory and pids delegated below the current group
    if "v2" in montajes and "v2" in actuales:
        padre = montajes["v2"] / actuales["v2"].lstrip("/")
        try:
            delegados = (padre / "cgroup.subtree_control").read_text().split()
        except OSError:
            delegados = []
        if {"memory", "pids"} <= set(delegados) and os.access(padre, os.W_OK):
            carpeta = padre / nombre
            try:
                carpeta.mkdir()
                (carpeta / "memory.max").write_text(str(memoria))
                (carpeta / "memory.swap.max").write_text("0") if (carpeta / "memory.swap.max").exists() else None
                (carpeta / "pids.max").write_text(str(procesos))
                return GrupoKernel([carpeta], "v2")
            except OSError:
                GrupoKernel([carpeta], "v2").vaciar(0)
    # cgroup v1: separate memory and pids hierarchies
    if "memory" in montajes and "pids" in montajes and "memory" in actuales and "pids" in actuales:
        carpetas = []
        try:
            for controlador, archivo, valor in (("memory", "memory.limit_in_bytes", memoria),
                                                ("pids", "pids.max", procesos)):
                carpeta = montajes[controlador] / actuales[controlador].lstrip("/") / nombre
                carpeta.mkdir()
                carpetas.append(carpeta)
                (carpeta / archivo).write_text(str(valor))
            return GrupoKernel(carpetas, "v1")
        except OSError:
            GrupoKernel(carpetas, "v1").vaciar(0)
    return None


def disponible() -> bool:
    """Whether this process can give kernels a control group (tries and removes one)."""
    grupo = crear_grupo(f"curso-prueba-{os.getpid()}", 1 << 30, 64)
    if grupo is None:
        return False
    grupo.vaciar(0)
    return True
