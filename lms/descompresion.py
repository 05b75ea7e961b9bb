"""Safe unpacking of the zip files a TA downloads from the LMS (Moodle, Canvas).

Everything an archive holds is hostile input: entry names, declared sizes,
file types, nesting.  :func:`descomprimir` therefore

* checks every entry before writing anything: entry count (the end record's,
  and the central directory's own records walked one at a time with bounded
  memory, before :mod:`zipfile` parses the directory: :func:`revisar_directorio`),
  declared sizes, expansion ratio, names (absolute paths, ``..``, drive
  letters, control characters, over-long components, duplicates, a file and a
  folder with the same path), types (symbolic links, devices, FIFOs) and
  encryption;
* judges **each file on its own**: an LMS download holds the whole class, so
  a file that breaks a rule (too big, a bomb, a link, a name that leaves its
  folder, damaged data) is refused alone, with its path (which names its
  student) and reason, and everything else is unpacked.  Sizes are budgeted
  per file, per submission (the files of one student: ``grupo``) and, as a
  guard for the disk, per download; only an archive that cannot be read at all
  or holds more entries than allowed is refused whole;
* never trusts a declared size: bytes are counted while they are written and
  the file is abandoned the moment a budget is exceeded (CPython's
  :mod:`zipfile` also stops at the declared size and checks the CRC);
* writes only regular files and folders it creates itself, with
  ``O_EXCL | O_NOFOLLOW``, under a fresh folder, and checks that every path
  resolves inside it; nothing is ever written outside the extraction folder and
  no link is ever created or followed;
* unpacks zips found inside (a student who zipped their folder) into a folder
  next to them, up to a nesting depth, sharing the budget of the outermost
  archive, so a bomb cannot hide one level down;
* a refused nested zip (a student's own) is removed and reported while the rest
  of its parent is kept; it has its own entry budget and shares its student's
  byte budget.

Nothing here raises for a bad archive: every problem becomes a
:class:`Rechazo` in the :class:`Resultado`, so one bad archive never stops the
others.
"""
from __future__ import annotations

import os
import re
import shutil
import stat
import struct
import time
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from grader_tests.archivos_alumno import nombre_legible

MiB = 1024 ** 2
GiB = 1024 ** 3
TROZO = 1 * MiB
EXTENSIONES_ZIP = (".zip",)
# archive formats students sometimes upload; reported, never unpacked
OTROS_COMPRIMIDOS = (".rar", ".7z", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".zst")
# operating-system litter inside zips made on macOS / Windows
BASURA = re.compile(r"(^|/)(__MACOSX/|\._[^/]*$|\.DS_Store$|Thumbs\.db$|desktop\.ini$)")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def legible(nombre: str, largo: int = 120) -> str:
    """``nombre`` safe to print in a report, every invisible or confusable character visible.

    The course's one helper for names (``grader_tests.archivos_alumno.nombre_legible``), with a
    longer default cap for paths inside downloads.
    """
    return nombre_legible(nombre, largo)


def tamano(n: float) -> str:
    """A byte count for people (Spanish decimal comma): ``'2 GiB'``, ``'1,5 MiB'``."""
    for unidad, factor in (("GiB", GiB), ("MiB", MiB), ("KiB", 1024)):
        if n >= factor:
            return f"{n / factor:.1f}".rstrip("0").rstrip(".").replace(".", ",") + f" {unidad}"
    return f"{int(n)} bytes"


@dataclass(frozen=True)
class Limites:
    """Budgets for one archive downloaded from the LMS, nested archives included.

    Defaults fit this course: a released notebook is ~80 KB (~3.6× smaller
    zipped); one a student has run, with the explorables' images, a few MB (and
    may compress hundreds of times: its outputs repeat).  Every limit but
    ``entradas`` refuses single files, never the archive.

    Attributes:
        bytes_totales: bytes one download may expand to (a guard for the disk:
            files past it are refused one by one).
        bytes_por_archivo: bytes one file inside may expand to.
        bytes_por_entrega: bytes the files of one submission (``grupo``) may
            expand to, nested zips included.
        entradas: files and folders one archive may hold; more, and that
            archive is refused whole.
        entradas_por_entrega: files and folders of one submission (``grupo``),
            nested zips included; past it, its files are refused one by one
            (a nested zip that declares more is refused whole).
        proporcion: largest expansion ratio (uncompressed / compressed) allowed
            for a file of at least ``proporcion_desde`` bytes; zip bombs run at
            thousands to millions.
        proporcion_desde: files smaller than this are not ratio-checked (they
            cannot fill a disk: a valid 1.5 MiB notebook may compress 941×).
        profundidad: 1 = only the LMS zip is unpacked; 2 = also a zip found
            inside it (a student's zipped folder); deeper ones are refused.
    """

    bytes_totales: int = 8 * GiB
    bytes_por_archivo: int = 256 * MiB
    entradas: int = 20_000
    proporcion: float = 200.0
    proporcion_desde: int = 16 * MiB
    profundidad: int = 2
    bytes_por_entrega: int = 512 * MiB
    entradas_por_entrega: int = 2_000


