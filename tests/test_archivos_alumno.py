"""Unit tests of the TA-side handling of untrusted students' files, HTML and evidence (issue 10).

Fast (no nbgrader run): ``archivos_alumno`` (links, special files, budgets,
no-follow copies, permissions and writes), ``html_seguro`` (sanitiser),
``evidencia`` (bounds before deserialisation) and, where bubblewrap is
installed, the sandbox's environment, identity and process limits
(``KernelAislado.ejecutar``), with cgroups and with the documented fallback.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import stat
import sys
import time
from pathlib import Path

import pytest

from grader_tests.caja import archivos_alumno as aa
from grader_tests.juez.evidencia import EvidenciaInvalida, comprobar
from grader_tests.extensiones_nbgrader.html_seguro import SanearCuaderno, limpiar_html


@pytest.fixture
def presupuesto():
    return aa.PresupuestoEntrega(archivos=20, bytes_totales=10_000, archivos_comentarios=3,
                                 bytes_comentarios=1000, archivo_comentarios=500)


def _hostil(carpeta: Path, fuera: Path) -> None:
    carpeta.mkdir(parents=True)
    (carpeta / "cuaderno.ipynb").write_text("{}")
    (carpeta / "explorable.py").write_text("x = 1\n")
    (carpeta / "notas.txt").write_text("mías\n")
    os.symlink(fuera, carpeta / "enlace.txt")
    os.symlink(fuera.parent, carpeta / "carpeta_enlace")
    os.symlink("/dev/zero", carpeta / "ceros")
    os.mkfifo(carpeta / "tuberia")
    os.link(fuera, carpeta / "duro.txt")
    with open(carpeta / "disperso.npy", "wb") as f:        # a kind the course keeps: only the budget stops it
        f.truncate(1024 ** 3)


def test_sanear_quita_enlaces_especiales_y_lo_que_excede(tmp_path, presupuesto):
    fuera = tmp_path / "ta" / "secreto.txt"
    fuera.parent.mkdir()
    fuera.write_text("secreto")
    fuera.chmod(0o600)
    carpeta = tmp_path / "alumno"
    _hostil(carpeta, fuera)
    avisos = aa.sanear(str(carpeta), presupuesto, {"explorable.py"})
    quedan = sorted(p.name for p in carpeta.iterdir())
    assert quedan == ["cuaderno.ipynb", "explorable.py", "notas.txt"]
    texto = "\n".join(avisos)
    for esperado in ("se ignoró un enlace simbólico: enlace.txt", "un enlace simbólico: carpeta_enlace",
                     "una tubería con nombre (FIFO): tuberia", "varios enlaces duros: duro.txt",
                     "un enlace simbólico: ceros", "por superar el límite de la entrega"):
        assert esperado in texto, texto
    assert fuera.read_text() == "secreto" and stat.S_IMODE(fuera.stat().st_mode) == 0o600


def test_copiar_entrega_nunca_sigue_y_respeta_los_presupuestos(tmp_path, presupuesto):
    fuera = tmp_path / "clave.py"
    fuera.write_text("CLAVE")
    origen, destino = tmp_path / "enviada", tmp_path / "calificada"
    _hostil(origen, fuera)
    for i in range(50):
        (origen / f"f{i:02d}.txt").write_text("x")
    avisos = aa.copiar_entrega(str(origen), str(destino), presupuesto, ignorar=[".ipynb_checkpoints"],
                               propios={"explorable.py"}, excluir=lambda r: r.endswith(".ipynb"))
    copiados = list(destino.rglob("*"))
    assert all(p.is_file() and not p.is_symlink() for p in copiados)
    assert len(copiados) <= presupuesto.archivos
    assert (destino / "explorable.py").exists() and not (destino / "cuaderno.ipynb").exists()
    assert not any("CLAVE" in p.read_text(errors="replace") for p in copiados)
    assert any("límite de la entrega" in a for a in avisos)
    # feedback mode: the assignment's files and at most 3 small student files
    comentarios = tmp_path / "comentarios"
    avisos = aa.copiar_entrega(str(origen), str(comentarios), presupuesto, ignorar=[],
                               propios={"explorable.py"}, solo_propios_y_pequeños=True)
    nombres = {p.name for p in comentarios.iterdir()}
    assert "explorable.py" in nombres and len(nombres - {"explorable.py", "cuaderno.ipynb"}) <= 3
    assert any("no se copian a los comentarios" in a for a in avisos)


def test_una_entrega_que_es_un_enlace_no_se_copia(tmp_path, presupuesto):
    (tmp_path / "ajena").mkdir()
    os.symlink(tmp_path / "ajena", tmp_path / "entrega")
    with pytest.raises(OSError):
        aa.copiar_entrega(str(tmp_path / "entrega"), str(tmp_path / "destino"), presupuesto, ignorar=[])


def test_escribir_y_cambiar_permisos_nunca_atraviesan_un_enlace(tmp_path):
    ajeno = tmp_path / "gradebook.db"
    ajeno.write_bytes(b"SQLite format 3\0 datos")
    ajeno.chmod(0o600)
    carpeta = tmp_path / "autograded"
    carpeta.mkdir()
    os.symlink(ajeno, carpeta / "cuaderno.ipynb")
    os.symlink(ajeno, carpeta / "otro.txt")
    aa.escribir_atomico(str(carpeta / "cuaderno.ipynb"), lambda fd: os.write(fd, b"{}"))
    aa.cambiar_permisos(str(carpeta), 0o444)
    assert ajeno.read_bytes() == b"SQLite format 3\0 datos"
    assert stat.S_IMODE(ajeno.stat().st_mode) == 0o600
    assert not (carpeta / "cuaderno.ipynb").is_symlink()
    assert (carpeta / "cuaderno.ipynb").read_text() == "{}"
    assert stat.S_IMODE((carpeta / "cuaderno.ipynb").stat().st_mode) == 0o444


def test_leer_pequeño_no_bloquea_en_una_fifo_ni_sigue_enlaces(tmp_path):
    os.mkfifo(tmp_path / "timestamp.txt")
    assert aa.leer_pequeño(str(tmp_path / "timestamp.txt")) is None
    (tmp_path / "real.txt").write_text("2026-01-01")
    os.symlink(tmp_path / "real.txt", tmp_path / "enlace.txt")
    assert aa.leer_pequeño(str(tmp_path / "enlace.txt")) is None
    assert aa.leer_pequeño(str(tmp_path / "real.txt")) == "2026-01-01"


@pytest.mark.parametrize("nombre, visto", [
    ("a\nb\x1b[31m", "a\\x0ab\\x1b[31m"),                  # control characters
    ("ana\u200b", "ana\\u200b"),                              # invisible (was shown as \\x0b)
    ("xa\u2010ana", "xa\\u2010ana"),                          # a hyphen that is not ASCII's -
    ("xa\u2013ana\u2212", "xa\\u2013ana\\u2212"),             # en dash, minus sign
    ("\u0430na", "\\u0430na"),                                 # Cyrillic а
    ("\uff41na", "\\uff41na"),                                 # full-width a
    ("ana\xa0lópez", "ana\\xa0lópez"),                         # a space that is not ASCII's
    ("Jose\u0301", "Jose\\u0301"),                             # an accent written apart (NFD)
    ("ana\u202egnp.ipynb", "ana\\u202egnp.ipynb"),             # bidi override
    ("nota\U0001f600", "nota\\U0001f600"),                     # beyond the BMP
    ("\udcff.txt", "\\udcff.txt"),                             # a byte that is not UTF-8
    ("José Ñúñez Çá «ß» ¿ok? ł", "José Ñúñez Çá «ß» ¿ok? ł"),   # what a Spanish name holds, as it is
])
def test_los_nombres_muestran_cada_caracter_invisible_o_confundible(nombre, visto):
    assert aa.nombre_legible(nombre) == visto
    assert aa.nombre_legible(visto) == visto                     # showing it again changes nothing


def test_los_nombres_largos_se_cortan_sin_partir_un_escape():
    assert len(aa.nombre_legible("x" * 500)) == 100
    corto = aa.nombre_legible("ab\u200b" * 60, 20)
    assert corto == "ab\\u200bab\\u200bab…" and len(corto) <= 20
    assert aa.nombre_legible("x" * 500, None) == "x" * 500


def test_una_sola_funcion_muestra_los_nombres():
    """scripts.calificacion.observaciones.legible (whole lines) and lms.descompresion.legible are the same helper."""
    from lms.descompresion import legible
    from scripts.calificacion import observaciones
    assert legible("xa\u2010ana\x1b") == aa.nombre_legible("xa\u2010ana\x1b", 120)
    # a line of course text keeps its typography; only what is not printable is escaped
    assert observaciones.legible("√ ≈ — x\u200b\n") == "√ ≈ — x\\u200b\\x0a"


def test_el_recorrido_es_lineal_en_una_inundacion(tmp_path, presupuesto):
    carpeta = tmp_path / "inundada"
    carpeta.mkdir()
    for i in range(5000):
        (carpeta / f"{i:05d}.txt").write_text("")
    avisos = aa.sanear(str(carpeta), presupuesto)
    assert len(list(carpeta.iterdir())) == presupuesto.archivos
    assert "4980 archivos" in avisos[0], avisos


# ------------------------------------------------------------------ HTML

def test_limpiar_html_quita_lo_activo_y_conserva_imagenes_tablas_y_matematicas():
    html = ('<p onclick="x()">Hola $a&lt;b$</p><script>alert(1)</script><img src="data:image/png;base64,AAAA" '
            'onerror="alert(1)"><img src="https://fuera/espia.png"><a href="javascript:alert(1)">a</a>'
            '<iframe src="x"></iframe><table><tr><th>h</th><td>1</td></tr></table><div id="multi_head">d</div>')
    limpio = limpiar_html(html)
    for prohibido in ("script", "onclick", "onerror", "javascript", "iframe", "espia", 'id="multi_head"'):
        assert prohibido not in limpio, prohibido
    for conservado in ('src="data:image/png;base64,AAAA"', "<table>", "<th>h</th>", "$a&lt;b$"):
        assert conservado in limpio, conservado


def test_sanear_cuaderno_deja_solo_salidas_inertes():
    import nbformat
    nb = nbformat.v4.new_notebook()
    celda = nbformat.v4.new_code_cell("x")
    celda.metadata = {"tags": ['"><script>'], "nbgrader": {"grade_id": "a\"><script>", "points": 1, "grade": True}}
    celda.outputs = [
        nbformat.v4.new_output("display_data", {"application/javascript": "alert(1)", "text/plain": "js"}),
        nbformat.v4.new_output("display_data", {"image/png": 'x" onerror="alert(1)', "text/plain": "img"}),
        nbformat.v4.new_output("display_data", {"text/html": "<b>ok</b><script>alert(1)</script>"}),
        nbformat.v4.new_output("display_data", {"application/vnd.jupyter.widget-view+json": {"model_id": "1"}}),
    ]
    celda["id"] = 'x"><script>'
    nb.cells = [celda]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    nb, _ = SanearCuaderno().preprocess(nb, {})
    c = nb.cells[0]
    assert "widgets" not in nb.metadata
    assert set(c.metadata) == {"nbgrader"} and c.metadata.nbgrader.grade_id == "a___script_"
    assert c.id == "celda-0"
    assert [list(s.data) for s in c.outputs] == [["text/plain"], ["text/plain"], ["text/html"], ["text/plain"]]
    assert c.outputs[2].data["text/html"] == "<b>ok</b>"


# -------------------------------------------------------------- evidence

@pytest.mark.parametrize("valor", [
    {"tipo": "escalar_numpy", "dtype": "V1500000000", "valor": {"tipo": "int", "valor": "0"}},
    {"tipo": "ndarray", "dtype": "<f8", "shape": [100000, 100000], "datos": ""},
    {"tipo": "ndarray", "dtype": "|O", "shape": [1], "datos": "AAAAAAAAAAA="},
    {"tipo": "ndarray", "dtype": "<f8", "shape": [2], "datos": "AAAA"},
    {"tipo": "list", "longitud": 10 ** 6, "elementos": [{"tipo": "none"}] * 100_000},
    {"tipo": "str", "valor": "x" * (9 * 1024 ** 2)},
])
def test_evidencia_fuera_de_los_limites_se_rechaza(valor):
    with pytest.raises(EvidenciaInvalida):
        comprobar({"grade_id": "g", "resultados": [{"resultado": valor}]})


def test_evidencia_anidada_sin_fin_se_rechaza_sin_recursion():
    x = {"tipo": "none"}
    for _ in range(50_000):
        x = {"tipo": "list", "longitud": 1, "elementos": [x]}
    with pytest.raises(EvidenciaInvalida, match="anidada"):
        comprobar(x)


def test_evidencia_honesta_pasa():
    import numpy as np
    from grader_tests.en_el_kernel.serializacion import serializar
    comprobar({"grade_id": "g", "resultados": [{"resultado": serializar(np.ones((50, 64)))}]})


# -------------------------------------------------------------- sandbox

SIN_BWRAP = shutil.which("bwrap") is None
PRUEBA_CAJA = r'''
import os, subprocess
print("uid", os.getuid(), os.geteuid(), os.getgroups())
print("entorno", sorted(os.environ))
for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
    try:
        print("PID", pid, b"no-debe-verse" in open(f"/proc/{pid}/environ", "rb").read())
    except OSError:
        print("PID", pid, "ilegible")
for f in ("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"):
    try:
        if open(f).read():
            print("LEIDO", f)
    except OSError:
        pass
hijos = []
try:
    for _ in range(500):
        hijos.append(subprocess.Popen(["sleep", "30"]))
except OSError:
    pass
print("procesos", len(hijos))
for h in hijos:
    h.kill()
    h.wait()
'''


@pytest.mark.skipif(SIN_BWRAP, reason="sin bubblewrap (apt-get install bubblewrap)")
@pytest.mark.parametrize("cgrupos", [True, False], ids=["cgroups-si-hay", "respaldo-rlimit_nproc"])
def test_caja_entorno_identidad_y_procesos(tmp_path, monkeypatch, cgrupos):
    from grader_tests.caja.aislamiento import KernelAislado
    monkeypatch.setenv("TOKEN_DEL_PROFESORADO", "no-debe-verse")
    caja = KernelAislado(raiz=str(tmp_path), usar_cgrupos=cgrupos, procesos_maximos=40)
    alumno = tmp_path / "autograded" / "a" / "t"
    alumno.mkdir(parents=True)
    r = caja.ejecutar([sys.executable, "-c", PRUEBA_CAJA], str(alumno))
    assert r.returncode == 0, r.stderr[-2000:]
    assert "TOKEN_DEL_PROFESORADO" not in r.stdout and "LEIDO" not in r.stdout
    # no process of the sandbox holds the TA's environment (bubblewrap's PID 1 included)
    assert "PID 1 " in r.stdout and " True" not in r.stdout, r.stdout
    uid = int(r.stdout.split("uid ")[1].split()[0])
    assert uid != 0 and "[0" not in r.stdout.split("uid ")[1].splitlines()[0].split("]")[0][-3:]
    procesos = int(r.stdout.split("procesos ")[1].split()[0])
    assert 0 < procesos < 40, r.stdout
    assert stat.S_IMODE(alumno.stat().st_mode) and alumno.stat().st_uid == os.getuid()


_COLAS_NETLINK = r"""
import socket, struct, time
colas = []
for _ in range(24):
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 30)
    s.bind((0, 0))
    s.setblocking(False)
    carga = b"x" * 60000
    peticion = struct.pack("=IHHII", 16 + len(carga), 0x7777, 0x1 | 0x4, 1, 0) + carga   # bogus, with ACK
    for _ in range(200):
        try:
            s.sendto(peticion, (0, 0))
        except OSError:
            break
    colas.append(s)
