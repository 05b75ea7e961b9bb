"""What a student's submission or kernel leaves behind is untrusted: handle it without following it.

Every TA-side step that touches a student's folder (``collect``, ``autograde``
before and after the kernel, ``generate_feedback``, ``release_feedback``,
nbgrader's permission changes) goes through this module (see
``parches_nbgrader`` and ``intercambio``).  The rules, for the whole kind:

* **Only regular files and directories exist.**  Symbolic links (to files,
  folders, devices, other students, the gradebook…), FIFOs, sockets, device
  nodes and regular files with more than one hard link are removed from the
  TA's copy and reported in Spanish (``se ignoró un enlace simbólico:
  notas.txt``).  Nothing is ever opened through a link: files are opened with
  ``O_NOFOLLOW`` relative to a directory descriptor that was itself opened
  with ``O_NOFOLLOW``, and checked with ``fstat`` after opening (a FIFO opened
  ``O_NONBLOCK`` never blocks; a device is refused before a byte is read).
* **Budgets per submission**, not per file: number of entries and total
  bytes (the logical size, so a sparse file counts as what a copy would
  write).  The assignment's own files are kept first, then the student's in
  a fixed order (shallow before deep, then by name) until the budget runs
  out; the rest is dropped and reported.  Every walk is linear in the number
  of entries (plus a sort), never quadratic.
* **Writes never go through a link**: a file is written to a fresh name in
  its folder (``O_CREAT | O_EXCL | O_NOFOLLOW``) and renamed over the target
  (``os.replace`` replaces a link, it never follows it).
* **Only kinds of file no browser runs**: formgrader serves the autograded
  folder by URL from the TA's own origin, so a student's file stays in the
  TA's copies only when its kind is on an allow-list (``TIPOS_CONSERVADOS``:
  notebooks, code, text, NumPy data, PNG/JPEG/GIF/WebP pictures;
  ``c.PresupuestoEntrega.tipos_conservados``).  Anything else (``.html``,
  ``.xht``, ``.svg``, ``.mml``, ``.rdf``, ``.pdf``, no extension…) is dropped and
  reported; the assignment's own files are always kept.
* **No Python of the student's on the TA's path**: in ``autograded/`` and
  ``feedback/`` a student's module files (``MODULOS``: ``.py``, ``.pyc``,
  ``.so``…) that the assignment does not ship are removed too, even when their
  kind is on the allow-list (``.py``), so no kernel or tool started there (the
  TA opening the notebook, ``nbgrader validate``, the sandboxed autograde)
  imports the student's ``numpy.py`` or ``ipykernel_launcher.py`` instead of the
  real one.  The assignment's own modules (the explorable, ``pruebas_visibles.py``,
  ``pruebas_<función>.py``) are kept.  One rule: a student's file stays when
  its kind is allowed and it is no Python module the assignment does not ship.
  ``submitted/`` keeps the submission as it came.
* **Names are data**: reports show them escaped (no control characters, no
  terminal or log injection) and shortened; an entry whose name holds a control
  or format character (newline, escape, bidi override) is not copied at all.

Reports are plain Spanish lines; ``registrar``/``avisos_de`` keep them per
folder in this process so the feedback can show them, and every one is also
logged with ``MARCA`` so ``scripts/calificacion/grade.py`` puts it in the TA's table.
"""
from __future__ import annotations

import errno
import fnmatch
import os
import secrets
import shutil
import stat
from dataclasses import dataclass, field

from traitlets import Integer, List, Unicode
from traitlets.config import LoggingConfigurable

from ..comun.legible import nombre_legible  # the one helper (callers also use it as aa.nombre_legible)