@dataclass
class Rechazo:
    """An archive (or a file) that was not unpacked, and why (Spanish)."""

    archivo: str
    motivo: str


@dataclass
class Resultado:
    """What :func:`descomprimir` or :func:`extraer_carpeta` did.

    Paths are relative to the extraction folder given to them, with ``/``.

    Attributes:
        rechazos: archives or files refused, each with its reason.
        anidados: folders created from a zip found inside another zip.
        ignorados: operating-system litter skipped (``__MACOSX``, ``.DS_Store``...).
        descargas: folder (or loose file) made from each downloaded item →
            that item's modification time (when the TA downloaded it).
        archivos: regular files written.
        bytes: bytes written.
    """

    rechazos: list[Rechazo] = field(default_factory=list)
    anidados: list[str] = field(default_factory=list)
    ignorados: list[str] = field(default_factory=list)
    descargas: dict[str, float] = field(default_factory=dict)
    archivos: int = 0
    bytes: int = 0


class ArchivoRechazado(Exception):
    """Raised inside this module to abandon an archive; ``args[0]`` is the Spanish reason."""


@dataclass
class _Presupuesto:
    """What is left of one download's byte budget, and of each submission's (by ``grupo``)."""

    bytes: int
    entradas: int
    por_entrega: dict = field(default_factory=dict)
    limite_entrega: int = 0
    entradas_entrega: dict = field(default_factory=dict)
    limite_entradas_entrega: int = 0

    def queda(self, grupo: str) -> int:
        return min(self.bytes, self.limite_entrega - self.por_entrega.get(grupo, 0))

    def gastar(self, grupo: str, n: int) -> None:
        self.bytes -= n
        self.por_entrega[grupo] = self.por_entrega.get(grupo, 0) + n


def grupo_por_carpeta(ruta: PurePosixPath) -> str:
    """Default ``grupo``: the first folder of a path (Moodle's per-student folders), or the file itself."""
    return ruta.parts[0] if ruta.parts else ""


def _nombre_real(info: zipfile.ZipInfo) -> str:
    """The entry name, repairing the UTF-8 names of zips that do not set the UTF-8 flag."""
    nombre = info.filename
    if not info.flag_bits & 0x800:
        try:
            nombre = nombre.encode("cp437").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            pass
    return nombre


def _ruta_segura(nombre: str) -> PurePosixPath | None:
    """The relative path an entry name stands for, or None for the archive root.

    Raises:
        ArchivoRechazado: absolute path, drive letter, ``..``, control
            characters or a component longer than 255 bytes.
    """
    if CONTROL.search(nombre):
        raise ArchivoRechazado(f"tiene un nombre con caracteres de control ({legible(nombre)})")
    normal = nombre.replace("\\", "/")
    if normal.startswith("/") or re.match(r"^[A-Za-z]:", normal):
        raise ArchivoRechazado(f"tiene una ruta absoluta ({legible(nombre)})")
    partes = [p for p in normal.split("/") if p not in ("", ".")]
    if ".." in partes:
        raise ArchivoRechazado(f"tiene una ruta que sale de su carpeta ({legible(nombre)})")
    for parte in partes:
        if len(parte.encode("utf-8")) > 255:
            raise ArchivoRechazado(f"tiene un nombre de más de 255 bytes ({legible(parte, 60)})")
    return PurePosixPath(*partes) if partes else None


