"""What Moodle and Canvas put in their downloads and expect back in their uploads.

Sources (read in the LMS's own code; the README cites them for TAs):

* Moodle ``mod/assign/classes/downloader.php`` (4.1+; the same names since
  3.1): "Download all submissions" names each submission
  ``<Full name>_<participant id>`` (underscores in the name become spaces),
  then either a folder ``<prefix>_assignsubmission_file/`` holding the files
  as uploaded ("Download submissions in folders", the default) or flat files
  ``<prefix>_assignsubmission_file_<file name>``.  The participant id is
  per assignment (``assign_user_mapping``).  Moodle 3.1–4.0 folders end in
  ``_``.  Online text comes as ``..._assignsubmission_onlinetext``.
* Moodle ``mod/assign/feedback/file/importziplib.php``: the bulk feedback
  upload finds the participant in any path part split as
  ``name_id_plugintype_pluginname[_rest]``, both layouts above.
* Moodle ``mod/assign/gradingtable.php`` and
  ``mod/assign/feedback/offline/importgradeslib.php``: the grading worksheet
  has ``Identifier`` = ``get_string('hiddenuser') . participant id``
  («Participante1234» in Spanish, «Participant 1234» in English),
  ``Grade`` formatted with the language's decimal separator, ``Maximum
  grade``, ``Last modified (grade)`` and one column per feedback plugin
  («Feedback comments» / «Comentarios de retroalimentación»); the import
  needs Identifier, Grade and Last modified (grade), matches rows by the
  identifier and skips grades above the maximum.
* Canvas ``lib/content_zipper.rb``: "Download Submissions" names files
  ``<sortable name, lower case, only letters and digits>[_LATE]_<user id>_
  <attachment id>_<file name>`` (``anon_<id>`` when anonymous, no name).
* Canvas ``app/models/assignment.rb`` (``infer_comment_context_from_filename``):
  "Re-Upload Submissions" takes the first two all-digit ``_`` parts of each
  file name as user id and attachment id.
* Canvas ``app/models/gradebook_importer.rb``: the gradebook CSV starts with
  ``Student, ID, [SIS User ID, SIS Login ID,] Section``, assignment columns
  ``Name (id)``, an optional ``Points Possible`` row; students are matched by
  ``ID``, then SIS ids, then name; ``,`` and ``.`` both work as decimal mark.
"""
from __future__ import annotations

import csv
import io
import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

MAX_CSV = 50 * 1024 ** 2          # a worksheet / gradebook of any real class is far smaller

# ``nombre`` never holds "_" in Moodle (it writes spaces instead)
MOODLE_CARPETA = re.compile(r"^(?P<nombre>[^_]+)_(?P<lms_id>\d+)_assignsubmission_(?P<plugin>[a-z0-9]+)_?$")
MOODLE_PLANO = re.compile(
    r"^(?P<nombre>[^_]+)_(?P<lms_id>\d+)_assignsubmission_(?P<plugin>[a-z0-9]+)_(?P<archivo>.+)$")
CANVAS = re.compile(
    r"^(?:(?P<nombre>.*?)_)??(?P<tarde>LATE_)?(?P<lms_id>\d+|anon_[0-9A-Za-z]+)_(?P<adjunto>\d+)_(?P<archivo>.+)$")
CANVAS_TEXTO = re.compile(
    r"^(?:(?P<nombre>.*?)_)??(?P<tarde>LATE_)?(?P<lms_id>\d+|anon_[0-9A-Za-z]+)_(?P<archivo>text\.html|link\.html)$")


@dataclass(frozen=True)
class Identidad:
    """Who a file in an LMS download belongs to, as the LMS names them.

    Attributes:
        lms: ``"moodle"`` or ``"canvas"``.
        lms_id: Moodle participant id (per assignment) or Canvas user id
            (``anon_<id>`` when Canvas anonymised the download).
        nombre: the name as the download writes it.
        prefijo: the exact text that starts the submission's names in the
            download (``"Ana López_1234"``, ``"lopezana_LATE_17_905"``);
            feedback for the LMS is named after it.
        formato: ``"carpetas"`` or ``"plano"`` (Moodle), ``"canvas"``.
        adjunto: Canvas attachment id (orders resubmissions), else None.
        tarde: Canvas marked the submission late.
    """

    lms: str
    lms_id: str
    nombre: str
    prefijo: str
    formato: str
    adjunto: int | None = None
    tarde: bool = False
    plugin: str = "file"

    @property
    def clave(self) -> tuple[str, str]:
        return (self.lms, self.lms_id)

    def describir(self) -> str:
        from lms.descompresion import legible
        lms = {"moodle": "Moodle", "canvas": "Canvas"}[self.lms]
        return f"{legible(self.nombre, 80) or 'anónimo'} ({lms} {legible(self.lms_id, 40)})"


