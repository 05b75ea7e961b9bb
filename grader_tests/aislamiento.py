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
  kernel-safe part of ``grader_tests`` (``cliente``, ``casos``,
  ``serializacion``; never the reference, the known mistakes or the quiz
  answers).  The gradebook, ``source/``, ``release/``, ``submitted/`` and the
  other students' folders do not exist for the student's code;
* no network (private network namespace; the kernel talks to nbgrader over
  Unix sockets, ZeroMQ's ``ipc`` transport, in a private folder);
* an unprivileged uid (``nobody``), a private PID namespace that dies with
  the kernel (no process survives the notebook), a private ``/tmp``;
* resource limits: address space (memory), file size, no core dumps.

Cell time is limited by ``Execute.timeout``; the whole notebook by
``EjecucionAislada.presupuesto_total``.  When the kernel dies (``os._exit``,
memory) or the budget runs out, the remaining cells are left unexecuted, so
their tests have no evidence and score 0 with a reason, never full credit.
"""
from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.notebooknode import from_dict
from nbgrader.preprocessors import Execute
from traitlets import Bool, Integer, Unicode

PAQUETE = Path(__file__).resolve().parent
# what the student's kernel may import from grader_tests
MODULOS_PUBLICOS = ("__init__.py", "cliente.py", "casos.py", "serializacion.py")


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

    _carpeta_privada: str | None = None

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
        args = [bwrap, *self.sistema_visible(), "--dev", "/dev", "--proc", "/proc",
                # private /tmp and /dev/shm, in RAM: capped so a student cannot fill the TA's memory
                "--size", str(self.tmp_maximo), "--tmpfs", "/tmp",
                "--size", str(self.tmp_maximo), "--tmpfs", "/dev/shm",
                "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                "--unshare-user", "--uid", "65534", "--gid", "65534",
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
            for nombre in MODULOS_PUBLICOS:
                args += ["--ro-bind", str(PAQUETE / nombre), os.path.join(paquete, nombre)]
        args += ["--bind", cwd, cwd,
                 "--bind", self._carpeta_privada, self._carpeta_privada,
                 "--setenv", "HOME", "/tmp", "--setenv", "MPLCONFIGDIR", "/tmp/matplotlib",
                 "--setenv", "IPYTHONDIR", "/tmp/ipython", "--setenv", "CURSO_AISLADO", "1",
                 # the parent PID is invisible in the new PID namespace: ipykernel must not poll it
                 "--unsetenv", "JPY_PARENT_PID",
                 "--chdir", cwd]
        # the empty folders that hide the course are read-only too: nothing the
        # kernel writes outside its own folder and /tmp is kept or seen by anyone
        for carpeta in ocultar:
            args += ["--remount-ro", carpeta]
        args += ["--remount-ro", "/"]          # the sandbox's own root: nothing to write there either
        limites = (f"import resource as r, os, sys;"
                   f"r.setrlimit(r.RLIMIT_AS, ({self.memoria_maxima}, {self.memoria_maxima}));"
                   f"r.setrlimit(r.RLIMIT_FSIZE, ({self.archivo_maximo}, {self.archivo_maximo}));"
                   f"r.setrlimit(r.RLIMIT_CORE, (0, 0));"
                   f"os.execv(sys.argv[1], sys.argv[1:])")
        return args + [sys.executable, "-c", limites, *comando]

    @staticmethod
    def sistema_visible() -> list[str]:
        """bwrap arguments exposing only the system the kernel needs, read-only.

        A whitelist, not the whole disk: /usr and /etc (with the shadow files
        masked), the merged-/usr symlinks, CPU topology for BLAS.  Other
        folders (/home, /root, /work, /opt, /srv, /var, /mnt…) do not exist for
        the student, so no other clone of the course, gradebook or answer key
        on the machine can be read.  Python and the venv are added by ``envolver``.
        """
        args = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
                "--ro-bind-try", "/dev/null", "/etc/shadow", "--ro-bind-try", "/dev/null", "/etc/gshadow"]
        for carpeta in ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"):
            if os.path.islink(carpeta):
                args += ["--symlink", os.readlink(carpeta), carpeta]
            elif os.path.isdir(carpeta):
                args += ["--ro-bind", carpeta, carpeta]
        args += ["--ro-bind-try", "/sys/devices/system/cpu", "/sys/devices/system/cpu"]
        return args

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        cwd = kw.get("cwd") or os.getcwd()
        return await super()._async_launch_kernel(self.envolver(list(kernel_cmd), cwd), **kw)

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if not restart and self._carpeta_privada:
            shutil.rmtree(self._carpeta_privada, ignore_errors=True)
            self._carpeta_privada = None


def _error(nombre: str, mensaje: str):
    return from_dict({"output_type": "error", "ename": nombre, "evalue": mensaje,
                      "traceback": [f"{nombre}: {mensaje}"]})


def mensaje_de_tiempo(segundos: int | float | None) -> str:
    """The Spanish reason of a timed-out cell, as the cell, the feedback and the TA table show it."""
    return f"se agotó el tiempo ({segundos:g} s)" if segundos else "se agotó el tiempo"


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
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            cell.outputs.append(_error("DeadKernelError", "el proceso del cuaderno murió en esta celda"))
            self._detenido = "el proceso del cuaderno murió en una celda anterior; esta celda no se ejecutó"
            return cell, resources
        except CellTimeoutError:
            # the interrupt did not bring the kernel back (nbclient gives up waiting for its output)
            cell.outputs.append(from_dict({"output_type": "error", **self._error_de_tiempo()}))
        if any(s.get("ename") == "CellTimeoutError" for s in cell.get("outputs", [])) \
                and not self._responde(index):
            self._detenido = ("el cuaderno no respondió a la interrupción tras agotar el tiempo "
                              "de una celda anterior; esta celda no se ejecutó")
        return cell, resources

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