def _tipo(info: zipfile.ZipInfo) -> str:
    """'carpeta', 'archivo', 'enlace' or 'especial', from the entry's Unix mode when it has one."""
    modo = info.external_attr >> 16
    if info.create_system == 3 and stat.S_IFMT(modo):      # many tools store permissions only
        if stat.S_ISLNK(modo):
            return "enlace"
        if stat.S_ISDIR(modo):
            return "carpeta"
        if not stat.S_ISREG(modo):
            return "especial"
    return "carpeta" if info.filename.endswith(("/", "\\")) else "archivo"


# one record of the central directory: fixed part (APPNOTE 4.3.12), then name, extra field and comment
_CENTRAL = struct.Struct("<4s6H3L5H2L")
_FIRMA_CENTRAL = b"PK\x01\x02"
# bytes a central directory may take per entry allowed (names, extra fields, comments): an honest one
# with 200-byte paths takes ~300
BYTES_POR_ENTRADA = 1024


def _registros(f, tamano_dir: int):
    """Yield once per central-directory record of ``f`` (positioned at the directory's start).

    Reads at most ``TROZO`` bytes at a time (or one record's variable part, at most 3 × 64 KiB) and
    never more than ``tamano_dir`` bytes; the buffer is compacted only when it runs dry, so the walk
    is linear in the directory's size.

    Raises:
        ArchivoRechazado: a record without its signature or cut short by the end of the directory.
    """
    bufer, pos, leidos = b"", 0, 0

    def hay(n: int) -> bool:
        nonlocal bufer, pos, leidos
        if len(bufer) - pos >= n:
            return True
        bufer, pos = bufer[pos:], 0
        while len(bufer) < n and leidos < tamano_dir:
            trozo = f.read(min(max(TROZO, n - len(bufer)), tamano_dir - leidos))
            if not trozo:
                break
            leidos += len(trozo)
            bufer += trozo
        return len(bufer) >= n

    while hay(1):
        if not hay(_CENTRAL.size):
            raise ArchivoRechazado("no es un zip válido o está dañado (registro del directorio incompleto)")
        campos = _CENTRAL.unpack_from(bufer, pos)
        if campos[0] != _FIRMA_CENTRAL:
            raise ArchivoRechazado("no es un zip válido o está dañado (registro del directorio sin firma)")
        saltar = _CENTRAL.size + campos[10] + campos[11] + campos[12]     # name, extra field, comment
        if not hay(saltar):
            raise ArchivoRechazado("no es un zip válido o está dañado (registro del directorio incompleto)")
        pos += saltar
        yield


def revisar_directorio(ruta: Path, max_entradas: int) -> int:
    """Count a zip's entries from its central directory with bounded memory and time, before ``zipfile``.

    :mod:`zipfile` reads the whole central directory into memory and builds an object per record,
    whatever the end record says (a zip whose end record declares 3 entries but whose directory
    holds 2 000 000 took 1.2 GB and 29 s).  Here the end record's size and offset are checked
    against the file and against ``max_entradas`` × ``BYTES_POR_ENTRADA``, then the records are
    walked one at a time from the file (1 MiB read at a time) and the walk stops at
    ``max_entradas`` + 1.

    Returns the number of entries.

    Raises:
        ArchivoRechazado: no end record, a directory that does not fit in the file or in the cap,
            more entries than ``max_entradas``, a count that is not the declared one, a damaged record.
    """
    try:
        with open(ruta, "rb") as f:
            registro = zipfile._EndRecData(f)  # noqa: SLF001 (stable since Python 2; no public API)
            if not registro:
                raise ArchivoRechazado("no es un zip válido o está dañado (no tiene registro final)")
            declaradas = int(registro[zipfile._ECD_ENTRIES_TOTAL])
            tamano_dir = int(registro[zipfile._ECD_SIZE])
            fin = int(registro[zipfile._ECD_LOCATION])
            if registro[zipfile._ECD_SIGNATURE] == zipfile.stringEndArchive64:
                fin -= zipfile.sizeEndCentDir64 + zipfile.sizeEndCentDir64Locator   # zip64: its end records
            if declaradas > max_entradas:
                raise ArchivoRechazado(f"tiene {declaradas} entradas (límite: {max_entradas})")
            tope = max_entradas * BYTES_POR_ENTRADA + 64 * 1024
            if tamano_dir > tope:
                raise ArchivoRechazado(f"su directorio central ocupa {tamano(tamano_dir)}: más de lo que cabe en "
                                       f"{max_entradas} entradas (límite: {tamano(tope)})")
            inicio = fin - tamano_dir
            if inicio < 0:
                raise ArchivoRechazado("no es un zip válido o está dañado (su directorio central no cabe en el archivo)")
            f.seek(inicio)
            entradas = 0
            for _ in _registros(f, tamano_dir):
                entradas += 1
                if entradas > max_entradas:
                    raise ArchivoRechazado(f"su directorio central tiene más de {max_entradas} entradas (límite: "
                                           f"{max_entradas}; su registro final dice {declaradas})")
    except OSError as e:
        raise ArchivoRechazado(f"no se pudo leer ({legible(str(e), 80)})") from None
    except (ValueError, struct.error, zipfile.BadZipFile) as e:
        raise ArchivoRechazado(f"no es un zip válido o está dañado ({legible(str(e), 80)})") from None
    if entradas != declaradas and declaradas != 0xFFFF:
        raise ArchivoRechazado(f"su directorio central tiene {entradas} entradas y su registro final dice "
                               f"{declaradas}: está dañado o miente")
    return entradas


