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


def _entrada(inbound, alumno: str, fecha: str, contenido: str, dueño: str | None = None, sufijo: str = "",
             secreto: bool = True):
    carpeta = inbound / f"{alumno}+{TAREA}+{fecha}{sufijo}"
    carpeta.mkdir()
    (carpeta / CUADERNO).write_text(contenido)
    (carpeta / "timestamp.txt").write_text(fecha)
    if secreto:                                       # nbgrader's submit writes it; a hand-made entry may not
        (carpeta / "submission_secret.txt").write_text("s" * 64)
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
    inbound.chmod(0o2733)                    # as nbgrader's release_assignment leaves it
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
    # the other assignment of the course, which this fresh gradebook does not know yet (a third attacker's F3:
    # honest entries reported as «una tarea que no existe»), and one that no folder of the course has
    for otra in ("01_atencion_multicabeza", "99_inventada"):
        ajena = inbound / f"alumna+{otra}+{_fecha()}"
        ajena.mkdir()
        (ajena / "timestamp.txt").write_text(_fecha())
        _dar(ajena, UIDS["alumna"])
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
    assert sorted(p.name for p in recogida.iterdir()) == [CUADERNO, "notas.txt", "submission_secret.txt",
                                                         "timestamp.txt"]
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
    assert "«99_inventada»" in salida and "01_atencion_multicabeza" not in salida, salida[-4000:]
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


def test_un_millon_de_entradas_no_se_guarda_entero_en_la_memoria_de_la_recogida(tmp_path, monkeypatch):
    """A fresh attacker made a million empty files named like her entries in inbound (open(O_PATH) + openat): collect
    listed them all and kept every refusal, 733 MB. Now it reads the folder as it goes, keeps the first max_avisos
    refusals (the rest only counted per account) and each student's newest 2 × max_entradas entries at most."""
    import grader_tests.extensiones_nbgrader.intercambio as intercambio
    curso, inbound = _curso_con_intercambio(tmp_path)
    for n in range(3000):
        vacio = inbound / f"alumna+{TAREA}+{_fecha(-datetime.timedelta(hours=1))}+{n}"
        vacio.write_text("")
        os.chown(vacio, UIDS["alumna"], UIDS["alumna"])
    for n in range(40):
        _entrada(inbound, "alumna", _fecha(-datetime.timedelta(minutes=50 - n)), f"alumna {n}", sufijo=f"+d{n}")
    picos = []
    clasificar = intercambio.RecogerSeguro._clasificar

    def medir(self, nombre, tarea, solo, por_alumno):
        clasificar(self, nombre, tarea, solo, por_alumno)
        picos.append((len(self._rechazadas), max((len(v) for v in por_alumno.values()), default=0)))
    monkeypatch.setattr(intercambio.RecogerSeguro, "_clasificar", medir)
    registro = _recogida_en_proceso(curso, inbound, **{"RecogerSeguro.max_avisos": 10,
                                                       "RecogerSeguro.max_entradas": 5})()
    assert max(r for r, _ in picos) <= 10 and max(e for _, e in picos) <= 2 * 5 + 1, max(picos)
    # one of her five newest (the quota; among them the real write time decides)
    assert (curso / "submitted" / "alumna" / TAREA / CUADERNO).read_text() in {f"alumna {n}" for n in range(35, 40)}
    assert "y 3025 entradas rechazadas más de la cuenta «alumna»" in registro, registro[-2000:]
    assert "3035 entradas rechazadas (ver los motivos arriba)" in registro, registro[-2000:]


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
    assert "no se pudo recoger: la copia falló (" in registro, registro
    assert (enviada / CUADERNO).read_text() == "buena"
    assert sorted(p.name for p in enviada.parent.iterdir()) == [TAREA]


