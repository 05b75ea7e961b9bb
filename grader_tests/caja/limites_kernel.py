"""Limits on the whole process tree of a student's kernel: cgroups where the machine allows it.

``KernelAislado`` (``aislamiento``) asks ``crear_grupo`` for a control group
per kernel with a memory limit (every process of the kernel together, its
private ``/tmp`` and ``/dev/shm`` included) and a limit on processes and
threads.  The kernel's launcher joins the group before it starts
bubblewrap, so every process the student starts is in it.

Where a group can be made (only where this user may write the cgroup tree):

* cgroup v2, an ancestor of the current cgroup (or the root) that already
  delegates ``memory`` and ``pids`` to its children (``cgroup.subtree_control``)
  and that this user may write: root on a systemd machine;
* cgroup v2, the current cgroup delegated to this user (a systemd unit with
  ``Delegate=yes`` and ``User=``, e.g. ``systemd-run --uid=… -p Delegate=yes``):
  its processes move to a leaf (``curso-principal``), as systemd asks of a
  delegated unit, and ``memory`` and ``pids`` are enabled for its children;
* cgroup v1: the ``memory`` and ``pids`` hierarchies are mounted and the
  current groups in them are writable (usually only as root, e.g. CI and
  containers).

Otherwise ``crear_grupo`` returns None and the documented fallback applies:
``RLIMIT_NPROC`` set inside the sandbox's user namespace (a per-user count of
processes that, from Linux 5.14, counts only the sandbox's own processes) and
``VigilanteMemoria``: the memory of the sandbox's whole process tree (the sum
of its processes' proportional set sizes, ``Pss``) measured ten times a second
from outside, the sandbox killed past the limit (README, «Seguridad»).
"""
from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

RAIZ_CGROUP = Path("/sys/fs/cgroup")
# an empty kernel group older than this is a leftover: a launcher joins its group within
# milliseconds of making it, and a group whose last task was still a zombie when ``vaciar``
# tried (cgroup v1's pids controller) stays behind empty once that task is reaped
EDAD_HUERFANO = 120.0


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
            for controlador in ("memory", "pids", "cpu"):
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
            if controlador in ("memory", "pids", "cpu"):
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

    def sin_memoria(self) -> bool:
        """Whether the kernel killed a process of the group for going over its memory limit."""
        for carpeta in self.carpetas:
            for archivo in ("memory.events", "memory.oom_control"):
                try:
                    lineas = (carpeta / archivo).read_text().splitlines()
                except OSError:
                    continue
                for linea in lineas:
                    clave, _, valor = linea.partition(" ")
                    if clave in ("oom_kill", "oom_group_kill") and valor.strip().isdigit() and int(valor) > 0:
                        return True
        return False

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
            for _ in range(40):         # a task that just exited may keep a group busy a moment (EBUSY)
                try:
                    carpeta.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.05)


def retirar_huerfanos(padre: Path, edad: float = EDAD_HUERFANO) -> int:
    """Remove the empty kernel groups (``curso-kernel-*``) under ``padre`` made more than ``edad`` seconds ago.

    ``vaciar`` retries its ``rmdir`` for two seconds; a group whose last task
    was still unreaped then stays behind, empty, after its grader ended.  Each
    new group sweeps its siblings: a group with a process in it is busy
    (``rmdir`` fails and it stays), and a group younger than ``edad`` may be
    one another grader has just made and not joined yet.  Returns how many
    were removed; never raises.
    """
    retirados = 0
    ahora = time.time()
    try:
        hijos = list(os.scandir(padre))
    except OSError:
        return 0
    for hijo in hijos:
        try:
            if not hijo.name.startswith("curso-kernel-") or not hijo.is_dir(follow_symlinks=False) \
                    or ahora - hijo.stat(follow_symlinks=False).st_mtime < edad:
                continue
            os.rmdir(hijo.path)
            retirados += 1
        except OSError:
            pass                    # busy (a kernel runs in it), or gone meanwhile
    return retirados


def _controles(archivo: Path) -> set[str]:
    try:
        return {c.lstrip("+") for c in archivo.read_text().split()}
    except OSError:
        return set()


def _escribible(carpeta: Path) -> bool:
    return os.access(carpeta, os.W_OK) and os.access(carpeta / "cgroup.procs", os.W_OK)


def _nuevo_v2(padre: Path, nombre: str, memoria: int, procesos: int) -> GrupoKernel | None:
    carpeta = padre / nombre
    try:
        carpeta.mkdir()
        (carpeta / "memory.max").write_text(str(memoria))
        if (carpeta / "memory.swap.max").exists():
            (carpeta / "memory.swap.max").write_text("0")
        (carpeta / "pids.max").write_text(str(procesos))
        retirar_huerfanos(padre)
        return GrupoKernel([carpeta], "v2")
    except OSError:
        GrupoKernel([carpeta], "v2").vaciar(0)
        return None