# log lines carrying a report about a student's files start with this
MARCA = "Archivos de la entrega"
# nbgrader's own files in a submission (written by `nbgrader submit`)
ARCHIVOS_NBGRADER = ("timestamp.txt", "submission_secret.txt")
PROFUNDIDAD_MAXIMA = 16
# The kinds of student file kept in the TA's copies (formgrader serves the autograded folder by URL, from
# the TA's own origin: an allow-list, never a list of what browsers run), each with the Content-Type
# formgrader serves it as (grader_tests/extensiones_nbgrader/formgrader_seguro.py): text as plain text, the pictures a notebook
# shows as themselves (never SVG: it runs scripts), NumPy's data as a download.
TIPOS_CONSERVADOS = {
    ".ipynb": "text/plain", ".py": "text/plain", ".txt": "text/plain", ".md": "text/plain",
    ".csv": "text/plain", ".tsv": "text/plain", ".json": "text/plain", ".log": "text/plain",
    ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
    ".webp": "image/webp",
    ".npy": "application/octet-stream", ".npz": "application/octet-stream",
}
# files Python would import from a folder on sys.path (the kernel's working folder is): a student's never
# enters autograded/ or feedback/, whatever tipos_conservados says (the assignment's own are kept)
MODULOS = (".py", ".pyw", ".pyc", ".pyo", ".pyd", ".so", ".pth")
BLOQUE = 1 << 20
# a copy looks at most this many times the submission's file budget (a flood costs a bounded walk)
MULTIPLO_RECORRIDO = 10

_NOFOLLOW = os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class PresupuestoEntrega(LoggingConfigurable):
    """Budgets of one submission (configurable in ``nbgrader_config.py``).

    ``c.PresupuestoEntrega.archivos = 300`` etc.  Sizes are bytes.
    """

    archivos = Integer(200, help="Files and folders a submission (or its kernel) may leave.").tag(config=True)
    bytes_totales = Integer(64 * 1024 ** 2, help="Total size of a submission's files, bytes.").tag(config=True)
    cuaderno_maximo = Integer(64 * 1024 ** 2, help="Largest notebook file that is read, bytes.").tag(config=True)
    archivos_comentarios = Integer(
        20, help="Student files (besides the assignment's own) copied into feedback/.").tag(config=True)
    bytes_comentarios = Integer(
        2 * 1024 ** 2, help="Total size of the student files copied into feedback/, bytes.").tag(config=True)
    archivo_comentarios = Integer(
        512 * 1024, help="Largest student file copied into feedback/, bytes.").tag(config=True)
    tipos_conservados = List(
        Unicode(), default_value=sorted(TIPOS_CONSERVADOS),
        help="Extensions of the student files kept in the TA's copies (lower case, with the dot); any other "
             "kind is dropped with a reason.  formgrader serves a kind not in TIPOS_CONSERVADOS only as a "
             "download.").tag(config=True)

    def conserva(self, ruta: str) -> bool:
        """Whether a student's file named ``ruta`` is of a kind kept in the TA's copies."""
        _, extension = os.path.splitext(ruta.rsplit("/", 1)[-1])
        return bool(extension) and extension.lower() in {t.lower() for t in self.tipos_conservados}


def tipo_de(modo: int, enlaces: int = 1) -> str | None:
    """Spanish name of what an ``lstat`` mode describes, or None for a plain file or folder."""
    if stat.S_ISLNK(modo):
        return "un enlace simbólico"
    if stat.S_ISFIFO(modo):
        return "una tubería con nombre (FIFO)"
    if stat.S_ISSOCK(modo):
        return "un socket"
    if stat.S_ISCHR(modo) or stat.S_ISBLK(modo):
        return "un dispositivo"
    if stat.S_ISREG(modo):
        return "un archivo con varios enlaces duros" if enlaces > 1 else None
    if stat.S_ISDIR(modo):
        return None
    return "un archivo especial"


def tamaño_de(st: os.stat_result) -> int:
    """Bytes a copy of the file would write: its logical size (a sparse file's holes count)."""
    return st.st_size


def _mib(n: int) -> str:
    return f"{n / 1024 ** 2:.1f} MiB".replace(".", ",")


@dataclass
class Entrada:
    ruta: str          # relative to the folder walked, with "/"
    st: os.stat_result
    profundidad: int

    @property
    def es_carpeta(self) -> bool:
        return stat.S_ISDIR(self.st.st_mode)


