"""The sandbox as root and as a non-root TA, from any Python environment (issue 19, point 4).

A non-root TA is what the hub's Formgrader service and a Kubernetes Job
(uid 1000) are: here a throwaway Unix account (``entornos_python``) that owns
a copy of the course.  Its Python is not the course's ``.venv``: it is a venv
outside the course over a conda-like prefix, and the course's ``.venv`` is a
symlink to it (the case that stopped grading for everyone:
``bwrap: execvp …/.venv/bin/python``).

Checks without nbgrader, as root and as the account:

* nothing of the TA's reaches the sandbox: the probe of ``hostiles/c26_entorno``
  reads every ``/proc/<pid>/`` file of every process of the sandbox
  (bubblewrap's PID 1 included), every inherited descriptor and every file it
  can reach, looking for the TA's variables (a hub token, a secret) and a
  private key next to the course;
* bombs (4 GiB on its folder and /tmp, a million files, memory spread over
  children, memfd and System V memory, new user namespaces) stop at their
  limits, the TA's folder unchanged;
* the sandbox starts from each Python environment.

And the account grades a small hostile batch with
``scripts/calificacion/grade.py``: every case scores what it must, with its Spanish
reason in the table, nothing of the TA's in any output, and the TA's own
process stays small while a submission fills its folder.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import hostiles
from hostiles import c26_entorno
from entornos_python import (UsuarioDeUsarYTirar, carpeta_compartida, entorno_de, prefijo_como_conda,
                             venv_sobre)
from curso_temporal import copiar_curso, ejecutar as ejecutar_como_root

SIN_BWRAP = shutil.which("bwrap") is None
# an account, a conda-like copy of Python and a venv over it: minutes, so the whole module is slow
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(SIN_BWRAP, reason="sin bubblewrap (apt-get install bubblewrap)")]

COMO_ROOT = os.geteuid() == 0
SECRETO = c26_entorno.SECRETO                          # the TA's variable the probe looks for
TOKEN_HUB = "secreto-del-profesorado-token-del-hub"
CLAVE_TA = "-----BEGIN PRIVATE KEY----- clave del profesorado\n"


class _UsuarioActual:
    """Not root: the tests' own account is already the unprivileged TA."""
    nombre = "actual"

    def dar(self, ruta: Path) -> None:
        pass

    def orden(self, *args: str) -> list[str]:
        return list(args)

    def borrar(self) -> None:
        pass


@pytest.fixture(scope="module")
def entornos():
    """A conda-like prefix, a venv over it (outside any course), a course owned by the account."""
    base = carpeta_compartida("caja-sin-root-")
    usuario = UsuarioDeUsarYTirar() if COMO_ROOT else _UsuarioActual()
    try:
        conda = prefijo_como_conda(base / "miniconda3" / "envs" / "curso")
        venv = venv_sobre(conda, base / "venv-fuera")
        curso = copiar_curso(base / "curso")
        os.symlink(venv, curso / ".venv")            # the course's .venv is a link to a venv elsewhere
        privado = base / "ta_privado" / "clave_privada"
        privado.parent.mkdir()
        privado.write_text(CLAVE_TA)
        privado.chmod(0o600)
        usuario.dar(curso)
        usuario.dar(privado.parent)
        yield {"base": base, "conda": conda, "venv": venv, "curso": curso, "usuario": usuario}
    finally:
        usuario.borrar()
        shutil.rmtree(base, ignore_errors=True)


def _en_la_caja(entornos, python: Path, codigo: str, *, como_root: bool, timeout: float = 180,
                **ajustes) -> dict:
    """Run ``codigo`` in the course's sandbox, started by ``python`` as root or as the account.

    Returns ``{"codigo", "salida", "errores", "motivo", "llavero", "carpeta"}``: the sandboxed
    process's exit code (None when it ran out of ``timeout``) and output, ``motivo_de_muerte()``,
    the TA's session keyring afterwards (``[[description, contents]]``) and the submission folder used.
    """
    curso, usuario = entornos["curso"], entornos["usuario"]
    import secrets
    carpeta = curso / "autograded" / f"alumno-{secrets.token_hex(3)}" / "t"
    carpeta.mkdir(parents=True)
    (carpeta / "dato.txt").write_text("dato del alumno\n")
    usuario.dar(curso / "autograded")
    lanzar = (f"import json, struct, subprocess, sys; sys.path.insert(0, {str(curso)!r})\n"
              f"{LLAVE_EN_EL_LLAVERO}\n{LLAVERO_DEL_TA}\n"
              "from grader_tests.caja.aislamiento import KernelAislado\n"
              f"caja = KernelAislado(raiz={str(curso)!r}, **{ajustes!r})\n"
              "try:\n"
              f"    r = caja.ejecutar([sys.executable, '-c', {codigo!r}], {str(carpeta)!r}, timeout={timeout})\n"
              "except subprocess.TimeoutExpired as e:\n"
              "    r = subprocess.CompletedProcess(e.cmd, None, '', '')\n"
              "print(json.dumps({'codigo': r.returncode, 'salida': r.stdout, 'errores': r.stderr,"
              " 'motivo': caja.motivo_de_muerte(), 'llavero': _llavero_del_ta()}))\n")
    entorno = entorno_de(python.parent, CURSO_SECRETO_TA=SECRETO, JUPYTERHUB_API_TOKEN=TOKEN_HUB,
                         JUPYTERHUB_API_URL="http://127.0.0.1:8081/hub/api")
    orden = [str(python), "-c", lanzar]
    if not como_root:
        orden = usuario.orden(*orden)
    proceso = subprocess.run(orden, cwd=curso, env=entorno, capture_output=True, text=True, timeout=timeout + 60)
    assert proceso.returncode == 0, proceso.stderr[-3000:]
    resultado = json.loads(proceso.stdout.strip().splitlines()[-1])
    resultado["carpeta"] = carpeta
    return resultado


