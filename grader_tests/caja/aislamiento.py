"""Run students' notebooks in a sandbox during ``nbgrader autograde``.

``EjecucionAislada`` replaces nbgrader's ``Execute`` preprocessor (see
nbgrader_config.py).  Its kernels start through ``KernelAislado``, which wraps
the kernel command in Debian's ``bubblewrap``:

* only the system the kernel needs is visible, read-only (/usr, /etc, Python,
  the venv: ``KernelAislado.sistema_visible``); /home, /root, /work, /opt…
  do not exist, so no other copy of the course on the machine can be read;
  the course root is replaced by an empty folder in which only three things
  reappear: the submission's own
  autograded folder (as a copy in memory, below), the virtual environment (read-only) and the
  kernel-safe part of ``grader_tests`` (``MODULOS_PUBLICOS``: the package's
  ``__init__.py``, the folder ``en_el_kernel/`` and each exercise's ``casos.py``; never an
  exercise's reference, properties, known mistakes or battery, nor the quiz
  answers).  The gradebook, ``source/``, ``release/``, ``submitted/`` and the
  other students' folders do not exist for the student's code;
* no network (private network namespace; the kernel talks to nbgrader over
  Unix sockets, ZeroMQ's ``ipc`` transport, in a folder of the sandbox);
* an unprivileged identity that cannot read root-only files even when the
  TA is root: for a TA who is not root, a user namespace (the kernel keeps
  the TA's uid, without any capability); for root, bubblewrap sets the
  sandbox up as root and the launcher drops to the real uid/gid ``nobody``
  (65534), no supplementary groups; as root without a cgroup, a uid of the
  kernel's own instead (``uid_propio``), so that ``RLIMIT_NPROC`` counts
  only its processes.  /etc is a private copy of its world-readable part
  (``vista_de_etc``: no ``/etc/shadow*``, ``/etc/gshadow*``,
  ``/etc/ssl/private``…), so a file appearing or vanishing in the real /etc
  during the batch cannot stop a sandbox from starting;
* a minimal, explicit environment (``entorno_minimo``) for every process of
  the sandbox, bubblewrap's included: none of the TA's variables (tokens,
  credentials, paths) is readable inside; the kernel's stdout and stderr are a pipe
  this process drains, never the TA's terminal or log;
* nothing the kernel writes reaches a disk: its working folder is a copy of
  the submission in a size-capped tmpfs (``carpeta_maxima``), /tmp and
  /dev/shm are size-capped tmpfs (``tmp_maximo``), its sockets live in a
  small tmpfs of its own that this process opens through ``/proc/<pid>/root``
  without following links (``abrir_socket``); each tmpfs also caps its number of files
  (``archivos_maximos``).  The launcher (``lanzador_caja``) sets those caps,
  copies the submission, sets the resource limits, drops every privilege,
  installs a seccomp filter (no ``memfd_create``, no System V IPC, no new user
  namespaces, no ``ptrace`` or other way into another process) and only then
  starts the kernel;
* a private PID namespace whose PID 1 is the launcher itself (bubblewrap's
  ``--as-pid-1``): under the same limits, identity, empty keyring and seccomp
  filter as the kernel, non-dumpable (the kernel, even with the same uid,
  cannot ``ptrace`` it or open its ``/proc/1/{mem,environ,fd,root}``), never
  ``exec``-ing, deaf to signals from inside; it ends with the kernel, taking
  every process of the namespace with it, and ``matar_caja`` SIGKILLs it from
  outside after each notebook, so no process survives the notebook;
* bubblewrap itself starts through ``lanzador_caja.preludio``: in the kernel's
  control group, in a new empty session keyring and with the sandbox's
  resource limits (all but the number of processes);
* resource limits: address space (memory), file size and open files per
  process, no core dumps; for the kernel's whole process tree a control
  group (memory and number of processes) where the machine allows it, else
  ``RLIMIT_NPROC`` and the tree's memory measured from outside and enforced
  by killing the sandbox (``limites_kernel``).

The sandbox starts from whatever Python runs the grading: the course's
``.venv``, a ``.venv`` that is a symlink to a venv elsewhere (``en_la_caja``
rewrites paths through their real location), a venv outside the course or a
conda environment (a prefix that is not a venv): each prefix is mounted
read-only at its real path.

Cell time is limited by ``Execute.timeout``; the whole notebook by
``EjecucionAislada.presupuesto_total``.  What the kernel prints reaches this
process within budgets (``salida_acotada``: at most 32 MiB per message,
4 MiB per cell, 16 MiB per notebook plus 32 MiB of hidden-test evidence);
past them the output is cut as it arrives and the cell says so.  When the kernel dies (``os._exit``,
memory) or the budget runs out, the remaining cells are left unexecuted, so
their tests have no evidence and score 0 with a reason, never full credit.
"""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.notebooknode import from_dict
from nbgrader.preprocessors import Execute
from nbgrader import utils as nbgrader_utils
from traitlets import Bool, DottedObjectName, Float, Integer, Type, Unicode

from ..en_el_kernel import modulos_publicos
from . import limites_kernel
from .salida_acotada import ClienteAcotado, Presupuesto

PAQUETE = Path(__file__).resolve().parent.parent          # grader_tests/ (this layer is caja/)
# what the student's kernel may import from grader_tests: the files of en_el_kernel/ and,
# by convention, ``__init__.py`` and ``casos.py`` of each exercise folder
MODULOS_PUBLICOS = modulos_publicos()
ESPERA_FIN_CAJA = 10.0   # seconds a killed sandbox gets to be gone (its memory freed) before grading goes on


@functools.lru_cache(maxsize=None)
def paquetes_visibles() -> tuple[str, ...]:
    """Every folder the kernel's Python would import ``grader_tests`` from, and this one.

    An editable install (``pip install -e``) points the venv at some clone's
    ``grader_tests``: that copy must be hidden too, not only the course's.
    """
    lugares = {str(PAQUETE)}
    codigo = ("import importlib.util as u, json; e = u.find_spec('grader_tests'); "
              "print(json.dumps(list(e.submodule_search_locations or []) if e else []))")
    try:
        salida = subprocess.run([sys.executable, "-c", codigo], cwd="/", capture_output=True,
                                text=True, timeout=60).stdout
        lugares.update(json.loads(salida.strip().splitlines()[-1]))
    except Exception:  # noqa: BLE001 - the course's own copy is still hidden
        pass
    return tuple(sorted(os.path.realpath(l) for l in lugares))


def carpetas_a_ocultar(raiz: str) -> list[str]:
    """The course root, every copy of ``grader_tests`` and the course roots that hold one."""
    ocultar = {raiz}
    for paquete in paquetes_visibles():
        ocultar.add(paquete)
        padre = os.path.dirname(paquete)
        if os.path.isfile(os.path.join(padre, "nbgrader_config.py")):
            ocultar.add(padre)
    return sorted(ocultar, key=lambda c: (c.count(os.sep), c))


