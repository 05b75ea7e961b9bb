"""Memory and processes of each student's server on one machine: the whole tree, kernels and terminals included.

JupyterHub's ``LocalProcessSpawner`` starts every user's server as a plain process of that account, with no limit
on what it and its children use.  A fresh attacker (issue 19, F3) opened 60 kernels and 40 terminals in six
seconds from one student's token (3 GB, nothing refused); about 350 would have filled this 24 GB machine and
taken the hub, the TA and every classmate with it.  ``Spawner.mem_limit`` is only advisory for this spawner.

So :class:`ServidorLimitado` puts each student's server, from its first instruction, in a control group of its
own (``grader_tests/caja/limites_kernel.crear_grupo``, the one the grading sandbox uses: cgroup v2 where the hub
may write a delegated subtree, else cgroup v1's ``memory`` and ``pids``) with ``memoria`` bytes for all its
processes together and at most ``procesos`` processes and threads.  Past the memory, the kernel's out-of-memory
killer ends a process of that student's group only (usually the runaway kernel: JupyterLab says the kernel died
and restarts it); past the processes, ``fork`` fails inside that group only.  Where no group can be made (a hub
that is not root, no cgroups), ``limites_kernel.VigilanteMemoria`` measures the server's process tree ten times a
second and kills its largest processes past ``memoria`` (a process that leaves the tree escapes it: the
cgroup is the real bound, documented in ``docs/seguridad.md``).  When the server stops, what is left in its group
is killed and the group removed.  TAs' servers are not limited (they may grade a whole class there).

Used by ``jupyterhub_config.py`` (``c.JupyterHub.spawner_class``); the limits come from
``CURSO_HUB_MEMORIA_SERVIDOR_MIB`` and ``CURSO_HUB_PROCESOS_SERVIDOR`` (``ajustes.py``).
"""
from __future__ import annotations

import asyncio
import os
import pwd
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

from jupyterhub.spawner import LocalProcessSpawner
from traitlets import Int, Unicode

_CAJA = Path(__file__).resolve().parent.parent.parent / "grader_tests" / "caja"
if str(_CAJA) not in sys.path:
    sys.path.insert(0, str(_CAJA))
import limites_kernel  # noqa: E402


CLONE_NEWNS, CLONE_NEWIPC = 0x00020000, 0x08000000            # <sched.h>
MS_NOSUID, MS_NODEV, MS_REC, MS_SLAVE = 0x2, 0x4, 0x4000, 0x80000  # <sys/mount.h>


def shm_propio(pid: int) -> bool:
    """Whether process ``pid`` has a System V IPC and a ``/dev/shm`` of its own (not the hub's)."""
    try:
        if os.readlink(f"/proc/{pid}/ns/ipc") == os.readlink("/proc/self/ns/ipc") or \
                os.readlink(f"/proc/{pid}/ns/mnt") == os.readlink("/proc/self/ns/mnt"):
            return False
        with open(f"/proc/{pid}/mountinfo", encoding="utf-8", errors="replace") as montajes:
            return any(linea.split()[4] == "/dev/shm" and " - tmpfs " in linea for linea in montajes)
    except (OSError, IndexError):
        return False


# ----------------------------------------------------------------- TCP sockets of each student
# Every server of this machine shares its network: its 28 232 ephemeral ports (net.ipv4.ip_local_port_range) too.
# A fresh attacker bound 19 000 listening sockets in 32 s from one kernel (two processes would hold them all): then
# no new server can pick a port and every new connection of the machine (proxy, hub, grading) fails. No per-account
# limit of Linux bounds sockets (files and processes allow millions; a socket costs little memory). So the hub counts
# the TCP sockets of each limited server's account every INTERVALO_SOCKETS seconds (``ss``, in a thread) and, past
# ``ServidorLimitado.sockets``, kills everything of that server (its cgroup, or its process tree): its ports are free
# again, the hub sees the server stopped, and its log says why.
INTERVALO_SOCKETS = 2.0
_SS = next((r for r in ("/usr/bin/ss", "/bin/ss", "/usr/sbin/ss", "/sbin/ss") if os.access(r, os.X_OK)), None)
_vigilados: dict[int, "ServidorLimitado"] = {}
_vigilancia: asyncio.Task | None = None