@necesita_root
def test_el_margen_de_la_fecha_nunca_cruza_el_plazo(tmp_path):
    """TA round 7, P2-1: a student who rebuilds their entry by hand after the due date, with a name dated
    before it, is late by the real time (ctime); the margin for slow copies applies only when no due date
    (the assignment's or the student's extension) lies between the name's date and the real change."""
    from nbgrader.api import Gradebook
    curso, inbound = _curso_con_intercambio(tmp_path)
    ahora = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    with Gradebook(f"sqlite:///{curso / 'gradebook.db'}") as gb:
        gb.update_or_create_assignment(TAREA, duedate=ahora - datetime.timedelta(minutes=2))
    antes = _fecha(-datetime.timedelta(minutes=5))          # before the due date, within margen_pasado
    _entrada(inbound, "tardio", antes, "hecha a mano", secreto=False)   # made now, by hand: after the due date
    _entrada(inbound, "alumna", antes, "con prórroga")      # her extension covers now
    _entrada(inbound, "honesto", antes, "sin plazo cruzado", sufijo="+x1")
    recoger = _recogida_en_proceso(
        curso, inbound, **{"PlazosDelCurso.prorrogas": {TAREA: {"alumna": "1 día"}}})
    registro = recoger()

    def marca(alumno: str) -> datetime.datetime:
        texto = (curso / "submitted" / alumno / TAREA / "timestamp.txt").read_text()
        return datetime.datetime.strptime(texto, FORMATO)
    assert marca("tardio") > ahora - datetime.timedelta(minutes=2), registro
    assert "cuenta la hora real, entrega tardía" in registro, registro
    # the extension covers the real time: counted by it, and not called late
    assert marca("alumna") >= ahora - datetime.timedelta(seconds=5), registro
    informe = json.loads((curso / "submitted" / f".recogida-{TAREA}.json").read_text())
    [linea] = [l for l in informe["lineas"] if l["alumnos"] == ["tardio"]]
    assert "entrega tardía" in linea["texto"]
    assert "no trae submission_secret.txt (no la hizo el botón Entregar" in linea["texto"]    # P2-4: said at collect
    [linea] = [l for l in informe["lineas"] if l["alumnos"] == ["alumna"]]
    assert "hora real" in linea["texto"] and "tardía" not in linea["texto"]

    # with the due date an hour ahead, nothing is crossed: the slow-copy margin keeps the name's date
    with Gradebook(f"sqlite:///{curso / 'gradebook.db'}") as gb:
        gb.update_or_create_assignment(TAREA, duedate=ahora + datetime.timedelta(hours=1))
    shutil.rmtree(curso / "submitted")
    registro = recoger()
    assert (curso / "submitted" / "honesto" / TAREA / "timestamp.txt").read_text() == antes, registro
    assert "hora real" not in registro


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


def _entregar_en_el_hub(tmp_path, inbound_modo: int):
    """A submit with the hub's EntregaHonesta (this account) into a fresh exchange; returns (entrada, log, submit)."""
    import logging

    from nbgrader.auth import Authenticator
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    from conftest import RAIZ
    sys.path.insert(0, str(RAIZ / "despliegue" / "hub" / "jupyter" / "comun"))
    from entrega_honesta import EntregaHonesta

    intercambio = tmp_path / "intercambio"
    (intercambio / CURSO_ID / "outbound" / TAREA).mkdir(parents=True)
    inbound = intercambio / CURSO_ID / "inbound"
    inbound.mkdir()
    if os.geteuid() == 0:
        os.chown(inbound, -1, 4242)          # the graders' group, not this account's
    os.chmod(inbound, inbound_modo)
    (tmp_path / "alumna" / TAREA / "datos").mkdir(parents=True)
    (tmp_path / "alumna" / TAREA / CUADERNO).write_text("{}")
    (tmp_path / "alumna" / TAREA / "datos" / "x.txt").write_text("x")
    config = Config()
    config.CourseDirectory.course_id = CURSO_ID
    config.Exchange.root = str(intercambio)
    config.Exchange.cache = str(tmp_path / "cache")
    config.Exchange.assignment_dir = str(tmp_path / "alumna")

    def entregar(como: str) -> tuple[str, object]:
        coursedir = CourseDirectory(config=config)
        coursedir.assignment_id = TAREA
        coursedir.student_id = como
        envio = EntregaHonesta(coursedir=coursedir, authenticator=Authenticator(config=config), config=config)
        registro = io.StringIO()
        manejador = logging.StreamHandler(registro)
        nivel = envio.log.level
        envio.log.addHandler(manejador)
        envio.log.setLevel(logging.INFO)
        try:
            envio.start()
        finally:
            envio.log.removeHandler(manejador)
            envio.log.setLevel(nivel)
        return registro.getvalue(), envio
    return inbound, entregar