def grupo_v2(montaje: Path, actual: str, nombre: str, memoria: int, procesos: int) -> GrupoKernel | None:
    """A kernel's group in the cgroup v2 tree mounted at ``montaje`` (this process is in ``actual``).

    First an ancestor (or the current group) that already delegates memory
    and pids to its children and that this user may write; else the current
    group itself when it is delegated to this user (writable, both
    controllers available): its processes move to the leaf
    ``curso-principal`` and both controllers are enabled below it.
    """
    propio = montaje / actual.lstrip("/")
    necesarios = {"memory", "pids"}
    for padre in (propio, *propio.parents):
        if padre != montaje and montaje not in padre.parents:
            break
        if necesarios <= _controles(padre / "cgroup.subtree_control") and _escribible(padre):
            return _nuevo_v2(padre, nombre, memoria, procesos)
    if propio == montaje or not _escribible(propio) or not necesarios <= _controles(propio / "cgroup.controllers"):
        return None
    hoja = propio / "curso-principal"
    for _ in range(5):                  # processes may start meanwhile: move them and try again
        try:
            hoja.mkdir(exist_ok=True)
            for pid in (propio / "cgroup.procs").read_text().split():
                try:
                    (hoja / "cgroup.procs").write_text(pid)
                except OSError:
                    pass                # it ended meanwhile
            (propio / "cgroup.subtree_control").write_text("+memory +pids")
        except OSError:
            continue
        if necesarios <= _controles(propio / "cgroup.subtree_control"):
            return _nuevo_v2(propio, nombre, memoria, procesos)
    return None