@dataclass
class Recorrido:
    """A folder walked without following anything: what is there and what is not allowed."""
    entradas: list[Entrada] = field(default_factory=list)
    prohibidas: list[tuple[Entrada, str]] = field(default_factory=list)
    profundas: list[Entrada] = field(default_factory=list)
    # folders that could not be opened (their author took the permissions away, or swapped them
    # for something else while the walk ran): never entered, always reported
    ilegibles: list[tuple[Entrada, str]] = field(default_factory=list)
    truncado: bool = False       # stopped at ``limite`` entries: there is more

    def cuenta(self) -> int:
        return len(self.entradas) + len(self.prohibidas) + len(self.profundas) + len(self.ilegibles)


def _abrir_carpeta(nombre: str, dir_fd: int | None = None) -> int:
    """A directory descriptor for ``nombre`` (relative to ``dir_fd``), never through a link.

    Raises:
        OSError: ``ELOOP``/``ENOTDIR`` when it is a link or not a folder.
    """
    return os.open(nombre, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW, dir_fd=dir_fd)


def recorrer(carpeta: str | int, ignorar: list[str] | None = None, limite: int | None = None) -> Recorrido:
    """Every entry under ``carpeta`` (``lstat``, never followed), breadth first, sorted by name.

    ``carpeta`` is a path or an open directory descriptor.  The walk never
    goes through a path again: each folder is opened with ``O_NOFOLLOW``
    relative to its parent's descriptor and listed from that descriptor, so
    swapping a folder for a link while the walk runs changes nothing (the
    link is listed as a link, or the folder cannot be opened).

    Folders deeper than ``PROFUNDIDAD_MAXIMA`` are listed in ``profundas`` and
    not entered; folders that cannot be opened, in ``ilegibles`` with the reason.
    ``ignorar``: nbgrader's ignore globs (matched on each name).
    ``limite``: stop after that many entries (``truncado`` says so), so a
    folder flooded with files costs a bounded walk.
    """
    resultado = Recorrido()
    try:
        raiz = os.dup(carpeta) if isinstance(carpeta, int) else _abrir_carpeta(carpeta)
    except OSError:
        return resultado
    try:
        _recorrer_en(raiz, "", 0, ignorar, resultado, limite)
    finally:
        os.close(raiz)
    # breadth first, then by name (the order reports and budgets have always used)
    resultado.entradas.sort(key=lambda e: (e.profundidad, e.ruta))
    return resultado


def _recorrer_en(fd: int, relativa: str, nivel: int, ignorar: list[str] | None, resultado: Recorrido,
                 limite: int | None = None) -> None:
    """Depth first under the open folder ``fd``: only the folders of one path are open at once."""
    try:
        with os.scandir(fd) as it:
            hijos = sorted(it, key=lambda e: e.name)
    except OSError:
        return
    for hijo in hijos:
        if resultado.truncado or (limite is not None and resultado.cuenta() >= limite):
            resultado.truncado = True
            return
        ruta = f"{relativa}/{hijo.name}" if relativa else hijo.name
        if ignorar and any(fnmatch.fnmatch(hijo.name, p) for p in ignorar):
            continue
        try:
            st = hijo.stat(follow_symlinks=False)
        except OSError:
            continue
        entrada = Entrada(ruta, st, nivel + 1)
        motivo = tipo_de(st.st_mode, st.st_nlink)
        if not motivo and not hijo.name.isprintable():
            motivo = "un archivo o carpeta cuyo nombre lleva caracteres de control"
        if motivo:
            resultado.prohibidas.append((entrada, motivo))
        elif entrada.es_carpeta and nivel + 1 > PROFUNDIDAD_MAXIMA:
            resultado.profundas.append(entrada)
        elif entrada.es_carpeta:
            try:
                hija = _abrir_carpeta(hijo.name, fd)
            except OSError as exc:
                # unreadable to this account, or swapped for a link (or removed) since it was listed
                resultado.ilegibles.append((entrada, exc.strerror or str(exc)))
                continue
            try:
                resultado.entradas.append(entrada)
                _recorrer_en(hija, ruta, nivel + 1, ignorar, resultado, limite)
            finally:
                os.close(hija)
        else:
            resultado.entradas.append(entrada)