@pytest.mark.parametrize("inbound_modo, modos", [(0o3733, (0o750, 0o640)), (0o733, (0o755, 0o644))],
                         ids=["inbound-setgid", "inbound-sin-setgid"])
def test_en_el_hub_solo_se_entrega_como_uno_mismo_y_en_privado(tmp_path, inbound_modo, modos):
    """The hub's submit (despliegue/hub/jupyter/comun/entrega_honesta.py): never as someone else; the entry is
    its author's and the graders' group's alone (nbgrader leaves it 0777 and its files 0644), built out of
    sight and renamed into place; the log never carries the entry's random code."""
    from nbgrader.exchange import ExchangeError
    from nbgrader.utils import get_username

    inbound, entregar = _entregar_en_el_hub(tmp_path, inbound_modo)
    with pytest.raises(ExchangeError):
        entregar("victima")
    assert not any(inbound.iterdir())
    registro, envio = entregar("*")
    [entrada] = inbound.iterdir()                      # nothing left of the private folder it was built in
    assert entrada.name.startswith(f"{get_username()}+{TAREA}+") and entrada.stat().st_uid == os.geteuid()
    codigo = entrada.name.rsplit("+", 1)[1]
    assert len(codigo) >= 12 and codigo not in registro, registro
    assert f"{get_username()}+{TAREA}+{envio.timestamp}+…" in registro
    carpeta, archivo = modos
    for ruta in [entrada, *entrada.rglob("*")]:
        esperado = carpeta if ruta.is_dir() else archivo
        assert stat.S_IMODE(ruta.stat().st_mode) & 0o777 == esperado, (ruta, oct(ruta.stat().st_mode))
        if inbound_modo & stat.S_ISGID:      # every file the graders' group's, nbgrader's own included
            assert ruta.stat().st_gid == inbound.stat().st_gid, (ruta, ruta.stat().st_gid)
    assert sorted(p.name for p in entrada.iterdir()) == sorted([CUADERNO, "datos", "timestamp.txt",
                                                               "submission_secret.txt"])
    assert ("sin setgid" in registro) == (modos == (0o755, 0o644))


def test_un_enlace_en_la_carpeta_no_impide_entregar_y_se_nombra(tmp_path):
    """TA round 7, P2-2: links (a broken one, one to a file the student cannot read, one to a folder) and
    special files in the assignment folder are left out, never followed, named in the log and shown under
    the submission in the Assignments tab; the rest is submitted.  A file that cannot be copied ends the
    submit with a Spanish message naming it, and the Submit dialog shows only that message."""
    from plazos_assignments import lista

    inbound, entregar = _entregar_en_el_hub(tmp_path, 0o3733)
    import entrega_honesta          # on sys.path now (the hub's common profile)
    carpeta = tmp_path / "alumna" / TAREA
    os.symlink("/no/existe", carpeta / "datos_rotos")
    os.symlink(tmp_path / "intercambio", carpeta / "datos" / "otra_carpeta")
    secreto = tmp_path / "ajeno.ipynb"
    secreto.write_text("de otra persona")
    secreto.chmod(0)
    os.symlink(secreto, carpeta / "enlace_ana.ipynb")
    os.mkfifo(carpeta / "tuberia")
    registro, envio = entregar("*")
    [entrada] = inbound.iterdir()
    assert sorted(p.name for p in entrada.iterdir()) == sorted([CUADERNO, "datos", "timestamp.txt",
                                                               "submission_secret.txt"])
    assert [p.name for p in (entrada / "datos").iterdir()] == ["x.txt"]
    for nombre in ("datos_rotos", "enlace_ana.ipynb", "tuberia", os.path.join("datos", "otra_carpeta")):
        assert f"No se entrega «{nombre}»" in registro, (nombre, registro)
    assert "Errno" not in registro and "(None)" not in registro
    # the tab's list reads what was left out from the student's own copy
    [cache] = [p for p in (tmp_path / "cache" / CURSO_ID).iterdir() if p.is_dir()]
    info = lista.anotar_omitidos({"path": str(cache)})
    assert {o["ruta"]: o["motivo"] for o in info["curso_omitidos"]} == {
        "datos_rotos": "enlace simbólico", "enlace_ana.ipynb": "enlace simbólico",
        "tuberia": "tubería con nombre (FIFO)", os.path.join("datos", "otra_carpeta"): "enlace simbólico"}
    assert lista.anotar_omitidos({"path": str(tmp_path / "no_existe")})["curso_omitidos"] == []

    # a file that cannot be read: a Spanish message that names it, nothing in inbound, no traceback shown
    import shutil as sh
    copiar = sh.copyfile

    def ilegible(origen, destino, **kw):          # root reads every file: the student's EACCES, simulated
        if os.fspath(origen).endswith("x.txt"):
            raise PermissionError(13, "Permission denied", os.fspath(origen))
        return copiar(origen, destino, **kw)
    sh.copyfile = ilegible
    try:
        with pytest.raises(entrega_honesta.EntregaFallida) as error:
            entregar("*")
    finally:
        sh.copyfile = copiar
    mensaje = str(error.value)
    assert f"«{os.path.join('datos', 'x.txt')}» (Permission denied)" in mensaje and "Entregar" in mensaje, mensaje
    assert len(list(inbound.iterdir())) == 1
    traza = ("Traceback (most recent call last):\n  File \"x.py\", line 1\n"
             f"entrega_honesta.EntregaFallida: {mensaje}\n")
    envuelta = entrega_honesta._solo_el_mensaje(lambda self, c, a: {"success": False, "value": traza})
    assert envuelta(None, CURSO_ID, TAREA) == {"success": False, "value": mensaje}
    otra = entrega_honesta._solo_el_mensaje(lambda self, c, a: {"success": False, "value": "ValueError: x"})
    assert otra(None, CURSO_ID, TAREA)["value"] == "ValueError: x"