# the TA's session keyring (where Kerberos tickets live on a university machine) holds a key
# (a session keyring of its own, as a login gives; the key's id is checked: the test cannot pass by
# failing to plant it)
LLAVE_EN_EL_LLAVERO = (
    "import ctypes, platform\n"
    "_n = {'x86_64': (248, 250), 'aarch64': (217, 219)}.get(platform.machine())\n"
    "_libc = ctypes.CDLL(None, use_errno=True)\n"
    "_llave = _n and (_libc.syscall(_n[1], 1, None),\n"
    "                 _libc.syscall(_n[0], b'user', b'kerberos', "
    f"{(SECRETO + '-llavero').encode()!r}, {len(SECRETO) + 8}, -3))[1]\n"
    "assert not _n or _llave > 0, ('add_key', ctypes.get_errno())")
# what the TA's session keyring holds afterwards: [(description, contents)]
LLAVERO_DEL_TA = r'''
def _llavero_del_ta():
    if not _n:
        return []
    _buf = ctypes.create_string_buffer(4096)
    _k = _libc.syscall(_n[1], 11, -3, _buf, 4096)
    _llaves = []
    for _id in struct.unpack(f"{max(_k, 0) // 4}i", _buf.raw[:max(_k, 0)]):
        _d, _v = ctypes.create_string_buffer(512), ctypes.create_string_buffer(512)
        _libc.syscall(_n[1], 6, _id, _d, 512)
        _m = _libc.syscall(_n[1], 11, _id, _v, 512)
        _llaves.append([_d.value.decode(errors="replace"), _v.raw[:max(_m, 0)].decode(errors="replace")])
    return _llaves
'''
LEER_LLAVEROS = r'''
import ctypes, platform, struct
_keyctl = {"x86_64": 250, "aarch64": 219}.get(platform.machine())
_libc = ctypes.CDLL(None, use_errno=True)
for _llavero in (-3, -4, -5):                  # session, user, user-session keyrings
    _buf = ctypes.create_string_buffer(4096)
    _n = _libc.syscall(_keyctl, 11, _llavero, _buf, 4096) if _keyctl else -1
    print("LLAVERO", _llavero, _n, ctypes.get_errno())
    for _id in struct.unpack(f"{max(_n, 0) // 4}i", _buf.raw[:max(_n, 0)]):
        _m = _libc.syscall(_keyctl, 11, _id, _buf, 4096)
        if _m > 0 and b"secreto-del-" + b"profesorado" in _buf.raw[:_m]:
            print("LECTURA_OK llavero", _id)
'''

IDENTIDADES = [pytest.param(True, id="root", marks=pytest.mark.skipif(not COMO_ROOT, reason="hace falta ser root")),
               pytest.param(False, id="sin-root")]


@pytest.mark.parametrize("como_root", IDENTIDADES)
def test_nada_del_ta_se_lee_en_la_caja(entornos, como_root):
    """The probe of c26 finds neither the TA's variables nor its private key anywhere in the sandbox."""
    python = entornos["curso"] / ".venv" / "bin" / "python"
    r = _en_la_caja(entornos, python, c26_entorno.SONDEAR + LEER_LLAVEROS, como_root=como_root)
    salida = r["salida"]
    assert r["codigo"] == 0, r["errores"][-2000:]
    for marca in hostiles.MARCAS_PROHIBIDAS:
        assert marca not in salida, [l for l in salida.splitlines() if marca in l]
    assert SECRETO not in salida + r["errores"] and TOKEN_HUB not in salida + r["errores"]
    # the probe really looked: its own /proc, descriptors, many files; PID 1 (the launcher,
    # non-dumpable) is unreadable in both modes, although as the account it has the kernel's uid
    assert int(re.search(r"ARCHIVOS_LEIDOS (\d+)", salida)[1]) > 50
    leidos = set(re.findall(r"^ENTORNO_LEIDO (\d+)$", salida, re.M))
    assert leidos and "1" not in leidos, salida[-2000:]
    # every descriptor of every process is the sandbox's own: pipes, sockets, /dev/null…
    for pid, fd, destino in re.findall(r"^DESCRIPTOR (\d+) (\d+) (.*)$", salida, re.M):
        assert not destino.startswith("/") or destino.startswith(("/dev/", "/proc/", "/tmp/", "/run/curso/")) \
            or destino.startswith(str(r["carpeta"])), (pid, fd, destino)
    # PID 1's environment holds the sandbox's own variables, nothing of the TA's
    uid = int(re.search(r"^uid (\d+)", salida, re.M)[1])
    assert uid != 0 and (uid == 65534) == como_root
    # the kernel keyrings: not reachable at all (and the TA's session keyring was left behind)
    assert re.findall(r"^LLAVERO -3 (-?\d+) (\d+)$", salida, re.M) == [("-1", "38")], salida[-1500:]


BOMBAS = r'''
import ctypes, os, subprocess, sys, time
def intento(nombre, f):
    try:
        print(nombre, f())
    except OSError as e:
        print(nombre, "ERRNO", e.errno)
def llenar(ruta):
    n = 0
    with open(ruta, "wb") as f:
        for _ in range(4096):
            f.write(b"x" * 2 ** 20)
            n += 1
    return n
def inodos():
    n = 0
    try:
        for i in range(1_000_000):
            open(f"/tmp/f{i}", "w").close()
            n += 1
    finally:
        print("INODOS", n)
libc = ctypes.CDLL(None, use_errno=True)
def llamada(f, *a):
    return f(*a), ctypes.get_errno()
intento("CARPETA", lambda: llenar("grande.bin"))
intento("TMP", lambda: llenar("/tmp/grande.bin"))
os.remove("/tmp/grande.bin")
intento("ARCHIVOS", inodos)
print("MEMFD", llamada(libc.memfd_create, b"x", 0))
print("SHM", llamada(libc.shmget, 0, 2 ** 30, 0o1000 | 0o600))
print("USERNS", llamada(libc.unshare, 0x10000000))
print("UNSHARE", subprocess.run(["unshare", "-Ur", "true"], capture_output=True).returncode)
codigo = "import time; b = bytearray(300 * 1024 ** 2); time.sleep(4)"
hijos = [subprocess.Popen([sys.executable, "-c", codigo]) for _ in range(6)]
print("HIJOS", [h.wait() for h in hijos])
print("VIVO")
'''