def elegir(entradas: list[Entrada], max_entradas: int, max_bytes: int,
           primero: set[str] = frozenset(), max_archivo: int | None = None) -> tuple[list[Entrada], list[Entrada]]:
    """Split ``entradas`` into (kept, dropped) within the budgets.

    Paths in ``primero`` (the assignment's own files) are considered first;
    then the rest in walk order.  A folder counts as one entry; a file is
    dropped when it alone is larger than ``max_archivo`` or does not fit.
    """
    ordenadas = sorted(entradas, key=lambda e: (e.ruta not in primero, e.profundidad, e.ruta))
    guardadas, descartadas = [], []
    n = total = 0
    caidas: set[str] = set()
    for entrada in ordenadas:
        padre = entrada.ruta.rsplit("/", 1)[0] if "/" in entrada.ruta else ""
        if padre and padre in caidas:
            caidas.add(entrada.ruta)
            continue                      # inside a dropped folder: goes with it
        tamaño = 0 if entrada.es_carpeta else tamaño_de(entrada.st)
        cabe = n + 1 <= max_entradas and total + tamaño <= max_bytes
        if cabe and max_archivo is not None and tamaño > max_archivo and entrada.ruta not in primero:
            cabe = False
        if cabe:
            guardadas.append(entrada)
            n += 1
            total += tamaño
        else:
            descartadas.append(entrada)
            caidas.add(entrada.ruta)
    return guardadas, descartadas


def _quitar(carpeta: str, relativa: str) -> None:
    ruta = os.path.join(carpeta, relativa)
    try:
        st = os.lstat(ruta)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(ruta, ignore_errors=True)   # fd-based: never follows a link inside
    else:
        try:
            os.unlink(ruta)                       # removes the link / node itself
        except FileNotFoundError:
            pass


def _resumen_descartes(descartadas: list[Entrada], max_entradas: int, max_bytes: int, donde: str) -> str:
    archivos = [e for e in descartadas if not e.es_carpeta]
    carpetas = len(descartadas) - len(archivos)
    bytes_ = sum(tamaño_de(e.st) for e in archivos)
    partes = [f"{len(archivos)} archivo{'s' if len(archivos) != 1 else ''} ({_mib(bytes_)})"]
    if carpetas:
        partes.append(f"{carpetas} carpeta{'s' if carpetas != 1 else ''}")
    ejemplos = ", ".join(nombre_legible(e.ruta, 40) for e in descartadas[:3])
    return (f"se descartaron {' y '.join(partes)} por superar el límite {donde} "
            f"({max_entradas} archivos y carpetas, {_mib(max_bytes)}): {ejemplos}"
            + (", …" if len(descartadas) > 3 else ""))