print("LLENAS", flush=True)
time.sleep(30)
print("SIGUE", flush=True)
"""


@pytest.mark.skipif(SIN_BWRAP, reason="sin bubblewrap (apt-get install bubblewrap)")
def test_la_caja_que_llena_colas_de_netlink_termina_con_su_motivo(tmp_path):
    """A fresh attacker's graded cell queued 4.4 GiB of netlink error ACKs (each echoes its request) in a kernel of
    4 GiB: memory no cgroup counts. The sandbox's own network namespace is watched from outside; past 64 MiB the
    sandbox ends, and why is said in Spanish."""
    from grader_tests.caja.aislamiento import KernelAislado
    alumno = tmp_path / "autograded" / "a" / "t"
    alumno.mkdir(parents=True)
    caja = KernelAislado(raiz=str(tmp_path))
    r = caja.ejecutar([sys.executable, "-c", _COLAS_NETLINK], str(alumno), timeout=60)
    assert "SIGUE" not in r.stdout, (r.stdout, r.stderr[-1000:])
    motivo = caja.motivo_de_muerte() or ""
    assert motivo.startswith("llenó colas de netlink del sistema (") and "el tope es 64 MiB" in motivo, motivo


def _arbol_cgroup(raiz: Path, ramas: dict[str, str]) -> None:
    """A fake cgroup v2 tree: ``{path: subtree_control}``, every group with both controllers available."""
    for ruta, delegados in ramas.items():
        carpeta = raiz / ruta.lstrip("/")
        carpeta.mkdir(parents=True, exist_ok=True)
        (carpeta / "cgroup.controllers").write_text("cpu memory pids\n")
        (carpeta / "cgroup.subtree_control").write_text(delegados)
        (carpeta / "cgroup.procs").write_text("")


def test_cgroup_v2_delegado_a_la_cuenta_mueve_sus_procesos_a_una_hoja(tmp_path, monkeypatch):
    """A systemd unit with Delegate=yes and User=: only its own group is writable, and it has processes."""
    from grader_tests.caja import limites_kernel
    _arbol_cgroup(tmp_path, {"/": "memory pids", "/system.slice": "memory pids",
                             "/system.slice/calificar.service": ""})
    servicio = tmp_path / "system.slice" / "calificar.service"
    (servicio / "cgroup.procs").write_text("4242\n")
    monkeypatch.setattr(limites_kernel, "_escribible", lambda c: c == servicio or servicio in c.parents)
    grupo = limites_kernel.grupo_v2(tmp_path, "/system.slice/calificar.service", "k1", 2 ** 30, 64)
    assert grupo is not None and grupo.carpetas == [servicio / "k1"]
    assert (servicio / "curso-principal" / "cgroup.procs").read_text() == "4242"
    assert limites_kernel._controles(servicio / "cgroup.subtree_control") >= {"memory", "pids"}
    assert (servicio / "k1" / "memory.max").read_text() == str(2 ** 30)
    assert (servicio / "k1" / "pids.max").read_text() == "64"


def test_cgroup_v2_como_root_usa_el_antepasado_que_ya_delega(tmp_path):
    """Root on a systemd machine: the nearest ancestor that already delegates memory and pids."""
    from grader_tests.caja import limites_kernel
    _arbol_cgroup(tmp_path, {"/": "memory pids", "/user.slice": "memory pids", "/user.slice/sesion.scope": ""})
    grupo = limites_kernel.grupo_v2(tmp_path, "/user.slice/sesion.scope", "k2", 2 ** 30, 64)
    if os.geteuid() == 0:
        assert grupo is not None and grupo.carpetas == [tmp_path / "user.slice" / "k2"]


def test_un_grupo_nuevo_retira_los_grupos_de_kernel_vacios_y_viejos(tmp_path, monkeypatch):
    """Leftover empty kernel groups (a zombie kept cgroup v1's pids group busy while vaciar tried) go
    when the next kernel gets its group; a busy one, a just-made one and anything not ours stay."""
    from grader_tests.caja import limites_kernel
    _arbol_cgroup(tmp_path, {"/": "memory pids", "/system.slice": "memory pids",
                             "/system.slice/calificar.service": ""})
    padre = tmp_path / "system.slice"
    viejo = time.time() - 3600
    for nombre, vacio, edad in (("curso-kernel-11-curso-kernel-abc", True, viejo),
                                ("curso-kernel-12-curso-kernel-def", False, viejo),
                                ("curso-kernel-13-curso-kernel-ghi", True, time.time()),
                                ("curso-servidor-1-2-3", True, viejo),
                                ("otro-servicio", True, viejo)):
        (padre / nombre).mkdir()
        if not vacio:
            (padre / nombre / "cgroup.procs").write_text("999\n")
        os.utime(padre / nombre, (edad, edad))
    monkeypatch.setattr(limites_kernel, "_escribible", lambda c: True)
    grupo = limites_kernel.grupo_v2(tmp_path, "/system.slice/calificar.service", "curso-kernel-14-x", 2 ** 30, 64)
    assert grupo is not None and grupo.carpetas == [padre / "curso-kernel-14-x"]
    quedan = sorted(p.name for p in padre.iterdir() if p.is_dir())
    assert quedan == ["calificar.service", "curso-kernel-12-curso-kernel-def", "curso-kernel-13-curso-kernel-ghi",
                      "curso-kernel-14-x", "curso-servidor-1-2-3", "otro-servicio"]


def test_sin_cgroup_delegado_no_hay_grupo(tmp_path, monkeypatch):
    """Nothing writable (a non-root TA without delegation, a Kubernetes pod): None, the watchdog applies."""
    from grader_tests.caja import limites_kernel
    _arbol_cgroup(tmp_path, {"/": "memory pids", "/kubepods": "memory pids", "/kubepods/pod": ""})
    monkeypatch.setattr(limites_kernel, "_escribible", lambda c: False)
    assert limites_kernel.grupo_v2(tmp_path, "/kubepods/pod", "k3", 2 ** 30, 64) is None


def test_los_sockets_del_kernel_se_abren_sin_seguir_enlaces(tmp_path):
    """The TA reaches the kernel's sockets through /proc/<pid>/root: a link the student leaves on the
    way, followed from outside, would resolve in the TA's own file system; it is refused instead."""
    import socket
    from grader_tests.caja.aislamiento import abrir_socket
    (tmp_path / "ipc").mkdir()
    servidor = socket.socket(socket.AF_UNIX)
    servidor.bind(str(tmp_path / "ipc" / "kernel-1"))
    servidor.listen()
    (tmp_path / "ipc" / "archivo").write_text("x")
    os.symlink(tmp_path / "ipc" / "kernel-1", tmp_path / "ipc" / "kernel-2")
    os.symlink(tmp_path / "ipc", tmp_path / "enlace")
    interna = lambda *partes: str(tmp_path.joinpath(*partes))                    # noqa: E731
    fd = abrir_socket(os.getpid(), interna("ipc", "kernel-1"))
    try:
        assert fd is not None
        cliente = socket.socket(socket.AF_UNIX)
        cliente.connect(f"/proc/self/fd/{fd}")       # what ZeroMQ connects to
        cliente.close()
    finally:
        os.close(fd)
        servidor.close()
    for ruta in (("ipc", "kernel-2"), ("enlace", "kernel-1"), ("ipc", "archivo"), ("ipc", "no-existe")):
        assert abrir_socket(os.getpid(), interna(*ruta)) is None, ruta


def test_las_copias_de_etc_de_un_proceso_que_murio_se_retiran(tmp_path, monkeypatch):
    """A grading process killed before its atexit left its copy of /etc in /tmp for good (a fresh attacker found
    22): the next one removes those of this account whose process is gone, and nothing else."""
    import tempfile
    from grader_tests.caja import aislamiento
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(aislamiento, "_VISTAS_DE_ETC", {})
    muerto = subprocess.Popen(["true"])
    muerto.wait()
    for nombre in (f"curso-etc-{muerto.pid}-abc", f"curso-etc-{os.getpid()}-viva", "curso-etc-sinpid",
                   f"otra-cosa-{muerto.pid}-x"):
        (tmp_path / nombre / "ssl").mkdir(parents=True)
    os.symlink(tmp_path / f"otra-cosa-{muerto.pid}-x", tmp_path / f"curso-etc-{muerto.pid}-enlace")
    etc = tmp_path / "etc-de-verdad"
    etc.mkdir()
    (etc / "passwd").write_text("root:x:0:0\n")
    nueva = aislamiento.vista_de_etc(str(etc))
    quedan = sorted(p.name for p in tmp_path.iterdir())
    assert f"curso-etc-{muerto.pid}-abc" not in quedan
    assert {f"curso-etc-{os.getpid()}-viva", "curso-etc-sinpid", f"otra-cosa-{muerto.pid}-x",
            f"curso-etc-{muerto.pid}-enlace", os.path.basename(nueva)} <= set(quedan)
    assert os.path.basename(nueva).startswith(f"curso-etc-{os.getpid()}-")
    assert (Path(nueva) / "passwd").read_text() == "root:x:0:0\n"
    shutil.rmtree(nueva)


def test_la_vista_de_etc_solo_lleva_lo_que_todos_pueden_leer(tmp_path):
    """The sandbox's /etc: world-readable files and folders, links as links; nothing private, no FIFO."""
    from grader_tests.caja.aislamiento import copiar_legibles
    etc, copia = tmp_path / "etc", tmp_path / "copia"
    (etc / "ssl" / "private").mkdir(parents=True)
    (etc / "ssl" / "certs").mkdir()
    (etc / "passwd").write_text("root:x:0:0\n")
    (etc / "ssl" / "certs" / "ca.pem").write_text("certificado")
    (etc / "ssl" / "private" / "clave.pem").write_text("secreto")
    (etc / "shadow").write_text("secreto")
    (etc / "gshadow.lock").write_text("secreto")
    (etc / "ejecutable").write_text("#!/bin/sh\n")
    os.mkfifo(etc / "tuberia")
    os.symlink("/proc/self/mounts", etc / "mtab")
    for ruta, modo in (("ssl/private", 0o700), ("shadow", 0o640), ("gshadow.lock", 0o600), ("ejecutable", 0o755),
                       ("passwd", 0o644), ("ssl/certs/ca.pem", 0o644), ("tuberia", 0o644)):
        os.chmod(etc / ruta, modo)
    copia.mkdir()
    assert copiar_legibles(str(etc), str(copia)) == 3
    vistos = sorted(str(p.relative_to(copia)) for p in copia.rglob("*"))
    assert vistos == ["ejecutable", "mtab", "passwd", "ssl", "ssl/certs", "ssl/certs/ca.pem"]
    assert os.readlink(copia / "mtab") == "/proc/self/mounts"
    assert (copia / "ssl" / "certs" / "ca.pem").read_text() == "certificado"
    assert stat.S_IMODE((copia / "ejecutable").stat().st_mode) == 0o755
    assert stat.S_IMODE((copia / "passwd").stat().st_mode) == 0o644
    assert (copia / "passwd").stat().st_mtime_ns == (etc / "passwd").stat().st_mtime_ns


def test_el_filtro_de_la_caja_niega_cada_camino_a_otro_proceso():
    """The seccomp program refuses ptrace and its equivalents with EPERM and hidden memory with ENOSYS."""
    import struct
    from grader_tests.caja import lanzador_caja as lc
    for maquina in ("x86_64", "aarch64"):
        programa = lc.filtro_seccomp(maquina)
        instrucciones = [struct.unpack("HBBI", programa[i:i + 8]) for i in range(0, len(programa), 8)]
        t = lc._LLAMADAS[maquina]
        for nombres, respuesta in ((lc.NEGADAS_EPERM, 1), (lc.NEGADAS_ENOSYS, 38)):
            for nombre in nombres:
                k = next(k for k, i in enumerate(instrucciones) if i[0] == 0x15 and i[3] == t[nombre])
                assert instrucciones[k + 1] == (0x06, 0, 0, 0x00050000 | respuesta), (maquina, nombre)
        assert {"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open", "pidfd_getfd", "kcmp"} \
            <= set(lc.NEGADAS_EPERM)
        assert {"memfd_create", "shmget", "msgget", "semget", "mq_open", "keyctl"} <= set(lc.NEGADAS_ENOSYS)


def test_el_vigilante_mata_el_proceso_mas_grande_del_arbol():
    """Without cgroups: the tree's memory measured from outside, the largest process killed past the limit."""
    from grader_tests.caja import limites_kernel
    codigo = ("import subprocess, sys, time\n"
              "g = subprocess.Popen([sys.executable, '-c', 'b = bytearray(200 * 2 ** 20); import time; time.sleep(30)'])\n"
              "p = subprocess.Popen([sys.executable, '-c', 'b = bytearray(20 * 2 ** 20); import time; time.sleep(30)'])\n"
              "print(g.wait(), p.poll(), flush=True)\n"
              "p.kill()\n")
    raiz = subprocess.Popen([sys.executable, "-c", codigo], stdout=subprocess.PIPE, text=True)
    vigilante = limites_kernel.VigilanteMemoria(raiz.pid, 150 * 2 ** 20, 0.05).empezar()
    try:
        salida, _ = raiz.communicate(timeout=60)
    finally:
        vigilante.parar()
    assert salida.split() == ["-9", "None"], salida     # the 200 MiB child, not the 20 MiB one
    assert vigilante.matados == 1 and vigilante.maxima > 150 * 2 ** 20


# what a browser would run from formgrader's origin (the second attack of issue 19 used .xht, .rdf, .mml)
EJECUTABLES = ("pagina.html", "dibujo.SVG", "codigo.js", "p.xht", "p.rdf", "p.mml", "p.xml", "p.xsl", "doc.pdf",
               "p.svgz", "p.shtml", "p.xhtml", "p.HTM", "p.htm.", "sin_extension", ".oculto", "p.wasm")
CONSERVADOS = ("datos.csv", "figura.PNG", "foto.jpeg", "notas.txt", "modulo.py", "matriz.npy", "leeme.md")


def test_solo_se_conservan_los_tipos_de_la_lista_blanca(tmp_path, presupuesto):
    carpeta = tmp_path / "alumno"
    carpeta.mkdir()
    for nombre in EJECUTABLES + CONSERVADOS:
        (carpeta / nombre).write_text('<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>')
    # collect's copy (submitted/): the same allow-list, a student's module kept as it came
    copia = tmp_path / "copia"
    avisos = aa.copiar_entrega(str(carpeta), str(copia), presupuesto, ignorar=[])
    assert sorted(p.name for p in copia.iterdir()) == sorted(CONSERVADOS)
    assert any("sin_extension" in a and "no conserva" in a for a in avisos)
    # the TA's copies (autograded/, feedback/): the allow-list and no student's Python module
    avisos = aa.sanear(str(carpeta), presupuesto, propios={"sin_extension"})
    assert sorted(p.name for p in carpeta.iterdir()) == sorted(set(CONSERVADOS) - {"modulo.py"} | {"sin_extension"})
    assert sum("de un tipo que el curso no conserva" in a for a in avisos) == len(EJECUTABLES) - 1, avisos
    assert sum("módulo de Python" in a for a in avisos) == 1, avisos


def test_los_modulos_de_python_del_alumno_no_entran_en_las_copias_del_profesorado(tmp_path, presupuesto):
    """Attack report A2: a student's ipykernel_launcher.py / numpy.py / package in autograded/ or feedback/
    would run as the TA as soon as a kernel starts there or a cell imports numpy."""
    from nbgrader.coursedir import CourseDirectory

    from conftest import RAIZ
    from grader_tests.extensiones_nbgrader.nbgrader_seguro import archivos_de_la_tarea
    origen = tmp_path / "entrega"
    (origen / "paquete").mkdir(parents=True)
    # the modules the lesson ships (its explorable, the visible tests' checkers) are the course's: kept
    de_la_tarea = ["explorable_escalera.py", "pruebas_visibles.py", "pruebas_positional_encoding.py"]
    for nombre in ("ipykernel_launcher.py", "numpy.py", "paquete/__init__.py", "viejo.pyc", "ext.cpython-311.so",
                   "libx.so.1", "sitio.pth", "datos.csv", "notas.txt", *de_la_tarea):
        (origen / nombre).write_text("open('/tmp/pwned', 'w')\n")
    propios = archivos_de_la_tarea(CourseDirectory(root=str(RAIZ)), "02_codificacion_posicional")
    assert set(de_la_tarea) <= propios, propios
    esperados = sorted(["datos.csv", "notas.txt", *de_la_tarea])
    for comentarios in (False, True):
        destino = tmp_path / f"copia-{comentarios}"
        avisos = aa.copiar_entrega(str(origen), str(destino), presupuesto, ignorar=[], propios=propios,
                                   solo_propios_y_pequeños=comentarios, sin_modulos=True)
        quedan = sorted(str(p.relative_to(destino)) for p in destino.rglob("*") if p.is_file())
        assert quedan == esperados, quedan
        assert sum("módulo de Python" in a for a in avisos) == 7, avisos
    # collect keeps the submission as it came (submitted/)
    completa = tmp_path / "submitted"
    aa.copiar_entrega(str(origen), str(completa), presupuesto, ignorar=[])
    assert (completa / "numpy.py").exists()
    # what a kernel left in autograded/ after running
    avisos = aa.sanear(str(origen), presupuesto, propios)
    quedan = sorted(str(p.relative_to(origen)) for p in origen.rglob("*") if p.is_file())
    assert quedan == esperados, quedan


def test_pythonsafepath_el_lanzador_del_kernel_no_sale_de_la_carpeta(tmp_path):
    """Every TA-side server and kernel runs with PYTHONSAFEPATH=1 (make lab, the hub, the sandbox): then
    ``python -m ipykernel_launcher`` in a student's folder never runs the student's file of that name,
    while the kernel can still import the lesson's module from its folder (IPython adds it after the
    standard library)."""
    import subprocess
    import sys
    marca = tmp_path / "ejecutado"
    (tmp_path / "ipykernel_launcher.py").write_text(f"open({str(marca)!r}, 'w').write('x')\n")
    entorno = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    orden = [sys.executable, "-m", "ipykernel_launcher", "--version"]
    subprocess.run(orden, cwd=tmp_path, env={**entorno, "PYTHONSAFEPATH": "1"}, capture_output=True, timeout=60)
    assert not marca.exists(), "con PYTHONSAFEPATH=1 se ejecutó el ipykernel_launcher.py del alumno"
    subprocess.run(orden, cwd=tmp_path, env=entorno, capture_output=True, timeout=60)
    assert marca.exists(), "la prueba no reproduce el ataque sin PYTHONSAFEPATH"
    from conftest import RAIZ
    lineas = (RAIZ / "Makefile").read_text().replace("\\\n", " ").splitlines()
    receta = next(l for l in lineas if "jupyter lab" in l)
    assert "JUPYTER_CONFIG_PATH=" in receta and "ajustes_jupyterlab/profesorado" in receta, receta
    assert "PYTHONSAFEPATH=1" in receta and "despliegue/hub/jupyter/comun/arranque_kernel.py" in receta, receta

    # a kernel of such a server: the lesson's modules from its folder (its explorable, the visible tests'
    # checkers, which import each other), numpy from the environment
    import nbformat
    from nbclient import NotebookClient
    (tmp_path / "explorable_propio.py").write_text("VALOR = 7\n")
    (tmp_path / "numpy.py").write_text(f"open({str(marca)!r} + '-numpy', 'w').write('x')\n")
    leccion = RAIZ / "release" / "02_codificacion_posicional"
    for nombre in ("pruebas_visibles.py", "pruebas_positional_encoding.py"):
        shutil.copy(leccion / nombre, tmp_path / nombre)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import explorable_propio, numpy\n"
                                          "print(explorable_propio.VALOR, numpy.__file__.endswith('__init__.py'), "
                                          "[n for n in dir() if n.startswith('_curso')])"),
                nbformat.v4.new_code_cell("import pruebas_positional_encoding as _p, pruebas_visibles as _v\n"
                                          "print(_p.np is numpy, _v.__file__.startswith(%r))" % str(tmp_path))]
    anterior = dict(os.environ)
    os.environ.update(PYTHONSAFEPATH="1", PYTHONSTARTUP=str(RAIZ / "despliegue" / "hub" / "jupyter" / "comun" / "arranque_kernel.py"))
    try:
        NotebookClient(nb, timeout=120, resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        os.environ.clear()
        os.environ.update(anterior)
    # a print may reach the notebook as several stream outputs (the kernel flushes when it likes, under load)
    salida = lambda celda: "".join(o.get("text", "") for o in celda.outputs if o.get("output_type") == "stream")  # noqa: E731
    assert salida(nb.cells[0]).split() == ["7", "True", "[]"], nb.cells[0].outputs
    assert salida(nb.cells[1]).split() == ["True", "True"], nb.cells[1].outputs
    assert not Path(str(marca) + "-numpy").exists()


def test_una_carpeta_que_no_se_puede_leer_se_dice(tmp_path, presupuesto, monkeypatch):
    """A subfolder its author made unreadable to the TA (or swapped while the copy walks) is reported,
    never dropped in silence; the rest is copied."""
    origen = tmp_path / "entrega"
    (origen / "privada").mkdir(parents=True)
    (origen / "privada" / "apuntes.txt").write_text("x")
    (origen / "notas.txt").write_text("y")
    abrir = aa._abrir_carpeta

    def sin_permiso(nombre, dir_fd=None):
        if nombre == "privada":
            raise PermissionError(13, "Permission denied")
        return abrir(nombre, dir_fd)
    monkeypatch.setattr(aa, "_abrir_carpeta", sin_permiso)
    avisos = aa.copiar_entrega(str(origen), str(tmp_path / "copia"), presupuesto, ignorar=[])
    assert "no se pudo leer la carpeta privada (Permission denied): no se copió nada de lo que tiene dentro" \
        in avisos, avisos
    assert (tmp_path / "copia" / "notas.txt").read_text() == "y"
    assert not (tmp_path / "copia" / "privada" / "apuntes.txt").exists()


@pytest.mark.skipif(SIN_BWRAP, reason="sin bubblewrap (apt-get install bubblewrap)")
def test_cada_caja_empieza_con_la_lista_de_fuentes_de_matplotlib(tmp_path, monkeypatch):
    """matplotlib's font list is built once by the grading process (with no HOME or setting of the TA's) and
    each sandbox starts with a copy in its own /tmp/matplotlib, the kernel's MPLCONFIGDIR: no kernel scans
    the fonts again. Without the list (it could not be built) the sandbox starts as before."""
    from grader_tests.caja import aislamiento
    monkeypatch.setitem(aislamiento._FUENTES, "lista", None)
    del aislamiento._FUENTES["lista"]
    lista = aislamiento.cache_de_fuentes()
    assert lista and Path(lista).name.startswith("fontlist-v") and str(Path.home()) not in Path(lista).read_text()
    assert aislamiento.cache_de_fuentes() == lista                       # once per process
    alumno = tmp_path / "autograded" / "a" / "t"
    alumno.mkdir(parents=True)
    ver = ("import os, json; d = os.environ['MPLCONFIGDIR']; "
           "print(json.dumps({n: open(os.path.join(d, n)).read() for n in os.listdir(d)} if os.path.isdir(d) else None))")
    r = aislamiento.KernelAislado(raiz=str(tmp_path)).ejecutar([sys.executable, "-c", ver], str(alumno))
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout.strip().splitlines()[-1]) == {Path(lista).name: Path(lista).read_text()}
    monkeypatch.setitem(aislamiento._FUENTES, "lista", None)              # no list: nothing is copied
    r = aislamiento.KernelAislado(raiz=str(tmp_path)).ejecutar([sys.executable, "-c", ver], str(alumno))
    assert r.returncode == 0 and json.loads(r.stdout.strip().splitlines()[-1]) is None, r.stderr[-2000:]