def test_las_bombas_se_quedan_en_sus_limites_sin_root(entornos):
    """Disk, files, memory outside any process, new namespaces and memory over several processes.

    As root the same bombs are in the hostile batch (tests/test_seguridad.py: c27, c34).
    """
    python = entornos["curso"] / ".venv" / "bin" / "python"
    r = _en_la_caja(entornos, python, BOMBAS, como_root=False, memoria_total=1024 ** 3, archivos_maximos=2000)
    salida = r["salida"]
    assert r["codigo"] == 0 and "VIVO" in salida, salida + r["errores"][-2000:]
    assert re.search(r"^CARPETA ERRNO 28$", salida, re.M)                      # ENOSPC at 128 MiB
    assert re.search(r"^TMP ERRNO (27|28)$", salida, re.M)                     # 256 MiB: file size or space
    assert int(re.search(r"^INODOS (\d+)$", salida, re.M)[1]) < 2000
    assert "MEMFD (-1, 38)" in salida and "SHM (-1, 38)" in salida             # ENOSYS
    assert "USERNS (-1, 1)" in salida and "UNSHARE 0" not in salida            # EPERM
    estados = json.loads(re.search(r"^HIJOS (.*)$", salida, re.M)[1])
    assert -9 in estados, estados                   # 6 x 300 MiB > 1 GiB: the largest ones killed
    assert r["motivo"] and "memoria" in r["motivo"]
    # nothing of it reached the TA's folder
    assert sorted(p.name for p in r["carpeta"].iterdir()) == ["dato.txt"]


# ------------------------------------------------- the sandbox's PID 1 (second attack on the sandbox)
#
# bubblewrap's own PID 1 once ran with the TA's uid, no seccomp, the TA's limits and keyring: the
# student's code (same uid without root) ptraced it and ran system calls there.  Each case below
# does what the attacker did, through ``Inyector`` (x86_64), and also by every direct route; the
# test checks the effect from outside.  A regression would really perform the attack (bounded:
# a few hundred MiB, a few hundred short-lived processes).

X86_64 = __import__("platform").machine() == "x86_64"
solo_x86_64 = pytest.mark.skipif(not X86_64, reason="el inyector de las pruebas es de x86_64")

INYECTOR = r"""
import ctypes, errno, os, struct
_libc = ctypes.CDLL(None, use_errno=True)
_libc.ptrace.restype = ctypes.c_long
_libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
_libc.syscall.restype = ctypes.c_long
_REGISTROS = ("r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi orig_rax rip cs eflags rsp ss "
              "fs_base gs_base ds es fs gs").split()
class Regs(ctypes.Structure):
    _fields_ = [(n, ctypes.c_ulonglong) for n in _REGISTROS]
def pt(peticion, pid, dir=0, dato=0):
    r = _libc.ptrace(peticion, pid, ctypes.c_void_p(dir), ctypes.c_void_p(dato))
    if r == -1 and ctypes.get_errno():
        raise OSError(ctypes.get_errno(), f"ptrace {peticion}")
    return r
class Inyector:
    # system calls run inside process ``pid``: attach, find its ``syscall`` instruction, single-step
    def __init__(self, pid):
        self.pid = pid
        pt(16, pid)                                       # PTRACE_ATTACH
        os.waitpid(pid, 0x40000000)
        self.guardados = Regs()
        pt(12, pid, 0, ctypes.addressof(self.guardados))  # PTRACE_GETREGS
        self.insn = self.guardados.rip - 2
        self.mem = os.open(f"/proc/{pid}/mem", os.O_RDWR)
        self.pagina = self.llamar(9, 0, 1 << 20, 3, 0x22, -1, 0)   # mmap 1 MiB there
    def llamar(self, nr, *args):
        r = Regs.from_buffer_copy(self.guardados)
        r.rax, r.orig_rax, r.rip = nr, 2 ** 64 - 1, self.insn
        for nombre, valor in zip(("rdi", "rsi", "rdx", "r10", "r8", "r9"), args):
            setattr(r, nombre, valor % 2 ** 64)
        pt(13, self.pid, 0, ctypes.addressof(r)); pt(9, self.pid); os.waitpid(self.pid, 0x40000000)
        pt(12, self.pid, 0, ctypes.addressof(r))
        return ctypes.c_longlong(r.rax).value
    def poner(self, desplazamiento, datos):
        os.pwrite(self.mem, datos, self.pagina + desplazamiento)
        return self.pagina + desplazamiento
    def leer(self, direccion, n):
        return os.pread(self.mem, n, direccion)
    def ejecutar(self, programa, limpiar_pdeathsig=False):
        # execve(/usr/bin/python3 -c programa) inside the process: it becomes the student's
        if limpiar_pdeathsig:
            print("pdeathsig", self.llamar(157, 1, 0))
        ruta = self.poner(0, b"/usr/bin/python3\0")
        a = [self.poner(32, b"python3\0"), self.poner(48, b"-c\0"), self.poner(64, programa + b"\0")]
        argv = self.poner(1 << 19, b"".join(x.to_bytes(8, "little") for x in a) + bytes(8))
        r = Regs.from_buffer_copy(self.guardados)
        r.rax, r.orig_rax, r.rip, r.rdi, r.rsi, r.rdx = 59, 2 ** 64 - 1, self.insn, ruta, argv, 0
        pt(13, self.pid, 0, ctypes.addressof(r)); pt(9, self.pid); os.waitpid(self.pid, 0x40000000)
        pt(17, self.pid)                                  # PTRACE_DETACH
    def soltar(self):
        pt(13, self.pid, 0, ctypes.addressof(self.guardados)); pt(17, self.pid)
def entrar(pid=1):
    # every way into another process of the sandbox; any success is a forbidden one
    try:
        print("TRAMPA_OK /proc/%d/mem" % pid, os.close(os.open(f"/proc/{pid}/mem", os.O_RDWR)))
    except OSError as e:
        print("NEGADO mem", e.errno)
    for nombre, llamada in (("pidfd_open", lambda: _libc.syscall(434, pid, 0)),
                            ("process_vm_readv", lambda: _libc.syscall(310, pid, 0, 0, 0, 0, 0)),
                            ("kcmp", lambda: _libc.syscall(312, os.getpid(), pid, 0, 0, 0)),
                            ("pidfd_getfd", lambda: _libc.syscall(438, 0, 0, 0))):
        r = llamada()
        print("NEGADO" if r < 0 and ctypes.get_errno() in (1, 13, 38) else "TRAMPA_OK", nombre, r, ctypes.get_errno())
    try:
        i = Inyector(pid)
    except OSError as e:
        print("NEGADO ptrace", e.errno)
        return None
    print("TRAMPA_OK ptrace del proceso", pid)
    return i
"""


