"""Run students' notebooks in a sandbox during ``nbgrader autograde``.

``EjecucionAislada`` replaces nbgrader's ``Execute`` preprocessor (see
nbgrader_config.py).  Its kernels start through ``KernelAislado``, which wraps
the kernel command in Debian's ``bubblewrap``:

* only the system the kernel needs is visible, read-only (/usr, /etc, Python,
  the venv: ``KernelAislado.sistema_visible``); /home, /root, /work, /opt…
  do not exist, so no other copy of the course on the machine can be read;
  the course root is replaced by an empty folder in which only three things
  reappear: the submission's own
  autograded folder (read-write), the virtual environment (read-only) and the
  kernel-safe part of ``grader_tests`` (``MODULOS_PUBLICOS``: ``cliente``,
  ``casos``, ``serializacion`` and each exercise's ``casos.py``; never an
  exercise's reference, properties, known mistakes or battery, nor the quiz
  answers).  The gradebook, ``source/``, ``release/``, ``submitted/`` and the
  other students' folders do not exist for the student's code;
* no network (private network namespace; the kernel talks to nbgrader over
  Unix sockets, ZeroMQ's ``ipc`` transport, in a private folder);
* an unprivileged identity that cannot read root-only files even when the
  TA is root: for a TA who is not root, a user namespace mapping ``nobody``
  to the TA's uid; for root, bubblewrap sets the sandbox up as root and the
  kernel's launcher drops to the real uid/gid ``nobody`` (65534), no
  supplementary groups, ``no_new_privs``, before Python starts.  Every file
  under /etc that is not world-readable (``/etc/shadow*``, ``/etc/gshadow*``,
  ``/etc/ssl/private``…) is masked as well;
* a minimal, explicit environment (``entorno_minimo``): none of the TA's
  variables (tokens, credentials, paths) reaches the kernel;
* a private PID namespace that dies with the kernel (no process survives the
  notebook), a private ``/tmp``;
* resource limits: address space (memory) and file size per process, no core
  dumps; for the kernel's whole process tree a control group (memory and
  number of processes) where the machine allows it, else ``RLIMIT_NPROC``
  (``limites_kernel``).

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
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.notebooknode import from_dict
from nbgrader.preprocessors import Execute
from nbgrader import utils as nbgrader_utils
from traitlets import Bool, DottedObjectName, Integer, Type, Unicode

from . import archivos_alumno, casos, limites_kernel
from .salida_acotada import ClienteAcotado, Presupuesto

PAQUETE = Path(__file__).resolve().parent
# what the student's kernel may import from grader_tests: the engine's kernel side and, by
# convention, ``__init__.py`` and ``casos.py`` of each exercise folder (``casos``); never an
# exercise's reference, properties, known mistakes or battery, nor the quiz answers
MODULOS_PUBLICOS_DEL_MOTOR = ("__init__.py", "cliente.py", "casos.py", "serializacion.py")


def modulos_publicos() -> tuple[str, ...]:
    """The files of ``grader_tests`` the kernel sees, relative to the package (existing files only)."""
    publicos = list(MODULOS_PUBLICOS_DEL_MOTOR)
    if (PAQUETE / "ejercicios" / "__init__.py").is_file():
        publicos.append("ejercicios/__init__.py")
    for funcion in casos.nombres_de_ejercicios():
        for nombre in casos.ARCHIVOS_PUBLICOS_DEL_EJERCICIO:
            if (PAQUETE / "ejercicios" / funcion / nombre).is_file():
                publicos.append(f"ejercicios/{funcion}/{nombre}")
    return tuple(publicos)


MODULOS_PUBLICOS = modulos_publicos()


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


class KernelAislado(AsyncKernelManager):
    """A kernel manager whose kernels run inside bubblewrap (see module doc)."""

    raiz = Unicode("", help="Course root: hidden from the kernel except the submission.").tag(config=True)
    memoria_maxima = Integer(4 * 1024 ** 3, help="Address-space limit of the kernel, bytes.").tag(config=True)
    archivo_maximo = Integer(256 * 1024 ** 2, help="Largest file the kernel may write, bytes.").tag(config=True)
    tmp_maximo = Integer(256 * 1024 ** 2, help="Size of the kernel's private /tmp (RAM), bytes.").tag(config=True)
    exigir = Bool(True, help="Refuse to run without bubblewrap (unless CURSO_SIN_AISLAMIENTO=1).").tag(config=True)
    uid_alumno = Integer(65534, help="uid/gid the kernel runs as when the TA is root (nobody).").tag(config=True)
    procesos_maximos = Integer(
        128, help="Processes and threads of the kernel's whole tree (cgroup pids.max or RLIMIT_NPROC).").tag(config=True)
    memoria_total = Integer(
        4 * 1024 ** 3, help="Memory of the kernel's whole tree, /tmp included, bytes (cgroups only).").tag(config=True)
    usar_cgrupos = Bool(True, help="Use a control group per kernel where the machine allows it.").tag(config=True)
    # its sockets refuse giant messages and queue few (salida_acotada)
    client_class = DottedObjectName("grader_tests.salida_acotada.ClienteAcotado")
    client_factory = Type(ClienteAcotado, klass=ClienteAcotado)

    _carpeta_privada: str | None = None
    _grupo: limites_kernel.GrupoKernel | None = None
    _carpeta_alumno: str | None = None

    @property
    def como_root(self) -> bool:
        """The TA is root: bubblewrap runs privileged and the kernel drops to ``uid_alumno``."""
        return os.geteuid() == 0 and self.uid_alumno != 0

    def entorno_minimo(self) -> dict[str, str]:
        """The kernel's whole environment: explicit, none of the TA's variables."""
        entorno = {
            "PATH": os.pathsep.join([os.path.join(sys.prefix, "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
            "HOME": "/tmp", "MPLCONFIGDIR": "/tmp/matplotlib", "IPYTHONDIR": "/tmp/ipython",
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "CURSO_AISLADO": "1",
            # the kernel imports the public grader_tests modules from where this process
            # imports them (an editable install or, on the hub, PYTHONPATH = the course root);
            # inside the sandbox those folders hold only the public modules
            "PYTHONPATH": os.pathsep.join(sorted({os.path.dirname(p) for p in paquetes_visibles()})),
        }
        # nbgrader tells the hidden tests which step runs them (grader_tests.cliente)
        if os.environ.get("NBGRADER_EXECUTION") in ("autograde", "validate"):
            entorno["NBGRADER_EXECUTION"] = os.environ["NBGRADER_EXECUTION"]
        return entorno

    async def _async_pre_start_kernel(self, **kw):
        # Unix sockets in a private folder instead of TCP ports
        self._carpeta_privada = tempfile.mkdtemp(prefix="curso-kernel-")
        self.transport = "ipc"
        self.connection_file = os.path.join(self._carpeta_privada, "kernel.json")
        self.ip = os.path.join(self._carpeta_privada, "kernel-ipc")
        # a signal sent from outside does not reach the kernel inside bubblewrap's
        # PID namespace: interrupt with a control message, the kernel signals itself
        self.kernel_spec.interrupt_mode = "message"
        return await super()._async_pre_start_kernel(**kw)

    def envolver(self, comando: list[str], cwd: str) -> list[str]:
        """The bubblewrap command line that runs ``comando`` sandboxed in ``cwd``."""
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            if os.environ.get("CURSO_SIN_AISLAMIENTO") == "1" or not self.exigir:
                self.log.warning("Sin bubblewrap: el código de los alumnos se ejecuta SIN aislar.")
                return comando
            raise SinAislamiento(
                "No está bubblewrap (bwrap): el código de los alumnos no se puede aislar. "
                "Instálalo (apt-get install bubblewrap) o, bajo tu responsabilidad, "
                "exporta CURSO_SIN_AISLAMIENTO=1.")
        raiz = os.path.realpath(self.raiz or os.getcwd())
        cwd = os.path.realpath(cwd)
        if self.como_root:
            # set up as root (no path the TA can reach is out of reach for the mounts); the
            # kernel's launcher below keeps only the capabilities to become uid_alumno
            identidad = ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        else:
            identidad = ["--unshare-user", "--uid", "65534", "--gid", "65534"]
        args = [bwrap, *self.sistema_visible(), "--dev", "/dev", "--proc", "/proc",
                # private /tmp and /dev/shm, in RAM: capped so a student cannot fill the TA's memory
                "--perms", "1777", "--size", str(self.tmp_maximo), "--tmpfs", "/tmp",
                "--perms", "1777", "--size", str(self.tmp_maximo), "--tmpfs", "/dev/shm",
                "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", *identidad,
                "--die-with-parent", "--hostname", "aislado"]
        ocultar = carpetas_a_ocultar(raiz)
        for carpeta in ocultar:                               # parents before children
            args += ["--tmpfs", carpeta]
        # Python itself and the venv, read-only (after the hiding: the venv may live in the course)
        for prefijo in sorted({os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix)}):
            if not prefijo.startswith("/usr" + os.sep):
                args += ["--ro-bind", prefijo, prefijo]
        # wherever the kernel imports grader_tests from, it gets the public modules of
        # THIS course (the ones the judge in this process uses), never another copy's
        for paquete in paquetes_visibles():
            for nombre in modulos_publicos():
                args += ["--ro-bind", str(PAQUETE / nombre), os.path.join(paquete, nombre)]
        args += ["--bind", cwd, cwd,
                 "--bind", self._carpeta_privada, self._carpeta_privada,
                 "--clearenv"]
        for nombre, valor in self.entorno_minimo().items():
            args += ["--setenv", nombre, valor]
        if not self.como_root:
            args += ["--chdir", cwd]
        if self.como_root:
            # folders bubblewrap creates on the way to a mount copy the host's mode (/root is
            # 0700): uid_alumno must be able to cross them to reach Python and its own folder
            args += atravesables(args)
        # the empty folders that hide the course are read-only too: nothing the
        # kernel writes outside its own folder and /tmp is kept or seen by anyone
        for carpeta in ocultar:
            args += ["--remount-ro", carpeta]
        args += ["--remount-ro", "/"]          # the sandbox's own root: nothing to write there either
        limites = [f"import resource as r, os, sys",
                   f"r.setrlimit(r.RLIMIT_AS, ({self.memoria_maxima}, {self.memoria_maxima}))",
                   f"r.setrlimit(r.RLIMIT_FSIZE, ({self.archivo_maximo}, {self.archivo_maximo}))",
                   f"r.setrlimit(r.RLIMIT_CORE, (0, 0))"]
        if self._grupo is None:
            # fallback without cgroups: processes of this uid (in the sandbox's user namespace)
            limites.append(f"r.setrlimit(r.RLIMIT_NPROC, ({self.procesos_maximos}, {self.procesos_maximos}))")
        if self.como_root:
            u = int(self.uid_alumno)
            limites += [f"os.setgroups([])", f"os.setgid({u})", f"os.setuid({u})",
                        "import ctypes; ctypes.CDLL(None).prctl(38, 1, 0, 0, 0)",      # PR_SET_NO_NEW_PRIVS
                        f"assert os.getuid() == os.geteuid() == {u} and not os.getgroups()",
                        # bubblewrap, root without capabilities, cannot enter a 0700 folder
                        # of uid_alumno: the kernel enters its own folder once it is that uid
                        f"os.chdir({cwd!r})"]
        limites.append("os.execv(sys.argv[1], sys.argv[1:])")
        envuelto = args + [sys.executable, "-c", "; ".join(limites), *comando]
        if self._grupo is not None:
            # join the kernel's control group before bubblewrap starts: every process inherits it
            unirse = ("import os, sys, json\n"
                      "for f in json.loads(sys.argv[1]):\n"
                      "    open(f, 'w').write(str(os.getpid()))\n"
                      "os.execv(sys.argv[2], sys.argv[2:])")
            envuelto = [sys.executable, "-c", unirse, json.dumps(self._grupo.archivos_procs), *envuelto]
        return envuelto

    @staticmethod
    def sistema_visible() -> list[str]:
        """bwrap arguments exposing only the system the kernel needs, read-only.

        A whitelist, not the whole disk: /usr and /etc (with every file or
        folder that is not world-readable masked: the shadow files, private
        keys…), the merged-/usr symlinks, CPU topology for BLAS.  Other
        folders (/home, /root, /work, /opt, /srv, /var, /mnt…) do not exist for
        the student, so no other clone of the course, gradebook or answer key
        on the machine can be read.  Python and the venv are added by ``envolver``.
        """
        args = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
        for ruta, es_carpeta in privados_de("/etc"):
            args += ["--tmpfs", ruta, "--remount-ro", ruta] if es_carpeta else ["--ro-bind", "/dev/null", ruta]
        for carpeta in ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"):
            if os.path.islink(carpeta):
                args += ["--symlink", os.readlink(carpeta), carpeta]
            elif os.path.isdir(carpeta):
                args += ["--ro-bind", carpeta, carpeta]
        args += ["--ro-bind-try", "/sys/devices/system/cpu", "/sys/devices/system/cpu"]
        return args

    def _preparar(self, cwd: str) -> None:
        """Before a sandboxed process starts: its control group and, as root, the folders it owns."""
        if self.usar_cgrupos and shutil.which("bwrap"):
            self._grupo = limites_kernel.crear_grupo(
                f"curso-kernel-{os.getpid()}-{os.path.basename(self._carpeta_privada or 'x')}",
                self.memoria_total, self.procesos_maximos)
        if self.como_root and shutil.which("bwrap"):
            # the kernel (uid_alumno) writes its own folder and talks through the private one
            u = int(self.uid_alumno)
            self._carpeta_alumno = cwd
            os.chown(cwd, u, u, follow_symlinks=False)
            os.chown(self._carpeta_privada, u, u)
            if self.connection_file and os.path.exists(self.connection_file):
                os.chown(self.connection_file, u, u)

    def _liberar(self) -> None:
        """After it ended: nothing of it left running, its folder back to the TA, no private folder."""
        if self._grupo is not None:
            self._grupo.vaciar()
            self._grupo = None
        if self._carpeta_alumno:
            # what the kernel left is handled next by nbgrader_seguro.SanearTrasElKernel
            archivos_alumno.cambiar_dueño(self._carpeta_alumno, os.getuid(), os.getgid())
            self._carpeta_alumno = None
        if self._carpeta_privada:
            shutil.rmtree(self._carpeta_privada, ignore_errors=True)
            self._carpeta_privada = None

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        cwd = os.path.realpath(kw.get("cwd") or os.getcwd())
        self._preparar(cwd)
        return await super()._async_launch_kernel(self.envolver(list(kernel_cmd), cwd), **kw)

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if not restart:
            self._liberar()

    def ejecutar(self, comando: list[str], cwd: str, timeout: float = 60) -> subprocess.CompletedProcess:
        """Run a plain command in the same sandbox a kernel gets (tests, diagnostics); text output."""
        self._carpeta_privada = tempfile.mkdtemp(prefix="curso-kernel-")
        cwd = os.path.realpath(cwd)
        try:
            self._preparar(cwd)
            return subprocess.run(self.envolver(comando, cwd), cwd=cwd, capture_output=True, text=True,
                                  timeout=timeout, stdin=subprocess.DEVNULL)
        finally:
            self._liberar()


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


class EjecucionAislada(Execute):
    """nbgrader's ``Execute`` with sandboxed kernels and a whole-notebook budget."""

    presupuesto_total = Integer(600, help="Seconds the whole notebook may run.").tag(config=True)
    espera_sonda = Integer(5, help="Seconds a kernel has to answer after a timed-out cell.").tag(config=True)

    def __init__(self, *args, **kwargs):
        kwargs["kernel_manager_class"] = KernelAislado
        super().__init__(*args, **kwargs)

    def preprocess(self, nb, resources, *args, **kwargs):
        self._detenido: str | None = None
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
            cell.outputs.append(_error("DeadKernelError", "el proceso del cuaderno murió en esta celda"))
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