def _canvas(m: re.Match, texto: str) -> Identidad:
    nombre, tarde = m["nombre"] or "", bool(m["tarde"])
    if nombre == "LATE":                     # anonymous and late: "LATE_anon_x_..."
        nombre, tarde = "", True
    prefijo = texto[: m.start("archivo") - 1]
    adjunto = int(m.group("adjunto")) if "adjunto" in m.re.groupindex else None
    return Identidad("canvas", m["lms_id"], nombre, prefijo, "canvas", adjunto, tarde,
                     "file" if adjunto is not None else "texto")


def identificar(partes: tuple[str, ...], carpetas_de_zip: set[tuple[str, ...]] = frozenset(),
                patrones: dict[str, re.Pattern] | None = None) -> tuple[Identidad, tuple[str, ...]] | None:
    """Find who a downloaded file belongs to from its path (outermost match wins).

    Args:
        partes: the path's components, relative to the extraction folder.
        carpetas_de_zip: folders (as component tuples) unpacked from a zip
            found inside another zip; only those may carry a Canvas name,
            since Canvas downloads have no folders.
        patrones: ``moodle_carpeta``, ``moodle_plano``, ``canvas`` regexes
            replacing the defaults (same named groups).

    Returns:
        ``(identity, rest)`` where ``rest`` is the file's path inside the
        submission (its name as the student gave it, last), or None when no
        part of the path follows Moodle's or Canvas's names.  The outermost
        part wins, so names inside a student's own zip cannot claim to be
        someone else.
    """
    patrones = patrones or {}
    carpeta = patrones.get("moodle_carpeta", MOODLE_CARPETA)
    plano = patrones.get("moodle_plano", MOODLE_PLANO)
    canvas = patrones.get("canvas", CANVAS)
    for i, parte in enumerate(partes):
        ultima = i == len(partes) - 1
        m = None if ultima else carpeta.match(parte)
        if m:
            ident = Identidad("moodle", m["lms_id"], m["nombre"], f"{m['nombre']}_{m['lms_id']}", "carpetas",
                              plugin=m["plugin"])
            return ident, partes[i + 1:]
        # a flat name is a file's (Moodle's flat layout has no folders), or the folder a zip so named was unpacked
        # into: any other folder named like one is nobody's (a sixth attacker's F3: a hand-made download where a
        # full name copied a classmate's prefix was read as the classmate's id; Moodle itself writes a name's
        # underscores as spaces)
        m = plano.match(parte) if ultima or tuple(partes[: i + 1]) in carpetas_de_zip else None
        if m:
            ident = Identidad("moodle", m["lms_id"], m["nombre"], f"{m['nombre']}_{m['lms_id']}", "plano",
                              plugin=m["plugin"])
            return ident, (m["archivo"], *partes[i + 1:])
        if ultima or tuple(partes[: i + 1]) in carpetas_de_zip:
            m = canvas.match(parte) or (CANVAS_TEXTO.match(parte) if ultima else None)
            if m:
                return _canvas(m, parte), (m["archivo"], *partes[i + 1:])
    return None


def plegar(texto: str) -> str:
    """Lower case without accents (``'José Ñúñez'`` → ``'jose nunez'``)."""
    descompuesto = unicodedata.normalize("NFKD", texto)
    return "".join(c for c in descompuesto if not unicodedata.combining(c)).casefold()


def slug(texto: str, largo: int = 40) -> str:
    """An nbgrader-safe id from a name: ASCII letters and digits joined by ``_``."""
    ascii_ = plegar(texto).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_).strip("_")[:largo].strip("_")