def _ataque(entornos, codigo: str, **ajustes) -> dict:
    """Run ``INYECTOR + codigo`` in the sandbox started by the account (not root); no forbidden mark."""
    r = _en_la_caja(entornos, entornos["curso"] / ".venv" / "bin" / "python", INYECTOR + codigo,
                    como_root=False, **ajustes)
    salida = r["salida"]
    for marca in hostiles.MARCAS_PROHIBIDAS:
        assert marca not in salida, [l for l in salida.splitlines() if marca in l]
    # every route into PID 1 was tried and refused
    for ruta in ("mem", "pidfd_open", "process_vm_readv", "kcmp", "pidfd_getfd", "ptrace"):
        assert re.search(rf"^NEGADO {ruta}\b", salida, re.M), (ruta, salida[-2000:], r["errores"][-2000:])
    return r


@solo_x86_64
def test_pid1_el_alumno_no_lee_el_llavero_del_ta(entornos):
    """Attack 1 (a03): read the TA's session keyring through PID 1 (a Kerberos ticket into the feedback)."""
    r = _ataque(entornos, r"""
i = entrar(1)
if i is not None:
    buf = i.pagina + 0x1000
    n = i.llamar(250, 11, -3, buf, 4096)                 # KEYCTL_READ of PID 1's session keyring
    for llave in struct.unpack(f"{max(n, 0) // 4}i", i.leer(buf, max(n, 0))):
        m = i.llamar(250, 11, llave, buf, 4096)
        print("LLAVE", llave, i.leer(buf, max(m, 0)))
    i.soltar()
print("LLAVERO_PROPIO", _libc.syscall(250, 11, -3, 0, 0), ctypes.get_errno())
""")
    assert SECRETO not in r["salida"] + r["errores"]
    assert "LLAVERO_PROPIO -1 38" in r["salida"]                  # keyctl: ENOSYS in the kernel
    # the key was there to be stolen (the test would see a leak)
    assert [SECRETO + "-llavero"] == [v for d, v in r["llavero"] if d.endswith(";kerberos")], r["llavero"]


@solo_x86_64
def test_pid1_el_alumno_no_cambia_el_llavero_del_ta(entornos):
    """Attack 2 (c20): overwrite the TA's key and plant a new one in its session keyring, through PID 1."""
    r = _ataque(entornos, r"""
i = entrar(1)
if i is not None:
    buf = i.pagina + 0x1000
    n = i.llamar(250, 11, -3, buf, 4096)
    for llave in struct.unpack(f"{max(n, 0) // 4}i", i.leer(buf, max(n, 0))):
        print("update", i.llamar(250, 2, llave, i.poner(0x3000, b"ALTERADO_POR_ALUMNO"), 19))
    print("add_key", i.llamar(248, i.poner(0x4000, b"user\0"), i.poner(0x4100, b"plantada_por_alumno\0"),
                              i.poner(0x4200, b"X"), 1, -3))
    i.soltar()
""")
    assert r["llavero"] == [[r["llavero"][0][0], SECRETO + "-llavero"]], r["llavero"]
    assert r["llavero"][0][0].endswith(";kerberos")


@solo_x86_64
def test_las_colas_de_netlink_sin_root_terminan_la_caja(entornos):
    """A fresh attacker's graded cell queued 4.4 GiB of netlink error ACKs, memory no limit counts. As an
    unprivileged TA too, the sandbox's own network namespace is watched and the sandbox ends past 64 MiB."""
    from test_archivos_alumno import _COLAS_NETLINK
    python = entornos["curso"] / ".venv" / "bin" / "python"
    r = _en_la_caja(entornos, python, _COLAS_NETLINK, como_root=False, timeout=60)
    assert "SIGUE" not in r["salida"], r["salida"] + r["errores"][-2000:]
    assert (r["motivo"] or "").startswith("llenó colas de netlink del sistema ("), r