# Netlink sockets: the kernel queues one error ACK per bogus request, each echoing the whole request, up to twice
# net.core.rmem_max per socket, and that memory is charged to no cgroup (a fresh attacker held 2.4 GB from her
# server while her group showed 147 MiB). The same 2 s watch reads the machine's netlink queues (/proc/net/netlink,
# the network namespace every server shares); only when some queue holds more than a megabyte does it look for
# their owners among the watched accounts' processes, and past MAX_NETLINK bytes of one account it stops her server.
MAX_NETLINK = 64 * 1024 ** 2
_UMBRAL_NETLINK = 1024 ** 2


def colas_netlink(texto: str) -> dict[int, int]:
    """``/proc/net/netlink`` → ``{socket inode: bytes queued}`` for the queues over a megabyte."""
    colas = {}
    for linea in texto.splitlines()[1:]:
        campos = linea.split()
        if len(campos) >= 10 and campos[4].isdigit() and campos[9].isdigit() and int(campos[4]) > _UMBRAL_NETLINK:
            colas[int(campos[9])] = int(campos[4])
    return colas


def _netlink_por_uid(uids: set[int]) -> dict[int, int]:
    """Bytes in netlink queues over a megabyte, per account among ``uids`` (their processes' descriptors)."""
    try:
        colas = colas_netlink(Path("/proc/net/netlink").read_text())
    except OSError:
        return {}
    if not colas:
        return {}
    suyos: dict[int, int] = {}
    vistos: set[int] = set()
    for proceso in Path("/proc").iterdir():
        try:
            if not proceso.name.isdigit() or proceso.stat().st_uid not in uids:
                continue
            uid = proceso.stat().st_uid
            for fd in (proceso / "fd").iterdir():
                destino = os.readlink(fd)
                if destino.startswith("socket:["):
                    inodo = int(destino[8:-1])
                    if inodo in colas and inodo not in vistos:
                        vistos.add(inodo)
                        suyos[uid] = suyos.get(uid, 0) + colas[inodo]
        except (OSError, ValueError):
            continue
    return suyos


def sockets_por_uid(texto: str) -> dict[int, int]:
    """``ss -Htane`` lines → ``{uid: TCP sockets}`` (``ss`` writes «uid:N» only for a socket whose owner is not
    root; sockets in TIME-WAIT have no owner)."""
    cuenta: dict[int, int] = {}
    for uid in re.findall(r"(?:^|\s)uid:(\d+)", texto):
        cuenta[int(uid)] = cuenta.get(int(uid), 0) + 1
    return cuenta


