"""LMS downloads in, grades and feedback out (lms/): unit tests on synthetic downloads.

The end-to-end run through real ``nbgrader zip_collect`` + autograde + export
is ``test_lms_de_principio_a_fin.py``.
"""
from __future__ import annotations

import csv
import io
import json
import os
import stat
import struct
import sys
import time
import zipfile
from pathlib import Path

import pytest

from conftest import RAIZ
from descargas_lms import (NB1, NB2, T1, T2, canvas, cuaderno_comprimible, escribir, hoja_moodle, libro_canvas,
                           moodle, zip_de)

from lms import comentarios, formatos
from lms.descompresion import Limites, descomprimir, extraer_carpeta
from lms.exportadores import HojaDeCalificacionMoodle, LibroDeCalificacionesCanvas
from lms.lista_de_clase import id_provisional, leer_lista
from lms.recogida import clasificar, entrega_del_lms, guardar_informe, informe_de_extraccion

RELEASE = RAIZ / "release"
pytestmark = pytest.mark.filterwarnings("ignore:Duplicate name")
AHORA = time.time()


def _cuaderno(tarea: str, nombre: str, marca: str = "") -> bytes:
    """A copy of the released notebook (with its nbgrader grade_ids), tagged so copies differ."""
    nb = json.loads((RELEASE / tarea / nombre).read_text())
    nb["metadata"]["marca_de_prueba"] = marca
    return json.dumps(nb).encode()


# ============================================================================ unpacking (issue 10, item 8)