def test_pid1_el_alumno_no_guarda_memoria_fuera_de_la_vigilancia(entornos):
    """Attack 3 (c04): memfds made in PID 1, taken with pidfd_getfd and filled: memory no process maps.

    300 MiB against a tree limit of 256 MiB: a regression would hold them unseen by the watchdog.
    """
    r = _ataque(entornos, r"""
i = entrar(1)
fds = []
if i is not None:
    nombre = i.poner(0, b"x\0")
    pidfd = _libc.syscall(434, 1, 0)
    for _ in range(3):
        fd = i.llamar(319, nombre, 0)                    # memfd_create in PID 1
        fds.append(_libc.syscall(438, pidfd, fd, 0))
        i.llamar(3, fd)
    i.soltar()
print("MEMFD_PROPIO", _libc.memfd_create(b"x", 0), ctypes.get_errno())
for fd in fds:
    if fd >= 0:
        os.posix_fallocate(fd, 0, 100 << 20)
        print("TRAMPA_OK memfd de 100 MiB fuera de la vigilancia", fd)
""", memoria_total=256 * 1024 ** 2)
    assert "MEMFD_PROPIO -1 38" in r["salida"]


@solo_x86_64
def test_pid1_el_alumno_no_monta_un_tmpfs_sin_tope(entornos):
    """Attack 4 (c06): PID 1 made to unshare a user and mount namespace and mount a tmpfs of any size."""
    r = _ataque(entornos, r"""
i = entrar(1)
if i is not None:
    print("unshare", i.llamar(272, 0x10000000 | 0x20000))
    for archivo, linea in (("setgroups", "deny"), ("uid_map", f"{os.getuid()} {os.getuid()} 1"),
                           ("gid_map", f"{os.getgid()} {os.getgid()} 1")):
        try:
            open(f"/proc/1/{archivo}", "w").write(linea)
        except OSError as e:
            print(archivo, e.errno)
    a = [i.poner(k * 64, t) for k, t in enumerate((b"none\0", b"/tmp\0", b"tmpfs\0", b"size=0,nr_inodes=0\0"))]
    print("mount", i.llamar(165, a[0], a[1], a[2], 0, a[3]))
    i.soltar()
print("USERNS_PROPIO", _libc.unshare(0x10000000), ctypes.get_errno())
try:
    with open("/proc/1/root/tmp/gordo", "wb") as f:
        for _ in range(300):
            f.write(b"x" * (1 << 20))
    print("TRAMPA_OK 300 MiB en el /tmp de PID 1")
except OSError as e:
    print("NEGADO /proc/1/root", e.errno)
escritos = 0
try:
    with open("/tmp/gordo", "wb") as f:
        for _ in range(300):
            f.write(b"x" * (1 << 20))
            escritos += 1
except OSError as e:
    print("TMP_LLENO", e.errno)
print("MIB_EN_TMP", escritos)
""")
    salida = r["salida"]
    assert "USERNS_PROPIO -1 1" in salida and re.search(r"^NEGADO /proc/1/root 13$", salida, re.M), salida[-2000:]
    assert int(re.search(r"^MIB_EN_TMP (\d+)$", salida, re.M)[1]) <= 256         # /tmp keeps its cap


@solo_x86_64
def test_pid1_tiene_los_limites_de_la_caja_y_el_alumno_no_pasa_de_ellos(entornos):
    """Attack 5 (c14): PID 1 (the TA's limits) made to exec a program that forks 200 processes (limit 64)."""
    r = _ataque(entornos, r"""
import time
PROGRAMA = b"import os, time\nfor _ in range(200):\n    os.fork() or (time.sleep(8), os._exit(0))\n"
i = entrar(1)
if i is not None:
    i.ejecutar(PROGRAMA)
    time.sleep(3)
hijos = 0
try:
    for _ in range(200):
        if os.fork() == 0:
            time.sleep(8)
            os._exit(0)
        hijos += 1
except OSError as e:
    print("FORK_NEGADO", e.errno)
print("PROCESOS_EN_LA_CAJA", len([p for p in os.listdir("/proc") if p.isdigit()]), "HIJOS", hijos)
print("ESTADO_PID1", [l.split()[1] for l in open("/proc/1/status") if l.startswith(("NoNewPrivs", "Seccomp:"))])
for l in open("/proc/1/limits"):
    if l.startswith(("Max processes", "Max address space")):
        print("LIMITE_PID1", l.strip())
""", procesos_maximos=64, usar_cgrupos=False)
    salida = r["salida"]
    assert int(re.search(r"^PROCESOS_EN_LA_CAJA (\d+)", salida, re.M)[1]) <= 64, salida[-2000:]
    assert "FORK_NEGADO 11" in salida
    # PID 1 carries the sandbox's limits, no_new_privs and the seccomp filter
    limites = dict(re.findall(r"^LIMITE_PID1 Max (processes|address space) +(\d+ +\d+)", salida, re.M))
    assert {k: v.split() for k, v in limites.items()} == {"processes": ["64", "64"],
                                                          "address space": [str(4 * 1024 ** 3)] * 2}, salida
    assert "ESTADO_PID1 ['1', '2']" in salida


MARCA_PERSISTENTE = "proceso-persistente-del-alumno"


def _estado(pid: int) -> str:
    """``/proc/<pid>/status``'s Name and State lines (why a process is still there)."""
    try:
        lineas = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return "terminado"
    return " ".join(l for l in lineas if l.startswith(("Name:", "State:")))


def _vivos(marca: str) -> list[int]:
    vivos = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and marca.encode() in (proc / "cmdline").read_bytes():
                vivos.append(int(proc.name))
        except OSError:
            pass
    return vivos


