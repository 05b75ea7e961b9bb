"""``nbgrader collect`` authenticates each inbound entry and never follows what it holds (issues 10, 19).

A temporary course with an exchange, as root: every entry is given the owner
uid the account that made it would have (``c.Cuentas.uids`` says which student
each uid is; on the hub they are real accounts: tests/test_hub.py).  One
``nbgrader collect`` meets every kind of hostile entry at once and must refuse
each one on its own, with its Spanish reason, and collect everyone else:

* links, FIFOs and a garbled ``timestamp.txt`` inside a submission; an entry
  that *is* a link to the TA's ``source/``;
* impersonation: an entry named after a classmate (newer than the classmate's
  own) made by another account, or by a uid nobody has;
* dates: far in the future, unreadable, or set back (the real change time wins);
* names that are not ``<alumno>+<tarea>+<fecha>``; students not on the class list;
* an inbound flood beyond the per-student quota (count and size).

The race test swaps a folder of a submission for a link to the answer key,
again and again, while collect copies it (in-process, many collects, bounded
in time): nothing of the answer key may ever reach ``submitted/``.  No kernel
runs here.
"""
from __future__ import annotations

import datetime
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import time

import pytest
from curso_temporal import BIN, copiar_curso, ejecutar

pytestmark = pytest.mark.slow

TAREA = "02_codificacion_posicional"
CUADERNO = "codificacion_posicional.ipynb"
CURSO_ID = "atencion-y-posicion"
FORMATO = "%Y-%m-%d %H:%M:%S.%f UTC"
UIDS = {"alumna": 61001, "victima": 61002, "tardio": 61003, "inundador": 61004, "honesto": 61005,
        "fantasma": 61006, **{f"falso{n}": 61100 + n for n in range(3)}}
EN_LISTA = ["alumna", "victima", "tardio", "inundador", "honesto"]

# the student's swapper: renameat2(RENAME_EXCHANGE) swaps datos/ and a link to the answer key
# atomically, so half of the time datos/ *is* the link (the fastest attack a student has)
CAMBIAR = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
datos, enlace = (a.encode() for a in sys.argv[1:])
while True:
    if libc.renameat2(-100, datos, -100, enlace, 2) != 0:
        raise OSError(ctypes.get_errno(), "renameat2")
