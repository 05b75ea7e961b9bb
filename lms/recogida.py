"""nbgrader ``zip_collect`` plugins for Moodle and Canvas downloads.

Configured in ``nbgrader_config.py``::

    c.ZipCollectApp.extractor_plugin = "lms.recogida.ExtraccionSegura"
    c.ZipCollectApp.collector_plugin = "lms.recogida.NombresDelLMS"

so ``nbgrader zip_collect <tarea>`` (and ``make grade``) reads
``downloaded/<tarea>/archive/`` as nbgrader documents it:

* :class:`ExtraccionSegura` replaces nbgrader's extractor (which unpacks with
  ``shutil.unpack_archive``, no budgets, into any path an entry names) with
  :mod:`lms.descompresion`; every refused archive gets a Spanish reason and
  never stops the others.
* :class:`NombresDelLMS` is a ``FileNameCollectorPlugin`` whose named regular
  expressions (``patrones``, defaults in :mod:`lms.formatos`) read Moodle's
  and Canvas's file names.  Before answering for the first file it looks at
  the whole download, so it can map LMS identities to course ids (roster,
  :mod:`lms.lista_de_clase`), recognise renamed notebooks, keep the latest of
  several versions of one notebook and hand nbgrader no duplicates.

Both write the collection report ``downloaded/<tarea>/recogida.json``: what
happened to every file, in Spanish, and who each collected student is in the
LMS (what the exporters and the feedback packer need to send things back).
"""
from __future__ import annotations

import json
import os
import re
import stat
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from nbgrader.plugins import ExtractorPlugin, FileNameCollectorPlugin
from traitlets import Dict, Float, Integer, List

from lms import INFORME, LISTA, formatos
from lms.descompresion import (OTROS_COMPRIMIDOS, Limites, extraer_carpeta, legible)
from lms.formatos import Identidad
from lms.lista_de_clase import ListaDeClase, id_provisional, leer_lista

MAX_CUADERNO = 64 * 1024 ** 2     # a notebook read only to learn which one it is


# ---------------------------------------------------------------------------- report file


