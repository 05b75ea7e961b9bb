"""The first process inside the sandbox (its PID 1): limits, identity and files, then the student's kernel.

``KernelAislado`` (``aislamiento``) starts bubblewrap with ``--as-pid-1`` and
this file as the command, run by the grading Python with ``-I -S`` (standard
library only, nothing from the environment), and the settings as JSON in
``argv[1]``; the real command (the kernel) follows ``--``.  bubblewrap installs
no init of its own: this launcher is PID 1 of the sandbox's PID namespace.  In
order:

1. every writable file system of the sandbox (bubblewrap's tmpfs mounts: the
   submission's working folder, ``/tmp``, ``/dev/shm``, the kernel's socket
   folder) is remounted with its size and a cap on its number of files
   (``nr_inodes``), which no bubblewrap can set (``--size`` exists only from
   0.7): a million empty files cost kernel memory that no size counts;
2. the submission's files are read from a read-only view of the real
   autograded folder (regular files and folders only, never a link, within
   the caps), and that view is unmounted: the kernel works on a copy in
   memory and nothing it writes reaches the TA's disk; matplotlib's font list,
   built once by the TA's process, is read the same way and written into the
   sandbox's ``/tmp`` (each kernel would otherwise rebuild it);
3. ``oom_score_adj`` 1000 (the out-of-memory killer of the machine or of a
   Kubernetes pod takes the student's processes first) and resource limits;
4. privileges dropped for good: as root, the real uid/gid ``nobody`` without
   groups; without root (a user namespace), every capability (effective,
   permitted, inheritable, ambient and the bounding set); ``no_new_privs``;
5. a new, empty session keyring (the TA's is inherited otherwise) and a
   seccomp filter that refuses what would escape the memory accounting or the
   sandbox: ``memfd_create``/``memfd_secret``, System V shared memory,
   message queues and semaphores and POSIX message queues (memory no process
   size counts), the kernel keyrings (not namespaced: the TA's keys, or a
   channel between kernels of the same uid), new user namespaces (in which a
   student could mount a tmpfs with no cap), every way into another process
   (``ptrace``, ``process_vm_readv``/``writev``, ``pidfd_open``,
   ``pidfd_getfd``, ``kcmp``, ``perf_event_open``, ``process_madvise``),
   ``io_uring`` (whose operations no seccomp filter sees); 32-bit and x32
   system calls;
6. everything up to here holds for this process too, which then makes itself
   non-dumpable (no process of the same uid without ``CAP_SYS_PTRACE`` can
   ``ptrace`` it or open its ``/proc/1/{mem,environ,fd,root}``), asks for
   SIGKILL when bubblewrap dies, and forks: the child writes the copies as the
   student's identity, ``chdir`` and ``exec`` the kernel; this process stays
   PID 1, never ``exec``, ignores every signal from inside the namespace
   (an init only receives those it handles: it handles none), reaps orphans
   and exits with the kernel's status when the kernel ends, which kills every
   process left in the namespace.  From outside, ``KernelAislado`` SIGKILLs
   this process after each notebook, which ends the whole sandbox.

Before bubblewrap itself runs, ``preludio`` (``python -I -S lanzador_caja.py
--preludio AJUSTES -- bwrap …``) joins the kernel's control groups, leaves the
TA's session keyring for a new empty one and sets the sandbox's resource
limits (all but the number of processes, which only counts inside the
sandbox's own user namespace), then ``exec`` bubblewrap: nothing of the
sandbox, bubblewrap's own processes included, holds the TA's keys or limits.

Anything that fails before ``exec`` ends the sandbox with a message on
stderr and exit status 71: the kernel never runs with fewer limits than asked.
"""
import ctypes
import errno
import json
import os
import platform
import resource
import signal
import socket
import stat
import struct
import sys

_libc = ctypes.CDLL(None, use_errno=True)

MS_NOSUID, MS_NODEV, MS_REMOUNT = 2, 4, 32
MNT_DETACH = 2
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, PR_CAP_AMBIENT = 24, 38, 22, 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_GET_DUMPABLE = 1, 4, 3
SECCOMP_MODE_FILTER = 2
CLONE_NEWUSER = 0x10000000