def test_un_cuaderno_de_miles_de_celdas_se_corrige_sin_las_que_sobran():
    """A hostile tester's F5: 250 000 trivial markdown cells cost 13 min and 3.5 GB of nbgrader's own (unsandboxed)
    steps, with full marks and no word. Past saneamiento.MAX_CELDAS, the student's extra cells are left out from
    the end (text first, then code), every cell of the assignment is kept, and a note says how many."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    from grader_tests.extensiones_nbgrader import saneamiento
    from scripts.calificacion.observaciones import del_cuaderno

    tarea = [new_code_cell("respuesta_1 = 'a'", metadata={"nbgrader": {"solution": True, "grade_id": "r1",
                                                                     "grade": False, "locked": False}}),
             new_code_cell("assert True", metadata={"nbgrader": {"grade": True, "grade_id": "t1", "points": 1,
                                                                 "locked": True, "solution": False}})]
    leccion = [new_markdown_cell("# Lección"), new_code_cell("x = 1")]
    extra_texto = [new_markdown_cell(f"$x_{{{i}}}$ **n** [l](http://e)") for i in range(3 * saneamiento.MAX_CELDAS)]
    extra_codigo = [new_code_cell("pass") for _ in range(saneamiento.MAX_CELDAS)]
    nb = new_notebook(cells=leccion + extra_codigo[:10] + [tarea[0]] + extra_texto + [tarea[1]] + extra_codigo[10:])
    antes = len(nb.cells)
    recursos = {"nbgrader": {}}
    nb, recursos = saneamiento.AcotarCeldas().preprocess(nb, recursos)
    assert len(nb.cells) == saneamiento.MAX_CELDAS - 1             # room for the note of the sanitize step's end
    nb, recursos = saneamiento.AvisarCeldasOmitidas().preprocess(nb, recursos)
    assert len(nb.cells) == saneamiento.MAX_CELDAS
    assert all(c in nb.cells for c in tarea) and leccion[1] in nb.cells     # the lesson's code cell too
    nota = nb.cells[0]
    omitidas = nota.metadata[saneamiento.CLAVE]["celdas_omitidas"]
    assert omitidas["texto"] + omitidas["codigo"] == antes - saneamiento.MAX_CELDAS + 1
    assert omitidas["texto"] == len(extra_texto) + 1      # text first (the lesson's too); then code, from the end
    assert "más de 1000 celdas" in nota.source and "Las celdas de la tarea" in nota.source
    assert any("dejaron fuera" in linea for linea in del_cuaderno(nb))
    nbformat.validate(nb)
    # a notebook of normal size: untouched; a note copied by the student from another notebook: dropped
    pequeno = new_notebook(cells=leccion + tarea + [nota])
    pequeno, recursos = saneamiento.AcotarCeldas().preprocess(pequeno, {"nbgrader": {}})
    pequeno, _ = saneamiento.AvisarCeldasOmitidas().preprocess(pequeno, recursos)
    assert pequeno.cells == leccion + tarea


def test_la_caja_solo_abre_sockets_de_las_familias_de_su_red():
    """A hostile tester's F4: the kernel could open AF_VSOCK sockets, which no network namespace covers (a
    hypervisor's host services). Under the sandbox's seccomp filter only AF_UNIX, AF_INET, AF_INET6 and
    AF_NETLINK open; any other family answers EAFNOSUPPORT."""
    import platform

    from grader_tests.caja import lanzador_caja as lc
    if lc.filtro_seccomp() is None:
        pytest.skip(f"sin filtro para {platform.machine()}")
    programa = (
        "import ctypes, errno, socket, sys\n"
        "from grader_tests.caja import lanzador_caja as lc\n"
        "ctypes.CDLL(None, use_errno=True).prctl(38, 1, 0, 0, 0)\n"          # PR_SET_NO_NEW_PRIVS
        "lc.aplicar_seccomp(lc.filtro_seccomp())\n"
        "for familia in (socket.AF_UNIX, socket.AF_INET, socket.AF_INET6):\n"
        "    socket.socket(familia, socket.SOCK_STREAM).close()\n"
        "[s.close() for s in socket.socketpair()]\n"
        "for familia in (40, 17, 31):\n"                                     # AF_VSOCK, AF_PACKET, AF_BLUETOOTH
        "    try:\n"
        "        socket.socket(familia, socket.SOCK_STREAM)\n"
        "    except OSError as e:\n"
        "        assert e.errno == errno.EAFNOSUPPORT, (familia, e)\n"
        "    else:\n"
        "        sys.exit(f'se abrió la familia {familia}')\n"
        "print('bien')\n")
    hecho = subprocess.run([sys.executable, "-c", programa], capture_output=True, text=True, timeout=60,
                           cwd=str(Path(__file__).resolve().parents[1]))
    assert hecho.returncode == 0 and hecho.stdout.strip() == "bien", hecho.stderr


def test_un_cuaderno_grande_se_lee_acotado_fuera_del_proceso_del_profesor(tmp_path):
    """A hostile tester's F4 (issue 19): outputs, attachments, one-character source lines and huge metadata
    within the 64 MiB budget cost minutes and gigabytes of nbformat's parse and nbgrader's steps, outside the
    sandbox. A notebook file over cuaderno_acotado.UMBRAL_BYTES is read by a bounded process that keeps only
    what grading reads; the assignment's cells (the gradebook's grade_ids, their last copy) always stay,
    forged marks do not protect a cell, and what was left out is counted for the note."""
    import copy

    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    from grader_tests.caja import cuaderno_acotado as ca

    marcas = {"solution": True, "grade": False, "locked": False, "schema_version": 3}
    tarea = [new_code_cell("r = 1", metadata={"nbgrader": {**marcas, "grade_id": "r1"}}),
             new_code_cell("assert r", metadata={"nbgrader": {"grade": True, "grade_id": "t1", "points": 1,
                                                              "locked": True, "solution": False}})]
    copia_vieja = new_code_cell("r = 0", metadata={"nbgrader": {**marcas, "grade_id": "r1"}})
    falsas = [new_markdown_cell("x", metadata={"nbgrader": {**marcas, "grade_id": f"f{i}"}}) for i in range(1500)]
    salidas = new_code_cell("print(1)", outputs=[new_output("stream", name="stdout", text="a")] * 5000)
    fotos = new_markdown_cell("mira")
    fotos["attachments"] = {f"a{i}.png": {"image/png": ["iVBOR", "w0KGgo="]} for i in range(25)}
    lineas = new_markdown_cell(["a"] * 1000)
    gorda = new_code_cell("y = 2", metadata={"basura": "z" * (2 * ca.MAX_BYTES_METADATOS_CELDA),
                                             "nbgrader": {**marcas, "grade_id": "f-gorda"}})
    nb = new_notebook(cells=[copia_vieja, salidas, fotos, lineas, gorda, tarea[0]] + falsas + [tarea[1]],
                      metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                                "enorme": ["m"] * ca.MAX_BYTES_METADATOS_CUADERNO})
    datos = json.loads(nbformat.writes(nb))
    datos["cells"][0]["rara"] = 1                                        # a key nbformat does not know

    compacto, recorte = ca.compactar(copy.deepcopy(datos), frozenset({"r1", "t1"}))
    nbformat.validate(nbformat.from_dict(compacto))
    celdas = compacto["cells"]
    assert len(celdas) == ca.MAX_CELDAS - 1
    fuentes = [c["source"] for c in celdas]
    assert "r = 1" in fuentes and "assert r" in fuentes and "y = 2" in fuentes and "print(1)" in fuentes
    assert recorte["texto"] == len(nb.cells) - (ca.MAX_CELDAS - 1) and recorte["codigo"] == 0
    assert all(c["outputs"] == [] for c in celdas if c["cell_type"] == "code") and recorte["salidas"] == 5000
    foto = next(c for c in celdas if c["source"] == "mira")
    assert len(foto["attachments"]) == ca.MAX_ADJUNTOS_CELDA and recorte["adjuntos"] == 25 - ca.MAX_ADJUNTOS_CELDA
    assert foto["attachments"]["a0.png"] == {"image/png": "iVBORw0KGgo="}
    assert "a" * 1000 in fuentes                                         # one string, not 1000
    assert next(c for c in celdas if c["source"] == "y = 2")["metadata"] == {
        "nbgrader": {**marcas, "grade_id": "f-gorda"}}
    assert set(compacto["metadata"]) == {"kernelspec"} and recorte["metadatos"] == 2
    assert "rara" not in celdas[0]
    # without the gradebook's ids every marked cell is protected (the rule AcotarCeldas had)
    _, sin_ids = ca.compactar(copy.deepcopy(datos), None)
    assert sin_ids["texto"] < recorte["texto"]

    # the reader process: same result, through a file descriptor; the parent parses only what it keeps
    ruta = tmp_path / "grande.ipynb"
    ruta.write_text(json.dumps(datos))
    fd = os.open(ruta, os.O_RDONLY)
    try:
        texto, recorte_proceso = ca.leer_acotado(fd, frozenset({"r1", "t1"}))
    finally:
        os.close(fd)
    assert json.loads(texto) == compacto and recorte_proceso == recorte
    # the same notebook saved by an editor in UTF-16 or UTF-8 with a byte-order mark: read the same
    for codificacion in ("utf-16", "utf-8-sig", "utf-32"):
        ruta.write_bytes(json.dumps(datos, ensure_ascii=False).encode(codificacion))
        fd = os.open(ruta, os.O_RDONLY)
        try:
            assert ca.leer_acotado(fd, frozenset({"r1", "t1"})) == (texto, recorte), codificacion
        finally:
            os.close(fd)
    assert ca.decodificar("{}".encode("utf-16")) == ("{}", "UTF-16")
    assert ca.decodificar(b'{"a": "\xc3\xb1"}') == ('{"a": "ñ"}', None)
    # what it cannot read is a Spanish reason, never an exception of its own
    for contenido, motivo in ((b"{" * 100_000, "anida demasiado"), (b"\xff\xfe{\x00\x00\xdc", "no está en UTF-8"),
                              ('{"a": "ñ"}'.encode("latin-1"), "no está en UTF-8"),
                              (b'{"cells": [' + b"[]," * 3_000_000 + b"[]]}", "")):
        ruta.write_bytes(contenido)
        fd = os.open(ruta, os.O_RDONLY)
        try:
            if motivo:
                with pytest.raises(ca.CuadernoDesmesurado, match=motivo):
                    ca.leer_acotado(fd)
            else:
                ca.leer_acotado(fd)                                      # 3 M empty lists: fits the limits
        finally:
            os.close(fd)
    ruta.write_bytes(b"[" + b"{}," * 30_000_000 + b"{}]")               # 90 MB of objects: past its memory
    fd = os.open(ruta, os.O_RDONLY)
    try:
        with pytest.raises(ca.CuadernoDesmesurado, match="no se califica"):
            ca.leer_acotado(fd)
    finally:
        os.close(fd)
    # the TA table's reason is the reader's own sentence, from nbgrader's log of the failed notebook
    from scripts.calificacion.razones import razon_del_log
    log = ("[AutogradeApp | ERROR] There was an error processing assignment\nTraceback (most recent call last):\n"
           "    raise CuadernoDesmesurado(lineas[-1][:200])\n    grader_tests.caja.cuaderno_acotado.CuadernoDesmesurado: "
           "el cuaderno no es un JSON válido o anida demasiado: no se califica\n")
    assert razon_del_log(log) == "el cuaderno no es un JSON válido o anida demasiado: no se califica"


def test_en_una_entrega_el_kernel_del_profesorado_no_importa_nada_del_alumno(tmp_path):
    """A hostile tester's F1 (issue 19): the TA opened a collected submission in JupyterLab and pressed Tab; jedi
    imported `colorama`, which the environment lacks, from the student's folder, and the student's colorama.py ran
    as the TA (hub token, the deadlines' key, the references). In a folder under submitted/, autograded/ or
    feedback/, a TA's kernel (arranque_kernel.py) imports nothing from the folder: only the assignment's own
    modules, by name, from the course's source/<assignment>/. Elsewhere (a lesson) the folder still imports."""
    from jupyter_client.manager import start_new_kernel

    from conftest import RAIZ
    curso = tmp_path / "curso"
    (curso / "source" / "tarea").mkdir(parents=True)
    (curso / "source" / "tarea" / "explorable_x.py").write_text("VALOR = 1\n")
    entrega = curso / "submitted" / "alumna" / "tarea"
    entrega.mkdir(parents=True)
    marca = tmp_path / "marca"
    for nombre in ("colorama", "ctags", "numpydoc", "_typeshed", "mio", "explorable_x"):
        (entrega / f"{nombre}.py").write_text(f"open({str(marca)!r}, 'a').write({nombre!r} + ' ')\nVALOR = 666\n")
    entorno = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    entorno.update(PYTHONSAFEPATH="1",
                   PYTHONSTARTUP=str(RAIZ / "despliegue" / "hub" / "jupyter" / "comun" / "arranque_kernel.py"))

    def en_un_kernel(carpeta: Path, codigo: str) -> str:
        km, kc = start_new_kernel(kernel_name="python3", cwd=str(carpeta), env=entorno)
        try:
            kc.complete("import numpy as np\nnp.ar", 24, reply=True, timeout=60)     # Tab
            kc.inspect("np.array", 8, reply=True, timeout=60)                      # the contextual help
            salida = []
            kc.execute_interactive(codigo, timeout=60, output_hook=lambda m: salida.append(
                m["content"].get("text", "")) if m["msg_type"] == "stream" else None)
            return "".join(salida)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)

    codigo = ("import explorable_x\nprint(explorable_x.VALOR)\n"
              "try:\n    import mio\n    print('mio')\nexcept ImportError:\n    print('sin mio')\n"
              "print([n for n in dir() if n.startswith('_curso')])")
    assert en_un_kernel(entrega, codigo).split() == ["1", "sin", "mio", "[]"]
    assert not marca.exists(), marca.read_text()
    # the same files in a lesson's folder: the folder imports as before (its explorable, the student's module)
    leccion = tmp_path / "leccion"
    shutil.copytree(entrega, leccion)
    assert en_un_kernel(leccion, codigo).split()[:2] == ["666", "mio"]