def sanear(carpeta: str, presupuesto: PresupuestoEntrega, propios: set[str] = frozenset()) -> list[str]:
    """Clean a student's folder in place (the TA's copy); return the Spanish reports.

    Removes links, special files, hard-linked files and folders nested too
    deep, then drops what exceeds the submission's budgets (``propios``, the
    assignment's own files, are kept first).  Never follows anything.
    """
    if not _es_carpeta_real(carpeta):
        return []
    avisos = []
    recorrido = recorrer(carpeta)
    for entrada, motivo in recorrido.prohibidas:
        _quitar(carpeta, entrada.ruta)
        avisos.append(f"se ignoró {motivo}: {nombre_legible(entrada.ruta)}")
    for entrada in recorrido.profundas:
        _quitar(carpeta, entrada.ruta)
        avisos.append(f"se ignoró una carpeta anidada a más de {PROFUNDIDAD_MAXIMA} niveles: "
                      f"{nombre_legible(entrada.ruta)}")
    restantes = []
    for entrada in recorrido.entradas:
        if not entrada.es_carpeta and entrada.ruta not in propios and es_modulo(entrada.ruta):
            _quitar(carpeta, entrada.ruta)
            avisos.append(_modulo_no_conservado(entrada.ruta))
        elif not entrada.es_carpeta and entrada.ruta not in propios and not presupuesto.conserva(entrada.ruta):
            _quitar(carpeta, entrada.ruta)
            avisos.append(_tipo_no_conservado(entrada.ruta))
        else:
            restantes.append(entrada)
    _, descartadas = elegir(restantes, presupuesto.archivos, presupuesto.bytes_totales, propios)
    for entrada in descartadas:
        _quitar(carpeta, entrada.ruta)
    if descartadas:
        avisos.append(_resumen_descartes(descartadas, presupuesto.archivos, presupuesto.bytes_totales,
                                         "de la entrega"))
    return avisos


def es_modulo(ruta: str) -> bool:
    """Could Python import ``ruta`` (a relative path) as a module or extension (:data:`MODULOS`)?"""
    nombre = ruta.rsplit("/", 1)[-1].lower()
    return nombre.endswith(MODULOS) or ".so." in nombre


def _modulo_no_conservado(ruta: str) -> str:
    return f"se ignoró un módulo de Python que la tarea no trae: {nombre_legible(ruta)}"


def _tipo_no_conservado(ruta: str) -> str:
    return (f"se ignoró un archivo de un tipo que el curso no conserva: {nombre_legible(ruta)} (sólo cuadernos, "
            "código, texto, datos de NumPy e imágenes PNG, JPEG, GIF o WebP: formgrader no sirve nada que un "
            "navegador pueda ejecutar)")


def _es_carpeta_real(ruta: str) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(ruta).st_mode)
    except OSError:
        return False


def ruta_sin_enlaces(ruta: str) -> bool:
    """No component of ``ruta`` (absolute) is a symbolic link."""
    ruta = os.path.abspath(ruta)
    return os.path.realpath(ruta) == ruta


def abrir_archivo(ruta: str, dir_fd: int | None = None, dueño: int | None = None) -> int:
    """Open a regular file for reading without following a link or blocking on a FIFO.

    Args:
        ruta: a path, or a name relative to ``dir_fd``.
        dueño: when given, the file must belong to this uid.

    Raises:
        OSError: it is a link (``ELOOP``), missing, not a regular file with a
            single link, or another account's (``EPERM``): the caller reports it.
    """
    fd = os.open(ruta, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW, dir_fd=dir_fd)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
        os.close(fd)
        raise OSError(errno.EPERM, "no es un archivo normal", ruta)
    if dueño is not None and st.st_uid != dueño:
        os.close(fd)
        raise OSError(errno.EPERM, "es de otra cuenta", ruta)
    return fd


def abrir_relativo(raiz: int, ruta: str, dueño: int | None = None) -> int:
    """Open the regular file ``ruta`` (``a/b/c``) under the directory descriptor ``raiz``.

    Every folder on the way is opened with ``O_NOFOLLOW | O_DIRECTORY``
    relative to the previous one, and the file with ``O_NOFOLLOW``: a link
    anywhere on the path (put there at any moment) makes this fail with
    ``ELOOP``/``ENOTDIR``; it is never followed.
    """
    partes = ruta.split("/")
    fd = raiz
    try:
        for parte in partes[:-1]:
            nuevo = _abrir_carpeta(parte, fd)
            if fd != raiz:
                os.close(fd)
            fd = nuevo
        return abrir_archivo(partes[-1], dir_fd=fd, dueño=dueño)
    finally:
        if fd != raiz:
            os.close(fd)