def _leer_sockets() -> dict[int, int]:
    if _SS is None:
        return {}
    try:
        hecho = subprocess.run([_SS, "-Htane"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return {}
    return sockets_por_uid(hecho.stdout) if hecho.returncode == 0 else {}


async def _vigilar_sockets() -> None:
    """The hub's one watch over every limited server's TCP sockets (see above); ends when none is left."""
    global _vigilancia
    try:
        while _vigilados:
            await asyncio.sleep(INTERVALO_SOCKETS)
            cuenta = await asyncio.to_thread(_leer_sockets)
            netlink = await asyncio.to_thread(_netlink_por_uid, set(_vigilados))
            for uid, servidor in list(_vigilados.items()):
                motivo = None
                if cuenta.get(uid, 0) > servidor.sockets > 0:
                    motivo = (f"tiene {cuenta[uid]} sockets TCP (tope {servidor.sockets}, ServidorLimitado.sockets): "
                              "dejaba sin puertos a la máquina")
                elif netlink.get(uid, 0) > MAX_NETLINK:
                    motivo = (f"tiene {netlink[uid] // 1024 ** 2} MiB en colas de netlink (tope "
                              f"{MAX_NETLINK // 1024 ** 2} MiB), memoria que no cuenta en su cgroup")
                if motivo:
                    servidor.log.warning("[curso] %s %s: se para su servidor", servidor.user.name, motivo)
                    _vigilados.pop(uid, None)
                    try:
                        await servidor._cortar()
                    except Exception:  # noqa: BLE001 - one server that cannot be cut never ends everyone's watch
                        servidor.log.exception("[curso] no se pudo parar el servidor de %s", servidor.user.name)
    finally:
        _vigilancia = None


OOM_ALUMNO = 500                 # oom_score_adj of every process of a student's server (she may raise it, not lower it)
MAX_LINEAS_SALIDA = 200          # lines of one server's output copied to the hub's log per minute


def _copiar_salida(lectura: int, nombre: str) -> None:
    """Copy a server's output to the hub's log (stderr), each line prefixed with whose it is, control characters
    escaped and at most 2000 characters, at most MAX_LINEAS_SALIDA a minute (the rest counted); ends with the
    server (end of the pipe)."""
    import time
    ventana, copiadas, omitidas = time.monotonic(), 0, 0
    with open(lectura, "rb", buffering=0) as tuberia:
        for linea in iter(tuberia.readline, b""):
            ahora = time.monotonic()
            if ahora - ventana >= 60:
                if omitidas:
                    sys.stderr.write(f"[servidor de {nombre}] ({omitidas} líneas más sin copiar)\n")
                ventana, copiadas, omitidas = ahora, 0, 0
            if copiadas >= MAX_LINEAS_SALIDA:
                omitidas += 1
                continue
            copiadas += 1
            texto = linea[:2000].decode("utf-8", "replace").rstrip("\n")
            texto = "".join(c if c.isprintable() or c == "\t" else repr(c)[1:-1] for c in texto)
            sys.stderr.write(f"[servidor de {nombre}] {texto}\n")
            sys.stderr.flush()


def avisos_de_la_maquina(procesos: int, raiz: str = "/proc/sys") -> list[str]:
    """Machine-wide tables that a few students could fill within their own limits, in Spanish, for the hub's start.

    Each student's group bounds her memory and processes, but the kernel's process table (``kernel.pid_max``) and
    file table (``fs.file-max``) are the machine's: a fresh attacker measured that 124 processes of one student (a
    tenth of her 1024) with 20 000 open files each would fill a file table of 2.47 million, and then nobody else on
    the machine opens a file. With both high (systemd's defaults), what a student takes is paid from her own memory.
    """
    def leer(nombre: str) -> int | None:
        try:
            return int(Path(raiz, *nombre.split(".")).read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    avisos = []
    pid_max = leer("kernel.pid_max")
    if pid_max is not None and procesos > 0 and pid_max < 4194304:
        avisos.append(f"kernel.pid_max es {pid_max}: con {procesos} procesos por alumno, {max(1, pid_max // procesos)} "
                      "alumnos llenan la tabla de procesos de la máquina y nadie más arranca nada; súbelo a 4194304 "
                      "(sysctl -w kernel.pid_max=4194304, y en /etc/sysctl.d/ para que dure)")
    archivos = leer("fs.file-max")
    if archivos is not None and archivos < 2 ** 31:
        avisos.append(f"fs.file-max es {archivos}: unos pocos alumnos llenan la tabla de archivos de la máquina (cada "
                      "proceso suyo puede abrir miles) y nadie más abre nada; súbelo a 9223372036854775807, lo que pone "
                      "systemd (sysctl -w fs.file-max=9223372036854775807): así cada archivo abierto lo paga la memoria "
                      "de su alumno")
    return avisos


class ServidorLimitado(LocalProcessSpawner):
    """``LocalProcessSpawner`` with a memory and process limit on each student's whole server (module docstring).

    State kept across hub restarts (``get_state``): the group's folders, so a server that outlives a restart is
    still emptied and its group removed when it stops. ``clear_state`` keeps the group: ``LocalProcessSpawner.poll``
    calls it as soon as it sees the server dead, inside ``stop``, and what the student detached from the server
    must still be killed there (a fresh attacker kept 2 GiB per stop and start that way).
    Students' servers also run with ``PR_SET_NO_NEW_PRIVS``: ``su <TA>`` from a terminal checked the TA's password
    through the system's PAM without limit; and in a mount and IPC namespace of their own, with a private
    ``/dev/shm`` (tmpfs of ``memoria`` bytes, charged to the server's group) and System V IPC, both gone with the
    server's last process: in the machine's, a student's files survived her server's stop and added up.
    """

    memoria = Int(2 * 1024 ** 3, config=True,
                  help="Bytes for every process of one student's server together (0: no limit).")
    procesos = Int(1024, config=True, help="Processes and threads of one student's server (kernels' BLAS threads "
                                           "count: a 64-core machine starts 64 per kernel).")
    grupo_sin_limite = Unicode("", config=True, help="JupyterHub group whose servers are not limited (the TAs').")
    cpu = Int(256, config=True, help="CPU share of one student's whole server (cgroup v1 cpu.shares: one ordinary "
                                     "process weighs 1024; cpu.weight in proportion in v2; 0: none).")
    sockets = Int(2000, config=True, help="TCP sockets of one student's account; past them the hub stops her server "
                                          "(the machine's ephemeral ports are shared; 0: not watched).")

    _grupo = None                       # limites_kernel.GrupoKernel of the running server
    _vigilante = None                   # limites_kernel.VigilanteMemoria without a group

    def _limitado(self) -> bool:
        if self.memoria <= 0:
            return False
        return not (self.grupo_sin_limite and self.grupo_sin_limite in {g.name for g in self.user.groups})

    def make_preexec_fn(self, name):
        """Join the server's group before dropping to the student's account (root may still write it), so no
        process of the server ever runs outside it."""
        original = super().make_preexec_fn(name)
        archivos = list(self._grupo.archivos_procs) if self._grupo is not None else []

        import ctypes               # loaded before the fork: no import (and its lock) in the child
        libc = ctypes.CDLL(None, use_errno=True)
        prctl, unshare, mount = libc.prctl, libc.unshare, libc.mount
        unshare.argtypes = [ctypes.c_int]
        mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
        opciones_shm = f"size={self.memoria if self.memoria > 0 else '50%'},mode=1777".encode()
        # every server but a TA's, whatever its memory setting
        limitar = not (self.grupo_sin_limite and self.grupo_sin_limite in {g.name for g in self.user.groups})

        def preexec():
            for archivo in archivos:
                try:
                    with open(archivo, "w") as destino:
                        destino.write(str(os.getpid()))
                except OSError:
                    pass                # checked after the start: the watchdog then
            if limitar:
                # no setuid program (su, sudo, unix_chkpwd) gains privileges from here: a student's terminal
                # cannot check anyone's Unix password without limit (a fresh attacker's su against the TA)
                prctl(38, 1, 0, 0, 0)      # PR_SET_NO_NEW_PRIVS
                # the machine's out-of-memory killer takes a student's process before the hub, the proxy, the course
                # service or a TA's: memory no cgroup counts (a fresh attacker's netlink queues) ends a global OOM
                try:
                    with open("/proc/self/oom_score_adj", "w") as ajuste:
                        ajuste.write(str(OOM_ALUMNO))
                except OSError:
                    pass
                # a /dev/shm and a System V IPC of the server's own, gone with its last process: in the machine's
                # shared ones, what a student wrote outlived her server's stop (no longer charged to her group), and
                # each stop and start kept 2 GiB more (a fresh attacker). The mounts of the machine are still seen
                # (a slave copy: homes mounted later appear too)
                if unshare(CLONE_NEWNS | CLONE_NEWIPC) == 0 and mount(b"none", b"/", None, MS_REC | MS_SLAVE, None) == 0:
                    mount(b"tmpfs", b"/dev/shm", b"tmpfs", MS_NOSUID | MS_NODEV, opciones_shm)
            original()

        return preexec

    async def start(self):
        """LocalProcessSpawner's start in the server's own group, with its output through a pipe of its own."""
        await self._soltar()
        # the server's output (and so every process of the student's, which inherits it) is a pipe the hub reads and
        # copies to its log line by line, prefixed: never the hub's log file itself, which a student's kernel wrote
        # and truncated through the inherited descriptor (a fresh attacker forged a warning blaming a classmate)
        lectura, escritura = os.pipe()
        original = self.popen_kwargs
        self.popen_kwargs = {**original, "stdin": subprocess.DEVNULL, "stdout": escritura, "stderr": escritura}
        try:
            return await self._arrancar()
        finally:
            self.popen_kwargs = original
            os.close(escritura)
            threading.Thread(target=_copiar_salida, args=(lectura, self.user.name), daemon=True).start()

    async def _arrancar(self):
        if self._limitado():
            nombre = f"curso-servidor-{self.user.id}-{os.getpid()}-{id(self)}"
            self._grupo = limites_kernel.crear_grupo(nombre, self.memoria, self.procesos)
            if self._grupo is not None and self.cpu > 0:
                # a student's whole server weighs as a quarter of one ordinary process of the hub's (a fresh
                # attacker's busy loops and connection floods slowed the hub's answers from 0.04 s to 10 s)
                limites_kernel.sumar_cpu(self._grupo, nombre, self.cpu)
        try:
            resultado = await super().start()
        except BaseException:
            await self._soltar()
            raise
        if self._limitado() and (self._grupo is None or self.pid not in self._grupo.procesos()):
            if self._grupo is not None:
                self._grupo.vaciar(0)
                self._grupo = None
            self.log.warning("[curso] sin cgroup para el servidor de %s: su memoria la vigila el hub desde fuera "
                             "(límite de procesos sólo el de la cuenta)", self.user.name)
            self._vigilante = limites_kernel.VigilanteMemoria(self.pid, self.memoria).empezar()
        self._vigilar_sockets()
        if self._limitado() and not shm_propio(self.pid):
            self.log.warning("[curso] el servidor de %s comparte /dev/shm y el IPC de System V con la máquina (¿el hub "
                             "no es root?): lo que deje ahí sobrevive a su servidor", self.user.name)
        return resultado

    async def stop(self, now=False):
        try:
            await super().stop(now=now)
        finally:
            await self._soltar()

    def _vigilar_sockets(self) -> None:
        """Put this running server's account under the hub's watch of TCP sockets (module section above)."""
        global _vigilancia
        if not (self._limitado() and self.sockets > 0 and _SS is not None):
            return
        try:
            _vigilados[pwd.getpwnam(self.user.name).pw_uid] = self
        except KeyError:
            return
        if _vigilancia is None:
            _vigilancia = asyncio.get_running_loop().create_task(_vigilar_sockets())

    async def poll(self):
        """LocalProcessSpawner's, and a server still running after a hub restart is watched again."""
        estado = await super().poll()
        if estado is None and all(s is not self for s in _vigilados.values()):
            self._vigilar_sockets()
        return estado

    async def _cortar(self) -> None:
        """Kill every process of the running server now (its group, or its process tree without one); the hub then
        sees it stopped and calls ``stop``, which removes the group."""
        grupo, pid = self._grupo, self.pid
        if grupo is not None:
            await asyncio.to_thread(grupo.vaciar, 0)
            self._grupo = None
        elif pid:
            for proceso in limites_kernel.arbol(pid):
                try:
                    os.kill(proceso, signal.SIGKILL)
                except OSError:
                    pass

    async def _soltar(self) -> None:
        """Stop the watchdog; kill what is left in the group and remove it (in a thread: it waits up to 2 s for the
        server's kernels to end by themselves, and the hub's loop serves everyone meanwhile)."""
        vigilante, grupo = self._vigilante, self._grupo
        self._vigilante = self._grupo = None
        for uid, servidor in list(_vigilados.items()):
            if servidor is self:
                _vigilados.pop(uid, None)
        if vigilante is not None:
            await asyncio.to_thread(vigilante.parar)
        if grupo is not None:
            await asyncio.to_thread(grupo.vaciar, 2.0)

    def get_state(self):
        estado = super().get_state()
        if self._grupo is not None:
            estado["curso_grupo"] = {"carpetas": [str(c) for c in self._grupo.carpetas],
                                     "version": self._grupo.version}
        return estado

    def load_state(self, state):
        super().load_state(state)
        grupo = state.get("curso_grupo") if isinstance(state, dict) else None
        if grupo and all(str(c).startswith(str(limites_kernel.RAIZ_CGROUP) + "/") for c in grupo.get("carpetas", [])):
            self._grupo = limites_kernel.GrupoKernel([Path(c) for c in grupo["carpetas"]], grupo.get("version", ""))



def retirar_grupos_vacios() -> int:
    """Remove the empty groups of students' servers that a hub stopped abruptly left behind (``curso-servidor-*``
    in this process's groups and their ancestors, where :class:`ServidorLimitado` makes them); a group that still
    holds a process (a server that outlived its hub) stays. Returns how many were removed. Called when the hub
    starts (``jupyterhub_config.py``) and after the trial hub stops (``prueba.py``)."""
    montajes, actuales = limites_kernel._montajes(), limites_kernel._grupos_actuales()
    retirados = 0
    for clave, montaje in montajes.items():
        if clave not in actuales:
            continue
        propio = montaje / actuales[clave].lstrip("/")
        for carpeta in (propio, *propio.parents):
            if carpeta != montaje and montaje not in carpeta.parents:
                break
            for grupo in carpeta.glob("curso-servidor-*"):
                try:
                    if not grupo.is_symlink() and grupo.is_dir():
                        grupo.rmdir()
                        retirados += 1
                except OSError:
                    pass            # busy: a server still runs in it
    return retirados