@solo_x86_64
def test_pid1_nada_del_alumno_sobrevive_a_la_caja(entornos):
    """Attack 6 (c07): PID 1 made to clear its parent-death signal and exec a program of the student's,
    plus a daemonised grandchild (setsid, double fork): nothing of it is alive once the sandbox ended,
    also when the student's process outlives its time and the sandbox is killed from outside."""
    r = _ataque(entornos, rf"""
import sys, time
PROGRAMA = b"import time\nwhile True:\n    time.sleep(1)\n# {MARCA_PERSISTENTE}"
i = entrar(1)
if i is not None:
    i.ejecutar(PROGRAMA, limpiar_pdeathsig=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)", "{MARCA_PERSISTENTE}"])
    os._exit(0)
time.sleep(2)
print("NIETO_EN_MARCHA", len([p for p in os.listdir("/proc") if p.isdigit()]))
""")
    assert "NIETO_EN_MARCHA" in r["salida"]
    assert _vivos(MARCA_PERSISTENTE) == []
    # the student's own process ignores SIGTERM and never ends: killed from outside with its tree
    r = _en_la_caja(entornos, entornos["curso"] / ".venv" / "bin" / "python", rf"""
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
subprocess_hijo = os.fork()
if subprocess_hijo == 0:
    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)", "{MARCA_PERSISTENTE}"])
print("DORMIDO", flush=True)
time.sleep(120)
""", como_root=False, timeout=10)
    assert r["codigo"] is None                     # it ran out of time
    assert _vivos(MARCA_PERSISTENTE) == []
    if COMO_ROOT:
        # nothing of the account left, not even a zombie (PID 1 killed first, reaped by bubblewrap)
        restos = {pid: _estado(pid) for pid in entornos["usuario"].procesos()}
        assert restos == {}


@pytest.mark.skipif(not COMO_ROOT, reason="hace falta ser root para escribir en /etc")
def test_un_archivo_que_aparece_o_desaparece_en_etc_no_para_la_caja(tmp_path):
    """A ``useradd`` lock (``/etc/gshadow.lock``, 0600) there when grading starts and gone later, and
    another one that appears later: every sandbox starts, none of them is visible inside.

    (Masking a list of /etc's private files built at start-up made bwrap fail for the whole class:
    «Can't create file at /etc/gshadow.lock: Read-only file system».)
    """
    import secrets
    from grader_tests.caja.aislamiento import KernelAislado
    caja = KernelAislado(raiz=str(tmp_path))
    alumno = tmp_path / "autograded" / "a" / "t"
    alumno.mkdir(parents=True)
    antes, despues = (Path(f"/etc/curso-prueba-{secrets.token_hex(4)}.lock") for _ in range(2))
    mirar = (f"import os; print('VISTOS', os.path.exists({str(antes)!r}), os.path.exists({str(despues)!r}), "
             "os.path.exists('/etc/passwd'), os.path.exists('/etc/shadow'))")
    try:
        antes.write_text("bloqueo de useradd\n")
        antes.chmod(0o600)
        r = caja.ejecutar([sys.executable, "-c", mirar], str(alumno))
        assert r.returncode == 0 and "VISTOS False False True False" in r.stdout, r.stderr[-2000:]
        antes.unlink()
        despues.write_text("otro bloqueo\n")
        despues.chmod(0o600)
        for _ in range(2):
            r = caja.ejecutar([sys.executable, "-c", mirar], str(alumno))
            assert r.returncode == 0 and "VISTOS False False True False" in r.stdout, r.stderr[-2000:]
            despues.unlink(missing_ok=True)
    finally:
        antes.unlink(missing_ok=True)
        despues.unlink(missing_ok=True)


@pytest.mark.parametrize("como_root, python", [
    pytest.param(True, "curso/.venv", id="root-curso/.venv",
                 marks=pytest.mark.skipif(not COMO_ROOT, reason="hace falta ser root")),
    pytest.param(True, "conda", id="root-conda", marks=pytest.mark.skipif(not COMO_ROOT, reason="hace falta ser root")),
    pytest.param(False, "conda", id="sin-root-conda")])
def test_la_caja_arranca_desde_cualquier_entorno_de_python(entornos, python, como_root):
    """A symlinked .venv, a conda-like prefix: the sandbox starts and imports the kernel's packages.

    The venv outside the course is the target of the symlinked .venv (and grades the batch below).
    """
    rutas = {"curso/.venv": entornos["curso"] / ".venv", "venv-fuera": entornos["venv"],
             "conda": entornos["conda"]}
    interprete = rutas[python] / "bin" / "python"
    codigo = ("import sys, numpy, ipykernel, grader_tests.en_el_kernel.cliente\n"
              "print('PREFIJO', sys.prefix)\n")
    r = _en_la_caja(entornos, interprete, codigo, como_root=como_root)
    assert r["codigo"] == 0, r["errores"][-2000:]
    assert f"PREFIJO {os.path.realpath(rutas[python])}" in r["salida"]