def test_en_el_hub_submit_rechaza_lo_que_la_calificacion_recortaria(tmp_path):
    """TA round 8, P4: nbgrader's Submit takes 100 MB while grading keeps 64 MiB and 200 files and folders
    (PresupuestoEntrega): the hub's Submit refuses more, before writing anything, with the size or count and
    what to remove; what nbgrader leaves out (.ipynb_checkpoints) does not count."""
    from grader_tests.caja.archivos_alumno import PresupuestoEntrega

    inbound, entregar = _entregar_en_el_hub(tmp_path, 0o3733)
    import entrega_honesta
    assert entrega_honesta.MAX_BYTES == PresupuestoEntrega.bytes_totales.default_value
    assert entrega_honesta.MAX_ENTRADAS == PresupuestoEntrega.archivos.default_value
    carpeta = tmp_path / "alumna" / TAREA
    puntos = carpeta / ".ipynb_checkpoints"
    puntos.mkdir()
    for i in range(250):                               # left out by nbgrader: not counted
        (puntos / f"c{i}.ipynb").write_text("{}")
    entregar("*")
    assert len(list(inbound.iterdir())) == 1
    grande = carpeta / "datos" / "grande.bin"
    with open(grande, "wb") as f:                      # sparse: 65 MiB of logical size
        f.truncate(65 * 1024 ** 2)
    with pytest.raises(entrega_honesta.EntregaFallida) as error:
        entregar("*")
    assert "La carpeta de la tarea ocupa 65 MiB y el máximo es 64 MiB" in str(error.value), error.value
    assert len(list(inbound.iterdir())) == 1
    grande.unlink()
    for i in range(entrega_honesta.MAX_ENTRADAS):
        (carpeta / "datos" / f"f{i}.png").write_text("x")
    with pytest.raises(entrega_honesta.EntregaFallida) as error:
        entregar("*")
    assert f"tiene {entrega_honesta.MAX_ENTRADAS + 3} archivos y carpetas y el máximo es 200" in str(error.value)
    assert len(list(inbound.iterdir())) == 1