def _revisar(zf: zipfile.ZipFile, limites: Limites, presupuesto: _Presupuesto, grupo
             ) -> tuple[list[tuple[zipfile.ZipInfo, PurePosixPath | None, str, str]], list[tuple[str, str]]]:
    """Check every entry before anything is written.

    Returns:
        ``(plan, rechazadas)``: ``(info, path, type, group)`` of what to extract
        and ``(name, Spanish reason)`` of each entry refused on its own.

    Raises:
        ArchivoRechazado: the archive holds more entries than allowed.
    """
    infos = zf.infolist()
    if len(infos) > presupuesto.entradas:
        raise ArchivoRechazado(f"tiene {len(infos)} entradas (límite: {presupuesto.entradas})")
    plan, rechazadas, archivos, carpetas = [], [], set(), set()
    previstos: dict[str, int] = {}
    total = 0
    for info in infos:
        nombre = _nombre_real(info)
        try:
            ruta = _ruta_segura(nombre)
            tipo = _tipo(info)
            if tipo == "enlace":
                raise ArchivoRechazado("es un enlace simbólico: no se sigue")
            if tipo == "especial":
                raise ArchivoRechazado("es un archivo especial, no un archivo normal")
            if info.flag_bits & 0x1:
                raise ArchivoRechazado("está protegido con contraseña")
            if ruta is None or BASURA.search(str(ruta) + ("/" if tipo == "carpeta" else "")):
                plan.append((info, None, "basura" if ruta is not None else "raiz", ""))
                continue
            clave = grupo(ruta)
            if presupuesto.entradas_entrega.get(clave, 0) + 1 > presupuesto.limite_entradas_entrega:
                raise ArchivoRechazado(f"su entrega pasaría de {presupuesto.limite_entradas_entrega} archivos y "
                                       "carpetas (límite por entrega)")
            if tipo == "carpeta":
                if ruta in archivos:
                    raise ArchivoRechazado("tiene el mismo nombre que un archivo")
            else:
                if ruta in archivos:
                    raise ArchivoRechazado("hay dos entradas con el mismo nombre: se queda la primera")
                if ruta in carpetas:
                    raise ArchivoRechazado("tiene el mismo nombre que una carpeta")
                if info.file_size >= limites.proporcion_desde:
                    if info.compress_size <= 0 or info.file_size / info.compress_size > limites.proporcion:
                        veces = f"{info.file_size / max(info.compress_size, 1):,.0f}".replace(",", ".")
                        raise ArchivoRechazado(
                            f"se expandiría {veces} veces hasta {tamano(info.file_size)} (límite: "
                            f"{limites.proporcion:g} veces desde {tamano(limites.proporcion_desde)}): parece una "
                            "bomba de descompresión")
                if info.file_size > limites.bytes_por_archivo:
                    raise ArchivoRechazado(f"ocuparía {tamano(info.file_size)} (límite por archivo: "
                                           f"{tamano(limites.bytes_por_archivo)})")
                if previstos.get(clave, 0) + info.file_size > presupuesto.limite_entrega - \
                        presupuesto.por_entrega.get(clave, 0):
                    raise ArchivoRechazado(f"su entrega pasaría de {tamano(limites.bytes_por_entrega)} "
                                           "(límite por entrega)")
                if total + info.file_size > presupuesto.bytes:
                    raise ArchivoRechazado(f"la descarga pasaría de {tamano(limites.bytes_totales)} "
                                           "(límite de la descarga)")
            for padre in ruta.parents:
                if padre != PurePosixPath(".") and padre in archivos:
                    raise ArchivoRechazado(f"su carpeta «{legible(str(padre))}» tiene el mismo nombre que un archivo")
        except ArchivoRechazado as e:
            rechazadas.append((legible(nombre), e.args[0]))
            continue
        presupuesto.entradas_entrega[clave] = presupuesto.entradas_entrega.get(clave, 0) + 1
        if tipo == "carpeta":
            carpetas.add(ruta)
        else:
            archivos.add(ruta)
            previstos[clave] = previstos.get(clave, 0) + info.file_size
            total += info.file_size
        for padre in ruta.parents:
            if padre != PurePosixPath("."):
                carpetas.add(padre)
        plan.append((info, ruta, tipo, clave))
    return plan, rechazadas