class SinAislamiento(RuntimeError):
    """bubblewrap is missing and the sandbox was not explicitly turned off."""


# inside the sandbox: the launcher's own small area (never the TA's disk)
DENTRO = "/run/curso"
ENTREGA_DENTRO = DENTRO + "/entrega"          # read-only view of the submission, unmounted before the kernel
CONEXION_DENTRO = DENTRO + "/kernel.json"     # the kernel's connection file (read-only)
IPC_DENTRO = DENTRO + "/ipc"                  # the kernel's ZeroMQ sockets; the TA reaches them via /proc/PID/root
LANZADOR_DENTRO = DENTRO + "/lanzador.py"
FUENTES_DENTRO = DENTRO + "/fontlist.json"    # matplotlib's font list, built once (read-only; cache_de_fuentes)
FUENTES_MAXIMO = 8 * 1024 ** 2                # bytes; a larger font list is not copied (matplotlib builds its own)
LANZADOR = Path(__file__).resolve().parent / "lanzador_caja.py"
DENTRO_MAXIMO = 4 * 1024 ** 2                 # bytes of DENTRO (a few sockets)
DISPOSITIVOS = ("null", "zero", "full", "random", "urandom")
# what bubblewrap keeps for the launcher as root: mount, chown its folders, read the submission,
# drop the bounding set, become nobody (all gone once it is nobody)
CAPACIDADES_ROOT = ("CAP_SYS_ADMIN", "CAP_CHOWN", "CAP_DAC_READ_SEARCH", "CAP_SETPCAP", "CAP_SETUID", "CAP_SETGID")
# without root (a user namespace): mount and drop the bounding set (all gone before the kernel)
CAPACIDADES_USUARIO = ("CAP_SYS_ADMIN", "CAP_SETPCAP")


def en_la_caja(ruta: str) -> str:
    """Where a file of this Python's prefixes is inside the sandbox: through its real path.

    The sandbox mounts ``sys.prefix`` and ``sys.base_prefix`` at their real
    paths, so a path through a symlink (a course ``.venv`` that links to a venv
    elsewhere, a home folder that is a link) is rewritten; other paths are kept.
    """
    for prefijo in (sys.prefix, sys.base_prefix):
        base = prefijo.rstrip(os.sep)
        if ruta == base or ruta.startswith(base + os.sep):
            return os.path.realpath(base) + ruta[len(base):]
    return ruta