def leer_informe(ruta: Path) -> dict:
    """The collection report at ``ruta`` (``{}`` when missing or unreadable)."""
    try:
        datos = json.loads(ruta.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return datos if isinstance(datos, dict) else {}


def guardar_informe(ruta: Path, informe: dict) -> None:
    temporal = ruta.with_name(f".{ruta.name}.tmp")
    temporal.write_text(json.dumps(informe, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(temporal, ruta)


# ---------------------------------------------------------------------------- extractor


class ExtraccionSegura(ExtractorPlugin):
    """Unpack ``downloaded/<tarea>/archive`` within budgets (``lms.descompresion``).

    Every budget is a configurable trait, e.g.
    ``c.ExtraccionSegura.max_bytes = 4 * 1024**3``.
    """

    zip_ext = List([".zip"], help="Archive extensions unpacked (others are reported).").tag(config=True)
    max_bytes = Integer(Limites.bytes_totales, help="Bytes one downloaded archive may expand to (files past "
                                                    "it are refused one by one).").tag(config=True)
    max_bytes_por_archivo = Integer(Limites.bytes_por_archivo,
                                    help="Bytes one file inside an archive may expand to.").tag(config=True)
    max_bytes_por_entrega = Integer(Limites.bytes_por_entrega,
                                    help="Bytes the files of one student's submission may expand to.").tag(config=True)
    max_entradas = Integer(Limites.entradas, help="Entries one downloaded archive may hold.").tag(config=True)
    max_entradas_por_entrega = Integer(Limites.entradas_por_entrega,
                                       help="Files and folders of one student's submission, nested zips "
                                            "included.").tag(config=True)
    max_proporcion = Float(Limites.proporcion, help="Largest expansion ratio of a file of proporcion_desde "
                                                    "bytes or more.").tag(config=True)
    proporcion_desde = Integer(Limites.proporcion_desde, help="Files smaller than this are not ratio-checked."
                               ).tag(config=True)
    max_profundidad = Integer(Limites.profundidad, help="1: only the LMS zip; 2: also zips inside it."
                              ).tag(config=True)

    def limites(self) -> Limites:
        return Limites(bytes_totales=self.max_bytes, bytes_por_archivo=self.max_bytes_por_archivo,
                       entradas=self.max_entradas, proporcion=self.max_proporcion,
                       proporcion_desde=self.proporcion_desde, profundidad=self.max_profundidad,
                       bytes_por_entrega=self.max_bytes_por_entrega,
                       entradas_por_entrega=self.max_entradas_por_entrega)

    def extract(self, archive_path: str, extracted_path: str) -> None:
        resultado = extraer_carpeta(Path(archive_path), Path(extracted_path), self.limites(), entrega_del_lms)
        for rechazo in resultado.rechazos:
            self.log.warning("Archivo rechazado «%s»: %s", rechazo.archivo, rechazo.motivo)
        self.log.info("Descomprimidos %d archivos (%s bytes); %d rechazados", resultado.archivos,
                      resultado.bytes, len(resultado.rechazos))
        guardar_informe(Path(extracted_path).parent / INFORME, {"extraccion": informe_de_extraccion(resultado)})


def entrega_del_lms(ruta) -> str:
    """The submission a path inside an LMS download belongs to (its student's byte budget).

    Moodle's and Canvas's names say whose it is (:func:`lms.formatos.identificar`);
    anything else is budgeted by its first folder.
    """
    encontrado = formatos.identificar(tuple(ruta.parts))
    if encontrado:
        return "\0".join(encontrado[0].clave)
    return ruta.parts[0] if ruta.parts else ""


def informe_de_extraccion(resultado) -> dict:
    """What the extractor tells the collector (the ``extraccion`` part of the report)."""
    return {"rechazos": [{"archivo": r.archivo, "motivo": r.motivo} for r in resultado.rechazos],
            "anidados": resultado.anidados, "ignorados": resultado.ignorados, "descargas": resultado.descargas,
            "archivos": resultado.archivos, "bytes": resultado.bytes}


# ---------------------------------------------------------------------------- collector


@dataclass
class _Candidato:
    ruta: Path                 # absolute, in extracted/
    relativa: str
    ident: Identidad
    cuaderno: str
    nota: str
    exacto: bool
    minuto: int                # file time (from the zip) to the minute: orders versions in one download
    descarga: float            # when the TA downloaded what brought it


GRADE_ID = re.compile(rb'"grade_id"\s*:\s*("(?:[^"\\\n]|\\.){1,200}")')


def _ids_calificados(ruta: Path) -> set[str] | None:
    """grade_ids of a notebook's nbgrader cells, or None when it cannot be read.

    The file is scanned, never deserialised: a hostile "notebook" cannot make
    the TA's process build a huge object, and a damaged one is still
    recognised by its cells.
    """
    try:
        fd = os.open(ruta, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as f:
            estado = os.fstat(f.fileno())
            if not stat.S_ISREG(estado.st_mode) or estado.st_size > MAX_CUADERNO:
                return None
            datos = f.read(estado.st_size + 1)            # never a buffer of the maximum size
    except OSError:
        return None
    ids = set()
    for m in GRADE_ID.finditer(datos):
        try:
            ids.add(json.loads(m.group(1)))
        except ValueError:
            continue
    return ids


def _base(nombre: str) -> str:
    """A notebook name without the marks of copies: ``'Copia de x (2).ipynb'``, ``'x-1.ipynb'`` → ``'x'``."""
    base = re.sub(r"\.ipynb$", "", nombre, flags=re.I)
    base = re.sub(r"^(copia de |copy of )", "", base, flags=re.I)
    base = re.sub(r"(\s*\(\d+\)|-\d+|_v\d+|_copia|_copy)+$", "", base, flags=re.I)
    return formatos.slug(base)


class NombresDelLMS(FileNameCollectorPlugin):
    """``FileNameCollectorPlugin`` for Moodle's and Canvas's download names (see module docstring).

    ``collect`` returns ``{"student_id", "file_id"}`` for the notebook each
    student should be graded on, and None (with a Spanish line in the report)
    for everything else.  No ``timestamp`` is returned: the times inside an
    LMS zip are when it was zipped, not when the student submitted.
    """

    valid_ext = List([".ipynb"]).tag(config=True)
    patrones = Dict({"moodle_carpeta": formatos.MOODLE_CARPETA.pattern,
                     "moodle_plano": formatos.MOODLE_PLANO.pattern,
                     "canvas": formatos.CANVAS.pattern},
                    help="Named regular expressions for the LMS's file names (groups: nombre, lms_id, "
                         "plugin, adjunto, archivo).").tag(config=True)

    _decisiones: dict | None = None

    # -- nbgrader's entry point
    def collect(self, submitted_file: str) -> dict | None:
        if self._decisiones is None:
            self._decisiones = {}
            try:
                self._preparar()
            except Exception:       # a bug here must not look like "nothing submitted"
                self.log.error("La recogida falló:\n%s", traceback.format_exc())
                raise
        return self._decisiones.get(os.path.abspath(submitted_file))

    # -- the whole download at once
    def _rutas(self) -> dict[str, Path]:
        app = self.parent
        raiz = Path(app.coursedir.root)
        extraido = Path(app._format_collect_path(app.extracted_directory))
        descargas = raiz / app.downloaded_directory
        return {"raiz": raiz, "extraido": extraido, "archivo": Path(app._format_collect_path(app.archive_directory)),
                "informe": extraido.parent / INFORME,
                "lista": descargas / LISTA,
                "release": raiz / app.coursedir.release_directory}

    def _preparar(self) -> None:
        patrones = {clave: re.compile(valor) for clave, valor in self.patrones.items()}
        rutas = self._rutas()
        tarea = self.parent.coursedir.assignment_id
        informe = leer_informe(rutas["informe"])
        informe.setdefault("extraccion", {})
        lista = leer_lista(rutas["lista"])
        resultado = clasificar(rutas["extraido"], tarea, rutas["release"], lista, informe["extraccion"],
                               formatos.buscar_hoja_moodle(rutas["archivo"]), patrones)
        for linea in resultado["lineas"]:
            (self.log.warning if linea.get("aviso") else self.log.info)("%s", linea["texto"])
        self._decisiones = resultado.pop("decisiones")
        informe.update(resultado)
        informe["tarea"] = tarea
        informe["lista_de_clase"] = str(rutas["lista"]) if lista else ""
        guardar_informe(rutas["informe"], informe)


def _cuadernos(carpeta: Path) -> dict[str, set[str]]:
    return {p.name: (_ids_calificados(p) or set()) for p in sorted(carpeta.glob("*.ipynb"))} \
        if carpeta.is_dir() else {}


def _destino(ruta: Path, nombre: str, propios: dict[str, set[str]], ajenos: dict[str, dict[str, set[str]]]
             ) -> tuple[str | None, str, bool]:
    """Which notebook of the assignment a submitted notebook is: (name or None, Spanish note, exact?)."""
    if nombre in propios:
        return nombre, "", True
    ids = _ids_calificados(ruta)
    if ids:
        # the notebook whose graded cells it shares most (quiz ids repeat across lessons)
        solapes = [(len(ids & g), t == "", t, c) for t, cuadernos in [("", propios), *ajenos.items()]
                   for c, g in cuadernos.items()]
        mejor = max(solapes, default=None)
        if mejor and mejor[0]:
            _, propio, otra, cuaderno = mejor
            if propio:
                return cuaderno, (f"«{legible(nombre)}» no se llama como el cuaderno de la tarea: se califica "
                                  f"como {cuaderno}"), False
            return None, f"«{legible(nombre)}» es un cuaderno de la tarea {otra}, no de esta: no se califica aquí", \
                False
    base = _base(nombre)
    por_nombre = [c for c in propios if _base(c) == base]
    if len(por_nombre) == 1:
        return por_nombre[0], f"«{legible(nombre)}» se califica como {por_nombre[0]} (nombre cambiado)", False
    if len(propios) == 1:
        unico = next(iter(propios))
        return unico, f"«{legible(nombre)}» no se llama como el cuaderno de la tarea: se califica como {unico}", False
    return None, f"no se sabe a qué cuaderno de la tarea corresponde «{legible(nombre)}»: no se califica", False


def _motivo_ignorado(ident: Identidad, nombre: str) -> str:
    sufijo = Path(nombre).suffix.lower()
    if ident.plugin == "onlinetext" or ident.plugin == "texto":
        return "es texto en línea escrito en el LMS, no un cuaderno"
    if sufijo in OTROS_COMPRIMIDOS:
        return f"es un comprimido {sufijo} (sólo se abren .zip; que suba el .ipynb o un .zip)"
    return "no es un cuaderno (.ipynb)"


def asignar_ids(identidades: list[Identidad], lista: ListaDeClase, correos: dict[str, str]
                ) -> tuple[dict, dict, list[tuple[str, str]]]:
    """Course ids for the LMS identities of one download, the strongest evidence first.

    Evidence, strongest first: the LMS id on the roster (Canvas's user id), the e-mail Moodle's
    grading worksheet gives each participant (``correos``: every participant it lists, with a file in
    this download or not), the name (which students may edit in the LMS).  A name never takes a
    roster row that a stronger key gives to someone else (a row whose e-mail the worksheet gives to
    another participant, a row with another Canvas user id), nor one whose e-mail is not the one the
    worksheet gives that person; when the names of several people match one row and nothing stronger
    decides, none of them gets it.  Everyone else gets a provisional id (:func:`id_provisional`),
    with ``-<LMS number>`` appended when it is a roster id, when others of the download would share
    it, or when that person's name matched a row they did not get: a provisional id is never a
    roster id nor another's (``-`` never comes out of a name).

    Returns:
        ``(ids, como, avisos)``: id per identity key, how it was found (Spanish, '' for a provisional
        id) and ``(course id, Spanish text)`` for the report, each under the person it concerns and,
        when a roster row was at stake, under that row too.
    """
    def lms_de(ident: Identidad) -> str:
        return {"moodle": "Moodle", "canvas": "Canvas"}[ident.lms]

    por_clave = {i.clave: i for i in identidades}
    correo_de = {i.clave: (correos.get(i.lms_id, "") if i.lms == "moodle" else "") for i in identidades}
    # who a stronger key says each row is: the worksheet's e-mails, for every participant it lists
    atadas: dict[str, dict[tuple[str, str], str]] = {}          # row → {identity: by what}
    for participante, correo in correos.items():
        fila = lista.por_correo(correo)
        if fila:
            atadas.setdefault(fila.id, {})[("moodle", participante)] = "su correo en la hoja de calificación"
    fuertes: dict[tuple[str, str], tuple] = {}           # identity → (row, how)
    for ident in identidades:
        fila = lista.por_id_del_lms(ident)
        if fila:
            fuertes[ident.clave] = (fila, f"por su id de {lms_de(ident)}")
            atadas.setdefault(fila.id, {})[ident.clave] = f"su id de {lms_de(ident)}"
            continue
        fila = lista.por_correo(correo_de[ident.clave])
        if fila:
            fuertes[ident.clave] = (fila, "por su correo")
    ids, como, avisos = {}, {}, []
    rechazos: dict[tuple[str, str], tuple[str | None, str]] = {}    # identity → (row at stake, why not)
    por_fila: dict[str, list[tuple[str, str]]] = {}
    for clave, (fila, forma) in fuertes.items():
        por_fila.setdefault(fila.id, []).append(clave)
    for fila_id, claves in por_fila.items():
        if len(claves) > 1:        # the worksheet or the roster says two people are one row: neither gets it
            for clave in claves:
                otros = ", ".join(por_clave[c].describir() for c in claves if c != clave)
                rechazos[clave] = (fila_id, f"la lista de clase y el LMS dicen que «{fila_id}» es también {otros}")
        else:
            fila, forma = fuertes[claves[0]]
            ids[claves[0]], como[claves[0]] = fila.id, f"lista de clase, {forma}"
    por_nombre: dict[str, list[tuple[str, str]]] = {}
    for ident in identidades:
        clave = ident.clave
        if clave in ids or clave in rechazos:
            continue
        candidatas = lista.por_nombre(ident)
        if len(candidatas) > 1:
            rechazos[clave] = (None, "hay varios con ese nombre en la lista de clase")
            continue
        if not candidatas:
            continue
        fila = candidatas[0]
        otros = {c: como_ for c, como_ in atadas.get(fila.id, {}).items() if c != clave}
        correo = correo_de[clave]
        if otros:
            otro = sorted(otros)[0]
            quien = por_clave[otro].describir() if otro in por_clave else f"el participante {otro[1]} de Moodle"
            rechazos[clave] = (fila.id, f"se llama como «{fila.id}» de la lista de clase, pero «{fila.id}» es {quien} "
                                        f"por {otros[otro]}, un dato más fiable que el nombre")
        elif correo and fila.email and correo.casefold() != fila.email.casefold():
            rechazos[clave] = (fila.id, f"se llama como «{fila.id}» de la lista de clase, pero su correo en la hoja "
                                        f"de Moodle ({legible(correo, 80)}) no es el de «{fila.id}»")
        elif ident.lms == "canvas" and fila.lms_user_id and fila.lms_user_id != ident.lms_id:
            rechazos[clave] = (fila.id, f"se llama como «{fila.id}» de la lista de clase, pero «{fila.id}» tiene otro "
                                        f"ID de Canvas ({legible(fila.lms_user_id, 40)})")
        else:
            por_nombre.setdefault(fila.id, []).append(clave)
    for fila_id, claves in por_nombre.items():
        if len(claves) > 1:        # two people's names match one row and nothing stronger decides
            for clave in claves:
                otros = ", ".join(por_clave[c].describir() for c in claves if c != clave)
                rechazos[clave] = (fila_id, f"se llama como «{fila_id}» de la lista de clase, igual que {otros}; "
                                            "sin un correo (la hoja de calificación de Moodle) o un id del LMS que lo "
                                            f"decida, nadie se califica como «{fila_id}»")
            continue
        clave = claves[0]
        fila = next(a for a in lista.alumnos if a.id == fila_id)
        ids[clave] = fila_id
        sin_confirmar = fila.email and not correo_de[clave]
        como[clave] = "lista de clase, por su nombre" + (
            " (sin correo que lo confirme: descarga también la hoja de calificación de Moodle)" if sin_confirmar
            else "")
    # provisional ids: never a roster id, never another's
    usados = set(lista.ids()) | set(ids.values())
    sin_id = sorted((i for i in identidades if i.clave not in ids), key=lambda i: i.clave)
    bases = {i.clave: id_provisional(i) for i in sin_id}
    repetidas = Counter(bases.values())
    for ident in sin_id:
        clave, base = ident.clave, bases[ident.clave]
        fila_en_juego, motivo = rechazos.get(clave, (None, ""))
        if base in lista.ids():
            por_que = f"«{base}» es el id de otra persona de la lista de clase"
        elif repetidas[base] > 1:
            por_que = f"otras personas de la descarga tendrían también «{base}»"
        else:
            por_que = ""
        # a Moodle name that matched a row it did not get is told apart by its number (Canvas ids carry it)
        distinguir = bool(por_que) or (fila_en_juego is not None and ident.lms == "moodle")
        candidato = base if not distinguir else f"{base}-{formatos.slug(ident.lms_id) or ident.lms}"
        n = 1
        while candidato in usados:
            n += 1
            candidato = f"{base}-{formatos.slug(ident.lms_id) or ident.lms}-{n}"
        usados.add(candidato)
        ids[clave], como[clave] = candidato, ""
        partes = [t for t in (motivo, por_que) if t]
        if lista:
            fuera = "no se le da ningún id de la lista de clase" if motivo else "no está en la lista de clase"
            avisos.append((candidato, f"{ident.describir()} {fuera}" + (f" ({'; '.join(partes)})" if partes else "")
                                      + f": se usa el id provisional «{candidato}»"))
        elif por_que:
            avisos.append((candidato, f"{ident.describir()}: {por_que}; se usa «{candidato}» (con la lista de clase "
                                      "y la hoja de calificación de Moodle, que trae los correos, cada uno tiene el "
                                      "suyo)"))
        if fila_en_juego:
            avisos.append((fila_en_juego, f"{ident.describir()} no se califica como «{fila_en_juego}»: {motivo}; se "
                                          f"califica aparte como «{candidato}»"))
    return ids, como, avisos


def clasificar(extraido: Path, tarea: str, release: Path, lista: ListaDeClase, extraccion: dict,
               hoja: formatos.HojaMoodle | None = None, patrones: dict | None = None) -> dict:
    """Decide, for every file of an extracted LMS download, whether and as what it is collected.

    Args:
        extraido: the extraction folder (``downloaded/<tarea>/extracted``).
        tarea: the assignment id.
        release: the course's ``release/`` folder.
        lista: the roster (may be empty).
        extraccion: what the extractor reported (``anidados``, ``rechazos``...).
        hoja: Moodle's grading worksheet for this assignment, if downloaded
            (its e-mails help match the roster).
        patrones: compiled name patterns overriding :mod:`lms.formatos`'s.

    Returns:
        A dict with ``decisiones`` (absolute path → ``{"student_id",
        "file_id"}``), ``entregas`` (course id → LMS identity and notebooks),
        ``lineas`` (the report: ``{"alumno", "texto", "aviso"}``) and
        ``sin_entrega`` (roster ids with nothing collected).
    """
    propios = _cuadernos(release / tarea)
    ajenos = {p.name: _cuadernos(p) for p in sorted(release.iterdir()) if p.is_dir() and p.name != tarea} \
        if release.is_dir() else {}
    carpetas_de_zip = {tuple(Path(a).parts) for a in extraccion.get("anidados", [])}
    descargas = {tuple(Path(d).parts): t for d, t in extraccion.get("descargas", {}).items()}

    def fecha_de_descarga(partes: tuple[str, ...], ruta: Path) -> float:
        for n in range(len(partes), 0, -1):
            if partes[:n] in descargas:
                return descargas[partes[:n]]
        try:
            return ruta.lstat().st_mtime
        except OSError:
            return 0.0

    correos = hoja.correos() if hoja else {}
    candidatos: list[_Candidato] = []
    sueltos: list[tuple[Identidad | None, str]] = []       # (identity, Spanish text) of files not collected
    ultima: dict[tuple[str, str], float] = {}              # identity → its newest download
    generales: list[dict] = []
    identidades: dict[tuple[str, str], Identidad] = {}
    for carpeta, subcarpetas, nombres in os.walk(extraido, followlinks=False):
        subcarpetas.sort()
        for nombre in sorted(nombres):
            ruta = Path(carpeta) / nombre
            relativa = ruta.relative_to(extraido)
            visible = legible(relativa.as_posix())
            encontrado = formatos.identificar(relativa.parts, carpetas_de_zip, patrones)
            if not encontrado:
                if nombre.lower().endswith(".csv") and formatos.hoja_moodle(ruta):
                    generales.append({"texto": f"hoja de calificación de Moodle «{visible}»: se usará para "
                                               "devolver las notas"})
                elif nombre.lower().endswith(".csv") and formatos.libro_canvas(ruta):
                    generales.append({"texto": f"libro de calificaciones de Canvas «{visible}»: se usará para "
                                               "devolver las notas"})
                else:
                    sueltos.append((None, f"se ignora «{visible}»: no sigue los nombres de Moodle ni de Canvas"))
                continue
            ident, resto = encontrado
            identidades.setdefault(ident.clave, ident)
            descarga = fecha_de_descarga(relativa.parts, ruta)
            ultima[ident.clave] = max(ultima.get(ident.clave, 0.0), descarga)
            if ".ipynb_checkpoints" in resto[:-1]:
                sueltos.append((ident, f"se ignora «{visible}»: es una copia automática de Jupyter"))
                continue
            archivo = resto[-1] if resto else nombre
            if not archivo.lower().endswith(".ipynb"):
                sueltos.append((ident, f"se ignora «{visible}»: {_motivo_ignorado(ident, archivo)}"))
                continue
            cuaderno, nota, exacto = _destino(ruta, archivo, propios, ajenos)
            if cuaderno is None:
                sueltos.append((ident, nota))
                continue
            try:
                minuto = int(ruta.lstat().st_mtime // 60)
            except OSError:
                minuto = 0
            candidatos.append(_Candidato(ruta, visible, ident, cuaderno, nota, exacto, minuto, descarga))

    anidados = [(a, formatos.identificar(Path(a).parts, carpetas_de_zip, patrones))
                for a in extraccion.get("anidados", [])]
    rechazos = [(r, formatos.identificar(tuple(Path(r["archivo"]).parts[1:]) or ("",), carpetas_de_zip, patrones))
                for r in extraccion.get("rechazos", [])]
    for _, encontrado in anidados + rechazos:
        if encontrado:
            identidades.setdefault(encontrado[0].clave, encontrado[0])
    ids, como, avisos_ids = asignar_ids(list(identidades.values()), lista, correos)
    lineas: list[dict] = []
    por_alumno: dict[str, list[dict]] = {}

    def anotar(clave, texto: str, aviso: bool = False) -> None:
        alumno = ids[clave]
        por_alumno.setdefault(alumno, []).append({"alumno": alumno, "texto": f"{alumno}: {texto}", "aviso": aviso})

    decisiones, entregas = {}, {}
    grupos: dict[tuple[str, str], list[_Candidato]] = {}
    for c in candidatos:
        grupos.setdefault((ids[c.ident.clave], c.cuaderno), []).append(c)
    for (alumno, cuaderno), grupo in sorted(grupos.items()):
        # latest download first, then Canvas's attachment order, then file time, then the exact name
        grupo.sort(key=lambda c: (c.descarga // 60, c.ident.adjunto if c.ident.adjunto is not None else -1,
                                  c.minuto, c.exacto, c.relativa))
        ganador = grupo[-1]
        if ganador.descarga < ultima[ganador.ident.clave] - 60:
            # a newer download of this submission no longer brings this notebook: the student replaced it
            for c in grupo:
                anotar(c.ident.clave, f"se descarta «{c.relativa}»: es de una descarga anterior y su entrega más "
                                      f"reciente ya no trae {cuaderno}", aviso=True)
            continue
        decisiones[os.path.abspath(ganador.ruta)] = {"student_id": alumno, "file_id": cuaderno}
        ident = ganador.ident
        entrada = entregas.setdefault(alumno, {
            "lms": ident.lms, "lms_id": ident.lms_id, "nombre": ident.nombre, "prefijo": ident.prefijo,
            "formato": ident.formato, "adjunto": ident.adjunto, "tarde": ident.tarde,
            "como": como[ident.clave], "cuadernos": {}})
        entrada["cuadernos"][cuaderno] = ganador.relativa
        if ganador.nota:
            anotar(ident.clave, ganador.nota)
        for perdedor in grupo[:-1]:
            anotar(perdedor.ident.clave, f"{cuaderno} llegó {len(grupo)} veces: se califica la versión más "
                                         f"reciente «{ganador.relativa}» y se descarta «{perdedor.relativa}»",
                   aviso=True)
    for ident, texto in sueltos:
        if ident is None:
            lineas.append({"alumno": None, "texto": texto, "aviso": True})
        else:
            anotar(ident.clave, texto, aviso=True)
    for alumno, texto in avisos_ids:
        por_alumno.setdefault(alumno, []).append({"alumno": alumno, "texto": f"{alumno}: {texto}", "aviso": True})
    for anidado, encontrado in anidados:
        if encontrado:
            anotar(encontrado[0].clave, f"se descomprimió «{legible(anidado)}.zip»")
    for rechazo, encontrado in rechazos:
        texto = f"ARCHIVO RECHAZADO «{rechazo['archivo']}»: {rechazo['motivo']}"
        if encontrado:
            anotar(encontrado[0].clave, texto, aviso=True)
        else:
            lineas.append({"alumno": None, "texto": texto, "aviso": True})
    for clave, ident in identidades.items():
        alumno = ids[clave]
        cabeza = f"{alumno} ← {ident.describir()}" + (f", {como[clave]}" if como[clave] else "")
        if alumno in entregas:
            cabeza += ": " + ", ".join(sorted(entregas[alumno]["cuadernos"]))
            if entregas[alumno]["tarde"]:
                cabeza += " (Canvas la marca como entregada tarde)"
        else:
            cabeza += ": ningún cuaderno de la tarea en su entrega; no se califica"
        por_alumno.setdefault(alumno, []).insert(0, {"alumno": alumno, "texto": cabeza,
                                                     "aviso": alumno not in entregas})
    for alumno in sorted(por_alumno):
        vistos = set()
        for linea in por_alumno[alumno]:
            if linea["texto"] not in vistos:
                vistos.add(linea["texto"])
                lineas.append(linea)
    lineas = generales + lineas
    for aviso in lista.avisos:
        lineas.append({"alumno": None, "texto": aviso, "aviso": True})
    sin_entrega = [a for a in lista.ids() if a not in entregas]
    if lista and sin_entrega:
        lineas.append({"alumno": None, "texto": "sin entrega (en la lista de clase): " + ", ".join(sin_entrega)})
    return {"decisiones": decisiones, "entregas": entregas, "lineas": lineas, "sin_entrega": sin_entrega}