def _zip_crudo(entradas: list[tuple[zipfile.ZipInfo | str, bytes]]) -> bytes:
    salida = io.BytesIO()
    with zipfile.ZipFile(salida, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, datos in entradas:
            zf.writestr(info, datos)
    return salida.getvalue()


def _info(nombre: str, tipo: int = stat.S_IFREG, permisos: int = 0o644) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(nombre)
    info.create_system = 3
    info.external_attr = (tipo | permisos) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def _mentiroso() -> bytes:
    """A zip whose entry declares 1 000 bytes and holds 5 MB (both size fields patched)."""
    datos = bytearray(_zip_crudo([("ceros.ipynb", b"\0" * 5_000_000)]))
    real = struct.pack("<I", 5_000_000)
    falso = struct.pack("<I", 1000)
    central = datos.rfind(b"PK\x01\x02")
    datos[central + 24:central + 28] = falso                  # central directory: uncompressed size
    assert datos[22:26] == real
    datos[22:26] = falso                                       # local header: uncompressed size
    return bytes(datos)


def _anidado(niveles: int) -> bytes:
    datos = _zip_crudo([(NB1, b"{}")])
    for n in range(niveles):
        datos = _zip_crudo([(f"nivel{n}.zip", datos)])
    return datos


def _cifrado() -> bytes:
    """An entry marked encrypted (bit 0 of the flags, local header and central directory)."""
    datos = bytearray(_zip_crudo([("secreto.ipynb", b"{}")]))
    datos[6] |= 0x1
    datos[datos.rfind(b"PK\x01\x02") + 8] |= 0x1
    return bytes(datos)


MALOS = {
    "corrupto.zip": (b"PK\x03\x04" + os.urandom(300), "no es un zip válido o está dañado"),
    "truncado.zip": (_zip_crudo([(NB1, os.urandom(5000))])[:-40], "no es un zip válido o está dañado"),
    "sale.zip": (_zip_crudo([("../../fuera.ipynb", b"{}")]), "sale de su carpeta"),
    "sale_windows.zip": (_zip_crudo([("..\\..\\fuera.ipynb", b"{}")]), "sale de su carpeta"),
    "absoluto.zip": (_zip_crudo([("/tmp/absoluto.ipynb", b"{}")]), "ruta absoluta"),
    "unidad.zip": (_zip_crudo([("C:/Windows/x.ipynb", b"{}")]), "ruta absoluta"),
    "control.zip": (_zip_crudo([("a\x1b[31mrojo.ipynb", b"{}")]), "caracteres de control"),
    "enlace.zip": (_zip_crudo([(_info("enlace.ipynb", stat.S_IFLNK, 0o777), b"/etc/passwd")]), "enlace simbólico"),
    "dispositivo.zip": (_zip_crudo([(_info("disp", stat.S_IFCHR), b"")]), "archivo especial"),
    "fifo.zip": (_zip_crudo([(_info("tuberia", stat.S_IFIFO), b"")]), "archivo especial"),
    "cifrado.zip": (_cifrado(), "contraseña"),
    "repetido.zip": (_zip_crudo([("a.ipynb", b"1"), ("a.ipynb", b"2")]), "mismo nombre"),
    "choque.zip": (_zip_crudo([("a", b"1"), ("a/b.ipynb", b"2")]), "mismo nombre"),
    "bomba.zip": (_zip_crudo([("ceros.ipynb", b"\0" * 20_000_000)]), "bomba de descompresión"),
    "grande.zip": (_zip_crudo([("grande.ipynb", os.urandom(3_000_000))]), "límite por archivo"),
    "mentiroso.zip": (_mentiroso(), ""),
    "muchas.zip": (_zip_crudo([(f"f{i}.txt", b"x") for i in range(60)]), "entradas (límite: 50)"),
    "profundo.zip": (_anidado(3), "más allá de 2 niveles"),
}
LIMITES = Limites(bytes_totales=8_000_000, bytes_por_archivo=2_000_000, entradas=50, proporcion=100.0,
                  proporcion_desde=100_000, profundidad=2)


@pytest.fixture(scope="module")
def extraccion_mala(tmp_path_factory):
    base = tmp_path_factory.mktemp("malos")
    origen, destino = base / "archive", base / "extracted"
    destino.mkdir()
    for nombre, (datos, _) in MALOS.items():
        escribir(origen / nombre, datos)
    escribir(origen / "bueno.zip", zip_de({f"Ana_1_assignsubmission_file/{NB1}": b"{}"}))
    escribir(origen / "suelto.ipynb", b"{}")
    os.symlink("/etc/passwd", origen / "enlace_suelto.zip")
    os.symlink("/etc", origen / "carpeta_enlazada")
    os.mkfifo(origen / "tuberia.zip")
    antes = sorted(p.name for p in base.parent.iterdir())
    resultado = extraer_carpeta(origen, destino, LIMITES)
    return {"base": base, "destino": destino, "resultado": resultado, "antes": antes}


# what is refused as a whole: an archive that cannot be read, or with too many entries (everything
# else is refused file by file: an LMS download holds the whole class)
ENTEROS = {"corrupto.zip", "truncado.zip", "muchas.zip"}


@pytest.mark.parametrize("nombre", sorted(MALOS))
def test_cada_archivo_malo_se_rechaza_con_su_motivo(extraccion_mala, nombre):
    rechazos = [r for r in extraccion_mala["resultado"].rechazos
                if r.archivo == nombre or r.archivo.startswith(nombre + "/")]
    assert rechazos, (nombre, extraccion_mala["resultado"].rechazos)
    assert MALOS[nombre][1] in " ".join(r.motivo for r in rechazos), rechazos
    carpeta = extraccion_mala["destino"] / nombre.removesuffix(".zip")
    if nombre in ENTEROS:
        assert [r.archivo for r in rechazos] == [nombre] and not carpeta.exists()
    elif nombre != "profundo.zip":    # a nested zip too deep is dropped; the rest of its parent is kept
        assert all(r.archivo.startswith(nombre + "/") for r in rechazos), rechazos     # the file, not the zip
        quedan = sorted(str(p.relative_to(carpeta)) for p in carpeta.rglob("*") if p.is_file())
        assert quedan == {"choque.zip": ["a"], "repetido.zip": ["a.ipynb"]}.get(nombre, []), quedan


def test_los_archivos_malos_no_detienen_a_los_buenos(extraccion_mala):
    destino = extraccion_mala["destino"]
    assert (destino / "bueno" / "Ana_1_assignsubmission_file" / NB1).read_bytes() == b"{}"
    assert (destino / "suelto.ipynb").read_bytes() == b"{}"
    motivos = {r.archivo: r.motivo for r in extraccion_mala["resultado"].rechazos}
    assert "enlace simbólico" in motivos["enlace_suelto.zip"]
    assert "enlace simbólico" in motivos["carpeta_enlazada"]
    assert "no es un archivo normal" in motivos["tuberia.zip"]


def test_nada_se_escribe_fuera_ni_queda_un_enlace(extraccion_mala):
    base, destino = extraccion_mala["base"], extraccion_mala["destino"]
    assert sorted(p.name for p in base.parent.iterdir()) == extraccion_mala["antes"]
    assert not list(base.rglob("fuera.ipynb")) and not Path("/tmp/absoluto.ipynb").exists()
    for ruta in destino.rglob("*"):
        modo = os.lstat(ruta).st_mode
        assert stat.S_ISREG(modo) or stat.S_ISDIR(modo), ruta
    total = sum(p.stat().st_size for p in destino.rglob("*") if p.is_file())
    assert total <= LIMITES.bytes_totales


def test_un_tamano_declarado_falso_no_engana(tmp_path):
    escribir(tmp_path / "mentiroso.zip", _mentiroso())
    resultado = descomprimir(tmp_path / "mentiroso.zip", tmp_path / "fuera", Limites())
    assert [r.archivo for r in resultado.rechazos] == ["mentiroso.zip/ceros.ipynb"]
    assert "más datos de los que declara" in resultado.rechazos[0].motivo \
        or "dañado" in resultado.rechazos[0].motivo
    assert not (tmp_path / "fuera" / "ceros.ipynb").exists()


def test_el_presupuesto_de_la_descarga_rechaza_archivos_no_la_descarga(tmp_path):
    # 5 files of 1.5 MB each pass every per-file check; the 6 MB download budget refuses the fifth only
    datos = zip_de({f"f{i}.ipynb": os.urandom(1_500_000) for i in range(5)})
    escribir(tmp_path / "suma.zip", datos)
    limites = Limites(bytes_totales=6_000_000, bytes_por_archivo=2_000_000)
    resultado = descomprimir(tmp_path / "suma.zip", tmp_path / "fuera", limites)
    assert [(r.archivo, "pasaría de 5,7 MiB (límite de la descarga)" in r.motivo) for r in resultado.rechazos] \
        == [("suma.zip/f4.ipynb", True)], resultado.rechazos
    assert sorted(p.name for p in (tmp_path / "fuera").iterdir()) == [f"f{i}.ipynb" for i in range(4)]


def test_el_presupuesto_de_cada_entrega_no_toca_a_las_demas(tmp_path):
    # one student fills their own budget with 3 files; the next student's file still fits
    entradas = moodle([("Ana López", 1, {f"f{i}.ipynb": os.urandom(1_500_000) for i in range(3)}),
                       ("Pedro Gil", 2, {NB1: os.urandom(1_500_000)})])
    escribir(tmp_path / "d.zip", zip_de(entradas))
    resultado = descomprimir(tmp_path / "d.zip", tmp_path / "fuera",
                             Limites(bytes_por_entrega=3_500_000, bytes_por_archivo=2_000_000))
    assert [r.archivo for r in resultado.rechazos] == ["d.zip/Ana López_1_assignsubmission_file/f2.ipynb"]
    assert "límite por entrega" in resultado.rechazos[0].motivo
    assert (tmp_path / "fuera" / "Pedro Gil_2_assignsubmission_file" / NB1).exists()


def test_un_zip_dentro_de_otro_comparte_el_presupuesto(tmp_path):
    interior = zip_de({f"f{i}.ipynb": os.urandom(1_500_000) for i in range(3)})
    escribir(tmp_path / "externo.zip", zip_de({"a.ipynb": os.urandom(1_000_000), "dentro.zip": interior}))
    resultado = descomprimir(tmp_path / "externo.zip", tmp_path / "fuera",
                             Limites(bytes_totales=6_000_000, bytes_por_archivo=5_000_000))
    # the outer file and the zip itself (5.5 MB) leave 0.5 MB: each of the nested files is refused
    assert sorted(r.archivo for r in resultado.rechazos) == [f"externo.zip/dentro.zip/f{i}.ipynb" for i in range(3)]
    assert (tmp_path / "fuera" / "a.ipynb").exists()
    assert not [p for p in (tmp_path / "fuera" / "dentro").rglob("*") if p.is_file()]
    assert not (tmp_path / "fuera" / "dentro.zip").exists()


def test_un_cuaderno_valido_muy_comprimible_no_hunde_la_clase(tmp_path):
    """Issue 19.5: a valid 1.5 MiB notebook that compresses 941× in a Moodle download of the class."""
    comprimible = cuaderno_comprimible()
    archivos = {"d.zip": zip_de(moodle([("Ana López", 1, {NB1: comprimible}),
                                        ("Pedro Gil", 2, {NB1: _cuaderno(T1, NB1, "pedro")}),
                                        ("Eva Sanz", 3, {NB1: _cuaderno(T1, NB1, "eva")})]))}
    with zipfile.ZipFile(io.BytesIO(archivos["d.zip"])) as zf:
        info = zf.getinfo(f"Ana López_1_assignsubmission_file/{NB1}")
    assert info.file_size >= 1.5 * 1024 ** 2 and info.file_size / info.compress_size > 900
    r = _preparar(tmp_path, archivos)
    assert sorted(r["cuadernos"]) == ["ana_lopez", "eva_sanz", "pedro_gil"], r["texto"]
    assert "RECHAZADO" not in r["texto"]


def test_una_bomba_de_un_alumno_solo_le_cuesta_a_el(tmp_path):
    bomba = b"\0" * 40 * 1024 ** 2           # 40 MiB of zeros: ~1000 times, past proporcion_desde
    archivos = {"d.zip": zip_de(moodle([("Ana López", 1, {NB1: bomba}),
                                        ("Pedro Gil", 2, {NB1: _cuaderno(T1, NB1, "pedro")})]))}
    r = _preparar(tmp_path, archivos)
    assert list(r["cuadernos"]) == ["pedro_gil"]
    assert "ana_lopez: ARCHIVO RECHAZADO «d.zip/Ana López_1_assignsubmission_file/atencion_multicabeza.ipynb»" \
        in r["texto"] and "bomba de descompresión" in r["texto"], r["texto"]


def test_las_entradas_se_cuentan_antes_de_leer_el_directorio(tmp_path, monkeypatch):
    escribir(tmp_path / "muchas.zip", _zip_crudo([(f"f{i}", b"") for i in range(30)]))
    monkeypatch.setattr(zipfile, "ZipFile", lambda *a, **k: pytest.fail("se leyó el directorio central"))
    resultado = descomprimir(tmp_path / "muchas.zip", tmp_path / "fuera", Limites(entradas=10))
    assert "30 entradas" in resultado.rechazos[0].motivo


def _dice(datos: bytes, entradas: int) -> bytes:
    """``datos`` (a zip) with its end record claiming ``entradas`` entries (the liar of issue 19's second attack)."""
    fin = datos.rfind(b"PK\x05\x06")
    return datos[:fin + 8] + struct.pack("<HH", entradas, entradas) + datos[fin + 12:]


def test_un_directorio_central_que_miente_se_rechaza_sin_que_zipfile_lo_lea(tmp_path, monkeypatch):
    """The end record says 3 entries, the directory holds more: refused after walking at most the limit + 1
    records, from the file, before zipfile (which parses every record whatever the count says: 2 000 000
    records took 1.2 GB and 29 s); a directory larger than the file or than the cap, too."""
    import lms.descompresion as d
    escribir(tmp_path / "miente.zip", _dice(_zip_crudo([(f"f{i}", b"") for i in range(30)]), 3))
    escribir(tmp_path / "miente_poco.zip", _dice(_zip_crudo([(f"f{i}", b"") for i in range(5)]), 3))
    enorme = bytearray(_zip_crudo([("a", b"")]))
    fin = enorme.rfind(b"PK\x05\x06")
    enorme[fin + 12:fin + 16] = struct.pack("<I", 10 ** 9)           # a directory of 1 GB in a tiny file
    escribir(tmp_path / "enorme.zip", bytes(enorme))
    leidos = []                      # (bytes asked, bytes read) of every read of the zip
    abrir = open

    def contar(ruta, *args, **kwargs):
        f = abrir(ruta, *args, **kwargs)
        leer = f.read

        def read(n=-1):
            datos = leer(n)
            leidos.append((n, len(datos)))
            return datos
        f.read = read
        return f
    monkeypatch.setattr(zipfile, "ZipFile", lambda *a, **k: pytest.fail("zipfile leyó el directorio central"))
    monkeypatch.setattr(d, "open", contar, raising=False)
    monkeypatch.setattr(d, "TROZO", 64)
    r = descomprimir(tmp_path / "miente.zip", tmp_path / "fuera", Limites(entradas=10))
    assert r.rechazos[0].motivo == ("su directorio central tiene más de 10 entradas (límite: 10; su registro final "
                                    "dice 3)"), r.rechazos
    # the directory (30 records of 49 bytes) walked in small reads and left at the 11th record
    directorio = sum(leido for pedido, leido in leidos if 0 < pedido <= 64)
    assert 11 * 49 <= directorio < 30 * 49, leidos
    r = descomprimir(tmp_path / "miente_poco.zip", tmp_path / "fuera", Limites(entradas=10))
    assert "tiene 5 entradas y su registro final dice 3" in r.rechazos[0].motivo
    r = descomprimir(tmp_path / "enorme.zip", tmp_path / "fuera", Limites(entradas=10))
    assert "su directorio central ocupa" in r.rechazos[0].motivo
    assert not (tmp_path / "fuera").exists()
    # in a download: that student's zip is refused, the class is collected
    monkeypatch.undo()
    archivos = {"d.zip": zip_de(moodle([("Ana López", 1, {NB1: _cuaderno(T1, NB1, "ana")}),
                                        ("Beto Ruiz", 2, {"entrega.zip": _dice(_zip_crudo(
                                            [(f"f{i}", b"") for i in range(2_001)]), 3)})]))}
    r = _preparar(tmp_path / "clase", archivos)
    assert list(r["cuadernos"]) == ["ana_lopez"]
    assert "beto_ruiz: ARCHIVO RECHAZADO «d.zip/Beto Ruiz_2_assignsubmission_file/entrega.zip»: su directorio " \
           "central tiene más de" in r["texto"], r["texto"]


def test_un_directorio_central_honrado_o_zip64_pasa_y_uno_sin_firmas_no(tmp_path, monkeypatch):
    """The bounded walk accepts what zipfile writes (zip64 end records included) and refuses records
    without their signature (a directory of garbage), each with a Spanish reason, never an exception."""
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", 2)      # zipfile then writes zip64 end records
    zip64 = _zip_crudo([(f"c/f{i}.ipynb", b"{}") for i in range(5)])
    monkeypatch.undo()
    assert b"PK\x06\x06" in zip64
    escribir(tmp_path / "zip64.zip", zip64)
    r = descomprimir(tmp_path / "zip64.zip", tmp_path / "fuera64", Limites(entradas=10))
    assert not r.rechazos and r.archivos == 5, r.rechazos
    basura = bytearray(_zip_crudo([(f"f{i}", b"") for i in range(3)]))
    inicio = basura.find(b"PK\x01\x02")
    basura[inicio:inicio + 4] = b"XXXX"
    escribir(tmp_path / "basura.zip", bytes(basura))
    r = descomprimir(tmp_path / "basura.zip", tmp_path / "fuera", Limites(entradas=10))
    assert [x.motivo for x in r.rechazos] == ["no es un zip válido o está dañado (registro del directorio sin firma)"]
    assert not (tmp_path / "fuera").exists()


def test_tamanos_declarados_enormes_se_rechazan_por_archivo(tmp_path):
    """Entries whose directory records declare terabytes: each refused alone, with its reason, before
    a byte is written; the student's other file and the classmate's submission are unpacked."""
    datos = bytearray(zip_de(moodle([("Ana López", 1, {"grande.ipynb": b"{}", NB1: b"{}"}),
                                     ("Pedro Gil", 2, {NB1: b"{}"})])))
    grande = datos.find(b"PK\x01\x02")
    while b"grande.ipynb" not in datos[grande + 46:grande + 46 + 60]:       # its record in the directory
        grande = datos.find(b"PK\x01\x02", grande + 4)
    datos[grande + 20:grande + 28] = struct.pack("<II", 1, 0xFFFFFFF0)    # 1 byte compressed, 4 GiB declared
    escribir(tmp_path / "d.zip", bytes(datos))
    r = descomprimir(tmp_path / "d.zip", tmp_path / "fuera", Limites())
    assert [x.archivo for x in r.rechazos] == ["d.zip/Ana López_1_assignsubmission_file/grande.ipynb"], r.rechazos
    assert "bomba de descompresión" in r.rechazos[0].motivo
    assert (tmp_path / "fuera" / "Ana López_1_assignsubmission_file" / NB1).exists()
    assert (tmp_path / "fuera" / "Pedro Gil_2_assignsubmission_file" / NB1).exists()


def test_nombres_utf8_sin_marca_y_basura_del_sistema(tmp_path):
    nombre = "José Ñúñez/x.ipynb".encode("utf-8")         # UTF-8 bytes without the UTF-8 flag (old zip tools)
    relleno = b"A" * len(nombre)
    salida = io.BytesIO()
    with zipfile.ZipFile(salida, "w") as zf:
        zf.writestr(relleno.decode(), b"{}")
        zf.writestr("__MACOSX/._x.ipynb", b"basura")
        zf.writestr(".DS_Store", b"basura")
    escribir(tmp_path / "mac.zip", salida.getvalue().replace(relleno, nombre))
    resultado = descomprimir(tmp_path / "mac.zip", tmp_path / "mac")
    assert (tmp_path / "mac" / "José Ñúñez" / "x.ipynb").exists()
    assert not (tmp_path / "mac" / "__MACOSX").exists() and len(resultado.ignorados) == 2


def test_una_carpeta_de_descargas_enlazada_no_se_sigue(tmp_path):
    (tmp_path / "de_verdad").mkdir()
    escribir(tmp_path / "de_verdad" / "x.zip", zip_de({NB1: b"{}"}))
    os.symlink(tmp_path / "de_verdad", tmp_path / "archive")
    (tmp_path / "extracted").mkdir()
    resultado = extraer_carpeta(tmp_path / "archive", tmp_path / "extracted")
    assert "enlace simbólico" in resultado.rechazos[0].motivo and not any((tmp_path / "extracted").iterdir())


def test_los_nombres_se_muestran_sin_caracteres_invisibles():
    from lms.descompresion import legible
    assert legible("ana\u202egnp.ipynb\x1b[2J") == "ana\\u202egnp.ipynb\\x1b[2J"
    assert len(legible("x" * 500)) == 120


# ============================================================================ LMS names


@pytest.mark.parametrize("ruta,lms,lms_id,nombre,formato,resto", [
    (("Ana López_1001_assignsubmission_file", NB1), "moodle", "1001", "Ana López", "carpetas", (NB1,)),
    (("Ana López_1001_assignsubmission_file_", NB1), "moodle", "1001", "Ana López", "carpetas", (NB1,)),
    ((f"Ana López_1001_assignsubmission_file_{NB1}",), "moodle", "1001", "Ana López", "plano", (NB1,)),
    (("x", "Participante_7_assignsubmission_file", "sub", NB1), "moodle", "7", "Participante", "carpetas",
     ("sub", NB1)),
    ((f"lópezana_17_905_{NB1}",), "canvas", "17", "lópezana", "canvas", (NB1,)),
    ((f"lópezana_LATE_17_905_{NB1}",), "canvas", "17", "lópezana", "canvas", (NB1,)),
    ((f"anon_ab12C_905_{NB1}",), "canvas", "anon_ab12C", "", "canvas", (NB1,)),
    ((f"LATE_anon_ab12C_905_{NB1}",), "canvas", "anon_ab12C", "", "canvas", (NB1,)),
    (("lópezana_17_text.html",), "canvas", "17", "lópezana", "canvas", ("text.html",)),
])
def test_identificar_los_nombres_de_cada_lms(ruta, lms, lms_id, nombre, formato, resto):
    ident, queda = formatos.identificar(ruta)
    assert (ident.lms, ident.lms_id, ident.nombre, ident.formato, queda) == (lms, lms_id, nombre, formato, resto)
    assert ident.tarde == ("LATE" in ruta[-1])


def test_el_nombre_mas_externo_manda_y_nadie_se_hace_pasar_por_otro():
    ruta = ("Ana_1_assignsubmission_file", "entrega", "Pedro_2_assignsubmission_file", NB1)
    assert formatos.identificar(ruta)[0].lms_id == "1"
    ruta = ("lopezana_17_905_entrega", f"perezpedro_18_906_{NB1}")
    assert formatos.identificar(ruta, {ruta[:1]})[0].lms_id == "17"
    # a folder only looks like a Canvas file when it was a zip inside the download
    assert formatos.identificar(("curso-tarea_2_3_submissions", f"lopezana_17_905_{NB1}"))[0].lms_id == "17"
    assert formatos.identificar(("carpeta", "notas.txt")) is None
    # a folder named like a flat file (a full name that copies a classmate's prefix) is nobody's (a sixth attacker's
    # F3: it was read as the classmate's participant id)
    assert formatos.identificar(("Bea Gómez_1002_assignsubmission_file__1001_assignsubmission_file_", NB1)) is None
    assert formatos.identificar(("Bea Gómez_1002_assignsubmission_file_x", NB1)) is None


def test_ids_provisionales():
    ana = formatos.identificar((f"Ana López García_1001_assignsubmission_file_{NB1}",))[0]
    assert id_provisional(ana) == "ana_lopez_garcia"
    jose = formatos.identificar((f"ñúñezjosé_LATE_17_905_{NB1}",))[0]
    assert id_provisional(jose) == "nunezjose_17"
    anonimo = formatos.identificar((f"anon_ab12C_905_{NB1}",))[0]
    assert id_provisional(anonimo) == "canvas_anon_ab12c"


# ============================================================================ roster


def test_lista_de_clase_formato_nbgrader_con_titulos_en_espanol(tmp_path):
    ruta = escribir(tmp_path / "alumnos.csv", (
        "alumno;nombre;apellidos;correo;id_lms\n"
        "alu01;Ana;López García;ana@uni.es;\n"
        "alu 02;José;Ñúñez;jose@uni.es;\n"
        "alu01;Otra;Vez;otra@uni.es;\n"
        "alu03;Luis;Martín;ana@uni.es;17\n").encode("cp1252"))
    lista = leer_lista(ruta)
    assert lista.ids() == ["alu01", "alu03"]
    avisos = " | ".join(lista.avisos)
    assert "«alu 02» no sirve como id" in avisos and "«alu01» está repetido" in avisos
    assert "correo «ana@uni.es» está repetido" in avisos
    assert lista.alumnos[0].last_name == "López García"
    assert lista.filas_nbgrader()[0] == ["id", "first_name", "last_name", "email", "lms_user_id"]


def test_lista_de_clase_desde_el_libro_de_canvas(tmp_path):
    ruta = escribir(tmp_path / "alumnos.csv", libro_canvas(
        [("López García, Ana", 101, "A1", "ana@uni.es", "S1"), ("Ñúñez, José", 102, "", "", "S1"),
         ("Student, Test", 999, "", "", "")], {"Tarea (5)": 10}))
    lista = leer_lista(ruta)
    assert [(a.id, a.lms_user_id, a.first_name, a.last_name) for a in lista.alumnos] == [
        ("A1", "101", "Ana", "López García"), ("nunezjose_102", "102", "José", "Ñúñez")]


def test_sin_lista_de_clase_o_ilegible(tmp_path):
    assert not leer_lista(tmp_path / "no_existe.csv")
    lista = leer_lista(escribir(tmp_path / "mala.csv", b"nombre,correo\nAna,a@b.c\n"))
    assert not lista and "no tiene columna «id»" in lista.avisos[0]


# ============================================================================ collection (plugin logic)


def _preparar(tmp_path: Path, archivos: dict[str, bytes], lista: bytes | None = None,
              anteriores: dict[str, bytes] | None = None, hoja: bytes | None = None, tarea: str = T1):
    """Drop downloads in archive/, unpack them as ExtraccionSegura does and classify as NombresDelLMS does."""
    archive, extraido = tmp_path / "archive", tmp_path / "extracted"
    for nombre, datos in (anteriores or {}).items():
        escribir(archive / nombre, datos, AHORA - 86400)
    for nombre, datos in archivos.items():
        escribir(archive / nombre, datos, AHORA)
    if hoja:
        escribir(archive / "Calificaciones-CURSO-Tarea-55.csv", hoja)
    extraido.mkdir()
    resultado = extraer_carpeta(archive, extraido, grupo=entrega_del_lms)
    extraccion = informe_de_extraccion(resultado)
    roster = leer_lista(escribir(tmp_path / "alumnos.csv", lista) if lista else tmp_path / "no.csv")
    hoja_moodle_ = formatos.buscar_hoja_moodle(archive)
    clasificado = clasificar(extraido, tarea, RELEASE, roster, extraccion, hoja_moodle_)
    clasificado["texto"] = "\n".join(l["texto"] for l in clasificado["lineas"])
    clasificado["cuadernos"] = {d["student_id"]: (Path(r).read_bytes(), d["file_id"])
                                for r, d in clasificado["decisiones"].items()}
    return clasificado


ROSTER = ("id,first_name,last_name,email,lms_user_id\n"
          "alu01,Ana,López García,ana@uni.es,\n"
          "alu02,José,Ñúñez,,\n"
          "alu05,Carmen,Ruiz,carmen@uni.es,\n").encode()


def _moodle_tipico(carpetas: bool = True) -> tuple[dict, dict]:
    anteriores = {"CURSO-Tarea 1-55.zip": zip_de(moodle([
        ("Ana López García", 1001, {NB1: _cuaderno(T1, NB1, "ana v1")}),
        ("José Ñúñez", 1002, {"mi entrega.ipynb": _cuaderno(T1, NB1, "jose"), "notas.pdf": b"%PDF-1.4"}),
        ("María Pérez", 1003, {"entrega.zip": zip_de({f"mi carpeta/{NB1}": _cuaderno(T1, NB1, "maria")})}),
        ("Luis Martín", 1004, {"onlinetext.html": b"<p>hola</p>", NB2: _cuaderno(T2, NB2, "luis")}),
    ], carpetas), AHORA - 86400)}
    nuevos = {"CURSO-Tarea 1-55 (1).zip": zip_de(moodle(
        [("Ana López García", 1001, {NB1: _cuaderno(T1, NB1, "ana v2")})], carpetas), AHORA),
        "LEEME.txt": b"instrucciones del profesor"}
    return anteriores, nuevos


@pytest.mark.parametrize("carpetas", [True, False], ids=["en_carpetas", "plano"])
def test_recogida_de_moodle(tmp_path, carpetas):
    anteriores, nuevos = _moodle_tipico(carpetas)
    hoja = hoja_moodle([(1001, "Ana López García", "ana@uni.es"), (1002, "José Ñúñez", "jose@uni.es"),
                        (1003, "María Pérez", "maria@uni.es"), (1005, "Carmen Ruiz", "carmen@uni.es")])
    r = _preparar(tmp_path, nuevos, ROSTER, anteriores, hoja)
    # who is collected, under which id, with which notebook
    assert {a: nb for a, (_, nb) in r["cuadernos"].items()} == {"alu01": NB1, "alu02": NB1, "maria_perez": NB1}
    assert b"ana v2" in r["cuadernos"]["alu01"][0]                   # the resubmission, not the first version
    assert b"jose" in r["cuadernos"]["alu02"][0] and b"maria" in r["cuadernos"]["maria_perez"][0]
    e = r["entregas"]["alu01"]
    assert (e["lms"], e["lms_id"], e["prefijo"], e["formato"]) == (
        "moodle", "1001", "Ana López García_1001", "carpetas" if carpetas else "plano")
    assert e["como"] == "lista de clase, por su correo" and r["entregas"]["alu02"]["como"].endswith("por su nombre")
    assert r["sin_entrega"] == ["alu05"]
    texto = r["texto"]
    for esperado in [
        "alu01: atencion_multicabeza.ipynb llegó 2 veces: se califica la versión más reciente «CURSO-Tarea 1-55 (1)/",
        "alu02: «mi entrega.ipynb» no se llama como el cuaderno de la tarea: se califica como atencion_multicabeza",
        "notas.pdf»: no es un cuaderno (.ipynb)",
        "luis_martin: se ignora «CURSO-Tarea 1-55/Luis Martín_1004_assignsubmission_onlinetext",
        "es texto en línea escrito en el LMS",
        f"«{NB2}» es un cuaderno de la tarea {T2}, no de esta",
        "luis_martin ← Luis Martín (Moodle 1004): ningún cuaderno de la tarea en su entrega",
        "no está en la lista de clase: se usa el id provisional «maria_perez»",
        "se ignora «LEEME.txt»: no sigue los nombres de Moodle ni de Canvas",
        "hoja de calificación de Moodle «Calificaciones-CURSO-Tarea-55.csv»",
        "sin entrega (en la lista de clase): alu05",
    ]:
        assert esperado in texto, (esperado, texto)
    if carpetas:
        assert "maria_perez: se descomprimió «CURSO-Tarea 1-55/María Pérez_1003_assignsubmission_file/entrega.zip»" \
            in texto
    assert "\x1b" not in texto


def test_recogida_de_canvas(tmp_path):
    archivos = {"curso-tarea_2 submissions.zip": zip_de(canvas([
        ("López García, Ana", 101, 9001, NB2, _cuaderno(T2, NB2, "ana 9001"), False),
        ("López García, Ana", 101, 9007, NB2, _cuaderno(T2, NB2, "ana 9007"), True),
        ("Ñúñez, José", 102, 9002, "codificacion_posicional-1.ipynb", _cuaderno(T2, NB2, "jose"), True),
        ("Pérez, María", 103, 9003, "entrega.zip", zip_de({f"carpeta/{NB2}": _cuaderno(T2, NB2, "maria")}), False),
        ("Ruiz, Carmen", 104, 9004, "notas.txt", b"hola", False),
        ("Soto, Pablo", 105, 9005, "entrega.rar", b"Rar!", False),
    ]) | {"lópezgarcíaana_101_text.html": b"<p>texto</p>"}, AHORA)}
    roster = libro_canvas([("López García, Ana", 101, "A1", "ana@uni.es", "S1"),
                           ("Ñúñez, José", 102, "", "jose@uni.es", "S1"),
                           ("Gil, Rosa", 106, "A6", "rosa@uni.es", "S2")], {"Tarea 2 (555)": 10})
    r = _preparar(tmp_path, archivos, roster, tarea=T2)
    # José has no SIS User ID: his SIS Login ID is his course id
    assert {a: nb for a, (_, nb) in r["cuadernos"].items()} == {"A1": NB2, "jose@uni.es": NB2,
                                                                 "perezmaria_103": NB2}
    assert b"ana 9007" in r["cuadernos"]["A1"][0]                    # higher attachment id = later upload
    e = r["entregas"]["jose@uni.es"]
    assert (e["lms"], e["lms_id"], e["adjunto"], e["tarde"], e["prefijo"]) == (
        "canvas", "102", 9002, True, "ñúñezjosé_LATE_102_9002")
    assert r["entregas"]["A1"]["como"] == "lista de clase, por su id de Canvas"
    assert sorted(r["sin_entrega"]) == ["A6"]
    texto = r["texto"]
    for esperado in ["llegó 2 veces: se califica la versión más reciente «curso-tarea_2 submissions/lópezgarcíaana_LATE_101_9007",
                     "(Canvas la marca como entregada tarde)",
                     "«codificacion_posicional-1.ipynb» no se llama como el cuaderno de la tarea",
                     "ruizcarmen_104_9004_notas.txt»: no es un cuaderno",
                     "es un comprimido .rar (sólo se abren .zip",
                     "es texto en línea escrito en el LMS",
                     "perezmaria_103: se descomprimió"]:
        assert esperado in texto, (esperado, texto)


def test_si_la_entrega_mas_reciente_ya_no_trae_el_cuaderno_no_se_califica_el_viejo(tmp_path):
    anteriores = {"primera.zip": zip_de(moodle([("Ana López", 1, {NB1: _cuaderno(T1, NB1, "vieja")}),
                                                ("Pedro Gil", 2, {NB1: _cuaderno(T1, NB1, "pedro")})]))}
    nuevos = {"segunda.zip": zip_de(moodle([("Ana López", 1, {"memoria.pdf": b"%PDF"})]))}   # Ana only
    r = _preparar(tmp_path, nuevos, anteriores=anteriores)
    assert list(r["cuadernos"]) == ["pedro_gil"]                       # Pedro's only download still counts
    assert ("ana_lopez: se descarta «primera/Ana López_1_assignsubmission_file/atencion_multicabeza.ipynb»: "
            "es de una descarga anterior y su entrega más reciente ya no trae atencion_multicabeza.ipynb") \
        in r["texto"]


def test_un_cuaderno_renombrado_y_roto_se_reconoce_sin_deserializarlo(tmp_path):
    from lms.recogida import _ids_calificados
    entero = _cuaderno(T2, NB2)
    roto = entero[: len(entero) * 9 // 10]                             # truncated: not JSON any more
    ruta = escribir(tmp_path / "x.ipynb", roto)
    assert _ids_calificados(ruta) and _ids_calificados(ruta) <= _ids_calificados(escribir(tmp_path / "y.ipynb", entero))
    archivos = {"d.zip": zip_de(moodle([("Ana López", 1, {"Copia de mi cuaderno.ipynb": roto})]))}
    r = _preparar(tmp_path / "curso", archivos, tarea=T2)
    assert r["cuadernos"]["ana_lopez"] == (roto, NB2)


def test_sin_lista_los_nombres_repetidos_no_se_mezclan(tmp_path):
    archivos = {"d.zip": zip_de(moodle([("María García", 11, {NB1: _cuaderno(T1, NB1, "una")}),
                                        ("María García", 12, {NB1: _cuaderno(T1, NB1, "otra")})]))}
    r = _preparar(tmp_path, archivos)
    assert sorted(r["cuadernos"]) == ["maria_garcia-11", "maria_garcia-12"]
    assert "otras personas de la descarga tendrían también «maria_garcia»" in r["texto"]


# Who is who in an LMS download (issue 19, second attack, finding 3): Ana (Moodle 1001, ana@uni.es) is on
# the roster; Beto (1002) edits his Moodle name.  A name never beats a stronger key and never displaces a
# roster identity; provisional ids never collide with roster ids or with each other.
ROSTER_ANA = ("id,first_name,last_name,email,lms_user_id\n"
              "ana,Ana,López García,ana@uni.es,\nbeto,Beto,Ruiz,beto@uni.es,\neva,Eva,Gil,eva@uni.es,\n").encode()
ANA = "Ana López García"


def _quien(tmp_path, entregas, lista=ROSTER_ANA, hoja=None):
    archivos = {"CURSO-Tarea 1-55.zip": zip_de(moodle([(n, i, {NB1: _cuaderno(T1, NB1, m)}) for n, i, m in entregas]))}
    r = _preparar(tmp_path, archivos, lista, hoja=hoja_moodle(hoja) if hoja else None)
    return {a: json.loads(c)["metadata"]["marca_de_prueba"] for a, (c, _) in r["cuadernos"].items()}, r


@pytest.mark.parametrize("nombre, victima_entrega", [
    (ANA, True), (ANA, False),                     # V3, V5: his name is hers, his e-mail is his
    ("García López Ana", False),                   # her name in another order
    ("Ana", True)])                                # M7b: named as her roster id
def test_un_nombre_no_le_quita_el_id_a_quien_identifica_su_correo(tmp_path, nombre, victima_entrega):
    hoja = [(1001, ANA, "ana@uni.es"), (1002, nombre, "beto.nuevo@gmail.com")]
    entregas = [(ANA, 1001, "ana1")] * victima_entrega + [(nombre, 1002, "beto")]
    quien, r = _quien(tmp_path, entregas, hoja=hoja)
    assert quien.get("ana") == ("ana1" if victima_entrega else None), quien
    [del_atacante] = [a for a, m in quien.items() if m == "beto"]
    assert del_atacante.endswith("-1002") and del_atacante not in {"ana", "beto", "eva"}, quien
    assert ("ana" in r["sin_entrega"]) == (not victima_entrega)
    lineas_de_ana = [l["texto"] for l in r["lineas"] if l.get("alumno") == "ana"]
    if nombre == "Ana":          # his provisional id would be her roster id
        assert f"{del_atacante}: Ana (Moodle 1002) no está en la lista de clase («ana» es el id de otra persona de " \
               "la lista de clase)" in r["texto"], r["texto"]
    else:                        # his name matches her row: her row says who did not get it, and why
        assert any("(Moodle 1002) no se califica como «ana»" in t for t in lineas_de_ana), lineas_de_ana
    assert "lo reclaman varias personas" not in r["texto"] and "una lista de clase con correos lo evita" not in r["texto"]
    if victima_entrega:
        assert r["entregas"]["ana"]["como"] == "lista de clase, por su correo"


def test_un_id_provisional_nunca_es_el_de_la_lista_ni_el_de_otro(tmp_path):
    # M7, roster without worksheet: "Ana" and "Eva" would be roster ids; Ana is matched by her name
    quien, r = _quien(tmp_path, [(ANA, 1001, "ana1"), ("Ana", 1002, "beto"), ("Eva", 1003, "otro")])
    assert quien == {"ana": "ana1", "ana-1002": "beto", "eva-1003": "otro"}, quien
    assert r["sin_entrega"] == ["beto", "eva"]
    assert "«eva» es el id de otra persona de la lista de clase" in r["texto"]
    assert "sin correo que lo confirme" in r["entregas"]["ana"]["como"]
    # V1, no roster: a namesake and a name made to look like her disambiguated id: three people, three ids
    quien, r = _quien(tmp_path / "v1", [(ANA, 1001, "ana1"), (ANA, 1003, "eva1"), (f"{ANA} 1001", 1002, "beto")],
                      lista=None)
    assert quien == {"ana_lopez_garcia-1001": "ana1", "ana_lopez_garcia-1003": "eva1",
                     "ana_lopez_garcia_1001": "beto"}, quien
    assert "llegó 2 veces" not in r["texto"]


def test_dos_nombres_iguales_sin_correo_no_se_quedan_con_la_fila(tmp_path):
    """M6, roster without worksheet: her name and his (her name reordered) both match «ana»: nothing stronger
    decides, so neither is graded as ana; both are graded apart and ana's row says why."""
    quien, r = _quien(tmp_path, [(ANA, 1001, "ana1"), ("García López Ana", 1002, "beto")])
    assert quien == {"ana_lopez_garcia-1001": "ana1", "garcia_lopez_ana-1002": "beto"}, quien
    assert "ana" in r["sin_entrega"]
    lineas_de_ana = [l["texto"] for l in r["lineas"] if l.get("alumno") == "ana"]
    assert len(lineas_de_ana) == 2 and all("nadie se califica como «ana»" in t for t in lineas_de_ana)
    # with the worksheet (e-mails), each one is who the LMS says
    quien, _ = _quien(tmp_path / "hoja", [(ANA, 1001, "ana1"), ("García López Ana", 1002, "beto")],
                      hoja=[(1001, ANA, "ana@uni.es"), (1002, "García López Ana", "beto@uni.es")])
    assert quien == {"ana": "ana1", "beto": "beto"}, quien


def test_en_canvas_un_nombre_no_se_queda_con_otro_id_de_canvas(tmp_path):
    archivos = {"s.zip": zip_de(canvas([("López García, Ana", 101, 9001, NB2, _cuaderno(T2, NB2, "ana"), False),
                                        ("López García, Ana", 102, 9002, NB2, _cuaderno(T2, NB2, "beto"), False)]))}
    roster = libro_canvas([("López García, Ana", 101, "A1", "ana@uni.es", "S1")], {"Tarea 2 (555)": 10})
    r = _preparar(tmp_path, archivos, roster, tarea=T2)
    marcas = {a: json.loads(c)["metadata"]["marca_de_prueba"] for a, (c, _) in r["cuadernos"].items()}
    assert marcas == {"A1": "ana", "lopezgarciaana_102": "beto"}, marcas
    assert ("A1: lópezgarcíaana (Canvas 102) no se califica como «A1»: se llama como «A1» de la lista de clase, pero "
            "«A1» es lópezgarcíaana (Canvas 101) por su id de Canvas") in r["texto"], r["texto"]
    # ... and without the classmate in the download, the roster's Canvas id still says no
    solo = {"s.zip": zip_de(canvas([("López García, Ana", 102, 9002, NB2, _cuaderno(T2, NB2, "beto"), False)]))}
    r = _preparar(tmp_path / "solo", solo, roster, tarea=T2)
    assert list(r["cuadernos"]) == ["lopezgarciaana_102"] and "tiene otro ID de Canvas (101)" in r["texto"]


def test_un_zip_rechazado_se_atribuye_a_su_alumno_y_los_demas_siguen(tmp_path):
    bomba = _zip_crudo([("ceros.ipynb", b"\0" * 30_000_000)])
    archivos = {"d.zip": zip_de(moodle([("Ana López", 1, {"entrega.zip": bomba}),
                                        ("Pedro Gil", 2, {NB1: _cuaderno(T1, NB1, "pedro")})])),
                "roto.zip": b"PK\x03\x04 no es un zip"}
    r = _preparar(tmp_path, archivos)
    assert list(r["cuadernos"]) == ["pedro_gil"]
    assert "ana_lopez: ARCHIVO RECHAZADO «d.zip/Ana López_1_assignsubmission_file/entrega.zip/ceros.ipynb»" \
        in r["texto"]
    assert "bomba de descompresión" in r["texto"]
    assert "ARCHIVO RECHAZADO «roto.zip»: no es un zip válido" in r["texto"]


# ============================================================================ exporters


@pytest.fixture(scope="module")
def libro_de_notas(tmp_path_factory):
    """One gradebook for the exporter tests (they only read it): alu01 13.5/18 and 5.5/11,
    alu02 18/18, nunezjose_102 11/11, alu03 without submissions."""
    from nbgrader.api import Gradebook
    entorno = os.environ.get("PATH", "")
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + entorno    # nbgrader runs alembic
    ruta = tmp_path_factory.mktemp("libro") / "gradebook.db"
    try:
        with Gradebook(f"sqlite:///{ruta}") as gb:
            for tarea, nb, maximo in ((T1, "atencion_multicabeza", 18), (T2, "codificacion_posicional", 11)):
                gb.add_assignment(tarea)
                gb.add_notebook(nb, tarea)
                gb.add_grade_cell("celda", nb, tarea, max_score=maximo, cell_type="code")
            for alumno, tarea, puntos in (("alu01", T1, 13.5), ("alu02", T1, 18), ("alu01", T2, 5.5),
                                          ("nunezjose_102", T2, 11)):
                gb.update_or_create_student(alumno)
                gb.add_submission(tarea, alumno)
                nb = "atencion_multicabeza" if tarea == T1 else "codificacion_posicional"
                gb.find_grade("celda", nb, tarea, alumno).auto_score = puntos
                gb.db.commit()
            gb.update_or_create_student("alu03")
            yield gb
    finally:
        os.environ["PATH"] = entorno


@pytest.fixture
def curso_con_notas(tmp_path, monkeypatch, libro_de_notas):
    """A course folder (the working directory) with the collection reports of both assignments."""
    monkeypatch.chdir(tmp_path)

    def moodle_(pid, nombre):
        return {"lms": "moodle", "lms_id": str(pid), "nombre": nombre, "prefijo": f"{nombre}_{pid}",
                "formato": "carpetas", "adjunto": None, "tarde": False, "cuadernos": {NB1: "x"}}

    for tarea in (T1, T2):
        (tmp_path / "downloaded" / tarea).mkdir(parents=True)
    guardar_informe(tmp_path / "downloaded" / T1 / "recogida.json", {"entregas": {
        "alu01": moodle_(1001, "Ana López García"), "alu02": moodle_(1002, "José Ñúñez"),
        "alu03": moodle_(1003, "Sin Nota")}})
    guardar_informe(tmp_path / "downloaded" / T2 / "recogida.json", {"entregas": {
        "alu01": {"lms": "canvas", "lms_id": "101", "nombre": "lópezgarcíaana", "prefijo": "lópezgarcíaana_101_9001",
                  "formato": "canvas", "adjunto": 9001, "tarde": False, "cuadernos": {NB2: "x"}},
        "nunezjose_102": {"lms": "canvas", "lms_id": "102", "nombre": "ñúñezjosé",
                          "prefijo": "ñúñezjosé_LATE_102_9002", "formato": "canvas", "adjunto": 9002,
                          "tarde": True, "cuadernos": {NB2: "x"}}}})
    return tmp_path, libro_de_notas


def _csv(ruta: Path) -> list[list[str]]:
    texto = ruta.read_bytes().decode("utf-8-sig")
    return list(csv.reader(io.StringIO(texto, newline="")))


def test_hoja_de_moodle_descargada_se_rellena_columna_por_columna(curso_con_notas):
    curso, gb = curso_con_notas
    hoja = hoja_moodle([(1001, "Ana López García", "ana@uni.es"), (1002, "José Ñúñez", "jose@uni.es"),
                        (1004, "Carmen Ruiz", "carmen@uni.es")], "es", "10,00")
    escribir(curso / "downloaded" / T1 / "archive" / "Calificaciones-CURSO-Tarea-55.csv", hoja)
    HojaDeCalificacionMoodle().export(gb)
    filas = _csv(curso / "para_subir" / T1 / "calificaciones_moodle.csv")
    original = list(csv.reader(io.StringIO(hoja.decode())))
    assert filas[0] == original[0] and len(filas) == len(original)
    cab = filas[0]
    por_id = {f[0]: dict(zip(cab, f)) for f in filas[1:]}
    assert por_id["Participante1001"]["Calificación"] == "7,50"         # 13.5 / 18 × 10, decimal comma
    assert por_id["Participante1002"]["Calificación"] == "10,00"
    assert por_id["Participante1004"]["Calificación"] == ""            # not collected: untouched
    assert por_id["Participante1001"]["Comentarios de retroalimentación"].startswith(
        "Calificado con nbgrader: 13,5 de 18 puntos")
    for fila, fila_original in zip(filas[1:], original[1:]):         # every other column as Moodle wrote it
        for titulo, valor, antes in zip(cab, fila, fila_original):
            if titulo not in ("Calificación", "Comentarios de retroalimentación"):
                assert valor == antes, (titulo, valor, antes)


def test_hoja_de_moodle_en_ingles_con_punto_decimal(curso_con_notas):
    curso, gb = curso_con_notas
    escribir(curso / "downloaded" / T1 / "archive" / "Grading worksheet.csv",
             hoja_moodle([(1001, "Ana López García", "ana@uni.es")], "en", "100.00"))
    HojaDeCalificacionMoodle().export(gb)
    filas = _csv(curso / "para_subir" / T1 / "calificaciones_moodle.csv")
    fila = dict(zip(filas[0], filas[1]))
    assert (fila["Identifier"], fila["Grade"]) == ("Participant 1001", "75.00")


@pytest.mark.parametrize("idioma", ["es", "en"])
def test_hoja_de_moodle_nueva_con_las_columnas_que_importa_moodle(curso_con_notas, idioma):
    curso, gb = curso_con_notas
    exportador = HojaDeCalificacionMoodle(idioma=idioma, calificacion_maxima={T1: 10})
    exportador.to = str(curso / "hoja.csv")
    exportador.export(gb)
    filas = _csv(curso / "hoja.csv")
    t = formatos.MOODLE_HOJA_NUEVA[idioma]
    assert filas[0] == [t["identificador"], t["nombre"], t["calificacion"], t["maxima"], t["modificada"],
                        t["comentarios"]]
    assert [f[0] for f in filas[1:]] == [f"{t['participante']}1001", f"{t['participante']}1002"]   # alu03: no grade
    decimal = t["decimal"]
    assert [f[2] for f in filas[1:]] == [f"7{decimal}50", f"10{decimal}00"]
    assert all(f[3] == f"10{decimal}00" for f in filas[1:])
    assert all(time.time() - __import__("datetime").datetime.fromisoformat(f[4]).timestamp() < 60 for f in filas[1:])


def test_libro_de_canvas_columna_por_columna(curso_con_notas):
    curso, gb = curso_con_notas
    escribir(curso / "downloaded" / "Grades-CURSO.csv", libro_canvas(
        [("López García, Ana", 101, "A1", "ana@uni.es", "S1"), ("Ñúñez, José", 102, "", "jose@uni.es", "S1")],
        {"Otra tarea (554)": 5, f"{T2} (556)": 20}))
    LibroDeCalificacionesCanvas().export(gb)
    filas = _csv(curso / "para_subir" / "calificaciones_canvas.csv")
    assert filas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{T2} (556)"]
    assert filas[1] == ["Points Possible", "", "", "", "", "20"]
    assert filas[2:] == [["López García, Ana", "101", "A1", "ana@uni.es", "S1", "10"],     # 5.5 / 11 × 20
                         ["Ñúñez, José", "102", "", "jose@uni.es", "S1", "20"]]


def test_libro_de_canvas_sin_exportacion_previa(curso_con_notas):
    curso, gb = curso_con_notas
    exportador = LibroDeCalificacionesCanvas(columnas={T2: "Codificación posicional (777)"})
    exportador.export(gb)
    filas = _csv(curso / "para_subir" / "calificaciones_canvas.csv")
    assert filas[0][5] == "Codificación posicional (777)" and filas[1][5] == "11"
    assert [f[:2] + f[5:] for f in filas[2:]] == [["lópezgarcíaana", "101", "5.5"], ["ñúñezjosé", "102", "11"]]


# ============================================================================ feedback zip


def test_zip_de_comentarios_para_moodle_y_canvas(curso_con_notas):
    curso, _ = curso_con_notas
    for alumno, tarea, nb in (("alu01", T1, NB1), ("alu02", T1, NB1), ("alu01", T2, NB2),
                              ("nunezjose_102", T2, NB2)):
        escribir(curso / "feedback" / alumno / tarea / nb.replace(".ipynb", ".html"), f"<p>{alumno}</p>".encode())
    escribir(curso / "feedback" / "alu01" / T1 / "huella.txt", b"no va")
    os.symlink("/etc/passwd", curso / "feedback" / "alu02" / T1 / "robado.html")
    zips, avisos = comentarios.empaquetar(curso, T1)
    assert [z.name for z in zips] == ["comentarios_moodle.zip"]
    with zipfile.ZipFile(zips[0]) as zf:
        assert sorted(zf.namelist()) == [
            "Ana López García_1001_assignsubmission_file/atencion_multicabeza.html",
            "José Ñúñez_1002_assignsubmission_file/atencion_multicabeza.html"]
        assert zf.read("Ana López García_1001_assignsubmission_file/atencion_multicabeza.html") == b"<p>alu01</p>"
    assert avisos == ["alu03: no hay comentarios en feedback/alu03/01_atencion_multicabeza/ para el zip de moodle"]
    zips, avisos = comentarios.empaquetar(curso, T2)
    with zipfile.ZipFile(zips[0]) as zf:
        nombres = sorted(zf.namelist())
    assert nombres == ["lópezgarcíaana_101_9001_codificacion_posicional.html",
                       "ñúñezjosé_LATE_102_9002_codificacion_posicional.html"]
    for nombre in nombres:            # what Canvas reads back: the first two all-digit parts
        digitos = [p for p in nombre.split("_") if p.isdigit()][:2]
        assert digitos in (["101", "9001"], ["102", "9002"])


@pytest.mark.parametrize("carpetas", [True, False], ids=["en_carpetas", "plano"])
def test_zip_de_comentarios_con_un_nombre_en_nfd(tmp_path, carpetas):
    """A participant whose name the download spells decomposed (NFD: «Lo\u0301pez») gets the feedback zip's entry
    with the download's very bytes, next to a classmate spelled composed (NFC): nothing normalises it on the way
    (extraction, recogida.json, the zip).  Moodle matches an entry by the participant id between the first two
    «_» (``mod/assign/feedback/file/importziplib.php``), never by the name; both ids lead to their own
    feedback."""
    import unicodedata
    nfd, nfc = "Ana Lo\u0301pez", "Ana L\u00f3pez"
    assert unicodedata.normalize("NFC", nfd) == nfc
    descarga = {"CURSO-Tarea 1-55.zip": zip_de(moodle([(nfd, 1005, {NB1: _cuaderno(T1, NB1, "nfd")}),
                                                        (nfc, 1006, {NB1: _cuaderno(T1, NB1, "nfc")})], carpetas))}
    r = _preparar(tmp_path, descarga)
    por_id = {e["lms_id"]: (alumno, e) for alumno, e in r["entregas"].items()}
    assert por_id["1005"][1]["prefijo"] == f"{nfd}_1005" and por_id["1006"][1]["prefijo"] == f"{nfc}_1006"
    curso = tmp_path / "curso"
    (curso / "downloaded" / T1).mkdir(parents=True)
    guardar_informe(curso / "downloaded" / T1 / "recogida.json", {"entregas": r["entregas"]})
    for alumno, _ in por_id.values():
        escribir(curso / "feedback" / alumno / T1 / "atencion_multicabeza.html", f"<p>{alumno}</p>".encode())
    zips, avisos = comentarios.empaquetar(curso, T1)
    assert not avisos
    with zipfile.ZipFile(zips[0]) as zf:
        entradas = {i.filename: zf.read(i) for i in zf.infolist()}
    separador = "/" if carpetas else "_"
    assert set(entradas) == {f"{nfd}_1005_assignsubmission_file{separador}atencion_multicabeza.html",
                             f"{nfc}_1006_assignsubmission_file{separador}atencion_multicabeza.html"}
    crudo = zips[0].read_bytes()
    assert "Ana Lo\u0301pez_1005".encode() in crudo and "Ana L\u00f3pez_1006".encode() in crudo
    for nombre, contenido in entradas.items():     # Moodle's reading: the participant id, then its feedback
        participante = nombre.split("/")[0].split("_", 4)[1]
        assert contenido == f"<p>{por_id[participante][0]}</p>".encode(), nombre


def test_zip_de_comentarios_moodle_plano():
    entrega = {"lms": "moodle", "lms_id": "7", "prefijo": "Ana_7", "formato": "plano"}
    assert comentarios.nombre_en_zip(entrega, "x.html") == "Ana_7_assignsubmission_file_x.html"
    anonimo = {"lms": "canvas", "lms_id": "anon_x1", "prefijo": "anon_x1_5", "adjunto": 5}
    assert comentarios.nombre_en_zip(anonimo, "x.html") is None


# ============================================================================ make grade's pickup


def test_la_recogida_retira_lo_que_una_recogida_anterior_creo_y_ya_no_sale(tmp_path):
    """With a roster added between two runs, the provisional-id submission must not be graded twice."""
    import subprocess
    from lms import integracion
    (tmp_path / "release" / T1).mkdir(parents=True)
    escribir(tmp_path / "downloaded" / T1 / "archive" / "d.zip", b"(da igual: nbgrader es simulado)")
    for carpeta in ("submitted", "autograded", "feedback"):
        escribir(tmp_path / carpeta / "ana_lopez" / T1 / "x", b"vieja")
        escribir(tmp_path / carpeta / "pedro" / T1 / "x", b"de otro")          # not from the LMS: untouched
    guardar_informe(tmp_path / "downloaded" / T1 / "recogida.json", {"entregas": {"ana_lopez": {}}})
    llamadas = []

    def nbgrader(*args, check=False):
        llamadas.append(args)
        guardar_informe(tmp_path / "downloaded" / T1 / "recogida.json",
                        {"entregas": {"alu01": {}}, "lineas": [{"texto": "alu01 ← Ana López (Moodle 1)"}]})
        return subprocess.CompletedProcess(args, 0, "", "")

    lineas = integracion.recoger_descargas(tmp_path, nbgrader)
    assert llamadas == [("zip_collect", T1, "--force")]
    assert "  alu01 ← Ana López (Moodle 1)" in lineas
    assert any(l.startswith("  ana_lopez: la descarga ya no lo trae") for l in lineas)
    for carpeta in ("submitted", "autograded", "feedback"):
        assert not (tmp_path / carpeta / "ana_lopez").exists()
        assert (tmp_path / carpeta / "pedro" / T1 / "x").read_bytes() == b"de otro"
    assert integracion.alumnos_sin_entrega(tmp_path, []) == []


def test_una_descarga_de_la_que_no_se_recoge_nada_hace_fallar_make_grade(tmp_path, monkeypatch, capsys):
    """Issue 19.5: every file refused → a row per student with the reason, and make grade exits 1 saying so."""
    import subprocess
    from lms import integracion
    from scripts.calificacion import grade
    (tmp_path / "release" / T1).mkdir(parents=True)
    escribir(tmp_path / "downloaded" / T1 / "archive" / "d.zip", b"(da igual: nbgrader es simulado)")
    informe = {"entregas": {}, "lineas": [
        {"alumno": "ana_lopez", "texto": "ana_lopez ← Ana López (Moodle 1): ningún cuaderno de la tarea en su "
                                         "entrega; no se califica", "aviso": True},
        {"alumno": "ana_lopez", "texto": "ana_lopez: ARCHIVO RECHAZADO «d.zip/Ana López_1_assignsubmission_file/"
                                         "x.ipynb»: parece una bomba de descompresión", "aviso": True}]}

    def nbgrader(*args, check=False):
        guardar_informe(tmp_path / "downloaded" / T1 / "recogida.json", informe)
        return subprocess.CompletedProcess(args, 0, "", "")

    lineas = integracion.recoger_descargas(tmp_path, nbgrader)
    assert any("no se recogió ninguna entrega aunque la descarga tiene archivos" in l for l in lineas), lineas
    assert integracion.descargas_sin_recoger(tmp_path) == [T1]
    assert integracion.alumnos_sin_entrega(tmp_path, []) == ["ana_lopez"]
    assert any("bomba de descompresión" in m for m in integracion.motivos_sin_recoger(tmp_path)[("ana_lopez", T1)])

    class NbgraderSimulado:
        def __init__(self, *a, **k):
            pass

        def __call__(self, *a, **k):
            return subprocess.CompletedProcess(a, 0, "", "")

    monkeypatch.setattr(grade, "RAIZ", tmp_path)
    monkeypatch.setattr(grade, "Nbgrader", NbgraderSimulado)
    monkeypatch.setattr(grade, "calificar", lambda *a, **k: grade.Resultado(alumnos=[], tareas=[T1]))
    monkeypatch.setattr(grade, "tabla", lambda resultado, raiz=None: "(tabla)")
    monkeypatch.setattr(grade, "PASOS_TRAS_CALIFICAR", [])
    monkeypatch.setattr(grade, "exportar", lambda raiz, destino: destino.write_text("", encoding="utf-8"))
    assert grade.main([]) == 1
    assert f"no se recogió ninguna entrega de la descarga del LMS de {T1}" in capsys.readouterr().err


def test_sin_descargas_make_grade_no_cambia(tmp_path):
    from lms import integracion
    (tmp_path / "release" / T1).mkdir(parents=True)
    escribir(tmp_path / "downloaded" / "alumnos.csv", b"id\nalu01\n")       # a roster alone collects nothing
    nada = lambda *a, **k: pytest.fail("no debería ejecutar nbgrader")      # noqa: E731
    assert integracion.recoger_descargas(tmp_path, nada) == []
    assert integracion.preparar_subidas(tmp_path, nada) == []
    assert integracion.alumnos_sin_entrega(tmp_path, []) == []


def test_preparar_subidas_rehace_solo_lo_suyo(tmp_path):
    import subprocess
    from lms import integracion
    (tmp_path / "release" / T1).mkdir(parents=True)
    escribir(tmp_path / "downloaded" / T1 / "archive" / "d.zip", b"x")
    guardar_informe(tmp_path / "downloaded" / T1 / "recogida.json", {"entregas": {"alu01": {
        "lms": "moodle", "lms_id": "1", "nombre": "Ana", "prefijo": "Ana_1", "formato": "carpetas"}}})
    escribir(tmp_path / "para_subir" / "tarea_vieja" / "calificaciones_moodle.csv", b"de otra vez")
    escribir(tmp_path / "para_subir" / "mis_notas.txt", b"del profesor")
    escribir(tmp_path / "feedback" / "alu01" / T1 / "atencion_multicabeza.html", b"<p>bien</p>")
    llamadas = []

    def nbgrader(*args, check=False):
        llamadas.append(args)
        return subprocess.CompletedProcess(args, 0, "", "[ExportApp | WARNING] LMS: alu09 no tiene nota\n")

    lineas = integracion.preparar_subidas(tmp_path, nbgrader)
    assert llamadas == [("export", "--exporter", "lms.exportadores.HojaDeCalificacionMoodle")]
    assert "  aviso: alu09 no tiene nota" in lineas
    assert not (tmp_path / "para_subir" / "tarea_vieja" / "calificaciones_moodle.csv").exists()
    assert (tmp_path / "para_subir" / "mis_notas.txt").read_bytes() == b"del profesor"
    assert any(l.startswith(f"  para_subir/{T1}/comentarios_moodle.zip  — Moodle") for l in lineas), lineas