def test_el_vigilante_mata_en_una_ronda_todo_lo_que_sobra():
    """Many allocating processes (a fresh attacker's fork of 100, issue 19): one measurement over the limit kills
    as many of the largest as it takes to get back under it, not one per measurement."""
    from grader_tests.caja import limites_kernel
    codigo = ("import subprocess, sys, time\n"
              "hijos = [subprocess.Popen([sys.executable, '-c', 'b = bytearray(40 * 2 ** 20); b[::4096] = b\"x\" * "
              "(len(b) // 4096); print(1, flush=True); import time; time.sleep(30)'], stdout=subprocess.PIPE) "
              "for _ in range(8)]\n"
              "for h in hijos:\n"
              "    h.stdout.readline()\n"
              "print('listos', flush=True)\n"
              "time.sleep(3)\n"
              "print(sum(h.poll() == -9 for h in hijos), flush=True)\n"
              "for h in hijos:\n"
              "    h.kill()\n")
    raiz = subprocess.Popen([sys.executable, "-c", codigo], stdout=subprocess.PIPE, text=True)
    assert raiz.stdout.readline().strip() == "listos"        # every child holds its 40 MiB before the first measurement
    vigilante = limites_kernel.VigilanteMemoria(raiz.pid, 170 * 2 ** 20, 0.05).empezar()
    try:
        salida, _ = raiz.communicate(timeout=60)
    finally:
        vigilante.parar()
    # 8 × 40 MiB against 170 MiB: at least four of the children go, all at the first measurement (what is left
    # stays well under the limit, so the shared pages the survivors inherit never start a second round)
    assert int(salida.split()[0]) == vigilante.matados >= 4, (salida, vigilante.matados)
    assert vigilante.rondas == 1, vigilante.rondas