def leer_pequeño(ruta: str, limite: int = 4096) -> str | None:
    """The text of a small regular file (``timestamp.txt``…), or None if it is not one."""
    try:
        fd = abrir_archivo(ruta)
    except OSError:
        return None
    try:
        datos = os.read(fd, limite + 1)
    finally:
        os.close(fd)
    if len(datos) > limite:
        return None
    return datos.decode("utf-8", errors="replace")


def es_archivo_normal(ruta: str, maximo: int | None = None) -> str | None:
    """None if ``ruta`` is a regular single-link file (not larger than ``maximo``); else why not."""
    try:
        st = os.lstat(ruta)
    except FileNotFoundError:
        return "no existe"
    motivo = tipo_de(st.st_mode, st.st_nlink)
    if motivo:
        return f"es {motivo}"
    if stat.S_ISDIR(st.st_mode):
        return "es una carpeta"
    if maximo is not None and tamaño_de(st) > maximo:
        return f"ocupa {_mib(tamaño_de(st))} (el máximo es {_mib(maximo)})"
    return None


def _copiar_contenido(fd_origen: int, fd_destino: int, limite: int) -> None:
    copiados = 0
    while True:
        datos = os.read(fd_origen, BLOQUE)
        if not datos:
            return
        copiados += len(datos)
        if copiados > limite:          # grew after it was measured
            raise OSError(errno.EFBIG, "el archivo creció durante la copia")
        os.write(fd_destino, datos)


def copiar_archivo(origen: str, destino: str, limite: int) -> None:
    """Copy one regular file by content; never follows a link at either end.

    The destination is written under a fresh name and renamed over ``destino``.
    """
    fd = abrir_archivo(origen)
    try:
        escribir_atomico(destino, lambda salida: _copiar_contenido(fd, salida, limite))
    finally:
        os.close(fd)


def escribir_atomico(destino: str, escribir, modo: int = 0o644) -> None:
    """Create ``destino`` atomically: ``escribir(fd)`` fills a fresh file that replaces it.

    A link, FIFO or folder at ``destino`` is replaced (removed), never followed.
    """
    carpeta = os.path.dirname(os.path.abspath(destino))
    temporal = os.path.join(carpeta, f".curso-{secrets.token_hex(8)}.tmp")
    fd = os.open(temporal, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, modo)
    try:
        try:
            escribir(fd)
        finally:
            os.close(fd)
        try:
            os.replace(temporal, destino)
        except (IsADirectoryError, OSError) as exc:
            if not isinstance(exc, IsADirectoryError) and exc.errno not in (errno.EISDIR, errno.ENOTEMPTY,
                                                                              errno.EEXIST):
                raise
            _quitar(carpeta, os.path.basename(destino))
            os.replace(temporal, destino)
    except BaseException:
        try:
            os.unlink(temporal)
        except FileNotFoundError:
            pass
        raise


def copiar_entrega(origen: str | int, destino: str, presupuesto: PresupuestoEntrega, ignorar: list[str],
                   propios: set[str] = frozenset(), solo_propios_y_pequeños: bool = False,
                   excluir=lambda ruta: False, dueño: int | None = None, sin_modulos: bool = False) -> list[str]:
    """Copy a student's folder into the TA's copy: regular files and folders only, within budget.

    The copy cannot be raced: ``origen`` is opened once (``O_NOFOLLOW``), walked
    through directory descriptors (:func:`recorrer`) and every file is opened
    relative to them (:func:`abrir_relativo`), so a student who swaps a folder
    of the submission for a link while the copy runs gets that entry skipped
    with a reason, never the link's target.

    Args:
        origen, destino: folders (``destino`` is created); ``origen`` may be an
            open directory descriptor (not closed here).
        ignorar: nbgrader's ``CourseDirectory.ignore`` globs.
        propios: relative paths the assignment ships (kept first, never budget-limited
            in feedback mode).
        solo_propios_y_pequeños: feedback mode: besides ``propios`` and nbgrader's
            own files, only small student files within the feedback budget.
        excluir: relative paths not to copy (e.g. notebooks, which nbgrader converts).
        dueño: when given, only files of this uid are copied (the submission's author).
        sin_modulos: leave out the student's Python modules (:data:`MODULOS`) not in ``propios``
            (the TA's copies: autograded/, feedback/).

    Returns the Spanish reports.  Raises ``OSError`` when ``origen`` is not a
    real folder (a link to one included).
    """
    if isinstance(origen, int):
        raiz = os.dup(origen)
    else:
        try:
            raiz = _abrir_carpeta(origen)
        except OSError as exc:
            raise OSError(errno.ENOTDIR, "la entrega no es una carpeta (¿un enlace?)", origen) from exc
    try:
        return _copiar_desde(raiz, destino, presupuesto, ignorar, propios, solo_propios_y_pequeños, excluir, dueño,
                             sin_modulos)
    finally:
        os.close(raiz)