"""

necesita_root = pytest.mark.skipif(os.geteuid() != 0, reason="hace falta root para dar dueño a cada entrada")


def _fecha(delta: datetime.timedelta = datetime.timedelta()) -> str:
    return (datetime.datetime.now(datetime.timezone.utc) + delta).strftime(FORMATO)


def _entrada(inbound, alumno: str, fecha: str, contenido: str, dueño: str | None = None, sufijo: str = ""):
    carpeta = inbound / f"{alumno}+{TAREA}+{fecha}{sufijo}"
    carpeta.mkdir()
    (carpeta / CUADERNO).write_text(contenido)
    (carpeta / "timestamp.txt").write_text(fecha)
    _dar(carpeta, UIDS.get(dueño or alumno, 65000))
    return carpeta


def _dar(carpeta, uid: int) -> None:
    os.chown(carpeta, uid, uid, follow_symlinks=False)
    for ruta in carpeta.rglob("*"):
        os.chown(ruta, uid, uid, follow_symlinks=False)


def _curso_con_intercambio(tmp_path, **ajustes):
    curso = copiar_curso(tmp_path / "curso")
    intercambio = tmp_path / "intercambio"
    inbound = intercambio / CURSO_ID / "inbound"
    inbound.mkdir(parents=True)
    with open(curso / "nbgrader_config.py", "a") as f:
        f.write(f"\nc.Exchange.root = {str(intercambio)!r}\nc.Cuentas.uids = {UIDS!r}\n")
        for clave, valor in ajustes.items():
            f.write(f"c.{clave} = {valor!r}\n")
    from nbgrader.api import Gradebook
    os.environ["PATH"] = f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"     # nbgrader runs alembic
    with Gradebook(f"sqlite:///{curso / 'gradebook.db'}") as gb:
        for alumno in EN_LISTA:
            gb.add_student(alumno)
    return curso, inbound


@necesita_root
def test_collect_rechaza_cada_entrada_hostil_y_recoge_al_resto(tmp_path):
    curso, inbound = _curso_con_intercambio(tmp_path, **{"RecogerSeguro.max_entradas": 5,
                                                          "RecogerSeguro.max_bytes": 2 * 1024 ** 2})
    hora = datetime.timedelta(minutes=5)      # within RecogerSeguro.margen_pasado of the real time
    # links and special files inside a real submission
    fecha_alumna = _fecha(-hora)
    alumna = _entrada(inbound, "alumna", fecha_alumna, "cuaderno de alumna")
    (alumna / "notas.txt").write_text("mis notas\n")
    (alumna / "timestamp.txt").write_text("no es una fecha")
    os.symlink(curso / "grader_tests" / "ejercicios" / "positional_encoding" / "referencia.py", alumna / "clave.py")
    os.symlink(curso / "source", alumna / "fuentes")
    os.symlink("/dev/zero", alumna / "ceros.bin")
    os.mkfifo(alumna / "tuberia")
    _dar(alumna, UIDS["alumna"])
    # alumna's own attacks: a far-future date, an unreadable one, a badly formed name
    _entrada(inbound, "alumna", "2099-01-01 00:00:00.000000 UTC", "futuro")
    _entrada(inbound, "alumna", "mañana por la tarde", "ilegible")
    _entrada(inbound, "alumna", _fecha(), "sin tarea", sufijo="+x+y+z")
    # impersonation: newer than the victim's own submission, made by alumna / by a uid nobody has
    _entrada(inbound, "victima", _fecha(-2 * hora), "cuaderno de victima")
    _entrada(inbound, "victima", _fecha(), "suplantada", dueño="alumna")
    _entrada(inbound, "victima", _fecha(-datetime.timedelta(minutes=1)), "suplantada", dueño="nadie")
    # accounts not on the class list (their own entries), and one made up by an account of the class
    for n in range(3):
        _entrada(inbound, f"falso{n}", _fecha(), "falso")
    _entrada(inbound, "falso9", _fecha(), "falso", dueño="fantasma")
    _entrada(inbound, "fantasma", _fecha(), "fantasma")
    # ids that would leave submitted/ or hide in it
    _entrada(inbound, "..", _fecha(), "fuera")
    _entrada(inbound, ".oculto", _fecha(), "oculto")
    # a date set back: the real change time wins
    _entrada(inbound, "tardio", "2020-01-01 00:00:00.000000 UTC", "tardio")
    # a flood: 8 entries (quota 5), the newest too big for the 2 MiB quota
    for n in range(8):
        carpeta = _entrada(inbound, "inundador", _fecha(-datetime.timedelta(seconds=10 + n)), f"inundador {n}")
    grande = _entrada(inbound, "inundador", _fecha(), "grande", sufijo="+grande")
    (grande / "relleno.bin").write_bytes(b"\0" * (3 * 1024 ** 2))
    _dar(grande, UIDS["inundador"])
    # an entry that is a link to the TA's source/
    os.symlink(curso / "source" / TAREA, inbound / f"honesto+{TAREA}+{_fecha(-hora)}+enlace")
    honesto = _entrada(inbound, "honesto", _fecha(-hora), "{}")

    proceso = ejecutar(curso, "nbgrader", "collect", TAREA, check=False, timeout=300)
    salida = proceso.stdout + proceso.stderr
    assert proceso.returncode == 0, salida
    submitted = curso / "submitted"

    def cuaderno(alumno: str) -> str:
        return (submitted / alumno / TAREA / CUADERNO).read_text()

    recogida = submitted / "alumna" / TAREA
    assert sorted(p.name for p in recogida.iterdir()) == [CUADERNO, "notas.txt", "timestamp.txt"]
    for ruta in recogida.rglob("*"):
        assert stat.S_ISREG(ruta.lstat().st_mode), ruta
    for aviso in ("se ignoró un enlace simbólico: clave.py", "se ignoró un enlace simbólico: fuentes",
                  "se ignoró una tubería con nombre (FIFO): tuberia", "se ignoró un enlace simbólico: ceros.bin"):
        assert aviso in salida, (aviso, salida[-3000:])
    # each attack refused on its own, with its reason; everyone else collected
    assert cuaderno("alumna") == "cuaderno de alumna"
    assert cuaderno("victima") == "cuaderno de victima"
    assert cuaderno("honesto") == "{}"
    assert cuaderno("inundador") == "inundador 0"
    assert "fecha en el futuro" in salida and "fecha ilegible" in salida
    assert "el nombre no es <alumno>+<tarea>+<fecha>" in salida
    assert "suplantación: dice ser de «victima» pero la creó la cuenta «alumna»" in salida, salida[-4000:]
    assert "que no es de nadie de la clase" in salida
    assert salida.count("no está en la lista de clase") == 4
    assert "supera la cuota de 5 entregas" in salida and "supera la cuota de 2,0 MiB" in salida
    assert "no es una carpeta (es un enlace simbólico)" in salida
    assert "suplantación: dice ser de «falso9»" in salida
    assert "«..» no vale como identificador de alumno" in salida and "«.oculto» no vale" in salida
    assert not (curso / TAREA).exists() and not (submitted / ".oculto").exists()
    for ausente in ("falso0", "falso1", "falso2", "falso9", "fantasma"):
        assert not (submitted / ausente).exists(), ausente
    # the timestamp is collect's, not the student's
    marca = (submitted / "tardio" / TAREA / "timestamp.txt").read_text()
    assert not marca.startswith("2020"), marca
    assert "es anterior a su último cambio real" in salida
    assert (submitted / "alumna" / TAREA / "timestamp.txt").read_text() == fecha_alumna
    # the report make grade shows (both accounts of an impersonation named)
    informe = json.loads((submitted / f".recogida-{TAREA}.json").read_text())
    suplantacion = [l for l in informe["lineas"] if "suplantación" in l["texto"] and "alumna" in l["alumnos"]]
    assert suplantacion and "victima" in suplantacion[0]["alumnos"], informe
    assert sorted(informe["recogidas"]) == ["alumna", "honesto", "inundador", "tardio", "victima"]

    # the TA's table shows the refusals
    import sys
    sys.path.insert(0, str(curso))
    from grader_tests.extensiones_nbgrader.intercambio import observaciones_de_la_recogida
    por_alumno, generales = observaciones_de_la_recogida(str(submitted), TAREA)
    assert any("fecha en el futuro" in t for t in por_alumno["alumna"])
    assert any("suplantación" in t for t in por_alumno["victima"])
    assert len(generales) == len(informe["lineas"])


def _recogida_en_proceso(curso, inbound, **ajustes):
    """``nbgrader collect`` of TAREA in this process (many runs cost milliseconds, not a process each)."""
    import logging

    from nbgrader.auth import Authenticator
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    import grader_tests.extensiones_nbgrader.intercambio as intercambio

    config = Config()
    config.CourseDirectory.root = str(curso)
    config.CourseDirectory.course_id = CURSO_ID
    config.CourseDirectory.db_url = f"sqlite:///{curso / 'gradebook.db'}"
    config.Exchange.root = str(inbound.parent.parent)
    config.Cuentas.uids = UIDS
    for clave, valor in ajustes.items():
        clase, opcion = clave.split(".")
        config[clase][opcion] = valor

    def recoger() -> str:
        coursedir = CourseDirectory(config=config)
        coursedir.assignment_id = TAREA
        recogida = intercambio.RecogerSeguro(coursedir=coursedir, authenticator=Authenticator(config=config),
                                             config=config)
        recogida.update = True
        registro = io.StringIO()
        manejador = logging.StreamHandler(registro)
        recogida.log.addHandler(manejador)
        try:
            recogida.start()
        finally:
            recogida.log.removeHandler(manejador)
        return registro.getvalue()
    return recoger


@necesita_root
def test_una_inundacion_no_inunda_el_registro_ni_la_recogida(tmp_path):
    """Hundreds of forged entries and an entry with too many files: bounded log, bounded walk, reasons."""
    curso, inbound = _curso_con_intercambio(tmp_path)
    for n in range(150):
        _entrada(inbound, "victima", _fecha(), "forjada", dueño="alumna", sufijo=f"+{n}")
    _entrada(inbound, "victima", _fecha(-datetime.timedelta(minutes=1)), "de victima")
    llena = _entrada(inbound, "alumna", _fecha(), "llena")
    for n in range(60):
        (llena / f"f{n}").write_text("x")
    _dar(llena, UIDS["alumna"])
    recoger = _recogida_en_proceso(curso, inbound, **{"RecogerSeguro.max_avisos": 10,
                                                      "RecogerSeguro.max_archivos": 50})
    registro = recoger()
    assert registro.count("entrada rechazada") == 10, registro[-3000:]
    # 150 forged and the one with too many files, all of alumna's
    assert "y 141 entradas rechazadas más de la cuenta «alumna»" in registro, registro[-2000:]
    assert (curso / "submitted" / "victima" / TAREA / CUADERNO).read_text() == "de victima"
    assert not (curso / "submitted" / "alumna").exists()
    informe = json.loads((curso / "submitted" / f".recogida-{TAREA}.json").read_text())
    assert len(informe["lineas"]) == 11 and "(no se detallan)" in informe["lineas"][-1]["texto"]
    for forjada in inbound.glob("victima+*+*+*"):
        shutil.rmtree(forjada)
    assert "supera la cuota de 256,0 MiB y 50 archivos por alumno y tarea" in recoger()


@necesita_root
def test_una_entrada_que_no_se_puede_leer_o_copiar_no_cuesta_la_anterior(tmp_path, monkeypatch):
    """An entry its author made unreadable is refused (the older one is collected); a copy that fails
    midway leaves the submission collected before untouched."""
    import grader_tests.caja.archivos_alumno as aa
    curso, inbound = _curso_con_intercambio(tmp_path)
    _entrada(inbound, "alumna", _fecha(-datetime.timedelta(minutes=2)), "buena")
    _entrada(inbound, "alumna", _fecha(), "cerrada", sufijo="+cerrada")
    abrir = aa._abrir_carpeta

    def sin_permiso(nombre, dir_fd=None):
        if nombre.endswith("+cerrada"):
            raise PermissionError(13, "Permission denied")
        return abrir(nombre, dir_fd)
    monkeypatch.setattr(aa, "_abrir_carpeta", sin_permiso)
    recoger = _recogida_en_proceso(curso, inbound)
    registro = recoger()
    assert "no se puede abrir (Permission denied)" in registro, registro
    enviada = curso / "submitted" / "alumna" / TAREA
    assert (enviada / CUADERNO).read_text() == "buena"
    monkeypatch.setattr(aa, "_abrir_carpeta", abrir)

    def rota(*args, **kwargs):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(aa, "copiar_entrega", rota)
    registro = recoger()
    assert "no se pudo recoger" in registro, registro
    assert (enviada / CUADERNO).read_text() == "buena"
    assert sorted(p.name for p in enviada.parent.iterdir()) == [TAREA]


@necesita_root
def test_un_enlace_puesto_durante_la_recogida_no_copia_la_clave(tmp_path):
    """The race of issue 19.2: the student keeps swapping a folder for a link while collect copies."""
    curso, inbound = _curso_con_intercambio(tmp_path)
    clave = curso / "grader_tests" / "ejercicios" / "positional_encoding"
    secreto = (clave / "referencia.py").read_bytes()
    entrada = _entrada(inbound, "alumna", _fecha(-datetime.timedelta(minutes=5)), "cuaderno")
    datos = entrada / "datos"
    datos.mkdir()
    mio = b"# mio\n" * 40_000        # larger than each file of the answer key: a copy sized by the walk takes it
    for nombre in ("referencia.py", "propiedades.py", "errores.py"):   # the answer key's names, honest content
        (datos / nombre).write_bytes(mio)
    _dar(entrada, UIDS["alumna"])
    enlace = entrada / "datos.enlace"
    os.symlink(clave, enlace)
    os.symlink(curso / "source", entrada / "fuentes.enlace")

    # another process (true concurrency) keeps swapping datos/ between the real folder and a link to
    # the answer key, as the student would from their own server
    cambiador = subprocess.Popen([sys.executable, "-c", CAMBIAR, str(datos), str(enlace)])
    recoger_aqui = _recogida_en_proceso(curso, inbound)
    destino = curso / "submitted" / "alumna" / TAREA
    recogidas, limite = 0, time.monotonic() + 12
    try:
        while recogidas < 200 and time.monotonic() < limite:
            shutil.rmtree(curso / "submitted", ignore_errors=True)
            recoger_aqui()
            recogidas += 1
            for ruta in destino.rglob("*"):
                assert not ruta.is_symlink(), ruta
                if ruta.is_file():
                    assert ruta.read_bytes() != secreto, f"la clave llegó a la entrega ({ruta}, vuelta {recogidas})"
                    assert ruta.name not in ("referencia.py", "propiedades.py", "errores.py") \
                        or ruta.read_bytes() == mio, (ruta, recogidas)
    finally:
        cambiador.terminate()
        cambiador.wait(timeout=10)
    assert recogidas >= 20, recogidas


def test_en_el_hub_solo_se_entrega_como_uno_mismo(tmp_path):
    """The hub's submit (despliegue/hub/jupyter/comun/entrega_honesta.py): never as someone else, and the
    entry is its author's alone (nbgrader leaves it 0777)."""
    from nbgrader.auth import Authenticator
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.exchange import ExchangeError
    from nbgrader.utils import get_username
    from traitlets.config import Config

    from conftest import RAIZ
    sys.path.insert(0, str(RAIZ / "despliegue" / "hub" / "jupyter" / "comun"))
    from entrega_honesta import EntregaHonesta

    intercambio = tmp_path / "intercambio"
    (intercambio / CURSO_ID / "outbound" / TAREA).mkdir(parents=True)
    (intercambio / CURSO_ID / "inbound").mkdir(mode=0o733)
    os.chmod(intercambio / CURSO_ID / "inbound", 0o733)
    (tmp_path / "alumna" / TAREA).mkdir(parents=True)
    (tmp_path / "alumna" / TAREA / CUADERNO).write_text("{}")
    config = Config()
    config.CourseDirectory.course_id = CURSO_ID
    config.Exchange.root = str(intercambio)
    config.Exchange.cache = str(tmp_path / "cache")
    config.Exchange.assignment_dir = str(tmp_path / "alumna")

    def entregar(como: str):
        coursedir = CourseDirectory(config=config)
        coursedir.assignment_id = TAREA
        coursedir.student_id = como
        EntregaHonesta(coursedir=coursedir, authenticator=Authenticator(config=config), config=config).start()

    with pytest.raises(ExchangeError):
        entregar("victima")
    assert not any((intercambio / CURSO_ID / "inbound").iterdir())
    entregar("*")
    [entrada] = (intercambio / CURSO_ID / "inbound").iterdir()
    assert entrada.name.startswith(f"{get_username()}+{TAREA}+")
    assert stat.S_IMODE(entrada.stat().st_mode) == 0o755 and entrada.stat().st_uid == os.geteuid()