@necesita_root
def test_una_entrada_que_desaparece_antes_de_copiarse_se_dice_y_se_recoge_la_anterior(tmp_path, monkeypatch):
    """An entry renamed or removed by its author between collect judging it and copying it is refused with
    its reason (never skipped in silence) and the student's previous accepted entry is collected; an
    unreadable subfolder of an entry is reported; no log line carries an entry's random code."""
    import grader_tests.caja.archivos_alumno as aa
    import grader_tests.extensiones_nbgrader.intercambio as intercambio
    curso, inbound = _curso_con_intercambio(tmp_path)
    fecha_anterior = _fecha(-datetime.timedelta(minutes=2))
    anterior = _entrada(inbound, "alumna", fecha_anterior, "anterior", sufijo="+codigoViejo1")
    (anterior / "privada").mkdir()
    (anterior / "privada" / "apuntes.txt").write_text("x")
    _dar(anterior, UIDS["alumna"])
    nueva = _entrada(inbound, "alumna", _fecha(), "nueva", sufijo="+codigoNuevo1")
    original = intercambio.RecogerSeguro.init_dest

    def y_desaparece(self):
        original(self)
        shutil.rmtree(nueva)            # judged, then gone before the copy
    monkeypatch.setattr(intercambio.RecogerSeguro, "init_dest", y_desaparece)
    abrir = aa._abrir_carpeta

    def privada_ilegible(nombre, dir_fd=None):
        if nombre == "privada":          # what a TA who is not root meets when the author made it 0700
            raise PermissionError(13, "Permission denied")
        return abrir(nombre, dir_fd)
    monkeypatch.setattr(aa, "_abrir_carpeta", privada_ilegible)
    registro = _recogida_en_proceso(curso, inbound)()
    assert "entrada rechazada «alumna+02_codificacion_posicional+" in registro, registro
    assert "+…»: desapareció o cambió antes de copiarse (No such file or directory)" in registro, registro
    assert "no se pudo leer la carpeta privada (Permission denied)" in registro, registro
    enviada = curso / "submitted" / "alumna" / TAREA
    assert (enviada / CUADERNO).read_text() == "anterior"
    assert (enviada / "timestamp.txt").read_text() == fecha_anterior
    assert "codigoNuevo1" not in registro and "codigoViejo1" not in registro
    informe = json.loads((curso / "submitted" / f".recogida-{TAREA}.json").read_text())
    assert any("desapareció" in l["texto"] and l["alumnos"] == ["alumna"] for l in informe["lineas"]), informe
    assert "codigoNuevo1" not in json.dumps(informe)


# what a classmate tries against another's entry from their own account (only the standard library)
ATAQUE = """
import json, os, sys
inbound, victima, propia = sys.argv[1:]
v, p = os.path.join(inbound, victima), os.path.join(inbound, propia)
r = {}
def probar(nombre, f):
    try:
        f()
        r[nombre] = "OK"
    except OSError as e:
        r[nombre] = e.errno
probar("listar inbound", lambda: os.listdir(inbound))
probar("renombrar", lambda: os.rename(v, os.path.join(inbound, victima.split("+")[0] + "+oculta")))
probar("sacar", lambda: os.rename(v, os.path.join(p, "robada")))
probar("sustituir", lambda: os.rename(p, v))
probar("borrar", lambda: os.rmdir(v))
probar("listar la entrada", lambda: os.listdir(v))
probar("leer el cuaderno", lambda: open(os.path.join(v, "codificacion_posicional.ipynb")).read())
probar("leer el secreto", lambda: open(os.path.join(v, "submission_secret.txt")).read())
probar("enlazar", lambda: os.link(os.path.join(v, "codificacion_posicional.ipynb"), os.path.join(p, "x")))
probar("cambiar la fecha", lambda: os.utime(v))
probar("renombrar la propia", lambda: os.rename(p, p + "x"))
print(json.dumps(r))
"""