def _copiar_desde(raiz: int, destino: str, presupuesto: PresupuestoEntrega, ignorar: list[str],
                  propios: set[str], solo_propios_y_pequeños: bool, excluir, dueño: int | None,
                  sin_modulos: bool = False) -> list[str]:
    avisos: list[str] = []
    recorrido = recorrer(raiz, ignorar, limite=MULTIPLO_RECORRIDO * presupuesto.archivos)
    if recorrido.truncado:
        avisos.append(f"la entrega tiene más de {MULTIPLO_RECORRIDO * presupuesto.archivos} archivos y carpetas: "
                      "sólo se miraron esos")
    for entrada, motivo in recorrido.prohibidas:
        avisos.append(f"se ignoró {motivo}: {nombre_legible(entrada.ruta)}")
    for entrada in recorrido.profundas:
        avisos.append(f"se ignoró una carpeta anidada a más de {PROFUNDIDAD_MAXIMA} niveles: "
                      f"{nombre_legible(entrada.ruta)}")
    for entrada, motivo in recorrido.ilegibles:
        avisos.append(f"no se pudo leer la carpeta {nombre_legible(entrada.ruta)} ({motivo}): no se copió nada "
                      "de lo que tiene dentro")
    candidatas = []
    for entrada in recorrido.entradas:
        if excluir(entrada.ruta):
            continue
        if sin_modulos and not entrada.es_carpeta and entrada.ruta not in propios and es_modulo(entrada.ruta):
            avisos.append(_modulo_no_conservado(entrada.ruta))
            continue
        if not entrada.es_carpeta and entrada.ruta not in propios and not presupuesto.conserva(entrada.ruta):
            avisos.append(_tipo_no_conservado(entrada.ruta))
            continue
        if dueño is not None and not entrada.es_carpeta and entrada.st.st_uid != dueño:
            avisos.append(f"se ignoró un archivo de otra cuenta: {nombre_legible(entrada.ruta)}")
            continue
        candidatas.append(entrada)
    guardadas, descartadas = elegir(candidatas, presupuesto.archivos, presupuesto.bytes_totales, propios)
    if descartadas:
        avisos.append(_resumen_descartes(descartadas, presupuesto.archivos, presupuesto.bytes_totales,
                                         "de la entrega"))
    if solo_propios_y_pequeños:
        fijos = [e for e in guardadas if e.ruta in propios or e.ruta in ARCHIVOS_NBGRADER]
        del_alumno = [e for e in guardadas if e not in fijos]
        pequeñas, fuera = elegir(del_alumno, presupuesto.archivos_comentarios, presupuesto.bytes_comentarios,
                                 max_archivo=presupuesto.archivo_comentarios)
        fuera = [e for e in fuera if not e.es_carpeta]
        if fuera:
            avisos.append(f"{len(fuera)} archivo{'s' if len(fuera) != 1 else ''} de la entrega no se "
                          f"copia{'n' if len(fuera) != 1 else ''} a los comentarios (sólo van los de la tarea "
                          f"y hasta {presupuesto.archivos_comentarios} archivos pequeños del alumno): "
                          + ", ".join(nombre_legible(e.ruta, 40) for e in fuera[:3])
                          + (", …" if len(fuera) > 3 else ""))
        guardadas = fijos + pequeñas
    os.makedirs(destino, exist_ok=True)
    carpetas = {""}
    for entrada in sorted(guardadas, key=lambda e: (e.profundidad, e.ruta)):
        padre = entrada.ruta.rsplit("/", 1)[0] if "/" in entrada.ruta else ""
        if padre not in carpetas:
            continue
        objetivo = os.path.join(destino, entrada.ruta)
        if entrada.es_carpeta:
            try:
                if not _es_carpeta_real(objetivo):
                    _quitar(destino, entrada.ruta)
                    os.mkdir(objetivo, 0o755)
                carpetas.add(entrada.ruta)
            except OSError:
                avisos.append(f"no se pudo crear la carpeta {nombre_legible(entrada.ruta)}")
            continue
        try:
            fd = abrir_relativo(raiz, entrada.ruta, dueño)
        except OSError as exc:
            avisos.append(f"no se copió {nombre_legible(entrada.ruta)} (cambió durante la copia: "
                          f"{exc.strerror or exc})")
            continue
        try:
            escribir_atomico(objetivo, lambda salida: _copiar_contenido(fd, salida, tamaño_de(entrada.st)))
        except OSError as exc:
            avisos.append(f"no se copió {nombre_legible(entrada.ruta)} ({exc.strerror or exc})")
        finally:
            os.close(fd)
    return avisos