def _crear_carpetas(raiz: Path, relativa: PurePosixPath) -> Path:
    """Create ``raiz/relativa`` one component at a time, refusing anything that is not a real folder."""
    actual = raiz
    for parte in relativa.parts:
        actual = actual / parte
        try:
            os.mkdir(actual, 0o755)
        except FileExistsError:
            if not stat.S_ISDIR(os.lstat(actual).st_mode):
                raise ArchivoRechazado(f"la ruta {legible(str(relativa))} choca con un archivo") from None
    return actual


def _dentro(raiz: Path, destino: Path) -> bool:
    real_raiz = os.path.realpath(raiz)
    return os.path.commonpath([real_raiz, os.path.realpath(destino)]) == real_raiz


def _escribir(zf: zipfile.ZipFile, info: zipfile.ZipInfo, destino: Path, limites: Limites,
              presupuesto: _Presupuesto, grupo: str) -> int:
    """Stream one entry to ``destino`` counting real bytes; returns the bytes written.

    Raises:
        ArchivoRechazado: more data than declared or than the budgets allow
            (the partial file is removed).
    """
    escritos = 0
    queda = presupuesto.queda(grupo)
    fd = os.open(destino, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        with os.fdopen(fd, "wb") as salida, zf.open(info) as entrada:
            while True:
                trozo = entrada.read(TROZO)
                if not trozo:
                    break
                escritos += len(trozo)
                if escritos > info.file_size or escritos > limites.bytes_por_archivo:
                    raise ArchivoRechazado("trae más datos de los que declara")
                if escritos > queda:
                    raise ArchivoRechazado("no cabe en el límite de su entrega o de la descarga")
                salida.write(trozo)
    except BaseException:
        os.unlink(destino)
        raise
    presupuesto.gastar(grupo, escritos)
    try:
        fecha = time.mktime((*info.date_time, 0, 0, -1))
        os.utime(destino, (fecha, fecha), follow_symlinks=False)
    except (OverflowError, ValueError, OSError):
        pass
    return escritos


def _carpeta_libre(padre: Path, nombre: str) -> Path:
    candidata = padre / nombre
    n = 1
    while os.path.lexists(candidata):
        n += 1
        candidata = padre / f"{nombre} ({n})"
    return candidata


def _descomprimir(ruta: Path, destino: Path, limites: Limites, presupuesto: _Presupuesto,
                  profundidad: int, raiz: Path, resultado: Resultado, nombre_visible: str, grupo) -> None:
    """Unpack ``ruta`` into the new folder ``destino``, refusing single entries with their reason.

    Raises:
        ArchivoRechazado: the archive as a whole (unreadable, too many
            entries, nested too deep); nothing is left of it then.
    """
    if profundidad > limites.profundidad:
        raise ArchivoRechazado(
            f"es un zip dentro de otro zip más allá de {limites.profundidad} niveles: no se descomprime")
    revisar_directorio(ruta, presupuesto.entradas)      # bounded, before zipfile reads the directory
    try:
        zf = zipfile.ZipFile(ruta)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, NotImplementedError) as e:
        raise ArchivoRechazado(f"no es un zip válido o está dañado ({legible(str(e), 80)})") from None
    anidados: list[tuple[Path, str]] = []

    def rechazar(nombre: str, motivo: str) -> None:
        resultado.rechazos.append(Rechazo(legible(f"{nombre_visible}/{nombre}"), motivo))

    try:
        with zf:
            plan, rechazadas = _revisar(zf, limites, presupuesto, grupo)
            for nombre, motivo in rechazadas:
                rechazar(nombre, motivo)
            os.mkdir(destino, 0o755)
            for info, relativa, tipo, clave in plan:
                if tipo == "basura":
                    resultado.ignorados.append(f"{nombre_visible}/{legible(info.filename)}")
                    continue
                if tipo == "raiz":
                    continue
                try:
                    if tipo == "carpeta":
                        _crear_carpetas(destino, relativa)
                        continue
                    carpeta = _crear_carpetas(destino, relativa.parent) if relativa.parent.parts else destino
                    objetivo = carpeta / relativa.name
                    if not _dentro(raiz, objetivo):
                        raise ArchivoRechazado("saldría de la carpeta de extracción")
                    try:
                        resultado.bytes += _escribir(zf, info, objetivo, limites, presupuesto, clave)
                    except FileExistsError:
                        raise ArchivoRechazado("hay dos entradas con el mismo nombre") from None
                    except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError,
                            ValueError) as e:
                        raise ArchivoRechazado(f"sus datos están dañados ({legible(str(e), 80)})") from None
                except ArchivoRechazado as e:
                    rechazar(str(relativa), e.args[0])
                    continue
                resultado.archivos += 1
                if relativa.suffix.lower() in EXTENSIONES_ZIP:
                    anidados.append((objetivo, clave))
    except ArchivoRechazado:
        shutil.rmtree(destino, ignore_errors=True)
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError,
            ValueError) as e:
        shutil.rmtree(destino, ignore_errors=True)
        raise ArchivoRechazado(f"no es un zip válido o está dañado ({legible(str(e), 80)})") from None
    for interno, clave in anidados:
        visible = f"{nombre_visible}/{interno.relative_to(destino).as_posix()}"
        carpeta = _carpeta_libre(interno.parent, interno.stem)
        # a student's own zip: the byte and entry budgets of that student's submission
        queda = presupuesto.limite_entradas_entrega - presupuesto.entradas_entrega.get(clave, 0)
        propio = _Presupuesto(presupuesto.bytes, max(queda, 0), presupuesto.por_entrega, presupuesto.limite_entrega,
                              presupuesto.entradas_entrega, presupuesto.limite_entradas_entrega)
        try:
            _descomprimir(interno, carpeta, limites, propio, profundidad + 1, raiz, resultado, visible,
                          lambda _ruta, c=clave: c)
        except ArchivoRechazado as e:
            resultado.rechazos.append(Rechazo(legible(visible), e.args[0]))
        else:
            resultado.anidados.append(carpeta.relative_to(raiz).as_posix())
        finally:
            presupuesto.bytes = propio.bytes
            interno.unlink(missing_ok=True)
            resultado.archivos -= 1


