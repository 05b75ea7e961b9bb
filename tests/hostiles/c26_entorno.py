"""Environment and identity probing: looks for the TA's variables (a token), its uid, root-only files.

The test sets ``CURSO_SECRETO_TA`` (and, as a non-root TA, a hub token) in the
TA's environment and keeps a private key next to the course; the kernel must
not see them anywhere: not in its environment, not in any file of
``/proc/<pid>/`` of any process of the sandbox (``environ`` of bubblewrap's
PID 1 included: issue 19), not through any inherited file descriptor, not in
any file it can reach; it must not run as root nor read /etc/shadow* or
/etc/gshadow*.  Any success prints a forbidden mark; the answer is the
control's wrong one.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"
SECRETO = "secreto-del-profesorado-1234"

SONDEAR = '''
import glob, os, sys
# built at run time: the cell's own text (kept by IPython in /tmp) must not match
_marcas = (b"secreto-del-" + b"profesorado", b"clave del " + b"profesorado")
for _k, _v in os.environ.items():
    if _marcas[0].decode() in _v or _k == "CURSO_SECRETO_TA":
        print("LECTURA_OK entorno", _k)
print("uid", os.getuid(), "euid", os.geteuid(), "grupos", os.getgroups())
if os.geteuid() == 0 or os.getuid() == 0:
    print("TRAMPA_OK uid 0")
for _f in sorted(set(glob.glob("/etc/shadow*") + glob.glob("/etc/gshadow*") + ["/etc/shadow-", "/etc/gshadow-"])):
    try:
        _t = open(_f).read()
        if _t:
            print("LECTURA_OK", _f, len(_t))
    except OSError as _e:
        print("LECTURA_BLOQUEADA", _f, _e.strerror)


def _mirar(_nombre, _ruta):
    try:
        with open(_ruta, "rb") as _a:
            _datos = _a.read(1 << 20)
    except OSError:
        return False
    for _m in _marcas:
        if _m in _datos:
            print("LECTURA_OK", _nombre, _m.decode())
    return True


_leidos = 0
for _pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
    for _parte in ("environ", "cmdline", "maps", "mountinfo", "status", "cgroup"):
        _leidos += _mirar(f"/proc/{_pid}/{_parte}", f"/proc/{_pid}/{_parte}")
    if _mirar(f"/proc/{_pid}/environ", f"/proc/{_pid}/environ"):
        print("ENTORNO_LEIDO", _pid)
    try:
        _fds = os.listdir(f"/proc/{_pid}/fd")
    except OSError:
        _fds = []
    for _fd in _fds:
        try:
            _destino = os.readlink(f"/proc/{_pid}/fd/{_fd}")
        except OSError:
            continue
        print("DESCRIPTOR", _pid, _fd, _destino)
        if _destino.startswith("/"):
            _mirar(f"fd {_pid}/{_fd} -> {_destino}", f"/proc/{_pid}/fd/{_fd}")
    for _enlace in ("cwd", "root"):
        try:
            print("ENLACE", _pid, _enlace, sorted(os.listdir(f"/proc/{_pid}/{_enlace}"))[:12])
        except OSError:
            pass
_saltar = {"/proc", "/sys", "/dev", "/usr"} | {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)}
for _raiz, _carpetas, _archivos in os.walk("/"):
    _carpetas[:] = [c for c in _carpetas if os.path.join(_raiz, c) not in _saltar]
    for _a in _archivos:
        _leidos += _mirar(os.path.join(_raiz, _a), os.path.join(_raiz, _a))
print("ARCHIVOS_LEIDOS", _leidos)
'''


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA + SONDEAR)