def palabras(texto: str) -> tuple[str, ...]:
    """The words of a name, folded and sorted (order-free comparison of names)."""
    return tuple(sorted(re.findall(r"[^\W_]+", plegar(texto))))


def pegado(texto: str) -> str:
    """A name's letters and digits only, folded (how Canvas writes names in file names)."""
    return "".join(re.findall(r"[^\W_]+", plegar(texto)))


# ---------------------------------------------------------------------------- CSV files


def leer_csv(ruta: Path) -> tuple[list[list[str]], str, bool] | None:
    """Rows, delimiter and BOM of a CSV file the TA downloaded, or None if unreadable.

    Regular files only (a link is never followed), at most ``MAX_CSV`` bytes;
    UTF-8 (with or without BOM) or, failing that, Windows-1252 (a sheet saved
    again by Excel); ``,`` or ``;`` as delimiter.
    """
    try:
        fd = os.open(ruta, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        estado = os.fstat(f.fileno())
        if not stat.S_ISREG(estado.st_mode) or estado.st_size > MAX_CSV:
            return None
        datos = f.read(min(estado.st_size, MAX_CSV) + 1)
    bom = datos.startswith(b"\xef\xbb\xbf")
    try:
        texto = datos.decode("utf-8-sig")
    except UnicodeDecodeError:
        texto = datos.decode("cp1252", errors="replace")
    primera = texto.split("\n", 1)[0]
    delimitador = ";" if primera.count(";") > primera.count(",") else ","
    try:
        filas = list(csv.reader(io.StringIO(texto, newline=""), delimiter=delimitador))
    except csv.Error:
        return None
    return ([f for f in filas if any(c.strip() for c in f)], delimitador, bom) if filas else None


# A cell starting with one of these is a formula for Excel, LibreOffice and Google Sheets (OWASP,
# «CSV injection»); names and e-mails come from students' LMS profiles.
INICIO_DE_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _es_numero(texto: str) -> bool:
    try:
        float(texto.replace(",", "."))
    except ValueError:
        return False
    return True


def celda_inerte(valor: object) -> str:
    """``valor`` as a CSV cell no spreadsheet runs: a text that would start a formula gets a leading ``'``.

    Numbers (``-1``, ``7,5``) and Moodle's lone ``-`` (no date) stay as they are.
    """
    texto = "" if valor is None else str(valor)
    if texto.startswith(INICIO_DE_FORMULA) and texto != "-" and not _es_numero(texto):
        return "'" + texto
    return texto


def escribir_csv(ruta: Path, filas: list[list[str]], delimitador: str = ",", bom: bool = False,
                 para_hoja_de_calculo: bool = True) -> None:
    """Write ``filas`` atomically (a temporary file renamed over ``ruta``).

    ``para_hoja_de_calculo`` (the default: a TA opens these files before
    uploading them): every cell goes through :func:`celda_inerte`.
    """
    if para_hoja_de_calculo:
        filas = [[celda_inerte(c) for c in fila] for fila in filas]
    ruta.parent.mkdir(parents=True, exist_ok=True)
    temporal = ruta.with_name(f".{ruta.name}.tmp")
    with open(temporal, "w", encoding="utf-8-sig" if bom else "utf-8", newline="") as f:
        # every cell quoted: a spreadsheet that splits on another delimiter (";" in Spanish locales)
        # still keeps a cell such as "p;=1+2" whole, so no piece of it starts a formula
        csv.writer(f, delimiter=delimitador, lineterminator="\r\n",
                   quoting=csv.QUOTE_ALL if para_hoja_de_calculo else csv.QUOTE_MINIMAL).writerows(filas)
    os.replace(temporal, ruta)


def numero(texto: str) -> float | None:
    """A number written with ``,`` or ``.`` as decimal mark (``'7,50'``, ``'7.5'``), else None."""
    limpio = texto.strip().replace("\u00a0", "").replace(" ", "")
    if not re.fullmatch(r"-?\d+(?:[.,]\d+)?", limpio):
        return None
    return float(limpio.replace(",", "."))


def escribir_numero(valor: float, decimal: str, decimales: int = 2, recortar: bool = False) -> str:
    """``valor`` with ``decimales`` decimals and ``decimal`` as mark (``7.5`` → ``'7,50'``)."""
    texto = f"{valor:.{decimales}f}"
    if recortar and "." in texto:
        texto = texto.rstrip("0").rstrip(".")
    return texto.replace(".", decimal)


# ---------------------------------------------------------------------------- Moodle worksheet

# Column titles of the grading worksheet, English and Spanish (Moodle's language packs).
MOODLE_TITULOS = {
    "identificador": ("identifier", "identificador"),
    "nombre": ("full name", "nombre completo"),
    "calificacion": ("grade", "calificación"),
    "maxima": ("maximum grade", "calificación máxima"),
    "modificada": ("last modified (grade)", "última modificación (calificación)", "fecha de calificación"),
    "comentarios": ("feedback comments", "comentarios de retroalimentación"),
}
# What this course writes when it builds a worksheet itself (no worksheet downloaded).
MOODLE_HOJA_NUEVA = {
    "es": {"identificador": "Identificador", "nombre": "Nombre completo", "calificacion": "Calificación",
           "maxima": "Calificación máxima", "modificada": "Última modificación (calificación)",
           "comentarios": "Comentarios de retroalimentación", "participante": "Participante", "decimal": ","},
    "en": {"identificador": "Identifier", "nombre": "Full name", "calificacion": "Grade",
           "maxima": "Maximum grade", "modificada": "Last modified (grade)",
           "comentarios": "Feedback comments", "participante": "Participant ", "decimal": "."},
}
CORREO = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


@dataclass
class HojaMoodle:
    """A Moodle grading worksheet ("Download grading worksheet").

    Attributes:
        ruta: where it was read from.
        filas: all rows, the header first.
        columnas: role → column index (``identificador``, ``calificacion``,
            and, when present, ``maxima``, ``nombre``, ``modificada``,
            ``comentarios``, ``correo``).
        idioma: ``"es"`` or ``"en"`` (from the identifier's title).
        decimal: the decimal mark its numbers use.
    """

    ruta: Path
    filas: list[list[str]]
    columnas: dict[str, int]
    idioma: str
    decimal: str
    delimitador: str = ","
    bom: bool = False

    def participantes(self) -> dict[str, int]:
        """Participant id → row index."""
        indice = {}
        for n, fila in enumerate(self.filas[1:], start=1):
            m = re.search(r"(\d+)\s*$", fila[self.columnas["identificador"]] if len(fila) > self.columnas[
                "identificador"] else "")
            if m:
                indice[m.group(1)] = n
        return indice

    def correos(self) -> dict[str, str]:
        """Participant id → e-mail, when the worksheet shows e-mails."""
        if "correo" not in self.columnas:
            return {}
        col = self.columnas["correo"]
        return {pid: self.filas[n][col].strip() for pid, n in self.participantes().items()
                if len(self.filas[n]) > col and CORREO.match(self.filas[n][col].strip())}


def hoja_moodle(ruta: Path) -> HojaMoodle | None:
    """Read ``ruta`` as a Moodle grading worksheet, or None if it is not one."""
    leido = leer_csv(ruta)
    if not leido:
        return None
    filas, delimitador, bom = leido
    cabecera = [c.strip().casefold() for c in filas[0]]
    columnas = {}
    for rol, titulos in MOODLE_TITULOS.items():
        for i, titulo in enumerate(cabecera):
            if titulo in titulos:
                columnas[rol] = i
                break
    if "identificador" not in columnas or "calificacion" not in columnas:
        return None
    idioma = "es" if filas[0][columnas["identificador"]].strip().casefold() == "identificador" else "en"
    decimal = "," if idioma == "es" else "."
    for rol in ("maxima", "calificacion"):
        valores = [f[columnas[rol]] for f in filas[1:] if rol in columnas and len(f) > columnas[rol]]
        marcas = {m for v in valores for m in re.findall(r"\d([.,])\d", v)}
        if len(marcas) == 1:
            decimal = marcas.pop()
            break
    for i in range(len(cabecera)):
        valores = [f[i].strip() for f in filas[1:] if len(f) > i and f[i].strip()]
        if valores and i not in columnas.values() and sum(bool(CORREO.match(v)) for v in valores) > len(valores) / 2:
            columnas["correo"] = i
            break
    return HojaMoodle(ruta, filas, columnas, idioma, decimal, delimitador, bom)


# ---------------------------------------------------------------------------- Canvas gradebook

CANVAS_INFO = ("Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Root Account", "Section")
CANVAS_NO_TAREAS = ("Current Score", "Current Points", "Current Grade", "Final Score", "Final Points",
                    "Final Grade", "Override Score", "Override Grade", "Override Status")


@dataclass
class LibroCanvas:
    """A Canvas gradebook CSV (Grades → Export), or the one this course writes.

    Attributes:
        cabecera: the header row.
        info: student information columns (Student ... Section), in order.
        tareas: assignment column title → index.
        puntos: assignment column title → points possible (from the
            ``Points Possible`` row, when there is one).
        alumnos: one dict per student row, header title → value.
    """

    ruta: Path | None
    cabecera: list[str]
    info: list[str]
    tareas: dict[str, int] = field(default_factory=dict)
    puntos: dict[str, float] = field(default_factory=dict)
    alumnos: list[dict[str, str]] = field(default_factory=list)


def titulo_e_id(columna: str) -> tuple[str, str | None]:
    """``'Tarea 1 (12345)'`` → ``('Tarea 1', '12345')``, as Canvas splits assignment titles."""
    m = re.match(r"^(.*?)\s*\((\d+)\)\s*$", columna)
    return (m.group(1), m.group(2)) if m else (columna.strip(), None)


def libro_canvas(ruta: Path) -> LibroCanvas | None:
    """Read ``ruta`` as a Canvas gradebook export, or None if it is not one."""
    leido = leer_csv(ruta)
    if not leido:
        return None
    filas = leido[0]
    cabecera = [c.strip() for c in filas[0]]
    if len(cabecera) < 3 or "Student" not in cabecera[0] or "ID" not in cabecera[1]:
        return None
    n_info = next((i + 1 for i, c in enumerate(cabecera) if c == "Section"), None)
    if n_info is None:
        return None
    libro = LibroCanvas(ruta, cabecera, cabecera[:n_info])
    for i, titulo in enumerate(cabecera[n_info:], start=n_info):
        if titulo and not any(titulo.startswith(x) or titulo.startswith("Unposted " + x) for x in CANVAS_NO_TAREAS):
            libro.tareas[titulo] = i
    for fila in filas[1:]:
        primera = fila[0].strip() if fila else ""
        if "Points Possible" in primera:
            for titulo, i in libro.tareas.items():
                valor = numero(fila[i]) if len(fila) > i else None
                if valor is not None:
                    libro.puntos[titulo] = valor
            continue
        if all(re.fullmatch(r"\s*(Muted|Manual Posting.*)?\s*", c or "", re.I) for c in fila):
            continue
        libro.alumnos.append({t: (fila[i].strip() if i < len(fila) else "") for i, t in enumerate(cabecera)})
    return libro


# ---------------------------------------------------------------------------- finding them


def csv_en(carpeta: Path) -> list[Path]:
    """The CSV files directly inside ``carpeta`` (no links), newest first."""
    try:
        entradas = [e for e in os.scandir(carpeta)
                    if e.name.lower().endswith(".csv") and e.is_file(follow_symlinks=False)]
    except OSError:
        return []
    entradas.sort(key=lambda e: (-e.stat(follow_symlinks=False).st_mtime, e.name))
    return [Path(e.path) for e in entradas]


def buscar_hoja_moodle(carpeta: Path) -> HojaMoodle | None:
    """The newest Moodle grading worksheet directly inside ``carpeta``."""
    for ruta in csv_en(carpeta):
        hoja = hoja_moodle(ruta)
        if hoja:
            return hoja
    return None


def buscar_libro_canvas(*carpetas: Path) -> LibroCanvas | None:
    """The newest Canvas gradebook export directly inside any of ``carpetas``."""
    rutas = sorted((r for c in carpetas for r in csv_en(c)), key=lambda r: -r.lstat().st_mtime)
    for ruta in rutas:
        libro = libro_canvas(ruta)
        if libro:
            return libro
    return None