def descomprimir(ruta: Path | str, destino: Path | str, limites: Limites = Limites(),
                 nombre_visible: str | None = None, grupo=grupo_por_carpeta) -> Resultado:
    """Unpack the zip ``ruta`` into the new folder ``destino``, within ``limites``.

    Args:
        ruta: the zip (a regular file; links are refused without being opened).
        destino: a folder that must not exist yet; its parent must.
        limites: budgets for this archive and everything nested in it.
        nombre_visible: how reports name the archive (default: its file name).
        grupo: the submission an entry's path belongs to (its byte budget is
            ``limites.bytes_por_entrega``); default: its first folder.

    Returns:
        A :class:`Resultado`; paths in it are relative to ``destino.parent``.
        Each refused file is a ``rechazos`` entry named
        ``<archive>/<path inside>``.  When the archive itself is refused,
        ``destino`` does not exist afterwards and the only entry says why.
    """
    ruta, destino = Path(ruta), Path(destino)
    resultado = Resultado()
    visible = nombre_visible or ruta.name
    try:
        modo = os.lstat(ruta).st_mode
        if stat.S_ISLNK(modo):
            raise ArchivoRechazado("es un enlace simbólico: no se sigue")
        if not stat.S_ISREG(modo):
            raise ArchivoRechazado("no es un archivo normal")
        presupuesto = _Presupuesto(limites.bytes_totales, limites.entradas, {}, limites.bytes_por_entrega, {},
                                   limites.entradas_por_entrega)
        _descomprimir(ruta, destino, limites, presupuesto, 1, destino.parent, resultado, visible, grupo)
    except ArchivoRechazado as e:
        resultado.rechazos.insert(0, Rechazo(legible(visible), e.args[0]))
    return resultado