@necesita_root
def test_nadie_mueve_lee_ni_enlaza_la_entrada_de_otro(tmp_path):
    """Finding 2 of issue 19's second attack, with real accounts: the course's release leaves inbound sticky
    and setgid; an entry as the hub's submit leaves it (the author's, the graders' group, 0750/0640) cannot
    be renamed, moved, replaced, removed, listed, read, hard-linked or re-dated by a classmate; its author's
    date is the one collected; an entry whose author renamed it so it no longer parses is reported."""
    import pwd

    from entornos_python import UsuarioDeUsarYTirar, carpeta_compartida
    base = carpeta_compartida("intercambio-pegajoso-")
    cuentas = []
    try:
        ana, beto = UsuarioDeUsarYTirar(), UsuarioDeUsarYTirar()
        cuentas += [ana, beto]
        curso = copiar_curso(tmp_path / "curso")
        intercambio = base / "intercambio"
        intercambio.mkdir(mode=0o1777)
        intercambio.chmod(0o1777)
        with open(curso / "nbgrader_config.py", "a") as f:
            f.write(f"\nc.Exchange.root = {str(intercambio)!r}\n")
        from nbgrader.api import Gradebook
        with Gradebook(f"sqlite:///{curso / 'gradebook.db'}") as gb:
            for cuenta in cuentas:
                gb.add_student(cuenta.nombre)
        ejecutar(curso, "nbgrader", "release_assignment", TAREA, timeout=300)
        inbound = intercambio / CURSO_ID / "inbound"
        assert stat.S_IMODE(inbound.stat().st_mode) == 0o3733, oct(inbound.stat().st_mode)

        def entrada_como_el_hub(cuenta, fecha: str, contenido: str, codigo: str):
            carpeta = inbound / f"{cuenta.nombre}+{TAREA}+{fecha}+{codigo}"
            carpeta.mkdir(mode=0o750)
            for nombre, texto in ((CUADERNO, contenido), ("timestamp.txt", fecha), ("submission_secret.txt", "s" * 64)):
                (carpeta / nombre).write_text(texto)
                (carpeta / nombre).chmod(0o640)
            for ruta in [carpeta, *carpeta.iterdir()]:
                os.chown(ruta, cuenta.uid, -1)      # the group stays inbound's, as setgid gave it
            assert carpeta.stat().st_gid == inbound.stat().st_gid
            return carpeta

        fecha_ana = _fecha(-datetime.timedelta(minutes=3))
        de_ana = entrada_como_el_hub(ana, fecha_ana, "de ana", "codigoAna001")
        renombrada = entrada_como_el_hub(ana, _fecha(-datetime.timedelta(minutes=1)), "la que renombra", "codigoAna002")
        de_beto = entrada_como_el_hub(beto, _fecha(), "de beto", "codigoBeto01")
        antes = de_ana.stat()

        ataque = subprocess.run(beto.orden("/usr/bin/python3", "-c", ATAQUE, str(inbound), de_ana.name, de_beto.name),
                                capture_output=True, text=True, timeout=60, cwd="/")
        assert ataque.returncode == 0, ataque.stderr
        resultado = json.loads(ataque.stdout)
        assert resultado.pop("renombrar la propia") == "OK"          # one's own entry is one's own
        assert all(r != "OK" for r in resultado.values()), resultado
        despues = de_ana.stat()
        assert (despues.st_ctime_ns, despues.st_mtime_ns) == (antes.st_ctime_ns, antes.st_mtime_ns)
        # its author renames an entry so that it no longer names any assignment
        autora = subprocess.run(ana.orden("/usr/bin/python3", "-c", "import os, sys; os.rename(*sys.argv[1:])",
                                          str(renombrada), str(inbound / f"{ana.nombre}+oculta")),
                                capture_output=True, text=True, timeout=60, cwd="/")
        assert autora.returncode == 0, autora.stderr

        proceso = ejecutar(curso, "nbgrader", "collect", TAREA, check=False, timeout=300)
        salida = proceso.stdout + proceso.stderr
        assert proceso.returncode == 0, salida
        enviada = curso / "submitted" / ana.nombre / TAREA
        assert (enviada / CUADERNO).read_text() == "de ana"
        assert (enviada / "timestamp.txt").read_text() == fecha_ana         # her date, nobody moved it
        assert f"entrada rechazada «{ana.nombre}+oculta»: el nombre no es <alumno>+<tarea>+<fecha>" in salida, salida
        for codigo in ("codigoAna001", "codigoAna002", "codigoBeto01"):
            assert codigo not in salida
        informe = json.loads((curso / "submitted" / f".recogida-{TAREA}.json").read_text())
        assert any("oculta" in l["texto"] and l["alumnos"] == [ana.nombre] for l in informe["lineas"]), informe
        assert pwd.getpwnam(ana.nombre).pw_uid == ana.uid
    finally:
        for cuenta in cuentas:
            cuenta.borrar()
        shutil.rmtree(base, ignore_errors=True)