def tope_tcp(memoria: int) -> int:
    """Bytes of TCP buffers a cgroup v1 group may hold besides ``memoria`` (a quarter of it, at least 64 MiB)."""
    return max(64 * 1024 ** 2, memoria // 4)


def crear_grupo(nombre: str, memoria: int, procesos: int) -> GrupoKernel | None:
    """A fresh control group with these limits, or None where this machine does not allow it."""
    montajes, actuales = _montajes(), _grupos_actuales()
    if "v2" in montajes and "v2" in actuales:
        grupo = grupo_v2(montajes["v2"], actuales["v2"], nombre, memoria, procesos)
        if grupo is not None:
            return grupo
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
            tcp = carpetas[0] / "memory.kmem.tcp.limit_in_bytes"
            if tcp.exists():
                # cgroup v1 charges a group's TCP buffers only once this has a limit (v2 always does, in memory.max):
                # without it, a student's 60 loopback connections nobody read held 622 MB out of her group
                tcp.write_text(str(tope_tcp(memoria)))
            for carpeta in carpetas:
                retirar_huerfanos(carpeta.parent)
            return GrupoKernel(carpetas, "v1")
        except OSError:
            GrupoKernel(carpetas, "v1").vaciar(0)
    return None


def sumar_cpu(grupo: GrupoKernel, nombre: str, peso: int) -> bool:
    """Give ``grupo`` a share of the CPU: ``peso`` as cgroup v1's ``cpu.shares`` (an ordinary process counts 1024)
    in a ``nombre`` folder of the cpu hierarchy joined with the others, or ``cpu.weight`` (100 per 1024) in v2.
    Whether it could; never raises."""
    try:
        if grupo.version == "v2":
            archivo = grupo.carpetas[0] / "cpu.weight"
            if not archivo.exists():
                return False
            archivo.write_text(str(max(1, min(10000, peso * 100 // 1024))))
            return True
        montajes, actuales = _montajes(), _grupos_actuales()
        if "cpu" not in montajes or "cpu" not in actuales:
            return False
        carpeta = montajes["cpu"] / actuales["cpu"].lstrip("/") / nombre
        carpeta.mkdir()
        grupo.carpetas.append(carpeta)
        (carpeta / "cpu.shares").write_text(str(max(2, peso)))
        return True
    except OSError:
        return False


def disponible() -> bool:
    """Whether this process can give kernels a control group (tries and removes one)."""
    grupo = crear_grupo(f"curso-prueba-{os.getpid()}", 1 << 30, 64)
    if grupo is None:
        return False
    grupo.vaciar(0)
    return True


def arbol(pid: int) -> list[int]:
    """``pid`` and all its descendants (``/proc/<pid>/task/<tid>/children``), empty when it is gone.

    Kernels built without ``CONFIG_PROC_CHILDREN``: every process in ``pid``'s PID namespace
    (the sandbox's first process is alone in the host's view of its namespace with its tree).
    """
    if not os.path.exists(f"/proc/{pid}/task/{pid}/children"):
        return _mismo_espacio_de_procesos(pid)
    vistos, pendientes = [], [pid]
    while pendientes:
        actual = pendientes.pop()
        try:
            hilos = os.listdir(f"/proc/{actual}/task")
        except OSError:
            continue
        vistos.append(actual)
        for hilo in hilos:
            try:
                with open(f"/proc/{actual}/task/{hilo}/children") as f:
                    pendientes += [int(p) for p in f.read().split()]
            except (OSError, ValueError):
                pass
    return vistos


def _mismo_espacio_de_procesos(pid: int) -> list[int]:
    try:
        espacio = os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return []
    pids = []
    for nombre in os.listdir("/proc"):
        if nombre.isdigit():
            try:
                if os.readlink(f"/proc/{nombre}/ns/pid") == espacio:
                    pids.append(int(nombre))
            except OSError:
                pass
    return pids


def memoria_de(pid: int) -> int:
    """Proportional set size of a process in bytes (shared pages split among their users); 0 if gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for linea in f:
                if linea.startswith("Pss:"):
                    return int(linea.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:                                    # kernels without smaps_rollup: resident size
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _arranque(pid: int) -> str:
    """The start time of ``pid`` (field 22 of ``/proc/<pid>/stat``, clock ticks since boot); "" if gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


MAX_NETLINK = 64 * 1024 ** 2      # bytes a sandbox may hold in netlink queues before it is ended


def netlink_de(pid: int) -> int | None:
    """Bytes queued in the netlink sockets of ``pid``'s network namespace (``/proc/<pid>/net/netlink``), or None
    once it cannot be read (the process is gone)."""
    try:
        lineas = Path(f"/proc/{pid}/net/netlink").read_text().splitlines()[1:]
    except OSError:
        return None
    total = 0
    for linea in lineas:
        campos = linea.split()
        if len(campos) >= 5 and campos[4].isdigit():
            total += int(campos[4])
    return total


class _Vigilante:
    """A daemon thread that runs ``_vigilar`` (each subclass's watch of the sandbox ``pid``) until ``parar``."""

    def __init__(self, pid: int, intervalo: float, nombre: str):
        self.pid, self.intervalo = pid, intervalo
        self._parar = threading.Event()
        self._hilo = threading.Thread(target=self._vigilar, name=f"vigilante-{nombre}-{pid}", daemon=True)

    def empezar(self):
        self._hilo.start()
        return self

    def parar(self) -> None:
        self._parar.set()
        if self._hilo.is_alive() and self._hilo is not threading.current_thread():
            self._hilo.join(timeout=5)

    def _vigilar(self) -> None:
        raise NotImplementedError


class VigilanteNetlink(_Vigilante):
    """The netlink queues of a sandbox's own network namespace, watched from outside.

    The kernel queues on a netlink socket one error ACK per bogus request, each echoing the whole request, up to
    twice ``net.core.rmem_max`` per socket, and no cgroup counts that memory (a fresh attacker's graded cell held
    4.4 GiB in a kernel of 4 GiB).  A thread reads the namespace's queues every ``intervalo`` seconds and, past
    ``limite`` bytes, calls ``matar`` once (the sandbox ends) with the bytes it saw in ``maxima``.  Between two
    readings a cell can queue what it sends in that time.
    """

    def __init__(self, pid: int, matar, limite: int = MAX_NETLINK, intervalo: float = 0.25):
        super().__init__(pid, intervalo, "netlink")
        self.matar, self.limite = matar, limite
        self.excedido = False
        self.maxima = 0

    def _vigilar(self) -> None:
        while not self._parar.wait(self.intervalo):
            en_cola = netlink_de(self.pid)
            if en_cola is None:
                return
            self.maxima = max(self.maxima, en_cola)
            if en_cola > self.limite:
                self.excedido = True
                self.matar()
                return


class VigilanteMemoria(_Vigilante):
    """Without cgroups: the memory of a sandbox's process tree, enforced from outside.

    A thread sums ``memoria_de`` over ``arbol(pid)`` every ``intervalo``
    seconds and, when the sum is over ``limite``, kills the tree's largest
    processes, largest first, until what is left is under it, as the kernel's
    out-of-memory killer does inside a cgroup (if one is the student's
    kernel, the sandbox ends with it).  Between two
    measurements a tree can go past the limit by what it allocates in that
    time (each process is still capped by its own address-space limit).
    A process already killed is left out of later sums (its memory is on its
    way back, as the kernel's OOM reaper does), so a busy machine that takes a
    while to tear it down never makes the watchdog kill a second, innocent one
    or count the same victim twice.
    """

    def __init__(self, pid: int, limite: int, intervalo: float = 0.1):
        super().__init__(pid, intervalo, "memoria")
        self.limite = limite
        self.matados = 0                           # processes it killed
        self.rondas = 0                            # measurements that found the tree over the limit
        self._victimas: set[tuple[int, str]] = set()   # (pid, start time) of each, so a reused pid is not skipped
        self.maxima = 0                            # the largest sum measured

    def _vigilar(self) -> None:
        while not self._parar.wait(self.intervalo):
            pids = arbol(self.pid)
            if not pids:
                return
            medidas = {p: memoria_de(p) for p in pids if (p, _arranque(p)) not in self._victimas}
            usada = sum(medidas.values())
            self.maxima = max(self.maxima, usada)
            if usada > self.limite and medidas:
                self.rondas += 1
                # largest first, as many as it takes to get back under the limit in this round: a tree of
                # many allocating processes never outgrows a watchdog that kills one per measurement
                for mayor in sorted(medidas, key=medidas.get, reverse=True):
                    if usada <= self.limite:
                        break
                    identidad = (mayor, _arranque(mayor))
                    try:
                        os.kill(mayor, signal.SIGKILL)
                        self.matados += 1
                        self._victimas.add(identidad)
                    except OSError:
                        pass
                    usada -= medidas[mayor]