def _copiar(origen: Path, destino: Path, limites: Limites) -> int:
    """Copy a regular file without following links; returns bytes copied."""
    fd_origen = os.open(origen, os.O_RDONLY | os.O_NOFOLLOW)
    copiados = 0
    try:
        if not stat.S_ISREG(os.fstat(fd_origen).st_mode):
            raise ArchivoRechazado("no es un archivo normal")
        fd = os.open(destino, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as salida:
            while trozo := os.read(fd_origen, TROZO):
                copiados += len(trozo)
                if copiados > limites.bytes_por_archivo:
                    raise ArchivoRechazado(f"ocupa más de {tamano(limites.bytes_por_archivo)} (límite por archivo)")
                salida.write(trozo)
        fecha = os.fstat(fd_origen).st_mtime
        os.utime(destino, (fecha, fecha), follow_symlinks=False)
    except ArchivoRechazado:
        Path(destino).unlink(missing_ok=True)
        raise
    finally:
        os.close(fd_origen)
    return copiados


def extraer_carpeta(origen: Path | str, destino: Path | str, limites: Limites = Limites(),
                    grupo=grupo_por_carpeta) -> Resultado:
    """Unpack every zip of ``origen`` (recursively) and copy its other files into ``destino``.

    This is what nbgrader's ``zip_collect`` does with the ``archive`` folder,
    made safe: each zip gets its own budget and lands in ``<its folder>/<its
    name without .zip>``; links and special files in ``origen`` are reported
    and skipped, never followed; a refused archive never stops the others.

    Args:
        origen: the folder the TA dropped the downloads in.
        destino: an existing, empty folder.
        limites: budgets for each archive.
        grupo: the submission a path inside an archive belongs to (see :func:`descomprimir`).

    Returns:
        A :class:`Resultado` with paths relative to ``destino``; ``anidados``
        lists only folders made from zips found inside another zip.
    """
    origen, destino = Path(origen), Path(destino)
    total = Resultado()
    if origen.is_symlink():
        total.rechazos.append(Rechazo(legible(origen.name), "la carpeta de descargas es un enlace simbólico: no se sigue"))
        return total
    for carpeta, subcarpetas, nombres in os.walk(origen, followlinks=False):
        subcarpetas.sort()
        relativa = Path(carpeta).relative_to(origen)
        for nombre in sorted(nombres) + [s for s in subcarpetas if os.path.islink(Path(carpeta) / s)]:
            fuente = Path(carpeta) / nombre
            visible = legible((relativa / nombre).as_posix())
            modo = os.lstat(fuente).st_mode
            if stat.S_ISLNK(modo):
                total.rechazos.append(Rechazo(visible, "es un enlace simbólico: no se sigue"))
                continue
            if not stat.S_ISREG(modo):
                total.rechazos.append(Rechazo(visible, "no es un archivo normal"))
                continue
            if BASURA.search((relativa / nombre).as_posix()):
                total.ignorados.append(visible)
                continue
            salida = destino / relativa
            salida.mkdir(parents=True, exist_ok=True)
            fecha = os.lstat(fuente).st_mtime
            if fuente.suffix.lower() in EXTENSIONES_ZIP:
                carpeta_zip = _carpeta_libre(salida, fuente.stem)
                resultado = descomprimir(fuente, carpeta_zip, limites, visible, grupo)
                if carpeta_zip.exists():
                    total.descargas[carpeta_zip.relative_to(destino).as_posix()] = fecha
                total.rechazos += resultado.rechazos
                total.ignorados += resultado.ignorados
                total.anidados += [str(relativa / a) if str(relativa) != "." else a for a in resultado.anidados]
                total.archivos += resultado.archivos
                total.bytes += resultado.bytes
                continue
            try:
                total.bytes += _copiar(fuente, salida / nombre, limites)
                total.archivos += 1
                total.descargas[(relativa / nombre).as_posix()] = fecha
            except ArchivoRechazado as e:
                total.rechazos.append(Rechazo(visible, e.args[0]))
            except OSError as e:
                total.rechazos.append(Rechazo(visible, f"no se pudo copiar ({legible(str(e), 80)})"))
        subcarpetas[:] = [s for s in subcarpetas if not os.path.islink(Path(carpeta) / s)]
    return total
