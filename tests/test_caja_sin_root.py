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

    Returns ``{"codigo", "salida", "errores", "motivo", "carpeta"}``: the sandboxed
    process's exit code and output, ``motivo_de_muerte()`` and the submission folder used.
    """
    curso, usuario = entornos["curso"], entornos["usuario"]
    import secrets
    carpeta = curso / "autograded" / f"alumno-{secrets.token_hex(3)}" / "t"
    carpeta.mkdir(parents=True)
    (carpeta / "dato.txt").write_text("dato del alumno\n")
    usuario.dar(curso / "autograded")
    lanzar = (f"import json, sys; sys.path.insert(0, {str(curso)!r})\n"
              f"{LLAVE_EN_EL_LLAVERO}\n"
              "from grader_tests.aislamiento import KernelAislado\n"
              f"caja = KernelAislado(raiz={str(curso)!r}, **{ajustes!r})\n"
              f"r = caja.ejecutar([sys.executable, '-c', {codigo!r}], {str(carpeta)!r}, timeout={timeout})\n"
              "print(json.dumps({'codigo': r.returncode, 'salida': r.stdout, 'errores': r.stderr,"
              " 'motivo': caja.motivo_de_muerte()}))\n")
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
LLAVE_EN_EL_LLAVERO = (
    "import ctypes, platform; _add_key = {'x86_64': 248, 'aarch64': 217}.get(platform.machine())\n"
    "_add_key and ctypes.CDLL(None).syscall(_add_key, b'user', b'kerberos', "
    f"{(SECRETO + '-llavero').encode()!r}, {len(SECRETO) + 8}, -3)")
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
    # the probe really looked: its own /proc, PID 1's (readable as the account, whose uid the
    # sandbox keeps; as root PID 1 is root's and the kernel is nobody), descriptors, many files
    assert int(re.search(r"ARCHIVOS_LEIDOS (\d+)", salida)[1]) > 50
    leidos = set(re.findall(r"^ENTORNO_LEIDO (\d+)$", salida, re.M))
    assert leidos and (como_root or "1" in leidos), salida[-2000:]
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
    codigo = ("import sys, numpy, ipykernel, grader_tests.cliente\n"
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
              "from grader_tests.aislamiento import KernelAislado\n"
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
    assert "ENTORNO_LEIDO 1" in salida and "REABIERTOS" in salida, salida[-3000:]
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
    assert "ENTORNO_LEIDO 1" in texto and int(re.search(r"ARCHIVOS_LEIDOS (\d+)", texto)[1]) > 50
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