def test_la_configuracion_del_alumno_no_se_carga_nunca_y_validate_va_en_la_caja(tmp_path):
    """A hostile tester's F6: collect kept the student's edited nbgrader_config.py in submitted/, and `nbgrader
    validate` run inside that folder executed it as the TA; from the course root, Validate ran the student's code
    outside the sandbox (also the service JupyterLab's Validate button). Now the student's configuration files
    are kept renamed (inert) with the course's copy in their place, and Validate from the course root starts its
    kernel in the sandbox."""
    import nbformat

    from grader_tests.extensiones_nbgrader.intercambio import SUFIJO_INERTE, desactivar_configuracion
    curso = copiar_curso(tmp_path / "curso")
    tarea = "02_codificacion_posicional"
    entrega = curso / "submitted" / "mala" / tarea
    shutil.copytree(curso / "release" / tarea, entrega)
    marca = tmp_path / "fuera"
    (entrega / "nbgrader_config.py").write_text(f"open({str(marca / 'config')!r}, 'w').write('x')\n")
    (entrega / "jupyter_server_config.py").write_text("c = get_config()\n")
    # ... also in subfolders (a TA may open a terminal there too; a fresh attacker's P3)
    (entrega / "datos" / "mas").mkdir(parents=True)
    (entrega / "datos" / "ipython_config.py").write_text(f"open({str(marca / 'sub')!r}, 'w').write('x')\n")
    (entrega / "datos" / "mas" / "jupyter_server_config.json").write_text("{}")
    (entrega / "datos" / "mas" / "nbgrader_config.py").symlink_to("/etc/passwd")
    renombrados = desactivar_configuracion(str(entrega), str(curso / "source" / tarea))
    assert renombrados == ["datos/ipython_config.py", "datos/mas/jupyter_server_config.json",
                           "datos/mas/nbgrader_config.py", "jupyter_server_config.py", "nbgrader_config.py"]
    assert not (entrega / "datos" / "ipython_config.py").exists()
    assert (entrega / "datos" / ("ipython_config.py" + SUFIJO_INERTE)).is_file()
    assert (entrega / "datos" / "mas" / ("nbgrader_config.py" + SUFIJO_INERTE)).is_symlink()
    assert not (entrega / "datos" / "mas" / "nbgrader_config.py").exists()
    assert (entrega / ("nbgrader_config.py" + SUFIJO_INERTE)).exists()
    assert (entrega / "nbgrader_config.py").read_bytes() == (curso / "source" / tarea / "nbgrader_config.py").read_bytes()
    assert not (entrega / "jupyter_server_config.py").exists()
    assert desactivar_configuracion(str(entrega), str(curso / "source" / tarea)) == []   # the course's: kept
    # Validate from the course root: the student's code runs in the sandbox (it cannot write outside it)
    marca.mkdir()
    ruta = entrega / "codificacion_posicional.ipynb"
    nb = nbformat.read(ruta, as_version=4)
    celda = next(c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "positional_encoding")
    celda.source = (f"open({str(marca / 'codigo')!r}, 'w').write('sin caja')\n"
                    "def positional_encoding(T, d_model):\n    raise NotImplementedError()\n")
    nbformat.write(nb, ruta)
    salida = ejecutar(curso, "nbgrader", "validate", str(ruta.relative_to(curso)), check=False)
    assert "Validating" in salida.stdout + salida.stderr, salida
    assert not (marca / "codigo").exists(), "el código del alumno escribió fuera de la caja"
    assert not (marca / "config").exists()
    # ... and inside the submission's folder (a second attacker: the assignment's copy of the configuration ran it
    # outside the sandbox, as the TA), where a TA reproduces what the student saw
    entorno = {**os.environ, "PYTHONPATH": str(curso)}
    salida = subprocess.run([str(BIN / "nbgrader"), "validate", ruta.name], cwd=entrega, env=entorno,
                            capture_output=True, text=True, timeout=300)
    assert "Validating" in salida.stdout + salida.stderr, salida
    assert not (marca / "codigo").exists(), "en la carpeta de la entrega, el código del alumno corrió fuera de la caja"
    # without the course's code at hand, it refuses in Spanish instead of running the student's code
    salida = subprocess.run([str(BIN / "nbgrader"), "validate", ruta.name], cwd=entrega, capture_output=True,
                            text=True, timeout=300, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert not (marca / "codigo").exists()