def _fallo(mensaje):
    sys.stderr.write(f"lanzador de la caja: {mensaje}\n")
    sys.stderr.flush()
    os._exit(71)


def _comprobar(resultado, que):
    if resultado != 0:
        numero = ctypes.get_errno()
        _fallo(f"{que}: {os.strerror(numero)} (errno {numero})")


def limitar_archivos(montajes):
    """Remount each tmpfs with its size and a cap on files and folders (``nr_inodes``)."""
    for m in montajes:
        datos = f"size={int(m['tamaño'])},nr_inodes={int(m['inodos'])}".encode()
        _comprobar(_libc.mount(b"none", m["ruta"].encode(), None, MS_REMOUNT | MS_NOSUID | MS_NODEV, datos),
                   f"mount -o remount {m['ruta']}")


def _leer_hasta(fd, tamano):
    """At most ``tamano`` bytes of ``fd`` (the size ``fstat`` gave: a file that grows is not read further)."""
    partes, leidos = [], 0
    while leidos < tamano:
        trozo = os.read(fd, min(1 << 20, tamano - leidos))
        if not trozo:
            break
        partes.append(trozo)
        leidos += len(trozo)
    return b"".join(partes)


def leer_entrega(origen, bytes_maximos, archivos_maximos, profundidad=16):
    """The submission under ``origen``: ``([folders], [(path, mode, bytes)])``, relative, within the caps.

    Only folders and regular files, opened without following links and
    checked with ``fstat``; what is past the caps is left out (the TA's side
    already trimmed the submission to its budget: this is a second fence).
    """
    carpetas, archivos, total, cuenta = [], [], 0, 0
    pendientes = [("", 0)]
    while pendientes:
        relativa, nivel = pendientes.pop()
        try:
            entradas = sorted(os.scandir(os.path.join(origen, relativa)), key=lambda e: e.name)
        except OSError:
            continue
        for entrada in entradas:
            ruta = os.path.join(relativa, entrada.name)
            try:
                st = entrada.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode) and nivel < profundidad and cuenta < archivos_maximos:
                carpetas.append(ruta)
                cuenta += 1
                pendientes.append((ruta, nivel + 1))
            elif stat.S_ISREG(st.st_mode) and cuenta < archivos_maximos:
                try:
                    fd = os.open(entrada.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
                except OSError:
                    continue
                try:
                    real = os.fstat(fd)
                    if not stat.S_ISREG(real.st_mode) or total + real.st_size > bytes_maximos:
                        continue
                    contenido = _leer_hasta(fd, real.st_size)
                    total += len(contenido)
                    cuenta += 1
                    archivos.append((ruta, stat.S_IMODE(real.st_mode) & 0o755 | 0o600, contenido))
                finally:
                    os.close(fd)
    return carpetas, archivos


def leer_archivo(ruta, bytes_maximos):
    """The bytes of the regular file ``ruta`` (not a link, at most ``bytes_maximos``), or None."""
    try:
        fd = os.open(ruta, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        real = os.fstat(fd)
        if not stat.S_ISREG(real.st_mode) or real.st_size > bytes_maximos:
            return None
        return _leer_hasta(fd, real.st_size)
    except OSError:
        return None
    finally:
        os.close(fd)


def escribir_cache_de_fuentes(destino, contenido):
    """matplotlib's font list at ``destino`` (in the sandbox's /tmp), as the student: nothing to rebuild.

    Best effort: if it cannot be written, matplotlib builds its own as before.
    """
    try:
        os.makedirs(os.path.dirname(destino), mode=0o700, exist_ok=True)
        escribir_entrega(os.path.dirname(destino), [], [(os.path.basename(destino), 0o600, contenido)])
    except OSError:
        pass


def escribir_entrega(destino, carpetas, archivos):
    """Write the copies under ``destino`` as the current (student's) identity."""
    for carpeta in carpetas:
        os.makedirs(os.path.join(destino, carpeta), mode=0o755, exist_ok=True)
    for ruta, modo, contenido in archivos:
        fd = os.open(os.path.join(destino, ruta),
                     os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, modo)
        try:
            vista = memoryview(contenido)
            while vista:
                vista = vista[os.write(fd, vista):]
        finally:
            os.close(fd)


def fijar_limites(limites):
    nombres = {"memoria": resource.RLIMIT_AS, "archivo": resource.RLIMIT_FSIZE, "core": resource.RLIMIT_CORE,
               "procesos": resource.RLIMIT_NPROC, "descriptores": resource.RLIMIT_NOFILE}
    for nombre, valor in limites.items():
        if valor is not None:
            resource.setrlimit(nombres[nombre], (int(valor), int(valor)))


def _capacidades():
    campos = {}
    with open("/proc/self/status") as f:
        for linea in f:
            if linea.startswith("Cap"):
                clave, valor = linea.split(":")
                campos[clave] = int(valor, 16)
    return campos


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def soltar_privilegios(uid):
    """Drop every privilege for good (``uid``: become that user, as root; None: user namespace)."""
    for capacidad in range(64):                      # the bounding set first (needs CAP_SETPCAP)
        if _libc.prctl(PR_CAPBSET_DROP, capacidad, 0, 0, 0) != 0 and ctypes.get_errno() == errno.EINVAL:
            break
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)                              # from root: clears every capability
        if os.getuid() != uid or os.geteuid() != uid or os.getgroups():
            _fallo("no se pudo cambiar de identidad")
    # all sets empty (setuid leaves the inheritable one)
    cabecera, datos = _CapHeader(0x20080522, 0), (_CapData * 2)()      # _LINUX_CAPABILITY_VERSION_3
    _comprobar(_libc.capset(ctypes.byref(cabecera), datos), "capset")
    _comprobar(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    caps = _capacidades()
    if any(caps.get(c, 0) for c in ("CapEff", "CapPrm", "CapInh", "CapAmb", "CapBnd")):
        _fallo(f"quedan capacidades: {caps}")


# system call numbers (the native ABI) and the audit architecture of each supported machine
_LLAMADAS = {
    "x86_64": {"arch": 0xC000003E, "memfd_create": 319, "memfd_secret": 447, "shmget": 29,
               "msgget": 68, "semget": 64, "mq_open": 240,
               "add_key": 248, "request_key": 249, "keyctl": 250,
               "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
               "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
               "pidfd_open": 434, "pidfd_getfd": 438, "perf_event_open": 298, "process_madvise": 440,
               "clone": 56, "clone3": 435, "unshare": 272, "socket": 41, "socketpair": 53, "x32": True},
    "aarch64": {"arch": 0xC00000B7, "memfd_create": 279, "memfd_secret": 447, "shmget": 194,
                "msgget": 186, "semget": 190, "mq_open": 180,
                "add_key": 217, "request_key": 218, "keyctl": 219,
                "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
                "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272,
                "pidfd_open": 434, "pidfd_getfd": 438, "perf_event_open": 241, "process_madvise": 440,
                "clone": 220, "clone3": 435, "unshare": 97, "socket": 198, "socketpair": 199, "x32": False},
}
# answer ENOSYS (as if the kernel lacked them: libraries fall back): memory no process size counts,
# the keyrings, io_uring (its operations bypass this filter), clone3 (its flags cannot be inspected)
SIN_MEMORIA_OCULTA = ("memfd_create", "memfd_secret", "shmget", "msgget", "semget", "mq_open")
NEGADAS_ENOSYS = (*SIN_MEMORIA_OCULTA, "add_key", "request_key", "keyctl", "clone3",
                  "io_uring_setup", "io_uring_enter", "io_uring_register")
# answer EPERM: every way into another process of the sandbox (PID 1, a classmate's kernel has none)
NEGADAS_EPERM = ("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_open", "pidfd_getfd",
                 "perf_event_open", "process_madvise")
# the socket families a kernel may open (the sandbox's network namespace covers these); any other (AF_VSOCK,
# not namespaced: a hypervisor's host services; AF_PACKET, AF_BLUETOOTH…) answers EAFNOSUPPORT (a hostile
# tester's F4: AF_VSOCK was open)
FAMILIAS_PERMITIDAS = (socket.AF_UNIX, socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK)
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000


def filtro_seccomp(maquina=None):
    """The BPF program (bytes of ``struct sock_filter``) of the sandbox, or None on other machines.

    ``NEGADAS_ENOSYS`` (memfd, System V shared memory, message queues and
    semaphores, POSIX message queues, the kernel keyrings: the TA's session
    keyring is inherited and keyrings are not namespaced, io_uring, and
    ``clone3``: glibc's threads fall back to ``clone``) answer ENOSYS;
    ``NEGADAS_EPERM`` (``ptrace``, ``process_vm_readv``/``writev``, ``kcmp``,
    ``pidfd_open``, ``pidfd_getfd``, ``perf_event_open``, ``process_madvise``:
    no process of the sandbox reaches into another) answer EPERM;
    ``clone``/``unshare`` with CLONE_NEWUSER answer EPERM; ``socket``/``socketpair`` of a family
    outside ``FAMILIAS_PERMITIDAS`` answer EAFNOSUPPORT; other
    architectures' calls (32-bit, x32) answer ENOSYS; everything else is allowed.
    """
    t = _LLAMADAS.get(maquina or platform.machine())
    if t is None:
        return None
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    enosys, eperm = _RET_ERRNO | errno.ENOSYS, _RET_ERRNO | errno.EPERM
    p = [(ld, 0, 0, 4),                                    # A = seccomp_data.arch
         (jeq, 1, 0, t["arch"]),
         (ret, 0, 0, enosys),                              # another ABI (32-bit): nothing works
         (ld, 0, 0, 0)]                                    # A = seccomp_data.nr
    if t["x32"]:
        p += [(jge, 0, 1, 0x40000000), (ret, 0, 0, enosys)]
    for nombres, respuesta in ((NEGADAS_ENOSYS, enosys), (NEGADAS_EPERM, eperm)):
        for nombre in nombres:
            p += [(jeq, 0, 1, t[nombre]), (ret, 0, 0, respuesta)]
    for numero in (t["socket"], t["socketpair"]):
        p += [(jeq, 0, 2 * len(FAMILIAS_PERMITIDAS) + 2, numero),
              (ld, 0, 0, 16)]                              # A = low half of args[0] (the family)
        for familia in FAMILIAS_PERMITIDAS:
            p += [(jeq, 0, 1, int(familia)), (ret, 0, 0, _RET_ALLOW)]
        p.append((ret, 0, 0, _RET_ERRNO | errno.EAFNOSUPPORT))
    for numero in (t["clone"], t["unshare"]):
        p += [(jeq, 0, 4, numero),
              (ld, 0, 0, 16),                              # A = low half of args[0] (the flags)
              (jset, 0, 1, CLONE_NEWUSER),
              (ret, 0, 0, eperm),
              (ret, 0, 0, _RET_ALLOW)]
    p.append((ret, 0, 0, _RET_ALLOW))
    return b"".join(struct.pack("HBBI", *i) for i in p)


def aplicar_seccomp(programa):
    class _Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]
    prog = _Fprog(len(programa) // 8, programa)
    _comprobar(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0), "seccomp")


def llavero_nuevo():
    """Leave the TA's session keyring (Kerberos tickets, other keys) for a new, empty one."""
    t = _LLAMADAS.get(platform.machine())
    # KEYCTL_JOIN_SESSION_KEYRING; where keyrings are refused already (a container's own seccomp
    # profile) there is nothing to leave, and the filter below refuses them anyway
    if t is not None and _libc.syscall(t["keyctl"], 1, None) < 0 \
            and ctypes.get_errno() not in (errno.ENOSYS, errno.EPERM, errno.EACCES):
        _fallo(f"keyctl: {os.strerror(ctypes.get_errno())}")


def no_volcable():
    """PR_SET_DUMPABLE 0: no process of the same uid without CAP_SYS_PTRACE may ptrace this one or
    open its ``/proc/<pid>/{mem,environ,fd,root,maps}``; and SIGKILL when bubblewrap (the parent) dies."""
    _comprobar(_libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), "PR_SET_DUMPABLE")
    if _libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0:
        _fallo("el proceso 1 de la caja sigue siendo volcable")
    _comprobar(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "PR_SET_PDEATHSIG")