def cambiar_permisos(carpeta: str, modo_archivos: int, modo_carpetas: int | None = None) -> None:
    """``chmod`` every regular file (and folder) under ``carpeta``, never through a link."""
    if not _es_carpeta_real(carpeta):
        return
    recorrido = recorrer(carpeta)
    for entrada in recorrido.entradas:
        ruta = os.path.join(carpeta, entrada.ruta)
        if entrada.es_carpeta:
            if modo_carpetas is not None:
                _chmod_sin_seguir(ruta, modo_carpetas, directorio=True)
        else:
            _chmod_sin_seguir(ruta, modo_archivos)
    if modo_carpetas is not None:
        _chmod_sin_seguir(carpeta, modo_carpetas, directorio=True)


def _chmod_sin_seguir(ruta: str, modo: int, directorio: bool = False) -> None:
    try:
        fd = os.open(ruta, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | (os.O_DIRECTORY if directorio else 0))
    except OSError:
        return
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode) if directorio else (stat.S_ISREG(st.st_mode) and st.st_nlink == 1):
            os.fchmod(fd, modo)
    finally:
        os.close(fd)


def cambiar_dueño(carpeta: str, uid: int, gid: int) -> None:
    """``lchown`` ``carpeta`` and everything under it (links themselves, never their targets)."""
    if not _es_carpeta_real(carpeta):
        return
    os.chown(carpeta, uid, gid, follow_symlinks=False)
    for entrada in recorrer(carpeta).entradas:
        try:
            os.chown(os.path.join(carpeta, entrada.ruta), uid, gid, follow_symlinks=False)
        except OSError:
            pass


# ------------------------------------------------------ reports per folder

_AVISOS: dict[str, list[str]] = {}


def _clave(carpeta: str) -> str:
    return os.path.normpath(os.path.abspath(carpeta))


def registrar(carpeta: str, avisos: list[str], log=None, alumno: str = "?", tarea: str = "?") -> None:
    """Remember ``avisos`` for ``carpeta`` (shown in its feedback) and log each with ``MARCA``."""
    if not avisos:
        return
    lista = _AVISOS.setdefault(_clave(carpeta), [])
    for aviso in avisos:
        if aviso not in lista:
            lista.append(aviso)
        if log is not None:
            log.warning("%s de '%s' en '%s': %s", MARCA, alumno, tarea, aviso)


def avisos_de(carpeta: str) -> list[str]:
    return list(_AVISOS.get(_clave(carpeta), []))


def olvidar(carpeta: str) -> None:
    _AVISOS.pop(_clave(carpeta), None)