def test_un_kernel_de_verdad_desde_un_venv_enlazado_sin_root(entornos):
    """nbclient with the sandbox's kernel manager, started through the course's symlinked .venv, by a TA
    whose stdout, stderr and another open descriptor are the hub's log (the formgrader service on the hub:
    JupyterHub starts it with its own output, which holds every student's inbound entry name).

    The kernel runs c26's probe (every /proc file and descriptor of the sandbox, reopened) and the
    attack of issue 19's second round: reopen every inherited descriptor for reading and look for the
    log's lines and the service's token in PID 1's environment.  Nothing of it may be found.
    """
    curso = entornos["curso"]
    carpeta = curso / "autograded" / "kernel" / "t"
    carpeta.mkdir(parents=True)
    registro = entornos["base"] / "registro-del-hub.log"
    registro.write_text(f"[I submit] Destination: /srv/nbgrader/exchange/c/inbound/ana+t+2026+{REGISTRO_DEL_HUB}\n")
    entornos["usuario"].dar(curso / "autograded")
    entornos["usuario"].dar(registro)
    sonda = c26_entorno.SONDEAR + REABRIR_DESCRIPTORES
    codigo = (f"import os, sys; sys.path.insert(0, {str(curso)!r})\n"
              # the hub's log as this process's stdout and stderr and as a descriptor left open (fd 41)
              f"fd = os.open({str(registro)!r}, os.O_WRONLY | os.O_APPEND)\n"
              "resultado = os.dup(1)\n"
              "os.dup2(fd, 1); os.dup2(fd, 2); os.dup2(fd, 41); os.set_inheritable(41, True)\n"
              "from nbformat.v4 import new_notebook, new_code_cell\n"
              "from nbclient import NotebookClient\n"
              "from grader_tests.caja.aislamiento import KernelAislado\n"
              "nb = new_notebook(cells=[new_code_cell('import os, sys; open(\"nuevo.txt\", \"w\").write(\"x\"); "
              "print(\"KERNEL\", os.getuid(), sys.prefix, sorted(os.listdir(\".\")))'), "
              f"new_code_cell({sonda!r})])\n"
              f"NotebookClient(nb, kernel_manager_class=KernelAislado, timeout=120, "
              f"resources={{'metadata': {{'path': {str(carpeta)!r}}}}}).execute()\n"
              "texto = '\\n'.join(''.join(s.get('text', '')) for c in nb.cells for s in c.outputs)\n"
              "os.write(resultado, texto.encode())\n")
    python = curso / ".venv" / "bin" / "python"
    proceso = subprocess.run(entornos["usuario"].orden(str(python), "-c", codigo), cwd=curso,
                             env=entorno_de(python.parent, CURSO_SECRETO_TA=SECRETO, JUPYTERHUB_API_TOKEN=TOKEN_HUB),
                             capture_output=True, text=True, timeout=300)
    assert proceso.returncode == 0, proceso.stderr[-3000:] + registro.read_text()[-3000:]
    salida = proceso.stdout
    assert f"{os.path.realpath(entornos['venv'])} ['nuevo.txt']" in salida, salida[-3000:]
    assert list(carpeta.iterdir()) == []            # what the kernel wrote stayed in its copy
    # the probe looked (PID 1's environment, descriptors reopened) and found nothing of the TA's
    assert re.search(r"^ENTORNO_LEIDO \d+$", salida, re.M) and "REABIERTOS" in salida, salida[-3000:]
    assert "ENTORNO_LEIDO 1\n" not in salida                  # PID 1: the launcher, non-dumpable
    for marca in (*hostiles.MARCAS_PROHIBIDAS, SECRETO, TOKEN_HUB, REGISTRO_DEL_HUB):
        assert marca not in salida, [l for l in salida.splitlines() if marca in l][:5]
    for pid, fd, destino in re.findall(r"^DESCRIPTOR (\d+) (\d+) (.*)$", salida, re.M):
        assert str(registro) not in destino, (pid, fd, destino)


# what the hub's log holds (a student's secret entry name) and the probe that looks for it from inside
REGISTRO_DEL_HUB = "codigo-secreto-de-la-entrada"
REABRIR_DESCRIPTORES = r'''
_n = 0
for _pid in [p for p in os.listdir("/proc") if p.isdigit()] + ["self"]:
    try:
        _fds = os.listdir(f"/proc/{_pid}/fd")
    except OSError:
        continue
    for _fd in _fds:
        try:
            # never blocks on a pipe or a socket (reopened, they would wait for data)
            _d = os.open(f"/proc/{_pid}/fd/{_fd}", os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            _datos = os.read(_d, 1 << 20)
        except OSError:
            _datos = b""
        finally:
            os.close(_d)
        _n += 1
        if b"codigo-secreto-de-" + b"la-entrada" in _datos or b"Destina" + b"tion:" in _datos:
            print("LECTURA_OK registro del hub", _pid, _fd)
try:
    _entorno1 = open("/proc/1/environ", "rb").read()
    if b"JUPYTERHUB_API_TOKEN" in _entorno1:
        print("LECTURA_OK token en el PID 1")
except OSError:
    pass
print("REABIERTOS", _n)
'''


# ------------------------------------------------------------ a graded batch, as the account

CASOS_SIN_ROOT = ("c00_control", "c17_memoria", "c26_entorno", "c27_procesos", "c34_disco", "zz_honesta")
LIMITES = """
# --- tests/test_caja_sin_root.py: short limits for the hostile batch ---
c.Execute.timeout = 20
c.EjecucionAislada.presupuesto_total = 60
c.KernelAislado.memoria_maxima = 2 * 1024 ** 3
c.KernelAislado.memoria_total = 1024 ** 3
c.KernelAislado.procesos_maximos = 64
"""


@pytest.fixture(scope="module")
def lote_sin_root(entornos):
    """The account grades a small hostile batch with scripts/calificacion/grade.py through the symlinked .venv."""
    import importlib
    curso, usuario = entornos["curso"], entornos["usuario"]
    with open(curso / "nbgrader_config.py", "a") as f:
        f.write(LIMITES)
    tarea = hostiles.TAREA
    ejecutar_como_root(curso, "nbgrader", "generate_assignment", tarea, "--force")
    for alumno in CASOS_SIN_ROOT:
        caso = importlib.import_module(f"hostiles.{alumno}")
        entrega = curso / "submitted" / alumno / tarea
        shutil.copytree(curso / "release" / tarea, entrega)
        (entrega / "timestamp.txt").write_text("2026-11-30 10:00:00.000000 UTC")
        (entrega / "submission_secret.txt").write_text(hashlib.sha256(alumno.encode()).hexdigest())
        caso.preparar(entrega)
    usuario.dar(curso)
    python = curso / ".venv" / "bin" / "python"
    entorno = entorno_de(python.parent, CURSO_SECRETO_TA=SECRETO, JUPYTERHUB_API_TOKEN=TOKEN_HUB,
                         HOME=str(curso))
    proceso = subprocess.run(usuario.orden(str(python), "scripts/calificacion/grade.py"), cwd=curso, env=entorno,
                             capture_output=True, text=True, timeout=1200)
    assert proceso.returncode == 0, proceso.stdout[-3000:] + proceso.stderr[-3000:]
    comentarios = {p.relative_to(curso / "feedback").as_posix(): p.read_text(errors="replace")
                   for p in (curso / "feedback").rglob("*.html")}
    # the TA's own process while grading the submission that fills its folder (scripts/mediciones/bench_salida.py)
    from scripts.mediciones.bench_salida import MEDIR
    medida = subprocess.run(usuario.orden(str(python), "-c", MEDIR, "autograde", tarea, "--student", "c34_disco",
                                          "--force"), cwd=curso, env=entorno, capture_output=True, text=True,
                            timeout=600)
    return {"curso": curso, "salida": proceso.stdout + proceso.stderr, "medida": medida, "comentarios": comentarios}