def abrir_socket(pid: int, ruta: str) -> int | None:
    """An ``O_PATH`` descriptor of the socket at ``ruta`` inside process ``pid``'s root, or None.

    Walks ``/proc/<pid>/root`` one component at a time with ``O_NOFOLLOW``: a
    link anywhere on the way (which, followed from outside, would resolve in
    the TA's own file system) or anything that is not a socket gives None.
    """
    partes = ruta.strip("/").split("/")
    try:
        fd = os.open(f"/proc/{pid}/root", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        for parte in partes[:-1]:
            nuevo = os.open(parte, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = nuevo
        final = os.open(partes[-1], os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
    except OSError:
        return None
    finally:
        os.close(fd)
    if not stat.S_ISSOCK(os.fstat(final).st_mode):
        os.close(final)
        return None
    return final


def leer_info(fd: int, espera: float = 60) -> int | None:
    """The host pid of the sandbox's first process, from bubblewrap's ``--info-fd`` (closes ``fd``)."""
    import select
    datos, limite = b"", time.monotonic() + espera
    try:
        while time.monotonic() < limite:
            listos, _, _ = select.select([fd], [], [], max(0.0, limite - time.monotonic()))
            if not listos:
                break
            trozo = os.read(fd, 4096)
            if not trozo:
                break
            datos += trozo
            try:
                return int(json.loads(datos)["child-pid"])
            except (ValueError, KeyError, TypeError):
                continue
    finally:
        os.close(fd)
    return None


class KernelAislado(AsyncKernelManager):
    """A kernel manager whose kernels run inside bubblewrap (see module doc)."""

    raiz = Unicode("", help="Course root: hidden from the kernel except the submission.").tag(config=True)
    memoria_maxima = Integer(4 * 1024 ** 3, help="Address-space limit of each process, bytes.").tag(config=True)
    archivo_maximo = Integer(256 * 1024 ** 2, help="Largest file the kernel may write, bytes.").tag(config=True)
    tmp_maximo = Integer(256 * 1024 ** 2, help="Size of the kernel's private /tmp and of /dev/shm (RAM), bytes each.").tag(config=True)
    carpeta_maxima = Integer(
        128 * 1024 ** 2, help="Size of the kernel's working folder (the submission's copy, in RAM), bytes.").tag(config=True)
    archivos_maximos = Integer(
        4096, help="Files and folders in each writable file system of the sandbox (tmpfs nr_inodes).").tag(config=True)
    descriptores_maximos = Integer(256, help="Open files per process (RLIMIT_NOFILE).").tag(config=True)
    exigir = Bool(True, help="Refuse to run without bubblewrap (unless CURSO_SIN_AISLAMIENTO=1).").tag(config=True)
    uid_alumno = Integer(65534, help="uid/gid the kernel runs as when the TA is root (nobody).").tag(config=True)
    procesos_maximos = Integer(
        128, help="Processes and threads of the kernel's whole tree (cgroup pids.max or RLIMIT_NPROC).").tag(config=True)
    memoria_total = Integer(
        4 * 1024 ** 3, help="Memory of the kernel's whole tree, bytes (cgroup, or measured from outside).").tag(config=True)
    usar_cgrupos = Bool(True, help="Use a control group per kernel where the machine allows it.").tag(config=True)
    espera_sockets = Float(60, help="Seconds the kernel has to create its sockets after it starts.").tag(config=True)
    intervalo_vigilancia = Float(
        0.1, help="Seconds between two measurements of the tree's memory when there is no cgroup.").tag(config=True)
    # its sockets refuse giant messages and queue few (salida_acotada)
    client_class = DottedObjectName("grader_tests.caja.salida_acotada.ClienteAcotado")
    client_factory = Type(ClienteAcotado, klass=ClienteAcotado)

    _carpeta_privada: str | None = None
    _grupo: limites_kernel.GrupoKernel | None = None
    _vigilante: limites_kernel.VigilanteMemoria | None = None
    _pid_caja: int | None = None
    _pidfd_caja: int | None = None
    _uid: int = 65534
    _salida_caja: bytearray | None = None
    _fds_sockets: tuple | list = ()
    motivo: str | None = None

    @property
    def como_root(self) -> bool:
        """The TA is root: bubblewrap runs privileged and the kernel drops to ``uid_alumno``."""
        return os.geteuid() == 0 and self.uid_alumno != 0

    def entorno_minimo(self) -> dict[str, str]:
        """The sandbox's whole environment, bubblewrap's own included: explicit, none of the TA's variables."""
        entorno = {
            "PATH": os.pathsep.join([os.path.join(os.path.realpath(sys.prefix), "bin"),
                                     "/usr/local/bin", "/usr/bin", "/bin"]),
            "HOME": "/tmp", "MPLCONFIGDIR": "/tmp/matplotlib", "IPYTHONDIR": "/tmp/ipython",
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "CURSO_AISLADO": "1",
            # the kernel imports the public grader_tests modules from where this process
            # imports them (an editable install or, on the hub, PYTHONPATH = the course root);
            # inside the sandbox those folders hold only the public modules
            "PYTHONPATH": os.pathsep.join(sorted({os.path.dirname(p) for p in paquetes_visibles()})),
        }
        # nbgrader tells the hidden tests which step runs them (grader_tests.en_el_kernel.cliente)
        if os.environ.get("NBGRADER_EXECUTION") in ("autograde", "validate"):
            entorno["NBGRADER_EXECUTION"] = os.environ["NBGRADER_EXECUTION"]
        return entorno

    async def _async_pre_start_kernel(self, **kw):
        # the connection file in a private folder of the TA (bound read-only into the sandbox)
        self._carpeta_privada = tempfile.mkdtemp(prefix="curso-kernel-")
        self._fds_sockets = []
        self.transport = "ipc"
        self.connection_file = os.path.join(self._carpeta_privada, "kernel.json")
        # the kernel binds its sockets in the sandbox's own capped tmpfs; once it runs, this
        # process reaches them through /proc/<pid>/root (``_async_launch_kernel``)
        self.ip = IPC_DENTRO + "/kernel"
        # a signal sent from outside does not reach the kernel inside bubblewrap's
        # PID namespace: interrupt with a control message, the kernel signals itself
        self.kernel_spec.interrupt_mode = "message"
        return await super()._async_pre_start_kernel(**kw)

    def _sin_bwrap(self, comando: list[str]) -> list[str]:
        if os.environ.get("CURSO_SIN_AISLAMIENTO") == "1" or not self.exigir:
            self.log.warning("Sin bubblewrap: el código de los alumnos se ejecuta SIN aislar.")
            return comando
        raise SinAislamiento(
            "No está bubblewrap (bwrap): el código de los alumnos no se puede aislar. "
            "Instálalo (apt-get install bubblewrap) o, bajo tu responsabilidad, "
            "exporta CURSO_SIN_AISLAMIENTO=1.")

    def ajustes_del_lanzador(self, cwd: str) -> dict:
        """What ``lanzador_caja`` does before the kernel: caps on files, the copy, limits, identity."""
        inodos = int(self.archivos_maximos)
        fuentes = cache_de_fuentes()
        limites = {"memoria": self.memoria_maxima, "archivo": self.archivo_maximo, "core": 0,
                   "descriptores": self.descriptores_maximos,
                   # without cgroups: processes of this uid (in the sandbox's user namespace)
                   "procesos": self.procesos_maximos if self._grupo is None else None}
        return {
            "montajes": [{"ruta": "/tmp", "tamaño": self.tmp_maximo, "inodos": inodos},
                         {"ruta": "/dev/shm", "tamaño": self.tmp_maximo, "inodos": inodos},
                         {"ruta": cwd, "tamaño": self.carpeta_maxima, "inodos": inodos},
                         {"ruta": DENTRO, "tamaño": DENTRO_MAXIMO, "inodos": 64}],
            "uid": self._uid if self.como_root else None,
            "de_alumno": [cwd, IPC_DENTRO],
            "entrega": {"origen": ENTREGA_DENTRO, "destino": cwd, "bytes": self.carpeta_maxima,
                        "archivos": max(1, inodos - 64)},
            "limites": limites,
            "cwd": cwd,
            "fuentes": ({"origen": FUENTES_DENTRO, "bytes": FUENTES_MAXIMO,
                         "destino": "/tmp/matplotlib/" + os.path.basename(fuentes)} if fuentes else None),
        }

    def envolver(self, comando: list[str], cwd: str, info_fd: int | None = None) -> list[str]:
        """The bubblewrap command line that runs ``comando`` sandboxed in ``cwd``."""
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            return self._sin_bwrap(comando)
        raiz = os.path.realpath(self.raiz or os.getcwd())
        cwd = os.path.realpath(cwd)
        if self.como_root:
            identidad = ["--cap-drop", "ALL"]
            for capacidad in CAPACIDADES_ROOT:
                identidad += ["--cap-add", capacidad]
        else:
            # no --uid: bubblewrap would nest a second user namespace, in which the
            # launcher could not remount the tmpfs folders with their cap on files
            identidad = ["--unshare-user"]
            for capacidad in CAPACIDADES_USUARIO:
                identidad += ["--cap-add", capacidad]
        args = [bwrap, *self.sistema_visible(), "--proc", "/proc", *self.dispositivos(),
                # private /tmp and /dev/shm, in RAM (the launcher caps their size and files before
                # anything runs: bubblewrap's --size needs 0.7 and no version caps files)
                "--perms", "1777", "--tmpfs", "/tmp",
                "--perms", "1777", "--tmpfs", "/dev/shm",
                "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                # no init of bubblewrap's (it would keep the TA's uid, keyring and limits, ptraceable
                # and without seccomp): the launcher is PID 1, non-dumpable and filtered (lanzador_caja)
                "--as-pid-1",
                *identidad, "--die-with-parent", "--hostname", "aislado"]
        if info_fd is not None:
            args += ["--info-fd", str(info_fd)]
        ocultar = carpetas_a_ocultar(raiz)
        for carpeta in ocultar:                               # parents before children
            args += ["--tmpfs", carpeta]
        # Python itself and the venv, read-only, at their real paths (after the hiding: the venv
        # may live in the course; a symlinked venv is reached through its target)
        for prefijo in sorted({os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix)}):
            if not prefijo.startswith("/usr" + os.sep):
                args += ["--ro-bind", prefijo, prefijo]
        # wherever the kernel imports grader_tests from, it gets the public modules of
        # THIS course (the ones the judge in this process uses), never another copy's
        for paquete in paquetes_visibles():
            for nombre in modulos_publicos():
                args += ["--ro-bind", str(PAQUETE / nombre), os.path.join(paquete, nombre)]
        # the kernel's working folder: a size-capped tmpfs in RAM where the launcher copies the
        # submission; nothing the kernel writes reaches the TA's disk
        args += ["--perms", "0755", "--tmpfs", cwd,
                 "--perms", "0755", "--tmpfs", DENTRO,
                 "--ro-bind", cwd, ENTREGA_DENTRO,
                 "--ro-bind", str(LANZADOR), LANZADOR_DENTRO,
                 "--dir", IPC_DENTRO]
        if cache_de_fuentes():
            args += ["--ro-bind", cache_de_fuentes(), FUENTES_DENTRO]
        if self.connection_file and os.path.exists(self.connection_file):
            args += ["--ro-bind", self.connection_file, CONEXION_DENTRO]
        args += ["--clearenv"]
        for nombre, valor in self.entorno_minimo().items():
            args += ["--setenv", nombre, valor]
        args += ["--chdir", "/"]
        if self.como_root:
            # folders bubblewrap creates on the way to a mount copy the host's mode (/root is
            # 0700): uid_alumno must be able to cross them to reach Python and its own folder
            args += atravesables(args)
        # the empty folders that hide the course are read-only too: nothing the
        # kernel writes outside its own folder and /tmp is kept or seen by anyone
        for carpeta in ocultar:
            args += ["--remount-ro", carpeta]
        args += ["--remount-ro", "/dev", "--remount-ro", "/"]   # nothing to write there either
        orden = [en_la_caja(a) if os.path.isabs(a) else a for a in comando]
        lanzador = [en_la_caja(sys.executable), "-I", "-S", LANZADOR_DENTRO,
                    json.dumps(self.ajustes_del_lanzador(cwd)), "--"]
        envuelto = args + lanzador + orden
        # before bubblewrap itself: the kernel's control group (every process inherits it), a new
        # empty session keyring and the sandbox's limits, so that no process of the sandbox,
        # bubblewrap's own included, holds the TA's keys or limits (``lanzador_caja.preludio``)
        limites = {k: v for k, v in self.ajustes_del_lanzador(cwd)["limites"].items() if k != "procesos"}
        preludio = {"grupos": self._grupo.archivos_procs if self._grupo is not None else [], "limites": limites}
        return [sys.executable, "-I", "-S", str(LANZADOR), "--preludio", json.dumps(preludio), "--", *envuelto]

    @staticmethod
    def dispositivos() -> list[str]:
        """A read-only /dev with only the harmless devices (no devpts: see ``envolver``)."""
        args = ["--tmpfs", "/dev"]
        for nombre in DISPOSITIVOS:
            args += ["--dev-bind", f"/dev/{nombre}", f"/dev/{nombre}"]
        args += ["--symlink", "/proc/self/fd", "/dev/fd", "--symlink", "/proc/self/fd/0", "/dev/stdin",
                 "--symlink", "/proc/self/fd/1", "/dev/stdout", "--symlink", "/proc/self/fd/2", "/dev/stderr"]
        return args

    @staticmethod
    def sistema_visible() -> list[str]:
        """bwrap arguments exposing only the system the kernel needs, read-only.

        A whitelist, not the whole disk: /usr and /etc (a copy of its
        world-readable part: no shadow file, private key or folder others
        cannot enter; ``vista_de_etc``), the merged-/usr symlinks, CPU topology for BLAS.  Other
        folders (/home, /root, /work, /opt, /srv, /var, /mnt…) do not exist for
        the student, so no other clone of the course, gradebook or answer key
        on the machine can be read.  Python and the venv are added by ``envolver``.
        """
        # /etc is a private copy of its world-readable part (``vista_de_etc``): a file that
        # appears or vanishes in the real /etc (useradd's and passwd's locks) changes nothing
        args = ["--ro-bind", "/usr", "/usr", "--ro-bind", vista_de_etc(), "/etc"]
        for carpeta in ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"):
            if os.path.islink(carpeta):
                args += ["--symlink", os.readlink(carpeta), carpeta]
            elif os.path.isdir(carpeta):
                args += ["--ro-bind", carpeta, carpeta]
        args += ["--ro-bind-try", "/sys/devices/system/cpu", "/sys/devices/system/cpu"]
        return args

    def _preparar(self) -> None:
        """Before a sandboxed process starts: its control group; as root, its connection file for nobody."""
        self.motivo = None
        if self.usar_cgrupos and shutil.which("bwrap"):
            self._grupo = limites_kernel.crear_grupo(
                f"curso-kernel-{os.getpid()}-{os.path.basename(self._carpeta_privada or 'x')}",
                self.memoria_total, self.procesos_maximos)
        # as root without a cgroup, RLIMIT_NPROC counts every process of the kernel's uid on the
        # machine: each kernel gets a uid of its own (no account has it), so it counts only its own
        self._uid = int(self.uid_alumno) if self._grupo is not None else uid_propio()
        if self.como_root and shutil.which("bwrap") and self.connection_file \
                and os.path.exists(self.connection_file):
            os.chown(self.connection_file, self._uid, self._uid)

    def _en_marcha(self, info: int, salida: int | None) -> None:
        """Once bubblewrap runs: its first process's pid, the tree's memory watched, its output drained."""
        self._pid_caja = leer_info(info)
        self._pidfd_caja = None
        if self._pid_caja is not None:
            try:
                # a descriptor of that very process: the SIGKILL at the end never hits a reused pid
                self._pidfd_caja = os.pidfd_open(self._pid_caja)
            except (AttributeError, OSError):
                pass
        if self._pid_caja is not None and self._grupo is None and shutil.which("bwrap"):
            self._vigilante = limites_kernel.VigilanteMemoria(
                self._pid_caja, self.memoria_total, self.intervalo_vigilancia).empezar()
        if self._pid_caja is not None and shutil.which("bwrap"):
            # netlink queues are memory no cgroup counts: the sandbox's own network namespace, watched from here
            self._vigilante_netlink = limites_kernel.VigilanteNetlink(self._pid_caja, self._matar_por_netlink).empezar()
        if salida is not None:
            self._salida_caja = bytearray()
            threading.Thread(target=drenar, args=(salida, self._salida_caja), daemon=True).start()

    _vigilante_netlink = None

    def _matar_por_netlink(self) -> None:
        """The netlink watchdog's verdict: the sandbox ends now (its PID 1, through the pidfd kept open)."""
        pidfd = getattr(self, "_pidfd_caja", None)
        try:
            if pidfd is not None:
                import signal
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        except (AttributeError, OSError, ValueError):
            pass

    def matados_por_memoria(self) -> bool:
        """Whether the tree's memory limit killed any of its processes so far (cgroup or watchdog)."""
        return bool((self._vigilante is not None and self._vigilante.matados)
                    or (self._grupo is not None and self._grupo.sin_memoria()))

    def motivo_de_muerte(self) -> str | None:
        """Why the sandbox ended, in Spanish, when it was one of its limits (memory); else None."""
        netlink = self._vigilante_netlink
        if self.motivo is None and netlink is not None and netlink.excedido:
            self.motivo = (f"llenó colas de netlink del sistema ({netlink.maxima // 1024 ** 2} MiB; el tope es "
                           f"{netlink.limite // 1024 ** 2} MiB): memoria que ningún límite del kernel cuenta")
        if self.motivo is None and self.matados_por_memoria():
            self.motivo = (f"superó la memoria que la corrección da a todos sus procesos juntos "
                           f"({gib(self.memoria_total)})")
        return self.motivo

    def matar_caja(self) -> None:
        """SIGKILL the sandbox's PID 1 from outside: the kernel ends every process of its PID namespace.

        PID 1 is the launcher (``lanzador_caja``), whose parent is bubblewrap's
        process outside; a signal sent from the host's namespace is the only one
        it cannot ignore.  Through a pidfd taken when the sandbox started, so a
        pid reused since then is never hit.
        """
        pidfd = getattr(self, "_pidfd_caja", None)
        self._pidfd_caja = None
        if pidfd is None:
            return
        try:
            import select
            import signal
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            # the pidfd turns readable once PID 1 has exited, and PID 1 of a namespace exits only
            # after every other process of it is gone: when this returns, nothing of the student runs
            select.select([pidfd], [], [], ESPERA_FIN_CAJA)
        except (AttributeError, OSError, ValueError):
            pass
        finally:
            os.close(pidfd)

    def _liberar(self) -> None:
        """After it ended: nothing of it left running (PID 1 killed), no group, no private folder."""
        self.matar_caja()
        self.motivo_de_muerte()
        if self._vigilante is not None:
            self._vigilante.parar()
            self._vigilante = None
        if self._vigilante_netlink is not None:
            self._vigilante_netlink.parar()
        if self._grupo is not None:
            self._grupo.vaciar()
            self._grupo = None
        for fd in self._fds_sockets:
            os.close(fd)
        self._fds_sockets = ()
        if self._carpeta_privada:
            shutil.rmtree(self._carpeta_privada, ignore_errors=True)
            self._carpeta_privada = None
        self._pid_caja = None

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        cwd = os.path.realpath(kw.get("cwd") or os.getcwd())
        self._preparar()
        if shutil.which("bwrap") is None:
            return await super()._async_launch_kernel(self.envolver(list(kernel_cmd), cwd), **kw)
        comando = [CONEXION_DENTRO if a == self.connection_file else a for a in kernel_cmd]
        info_r, info_w = os.pipe()
        salida_r, salida_w = os.pipe()
        try:
            # bubblewrap itself gets the minimal environment (its first process, PID 1 in the
            # sandbox, keeps it); the kernel's output never reaches the TA's terminal or log
            kw.update(env=self.entorno_minimo(), pass_fds=(info_w,), stdout=salida_w, stderr=salida_w,
                      stdin=subprocess.DEVNULL)
            await super()._async_launch_kernel(self.envolver(comando, cwd, info_fd=info_w), **kw)
        except BaseException:
            os.close(info_r)
            os.close(salida_r)
            raise
        finally:
            os.close(info_w)
            os.close(salida_w)
        self._en_marcha(info_r, salida_r)
        if self._pid_caja is not None:
            await self._enlazar_sockets()

    async def _enlazar_sockets(self) -> None:
        """Reach the kernel's sockets from the TA's private folder, never through a path the student controls.

        Each socket the kernel binds in its tmpfs is opened once it exists, from
        ``/proc/<pid>/root`` one component at a time without following links
        (``abrir_socket``), and linked from the private folder as
        ``/proc/self/fd/<fd>``: ZeroMQ always connects to that same socket,
        whatever the student later renames or replaces with a link (which,
        followed from outside, would point into the TA's own file system).
        """
        import asyncio
        limite = time.monotonic() + self.espera_sockets
        pendientes = sorted(p for p in self.ports if p)
        while pendientes and time.monotonic() < limite and os.path.exists(f"/proc/{self._pid_caja}"):
            for puerto in list(pendientes):
                fd = abrir_socket(self._pid_caja, f"{IPC_DENTRO}/kernel-{puerto}")
                if fd is not None:
                    self._fds_sockets.append(fd)
                    os.symlink(f"/proc/self/fd/{fd}", os.path.join(self._carpeta_privada, f"kernel-{puerto}"))
                    pendientes.remove(puerto)
            if pendientes:
                await asyncio.sleep(0.05)
        self.ip = os.path.join(self._carpeta_privada, "kernel")

    async def _async_kill_kernel(self, restart: bool = False) -> None:
        # the sandbox's PID 1 first, so bubblewrap's outer process reaps it before it is killed itself
        import asyncio
        await asyncio.to_thread(self.matar_caja)
        await super()._async_kill_kernel(restart=restart)

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if not restart:
            self._liberar()

    def salida_de_la_caja(self) -> str:
        """The first bytes the sandboxed processes wrote to stdout/stderr (diagnostics, never logged)."""
        return bytes(self._salida_caja or b"").decode("utf-8", "replace")

    def ejecutar(self, comando: list[str], cwd: str, timeout: float = 60) -> subprocess.CompletedProcess:
        """Run a plain command in the same sandbox a kernel gets (tests, diagnostics); text output.

        ``motivo_de_muerte()`` tells afterwards whether a limit of the tree ended it.
        """
        self._carpeta_privada = tempfile.mkdtemp(prefix="curso-kernel-")
        self.connection_file = ""
        cwd = os.path.realpath(cwd)
        try:
            self._preparar()
            if shutil.which("bwrap") is None:
                return subprocess.run(self.envolver(comando, cwd), cwd=cwd, capture_output=True, text=True,
                                      timeout=timeout, stdin=subprocess.DEVNULL)
            info_r, info_w = os.pipe()
            try:
                proceso = subprocess.Popen(self.envolver(comando, cwd, info_fd=info_w), cwd="/",
                                           env=self.entorno_minimo(), stdin=subprocess.DEVNULL,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                           pass_fds=(info_w,))
            finally:
                os.close(info_w)
            self._en_marcha(info_r, None)
            try:
                salida, errores = proceso.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                # PID 1 first: bubblewrap's outer process then sees its child end and reaps it (killed
                # first, it would leave PID 1 to the host's init, a zombie of the TA's account)
                self.matar_caja()
                try:
                    proceso.communicate(timeout=ESPERA_FIN_CAJA)
                except subprocess.TimeoutExpired:
                    proceso.kill()
                    proceso.communicate()
                raise
            return subprocess.CompletedProcess(proceso.args, proceso.returncode, salida, errores)
        finally:
            self._liberar()


UIDS_PROPIOS = (0x7F000000, 0x7FFF0000)       # uids no account uses (useradd stops at 60000)


def uid_propio() -> int:
    """A uid for one kernel alone, drawn at random from ``UIDS_PROPIOS`` (16 million of them)."""
    import secrets
    return UIDS_PROPIOS[0] + secrets.randbelow(UIDS_PROPIOS[1] - UIDS_PROPIOS[0])


def gib(n: int) -> str:
    """``n`` bytes in Spanish GiB or MiB: ``'4 GiB'``, ``'1,5 GiB'``, ``'256 MiB'``."""
    if n >= 1024 ** 3:
        return f"{n / 1024 ** 3:.1f}".replace(".", ",").replace(",0", "") + " GiB"
    return f"{n / 1024 ** 2:.0f} MiB"


def drenar(fd: int, guardado: bytearray, maximo: int = 16 * 1024) -> None:
    """Read ``fd`` to its end, keeping its first ``maximo`` bytes in ``guardado`` (a thread's body)."""
    try:
        while True:
            trozo = os.read(fd, 65536)
            if not trozo:
                break
            if len(guardado) < maximo:
                guardado += trozo[:maximo - len(guardado)]
    except OSError:
        pass
    finally:
        os.close(fd)


def atravesables(args: list[str]) -> list[str]:
    """``--chmod 0755`` for the sandbox-made folders on the way to each mount of ``args``.

    bubblewrap creates them with the mode of the host's folder (``/root`` and
    pytest's temporary folders are 0700).  Only folders made inside the
    sandbox's own file systems are changed, never a folder bound from the host
    nor a tmpfs mount point (``/tmp`` keeps its 1777).
    """
    enlazados, propios, i = set(), set(), 0
    opciones = {"--ro-bind": (2, True), "--bind": (2, True), "--ro-bind-try": (2, True),
                "--bind-try": (2, True), "--tmpfs": (1, False), "--dev": (1, True), "--proc": (1, True),
                "--symlink": (2, True)}
    while i < len(args):
        if args[i] in opciones:
            n, del_anfitrion = opciones[args[i]]
            (enlazados if del_anfitrion else propios).add(os.path.normpath(args[i + n]))
            i += n + 1
        else:
            i += 1
    cambios = set()
    for destino in enlazados | propios:
        partes = destino.strip("/").split("/")
        for k in range(1, len(partes)):
            ancestro = "/" + "/".join(partes[:k])
            if ancestro in enlazados or ancestro in propios \
                    or any(ancestro.startswith(m.rstrip("/") + "/") for m in enlazados):
                continue
            cambios.add(ancestro)
    resultado = []
    for carpeta in sorted(cambios):
        resultado += ["--chmod", "0755", carpeta]
    return resultado


@functools.lru_cache(maxsize=None)
def privados_de(carpeta: str) -> tuple[tuple[str, bool], ...]:
    """Files and folders under ``carpeta`` that others may not read: ``(path, is_folder)``.

    Their content is masked in the sandbox whatever uid the kernel has.
    Folders that others cannot enter are masked whole (not walked).
    """
    privados = []
    pendientes = [carpeta]
    while pendientes:
        actual = pendientes.pop()
        try:
            with os.scandir(actual) as it:
                hijos = list(it)
        except OSError:
            continue
        for hijo in hijos:
            try:
                st = hijo.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                if not st.st_mode & stat.S_IXOTH or not st.st_mode & stat.S_IROTH:
                    privados.append((hijo.path, True))
                else:
                    pendientes.append(hijo.path)
            elif stat.S_ISREG(st.st_mode) and not st.st_mode & stat.S_IROTH:
                privados.append((hijo.path, False))
    return tuple(sorted(privados))


ETC_ARCHIVO_MAXIMO = 16 * 1024 ** 2           # a larger file under /etc is left out of the copy
_VISTAS_DE_ETC: dict[str, str] = {}


def copiar_legibles(origen: str, destino: str) -> int:
    """Copy what everyone may read under ``origen`` into the existing folder ``destino``; the files copied.

    Folders that others can list and enter (mode 0755 in the copy), regular
    files that others can read (their mode ``& 0o755``, contents and times) and
    symbolic links (as links); anything else, and what vanishes or changes kind
    while it is copied, is left out.  Files are opened without following links
    and checked with ``fstat`` before reading.
    """
    copiados = 0
    pendientes = [""]
    while pendientes:
        relativa = pendientes.pop()
        try:
            with os.scandir(os.path.join(origen, relativa)) as it:
                hijos = sorted(it, key=lambda h: h.name)
        except OSError:
            continue
        for hijo in hijos:
            ruta, meta = os.path.join(relativa, hijo.name), os.path.join(destino, relativa, hijo.name)
            try:
                st = hijo.stat(follow_symlinks=False)
                if stat.S_ISLNK(st.st_mode):
                    os.symlink(os.readlink(hijo.path), meta)
                elif stat.S_ISDIR(st.st_mode):
                    if st.st_mode & stat.S_IROTH and st.st_mode & stat.S_IXOTH:
                        os.mkdir(meta, 0o755)
                        os.chmod(meta, 0o755)
                        pendientes.append(ruta)
                elif stat.S_ISREG(st.st_mode) and st.st_mode & stat.S_IROTH:
                    copiados += _copiar_archivo(hijo.path, meta)
            except OSError:
                continue
    return copiados


def _copiar_archivo(fuente: str, meta: str) -> int:
    fd = os.open(fuente, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not st.st_mode & stat.S_IROTH or st.st_size > ETC_ARCHIVO_MAXIMO:
            return 0
        datos = os.read(fd, ETC_ARCHIVO_MAXIMO + 1)
    finally:
        os.close(fd)
    salida = os.open(meta, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        vista = memoryview(datos[:ETC_ARCHIVO_MAXIMO])
        while vista:
            vista = vista[os.write(salida, vista):]
        os.fchmod(salida, stat.S_IMODE(st.st_mode) & 0o755 | 0o444)
    finally:
        os.close(salida)
    os.utime(meta, ns=(st.st_atime_ns, st.st_mtime_ns), follow_symlinks=False)
    return 1


def retirar_restos(prefijo: str) -> int:
    """Remove the temporary folders ``<prefijo><pid>-…`` of this account whose grading process is gone.

    Each grading process removes its own at exit (``atexit``); one that was killed
    (SIGKILL, a timeout, the machine's OOM killer) left them in the temporary folder
    for good (a fresh attacker found 22 copies of /etc, some then owned by a new
    account that got the same uid).  A folder whose pid still runs, or that is not a
    plain folder of this account, stays.  Returns how many were removed; never raises.
    """
    retirados = 0
    try:
        entradas = list(os.scandir(tempfile.gettempdir()))
    except OSError:
        return 0
    for entrada in entradas:
        m = re.fullmatch(re.escape(prefijo) + r"(\d+)-[^/]+", entrada.name)
        try:
            if not m or not entrada.is_dir(follow_symlinks=False) or \
                    entrada.stat(follow_symlinks=False).st_uid != os.geteuid():
                continue
            try:
                os.kill(int(m[1]), 0)
                continue                    # its process (or one with its pid) still runs
            except ProcessLookupError:
                pass
            except PermissionError:
                continue
            shutil.rmtree(entrada.path)
            retirados += 1
        except OSError:
            pass
    return retirados


def vista_de_etc(origen: str = "/etc") -> str:
    """The folder the sandbox mounts read-only as /etc: a copy of what everyone may read in ``origen``.

    Made once per grading process in a private temporary folder (0755, the
    TA's), removed when the process ends, made again if it disappeared.  No
    shadow file, private key or folder others cannot enter is in it, whatever
    uid the kernel has; and no file that appears or vanishes in the real /etc
    while the class is graded (a ``useradd`` lock) can stop a sandbox from
    starting, as bind-mounting /etc and masking a list of its files did.
    """
    hecha = _VISTAS_DE_ETC.get(origen)
    if hecha is not None and os.path.isdir(hecha):
        return hecha
    import atexit
    retirar_restos("curso-etc-")
    destino = tempfile.mkdtemp(prefix=f"curso-etc-{os.getpid()}-")
    try:
        copiar_legibles(origen, destino)
        os.chmod(destino, 0o755)
    except BaseException:
        shutil.rmtree(destino, ignore_errors=True)
        raise
    atexit.register(shutil.rmtree, destino, True)
    _VISTAS_DE_ETC[origen] = destino
    return destino


_FUENTES: dict[str, str | None] = {}


def cache_de_fuentes() -> str | None:
    """matplotlib's font list (``fontlist-v<version>.json``), built once per grading process, or None.

    Every sandboxed kernel starts with an empty ``MPLCONFIGDIR`` (``/tmp/matplotlib``
    in its own tmpfs), so each notebook that imports matplotlib would scan the
    system's fonts again (``scripts/mediciones/bench_fuentes.py`` measures what
    that costs each kernel). This builds the
    list once, with the sandbox's environment (HOME and MPLCONFIGDIR in a private
    temporary folder, nothing of the TA's), in a process of its own; the sandbox
    binds it read-only and ``lanzador_caja`` copies it into the kernel's /tmp.
    Removed when the process ends; made again if it disappeared. None if it
    cannot be built: each kernel then builds its own, as before.
    """
    hecha = _FUENTES.get("lista")
    if hecha is not None and os.path.isfile(hecha):
        return hecha
    if "lista" in _FUENTES and hecha is None:
        return None
    import atexit
    retirar_restos("curso-fuentes-")
    carpeta = tempfile.mkdtemp(prefix=f"curso-fuentes-{os.getpid()}-")
    atexit.register(shutil.rmtree, carpeta, True)
    entorno = {"PATH": os.pathsep.join([os.path.join(os.path.realpath(sys.prefix), "bin"), "/usr/bin", "/bin"]),
               "HOME": carpeta, "MPLCONFIGDIR": carpeta, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    try:
        subprocess.run([sys.executable, "-I", "-c", "import matplotlib.font_manager"], env=entorno, cwd=carpeta,
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=120, check=True)
        listas = [n for n in os.listdir(carpeta) if n.startswith("fontlist-") and n.endswith(".json")]
    except (OSError, subprocess.SubprocessError):
        listas = []
    lista = os.path.join(carpeta, listas[0]) if len(listas) == 1 else None
    if lista is not None:
        os.chmod(carpeta, 0o755)
        os.chmod(lista, 0o644)
    _FUENTES["lista"] = lista
    return lista


def _error(nombre: str, mensaje: str):
    return from_dict({"output_type": "error", "ename": nombre, "evalue": mensaje,
                      "traceback": [f"{nombre}: {mensaje}"]})


def mensaje_de_tiempo(segundos: int | float | None) -> str:
    """The Spanish reason of a timed-out cell, as the cell, the feedback and the TA table show it."""
    return f"se agotó el tiempo ({segundos:g} s)" if segundos else "se agotó el tiempo"


def unir_flujos_seguidos(celda) -> None:
    """Merge consecutive stream outputs of the same stream (stdout, stderr) into one, in place.

    A kernel under load may send one ``print`` in several messages; JupyterLab
    shows them as one block anyway.  Merged, the autograded notebook and the
    feedback are the same however the output was chunked (nbclient's own
    ``coalesce_streams`` would also move a later print above a figure).
    """
    unidas = []
    for salida in celda.get("outputs", []):
        anterior = unidas[-1] if unidas else None
        if (salida.get("output_type") == "stream" and anterior is not None
                and anterior.get("output_type") == "stream" and anterior.get("name") == salida.get("name")):
            anterior["text"] = "".join(anterior.get("text", "")) + "".join(salida.get("text", ""))
        else:
            unidas.append(salida)
    if "outputs" in celda:
        celda.outputs = unidas


MARCA_LIMITE = "curso_limite_de_la_caja"     # output metadata of the note (scripts/calificacion/observaciones.py)

# what an error output says when a limit of the sandbox stopped the cell: (kind, marks in ename/evalue)
_LIMITES = (
    ("espacio", ("[Errno 28]", "No space left on device", "[Errno 122]", "Disk quota exceeded")),
    ("archivo", ("[Errno 27]", "File too large")),
    ("descriptores", ("[Errno 24]", "Too many open files")),
    ("procesos", ("[Errno 11] Resource temporarily unavailable", "can't start new thread")),
    ("memoria", ("MemoryError", "Cannot allocate memory", "[Errno 12]")),
)

# the Spanish name of each limit, as the TA table shows it
NOMBRES_DE_LIMITES = {
    "espacio": "sitio para escribir archivos", "archivo": "tamaño de un archivo",
    "descriptores": "archivos abiertos a la vez", "procesos": "procesos e hilos",
    "memoria": "memoria de un proceso", "memoria_total": "memoria de todos sus procesos",
}


def limite_alcanzado(celda) -> str | None:
    """Which sandbox limit (a key of ``NOMBRES_DE_LIMITES``) stopped this cell, judging by its error."""
    for salida in celda.get("outputs", []):
        if salida.get("output_type") != "error":
            continue
        texto = f"{salida.get('ename', '')}: {salida.get('evalue', '')}"
        for clase, marcas in _LIMITES:
            if any(m in texto for m in marcas):
                return clase
    return None


def nota_de_limite(clase: str, caja: "KernelAislado"):
    """The Spanish note that ends a cell stopped by a limit of the sandbox (feedback and table)."""
    textos = {
        "espacio": (f"Al calificar, el cuaderno trabaja en una copia de su carpeta en memoria: caben "
                    f"{gib(caja.carpeta_maxima)} y {caja.archivos_maximos} archivos y carpetas (en /tmp, "
                    f"{gib(caja.tmp_maximo)} y otros tantos archivos). Lo que escribe no se conserva."),
        "archivo": f"Ningún archivo puede pasar de {gib(caja.archivo_maximo)}.",
        "descriptores": f"Cada proceso puede tener {caja.descriptores_maximos} archivos abiertos a la vez.",
        "procesos": f"Todos sus procesos e hilos juntos no pueden pasar de {caja.procesos_maximos}.",
        "memoria": f"Cada proceso puede usar hasta {gib(caja.memoria_maxima)} de memoria.",
        "memoria_total": (f"Todos sus procesos juntos pueden usar hasta {gib(caja.memoria_total)} de memoria: "
                          "al pasarse, la corrección detiene el proceso que más usa (si es el del propio "
                          "cuaderno, las celdas siguientes ya no se ejecutan)."),
    }
    texto = f"Esta celda chocó con un límite de la corrección ({NOMBRES_DE_LIMITES[clase]}). {textos[clase]}"
    return from_dict({"output_type": "display_data", "data": {"text/plain": texto},
                      "metadata": {MARCA_LIMITE: {"limite": clase}}})


class EjecucionAislada(Execute):
    """nbgrader's ``Execute`` with sandboxed kernels and a whole-notebook budget."""

    presupuesto_total = Integer(600, help="Seconds the whole notebook may run.").tag(config=True)
    espera_sonda = Integer(5, help="Seconds a kernel has to answer after a timed-out cell.").tag(config=True)

    def __init__(self, *args, **kwargs):
        kwargs["kernel_manager_class"] = KernelAislado
        super().__init__(*args, **kwargs)

    def preprocess(self, nb, resources, *args, **kwargs):
        self._detenido: str | None = None
        self._memoria_anotada = False
        self._inicio = time.monotonic()
        self._salida = Presupuesto(parent=self)
        # the error nbclient records in a cell that ran out of time, in Spanish with the limit
        self.error_on_timeout = self._error_de_tiempo()
        return super().preprocess(nb, resources, *args, **kwargs)

    def _error_de_tiempo(self) -> dict:
        motivo = mensaje_de_tiempo(self.timeout)
        return {"ename": "CellTimeoutError", "evalue": motivo,
                "traceback": [f"CellTimeoutError: {motivo}; la celda se interrumpió sin terminar."]}

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code":
            return cell, resources
        if self._detenido is None and time.monotonic() - self._inicio > self.presupuesto_total:
            self._detenido = (f"se agotó el tiempo total del cuaderno ({self.presupuesto_total} s); "
                              "esta celda no se ejecutó")
        if self._detenido is not None:
            cell.outputs = [_error("CeldaNoEjecutada", self._detenido)]
            return cell, resources
        salida = self._presupuesto()
        salida.empezar_celda(nbgrader_utils.is_grade(cell) and not nbgrader_utils.is_solution(cell))
        self._agotada = False
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            self._anotar_recorte(cell)
            motivo = self.km.motivo_de_muerte() if isinstance(self.km, KernelAislado) else None
            cell.outputs.append(_error("DeadKernelError", "el proceso del cuaderno murió en esta celda"
                                       + (f": {motivo}" if motivo else "")))
            if motivo:
                cell.outputs.append(nota_de_limite("memoria_total", self.km))
            self._detenido = "el proceso del cuaderno murió en una celda anterior; esta celda no se ejecutó"
            return cell, resources
        except CellTimeoutError as exc:
            if "IOPub" in str(exc) and not self._agotada:
                # the kernel answered but part of the output never came (a message over
                # ClienteAcotado.mensaje_maximo dropped the connection): not a timeout
                salida.incompleta = True
                self._anotar_recorte(cell)
                self._reabrir_iopub()
                return cell, resources
            # the interrupt did not bring the kernel back (nbclient gives up waiting for its output)
            cell.outputs.append(from_dict({"output_type": "error", **self._error_de_tiempo()}))
        unir_flujos_seguidos(cell)
        self._anotar_recorte(cell)
        limite = limite_alcanzado(cell)
        if isinstance(self.km, KernelAislado):
            matados = self.km.matados_por_memoria()
            if matados and not self._memoria_anotada:
                limite, self._memoria_anotada = "memoria_total", True
            if limite is not None:
                cell.outputs.append(nota_de_limite(limite, self.km))
        if any(s.get("ename") == "CellTimeoutError" for s in cell.get("outputs", [])) \
                and not self._responde(index):
            self._detenido = ("el cuaderno no respondió a la interrupción tras agotar el tiempo "
                              "de una celda anterior; esta celda no se ejecutó")
        return cell, resources

    def _presupuesto(self) -> Presupuesto:
        if getattr(self, "_salida", None) is None:
            self._salida = Presupuesto(parent=self)
        return self._salida

    def process_message(self, msg, cell, cell_index):
        """nbclient's handling of one output message, within the output budgets (``salida_acotada``)."""
        if not self._presupuesto().admitir(msg):
            return None
        return super().process_message(msg, cell, cell_index)

    def _anotar_recorte(self, cell) -> None:
        """End the cell with the Spanish note when its output was cut (once per cell)."""
        nota = self._presupuesto().nota()
        if nota is not None:
            cell.outputs.append(nota)
            self._salida.descartado, self._salida.incompleta = 0, False

    async def _async_handle_timeout(self, timeout, cell=None):
        # the cell ran out of time (nbclient interrupts it): a later "Timeout waiting for IOPub
        # output" means a kernel that ignored the interrupt, not an output message dropped
        self._agotada = True
        return await super()._async_handle_timeout(timeout, cell)

    def _reabrir_iopub(self) -> None:
        """A new iopub connection after ZeroMQ closed the old one for good.

        ZeroMQ treats a message over ``ZMQ_MAXMSGSIZE`` as a protocol error and
        does not reconnect: without this, every later cell would lose its
        output (the hidden tests' evidence included).  Waits, as nbclient does
        at start, until the new connection carries the kernel's messages.
        """
        kc = self.kc
        if kc is None:
            return
        viejo, kc._iopub_channel = kc._iopub_channel, None
        if viejo is not None:
            try:
                viejo.close()
            except Exception:  # noqa: BLE001 - a closed socket is what we want
                pass
        try:
            run_sync(kc._async_wait_for_ready)(timeout=max(self.espera_sonda, self.iopub_timeout) * 2)
        except Exception:  # noqa: BLE001 - dead or stuck: the next cell finds out and says so
            self.log.warning("No se pudo reabrir el canal de salida del cuaderno")

    def _responde(self, index: int) -> bool:
        """After a timeout: did the interrupt stop the cell (a trivial cell answers in time)?

        A loop that swallows KeyboardInterrupt keeps the kernel busy: every later
        cell would wait its whole timeout, so the notebook stops here instead.
        The probe never replaces the student's cell in the notebook.
        """
        sonda = from_dict({"cell_type": "code", "metadata": {}, "source": "pass",
                           "outputs": [], "execution_count": None, "id": "sonda"})
        timeout = self.timeout
        self.timeout = self.espera_sonda
        real = self.nb.cells[index]
        guardadas = (list(real.get("outputs", [])), real.get("execution_count"))
        try:
            super().preprocess_cell(sonda, {}, index)
        except Exception:  # noqa: BLE001 - dead or stuck: either way it does not answer
            return False
        finally:
            self.timeout = timeout
            # nbclient stores the cell it ran at ``index``: the student's cell goes back in
            # its place (with its source, metadata and grade_id), with its own outputs
            self.nb.cells[index] = real
            real.outputs, real.execution_count = guardadas
        return not any(s.get("output_type") == "error" for s in sonda.get("outputs", []))