def ser_init(hijo):
    """PID 1's life once the kernel (``hijo``) runs: reap every orphan, end with the kernel's status.

    Never returns: exits with the kernel's exit status (128 + the signal that
    killed it), which ends every process left in the PID namespace.
    """
    estado = 0
    while True:
        try:
            pid, crudo = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        if pid == hijo:
            codigo = os.waitstatus_to_exitcode(crudo)
            estado = 128 - codigo if codigo < 0 else codigo
            break
    os._exit(estado)


def main(argv):
    ajustes = json.loads(argv[1])
    if argv[2] != "--":
        _fallo("uso: lanzador_caja.py AJUSTES -- orden…")
    orden = argv[3:]
    limitar_archivos(ajustes["montajes"])
    uid = ajustes.get("uid")
    if uid is not None:
        for ruta in ajustes["de_alumno"]:           # as root: the student's own writable folders
            os.chown(ruta, uid, uid)
    entrega = ajustes.get("entrega")
    carpetas, archivos = [], []
    if entrega:
        carpetas, archivos = leer_entrega(entrega["origen"], entrega["bytes"], entrega["archivos"])
        _comprobar(_libc.umount2(entrega["origen"].encode(), MNT_DETACH), "umount")
    fuentes = ajustes.get("fuentes")
    cache_de_fuentes = leer_archivo(fuentes["origen"], fuentes["bytes"]) if fuentes else None
    with open("/proc/self/oom_score_adj", "w") as f:
        f.write("1000")
    llavero_nuevo()
    fijar_limites(ajustes["limites"])
    soltar_privilegios(uid)
    no_volcable()
    if ajustes.get("seccomp", True):
        programa = filtro_seccomp()
        if programa is not None:
            aplicar_seccomp(programa)
    os.closerange(3, 1 << 16)
    # no signal reaches either process until each has its own dispositions
    todas = signal.valid_signals()
    signal.pthread_sigmask(signal.SIG_BLOCK, todas)
    hijo = os.fork()
    if hijo == 0:
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        if entrega:
            escribir_entrega(entrega["destino"], carpetas, archivos)
        if cache_de_fuentes is not None:
            escribir_cache_de_fuentes(fuentes["destino"], cache_de_fuentes)
        os.chdir(ajustes["cwd"])
        try:
            os.execv(orden[0], orden)
        except OSError as error:
            _fallo(f"no se pudo ejecutar {orden[0]}: {error.strerror}")
    # PID 1: handles no signal, so none sent from inside the namespace is delivered (SIGKILL included)
    for numero in todas:
        if numero not in (signal.SIGKILL, signal.SIGSTOP, signal.SIGCHLD):
            try:
                signal.signal(numero, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
    del carpetas, archivos, cache_de_fuentes
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    ser_init(hijo)


def preludio(argv):
    """Outside the sandbox, before bubblewrap: control groups, a new keyring, the sandbox's limits, ``exec``.

    ``argv``: ``[--preludio, AJUSTES, --, bwrap, …]``; AJUSTES is JSON with
    ``grupos`` (``cgroup.procs`` files to join) and ``limites`` (as
    ``fijar_limites``; never the number of processes, which on the host would
    count every process of the TA).
    """
    ajustes = json.loads(argv[1])
    if argv[2] != "--":
        _fallo("uso: lanzador_caja.py --preludio AJUSTES -- bwrap…")
    for archivo in ajustes.get("grupos", ()):
        with open(archivo, "w") as f:
            f.write(str(os.getpid()))
    llavero_nuevo()
    fijar_limites(ajustes.get("limites", {}))
    try:
        os.execv(argv[3], argv[3:])
    except OSError as error:
        _fallo(f"no se pudo ejecutar {argv[3]}: {error.strerror}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--preludio"]:
        preludio(sys.argv[1:])
    else:
        main(sys.argv)