_LLENAR_TCP = r"""
import socket, sys, time
servidor = socket.socket()
servidor.bind(("127.0.0.1", 0))
servidor.listen(64)
parejas = []
for _ in range(int(sys.argv[1])):
    c = socket.socket()
    c.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 2 ** 20)
    c.connect(servidor.getsockname())
    otro, _ = servidor.accept()
    otro.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 2 ** 20)
    c.setblocking(False)
    try:
        while True:
            c.send(b"x" * 65536)
    except (BlockingIOError, OSError):
        pass
    parejas.append((c, otro))
print("LLENO", flush=True)
time.sleep(30)
"""


def test_los_buferes_tcp_de_un_grupo_cuentan_en_cgroup_v1():
    """A fresh attacker's F4: 60 loopback TCP connections that nobody read held 622 MB out of her server's cgroup v1
    group (its memory grew 6 MB). crear_grupo gives every v1 group a TCP limit (tope_tcp), which turns on the
    kernel's accounting of its TCP buffers: they show in the group, and past the limit the kernel makes them wait."""
    from grader_tests.caja import limites_kernel
    grupo = limites_kernel.crear_grupo(f"curso-kernel-{os.getpid()}-prueba-tcp", 2 ** 30, 64)
    if grupo is None or grupo.version != "v1" or not (grupo.carpetas[0] / "memory.kmem.tcp.limit_in_bytes").exists():
        if grupo is not None:
            grupo.vaciar(0)
        pytest.skip("sin cgroup v1 con memory.kmem.tcp (en v2 la memoria de los sockets cuenta siempre)")
    memoria = grupo.carpetas[0]
    try:
        assert int((memoria / "memory.kmem.tcp.limit_in_bytes").read_text()) == limites_kernel.tope_tcp(2 ** 30)
        archivos = grupo.archivos_procs

        def entrar():
            for archivo in archivos:
                with open(archivo, "w") as destino:
                    destino.write(str(os.getpid()))

        proceso = subprocess.Popen([sys.executable, "-c", _LLENAR_TCP, "8"], stdout=subprocess.PIPE, text=True,
                                   preexec_fn=entrar)
        try:
            assert proceso.stdout.readline().strip() == "LLENO"
            usados = int((memoria / "memory.kmem.tcp.usage_in_bytes").read_text())
            assert usados > 8 * 2 ** 20, usados            # tens of MB queued, and the group sees them
        finally:
            proceso.kill()
            proceso.wait()
    finally:
        grupo.vaciar(0)