def _salidas(ruta: Path) -> str:
    nb = json.loads(ruta.read_text())
    return "\n".join("".join(s.get("text", "")) or str(s.get("data", {}).get("text/plain", ""))
                     for c in nb["cells"] for s in c.get("outputs", []))


def test_sin_root_cada_caso_saca_lo_que_debe_con_su_motivo(lote_sin_root):
    from scripts.calificacion import libro_de_notas
    curso, salida = lote_sin_root["curso"], lote_sin_root["salida"]
    with libro_de_notas.abrir(curso) as gb:
        notas = {s.student.id: (s.score, s.max_score)
                 for s in gb.find_assignment(hostiles.TAREA).submissions}
    assert set(notas) == set(CASOS_SIN_ROOT)
    control, maximo = notas["c00_control"][0], notas["zz_honesta"][1]
    assert notas["zz_honesta"][0] == maximo > control
    for alumno in ("c26_entorno", "c27_procesos", "c34_disco"):
        assert notas[alumno][0] == control, (alumno, notas[alumno])
    assert notas["c17_memoria"][0] < maximo
    for alumno, motivo in (("c34_disco", "chocó con un límite de la corrección (sitio para escribir archivos)"),
                           ("c27_procesos", "chocó con un límite de la corrección (memoria de todos sus procesos)"),
                           ("c17_memoria", "positional_encoding")):
        lineas = [l for l in salida.splitlines() if l.strip().startswith(f"{alumno} / {hostiles.TAREA}:")]
        assert any(motivo in l for l in lineas), (alumno, lineas)


def test_sin_root_nada_del_ta_llega_a_los_cuadernos_ni_a_los_comentarios(lote_sin_root):
    curso = lote_sin_root["curso"]
    texto = _salidas(curso / "autograded" / "c26_entorno" / hostiles.TAREA / hostiles.CUADERNO)
    assert re.search(r"^ENTORNO_LEIDO \d+$", texto, re.M) and int(re.search(r"ARCHIVOS_LEIDOS (\d+)", texto)[1]) > 50
    for carpeta in ("autograded", "feedback"):
        for ruta in (curso / carpeta).rglob("*"):
            if ruta.is_file():
                contenido = ruta.read_text(errors="replace")
                for marca in (SECRETO, TOKEN_HUB, CLAVE_TA.strip()):
                    assert marca not in contenido, (ruta, marca)
    # the marks of a forbidden success, in what the kernels printed (their source names them)
    for ruta in (curso / "autograded").rglob("*.ipynb"):
        texto = _salidas(ruta)
        for marca in hostiles.MARCAS_PROHIBIDAS:
            assert marca not in texto, (ruta, [l for l in texto.splitlines() if marca in l][:3])


def test_sin_root_las_bombas_no_llegan_al_ta(lote_sin_root):
    curso = lote_sin_root["curso"]
    texto = _salidas(curso / "autograded" / "c34_disco" / hostiles.TAREA / hostiles.CUADERNO)
    escritos = eval(re.search(r"MIB_ESCRITOS (\{.*\})", texto)[1])            # noqa: S307 - our own output
    assert max(escritos.values()) <= 256, escritos
    assert int(re.search(r"ARCHIVOS_CREADOS (\d+)", texto)[1]) < 4096
    assert "Esta celda chocó con un límite de la corrección (sitio para escribir archivos)" in texto
    html = f"c34_disco/{hostiles.TAREA}/{hostiles.CUADERNO.replace('.ipynb', '.html')}"
    assert html in lote_sin_root["comentarios"], (sorted(lote_sin_root["comentarios"]), lote_sin_root["salida"][-3000:])
    assert "chocó con un límite de la corrección" in lote_sin_root["comentarios"][html]
    # the TA's folder holds what nbgrader put there, nothing the kernel wrote
    nombres = {p.name for p in (curso / "autograded" / "c34_disco" / hostiles.TAREA).iterdir()}
    assert nombres == {p.name for p in (curso / "submitted" / "c34_disco" / hostiles.TAREA).iterdir()}
    texto = _salidas(curso / "autograded" / "c27_procesos" / hostiles.TAREA / hostiles.CUADERNO)
    assert int(re.search(r"PROCESOS_LIMITADOS\s+(\d+)", texto)[1]) < 64
    assert int(re.search(r"HIJOS_MATADOS\s+(\d+)", texto)[1]) >= 1
    # the TA's own process (nbgrader, in one Python process) while c34 fills its folder
    from scripts.mediciones.bench_salida import pico
    medida = lote_sin_root["medida"]
    assert medida.returncode == 0, medida.stderr[-2000:]
    ta, _ = pico(medida.stdout)
    assert ta < 1024 ** 3, f"{ta / 1024 ** 2:.0f} MiB"
