"""nbgrader extensions for autograde's sanitize step: locked cells and supplementary files.

Both run in the TA's ``nbgrader autograde`` process, on the submitted notebook,
before it is executed (``Autograde.sanitize_preprocessors`` in
nbgrader_config.py).  Everything a submission brings is hostile input here:
files are compared without following links and without trusting their size.

* ``ReponerPruebasOcultas`` — why nbgrader warned "checksum … has changed!" for
  every untouched test cell: the gradebook keeps each locked cell as the
  author wrote it, *with* its hidden tests (and their checksum), while the
  student's copy was released without them.  nbgrader's ``OverwriteCells``
  compares the two, finds them different for every test cell, warns and
  restores the gradebook's version.  This preprocessor, placed right before
  ``OverwriteCells``, strips the hidden tests from the gradebook's version with
  nbgrader's own ``ClearHiddenTests`` (what ``generate_assignment`` released)
  and, when the student's cell is exactly that, puts the hidden tests back.
  An untouched cell then matches and nothing is logged; a cell the student
  really edited still differs, so ``OverwriteCells`` warns ("Attribute
  'checksum' for cell … has changed!"), restores it and ``make grade`` reports
  it; the restored cell also carries a note for the student's feedback.
  The same step puts back the nbgrader marks (``grade``, ``solution``,
  ``task`` and the points) of every cell of the assignment whose marks the
  student changed: nbgrader keeps the student's, and a solution cell marked
  as graded aborts the notebook (0 points, no reason given).
* ``AvisarArchivosModificados`` — nbgrader's autograde overwrites every file
  shipped with the assignment (``source/<tarea>/`` except notebooks and
  ``Autograde.exclude_overwriting``) with the course's copy, so a student's
  edits to, e.g., the explorable module are discarded.  The course keeps that
  behaviour (those modules are the course's, not the student's) and says so:
  the notebook gets a Spanish note at the top (it reaches the feedback and the
  formgrader), and its metadata lists the files for the TA table.
"""
from __future__ import annotations

import os
import stat

import nbformat
from nbconvert.exporters import NotebookExporter
from nbformat.notebooknode import from_dict
from nbgrader import utils
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor, OverwriteCells

from ..caja import archivos_alumno, cuaderno_acotado

# cell metadata this course adds (never read from a student's notebook: set here)
CLAVE = "curso_atencion"
# the marks that make nbgrader treat a cell as part of the assignment
MARCAS_NBGRADER = ("grade", "solution", "locked", "task")
NOTA_CELDA_EDITADA = ("Tu entrega traía esta celda de prueba modificada: se ha calificado con la "
                      "original del curso (las celdas de prueba no se pueden cambiar).")


class ReponerPruebasOcultas(NbGraderPreprocessor):
    """Untouched locked cells get their hidden tests back before ``OverwriteCells`` (module doc)."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        self._quitar = ClearHiddenTests(parent=self)
        self._quitar.enforce_metadata = False
        for celda in nb.cells:                     # marks are ours to set, never the student's
            celda.get("metadata", {}).pop(CLAVE, None)
        with Gradebook(info["db_url"]) as gb:
            self._fuentes = {}
            for celda in nb.cells:
                meta = celda.get("metadata", {}).get("nbgrader")
                grade_id = meta.get("grade_id") if isinstance(meta, dict) else None
                if isinstance(grade_id, str) and grade_id:
                    try:
                        self._fuentes[grade_id] = gb.find_source_cell(grade_id, info["notebook"],
                                                                      info["assignment"])
                        self._reponer_marcas(celda, grade_id, gb, resources)
                        continue
                    except MissingEntry:
                        pass
                if isinstance(meta, dict) and any(meta.get(k) for k in MARCAS_NBGRADER):
                    self._desconocida(celda, grade_id, resources)
            return super().preprocess(nb, resources)

    def _desconocida(self, celda, grade_id, resources) -> None:
        """A cell marked for nbgrader that the assignment does not have: an ordinary cell from now on.

        nbgrader 0.9 aborts the whole notebook on it (``OverwriteCells`` drops its
        ``grade_id``, then ``SaveAutoGrades`` fails on the missing key), so one
        extra «graded» cell would cost the student every point.  Its code still
        runs; it is worth nothing; the TA's table and the feedback say so.
        """
        del celda.metadata["nbgrader"]
        nombre = archivos_alumno.nombre_legible(grade_id if isinstance(grade_id, str) and grade_id
                                                else "sin grade_id", 60)
        datos = resources.get("nbgrader") or {}
        coursedir = CourseDirectory(config=self.config)     # where the feedback will look for it
        carpeta = coursedir.format_path(coursedir.autograded_directory, datos.get("student", "?"),
                                        datos.get("assignment", "?"))
        aviso = (f"la entrega traía una celda marcada para calificar que la tarea no tiene ({nombre}): "
                 "se ejecutó como una celda normal y no da puntos")
        archivos_alumno.registrar(carpeta, [aviso], self.log, datos.get("student", "?"),
                                  datos.get("assignment", "?"))

    def _reponer_marcas(self, celda, grade_id: str, gb, resources) -> None:
        """A cell of the assignment whose nbgrader marks the student changed gets the gradebook's back.

        nbgrader 0.9 keeps the student's ``grade``, ``solution`` and ``task``
        marks: a solution cell turned into a graded one makes
        ``OverwriteCells`` look for a grade cell the gradebook does not have
        (``MissingEntry``) and the whole notebook scores 0, with no reason
        given; a test cell without its ``grade`` mark is not scored at all.
        The marks (and the points) are the assignment's, never the student's:
        they are put back from the gradebook, the code still runs, and the TA's
        table and the feedback name the cell and the mark that changed.
        """
        info = resources["nbgrader"]
        meta = celda.metadata["nbgrader"]

        def buscar(funcion):
            try:
                return funcion(grade_id, info["notebook"], info["assignment"])
            except MissingEntry:
                return None

        calificada = buscar(gb.find_graded_cell)           # a GradeCell or a TaskCell, or None
        tipo = type(calificada).__name__ if calificada is not None else None
        debidas = {"grade": tipo == "GradeCell", "solution": buscar(gb.find_solution_cell) is not None,
                   "task": tipo == "TaskCell"}
        cambios = []
        for marca, debida in debidas.items():
            if bool(meta.get(marca)) == debida:
                continue
            if debida:
                cambios.append(f"sin la marca «{marca}», que en la tarea lleva")
            else:
                puntos = f", {_puntos(meta.get('points'))} puntos" if marca in ("grade", "task") else ""
                cambios.append(f"con la marca «{marca}»{puntos}, que en la tarea no lleva")
            meta[marca] = debida
        if not cambios:
            return
        if calificada is not None:
            meta["points"] = float(calificada.max_score)
        else:
            meta.pop("points", None)
        nombre = archivos_alumno.nombre_legible(grade_id, 60)
        self.log.warning("Cell %s had its nbgrader marks changed (%s); the assignment's are restored",
                         nombre, ", ".join(cambios))
        datos = resources.get("nbgrader") or {}
        coursedir = CourseDirectory(config=self.config)
        carpeta = coursedir.format_path(coursedir.autograded_directory, datos.get("student", "?"),
                                        datos.get("assignment", "?"))
        aviso = (f"la celda {nombre} venía {'; y '.join(cambios)}: se ha calificado con las marcas de la "
                 "tarea")
        archivos_alumno.registrar(carpeta, [aviso], self.log, datos.get("student", "?"),
                                  datos.get("assignment", "?"))

    def publicada(self, fuente) -> str:
        """What ``generate_assignment`` released for a gradebook source cell (no hidden tests)."""
        celda = from_dict({"cell_type": fuente.cell_type, "source": fuente.source, "metadata": {},
                           "outputs": [], "execution_count": None})
        self._quitar.preprocess_cell(celda, {}, 0)
        return celda.source

    def preprocess_cell(self, cell, resources, index):
        meta = cell.get("metadata", {}).get("nbgrader")
        fuente = self._fuentes.get(meta.get("grade_id")) if isinstance(meta, dict) else None
        if fuente is None or not fuente.locked:
            return cell, resources
        if not isinstance(cell.get("source"), str) or cell.source == fuente.source:
            return cell, resources
        if cell.source == self.publicada(fuente):
            cell.source = fuente.source            # untouched: the gradebook's version, quietly
        else:
            cell.metadata[CLAVE] = {"celda_editada": True}
            self.log.warning("Locked cell %s was edited in the submission; the original is graded",
                             meta.get("grade_id"))
        return cell, resources


class ReponerCeldasBorradas(OverwriteCells):
    """nbgrader's ``OverwriteCells`` whose restoring of deleted graded cells survives deleting a whole block.

    nbgrader 0.9.6's ``add_missing_grade_cells`` puts a deleted test cell back right after the cell that came
    before it in the assignment, and assumes that cell is still there: a student who deleted an answer cell
    *and* its test cell (a whole question, or every cell) made it fail with ``KeyError: '<grade_id>'``, and
    nbgrader then gave that notebook no grade at all, the student's other answers included.  Here the
    deleted test cell goes after the nearest *earlier* cell of the assignment the notebook still has (at
    the top when there is none), in the assignment's order; it is scored as nbgrader would (the deleted
    answer is not there, so its test fails).  Everything else is nbgrader's (``OverwriteCells``'s
    configuration applies: ``c.OverwriteCells.add_missing_cells``).
    """

    def add_missing_grade_cells(self, nb, resources):
        fuente = self.gradebook.find_notebook(self.notebook_id, self.assignment_id)
        ids = [celda.name for celda in fuente.source_cells]
        de_solucion = {celda.name for celda in fuente.solution_cells}

        def presentes() -> dict[str, int]:
            lugares = {}
            for i, celda in enumerate(nb.cells):
                meta = celda.get("metadata", {}).get("nbgrader", {})
                if (meta.get("grade") or meta.get("solution")) and isinstance(meta.get("grade_id"), str):
                    lugares[meta["grade_id"]] = i
            return lugares

        for celda_calificada in fuente.grade_cells:
            grade_id = celda_calificada.name
            donde = presentes()
            if grade_id in donde:
                continue
            self.log.warning(f"Missing grade cell {grade_id} encountered, adding to notebook")
            indice = ids.index(grade_id)
            nueva = self.missing_cell_transform(fuente.source_cells[indice], celda_calificada.max_score,
                                                is_solution=grade_id in de_solucion)
            anteriores = [donde[i] for i in reversed(ids[:indice]) if i in donde]
            nb.cells.insert(anteriores[0] + 1 if anteriores else 0, nueva)
        return nb, resources


def _puntos(valor) -> str:
    """A number of points as a TA reads it (``50``, ``2,5``); anything else, cut and escaped."""
    try:
        numero = float(valor)
    except (TypeError, ValueError):
        return archivos_alumno.nombre_legible(str(valor), 20)
    return f"{numero:g}".replace(".", ",")


def archivos_modificados(origen: str, entrega: str, excluidos=(), ignorar=()) -> list[str]:
    """Files shipped with the assignment that the submission brings changed.

    Args:
        origen: ``source/<tarea>`` (what autograde copies over the submission).
        entrega: ``submitted/<alumno>/<tarea>``.
        excluidos: paths relative to ``origen`` that autograde does not
            overwrite (``Autograde.exclude_overwriting``): the student's own.
        ignorar: nbgrader's ignore patterns (``CourseDirectory.ignore``).

    Returns:
        Sorted relative paths whose submitted copy differs: other bytes, or a
        link, folder or anything else in place of the file.  A missing file
        is not a change (autograde puts it back).  Links are never followed
        and a submitted file is read only up to the size of the course's copy.
    """
    cambiados = []
    excluidos = {os.path.normpath(x) for x in excluidos}
    for ruta in utils.find_all_files(origen, list(ignorar) + ["*.ipynb"]):
        relativa = os.path.relpath(ruta, origen)
        if os.path.normpath(relativa) in excluidos:
            continue
        suya = os.path.join(entrega, relativa)
        try:
            info = os.lstat(suya)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or info.st_size != os.path.getsize(ruta):
            cambiados.append(relativa)
            continue
        try:
            with open(ruta, "rb") as a, open(suya, "rb", opener=_sin_enlaces) as b:
                iguales = a.read() == b.read(info.st_size + 1)
        except OSError:
            iguales = False
        if not iguales:
            cambiados.append(relativa)
    return sorted(cambiados)


def _sin_enlaces(ruta, flags):
    return os.open(ruta, flags | getattr(os, "O_NOFOLLOW", 0))


def nota_de_archivos(nombres: list[str]) -> str:
    """The Spanish note at the top of the notebook when shipped files were edited."""
    lista = ", ".join(f"`{n}`" for n in nombres)
    plural = len(nombres) > 1
    return (f"**Aviso de la corrección.** Tu entrega traía {'modificados' if plural else 'modificado'} "
            f"{lista}, {'archivos que vienen' if plural else 'un archivo que viene'} con la tarea. Al "
            "corregir se usa siempre la copia del curso de esos archivos, así que tus cambios no se han "
            "tenido en cuenta: si tu código dependía de ellos, ahí está la causa de sus fallos. Las "
            "funciones auxiliares van en la celda del ejercicio.")


class AvisarArchivosModificados(NbGraderPreprocessor):
    """Note in the notebook which shipped files the student edited (module doc)."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        curso = CourseDirectory(parent=self)
        tarea, alumno = info["assignment"], info["student"]
        origen = curso.format_path(curso.source_directory, ".", tarea)
        entrega = curso.format_path(curso.submitted_directory, alumno, tarea)
        autograde = self.config.get("Autograde", {})
        excluidos = dict(autograde.get("exclude_overwriting", {}) or {}).get(tarea, [])
        nombres = archivos_modificados(origen, entrega, excluidos, curso.ignore)
        # a note copied from elsewhere by the student is not ours: drop it
        nb.cells = [c for c in nb.cells if CLAVE not in c.get("metadata", {})
                    or "archivos_modificados" not in c.metadata[CLAVE]]
        if nombres:
            self.log.warning("Files shipped with the assignment were edited in the submission "
                             "(the course's copies are used): %s", ", ".join(nombres))
            nota = from_dict({"cell_type": "markdown", "source": nota_de_archivos(nombres),
                              "metadata": {CLAVE: {"archivos_modificados": nombres}}})
            if nb.nbformat_minor >= 5:
                nota["id"] = "aviso-archivos-modificados"
            nb.cells.insert(0, nota)
        return nb, resources


# How many cells a submitted notebook may bring (the lessons have under 100): past it, nbgrader's own steps
# (sanitize, autograde's preprocessors, feedback, formgrader's page), which run in the TA's process and not in
# the sandbox, grew with the number of cells (a hostile tester's F5: 250 000 markdown cells, 13 min and 3.5 GB
# for one student, full marks and no word in the table).  A large notebook file is bounded before nbformat
# parses it (``LecturaAcotada``, grader_tests/caja/cuaderno_acotado.py), with the same rule.
MAX_CELDAS = cuaderno_acotado.MAX_CELDAS


def nota_de_celdas_omitidas(texto: int, codigo: int, adjuntos: int = 0, metadatos: int = 0) -> str:
    """The Spanish note at the top of a notebook whose extra cells, attachments or metadata were left out."""
    partes = [f"{n} {nombre if n == 1 else plural}" for n, nombre, plural in
              ((texto, "celda de texto", "celdas de texto"), (codigo, "celda de código", "celdas de código")) if n]
    frases = []
    if partes:
        frases.append(f"Tu entrega traía más de {MAX_CELDAS} celdas (las lecciones tienen menos de 100): al "
                      f"corregir se han dejado fuera {' y '.join(partes)} que no son de la tarea, desde el final "
                      "del cuaderno (primero las de texto). Las celdas de la tarea (tus respuestas, el ejercicio y "
                      "sus pruebas) se han corregido todas; si tu código dependía de alguna celda omitida, ahí "
                      "está la causa de sus fallos.")
    if adjuntos:
        frases.append(f"Se {'ha' if adjuntos == 1 else 'han'} dejado fuera {adjuntos} "
                      f"{'imagen pegada' if adjuntos == 1 else 'imágenes pegadas'} en celdas de texto: se "
                      f"conservan {cuaderno_acotado.MAX_ADJUNTOS_CELDA} por celda y "
                      f"{cuaderno_acotado.MAX_BYTES_ADJUNTOS // 1024 ** 2} MiB por cuaderno.")
    if metadatos:
        frases.append(f"Se {'han' if metadatos > 1 else 'ha'} recortado los metadatos de {metadatos} "
                      f"{'elementos' if metadatos > 1 else 'elemento'} (celdas o cuaderno) demasiado grandes; "
                      "la corrección no los usa.")
    return "**Aviso de la corrección.** " + " ".join(frases)


def grade_ids_de(resources) -> frozenset[str] | None:
    """The gradebook's grade_ids of the notebook being graded (None when the gradebook cannot say)."""
    info = resources.get("nbgrader") if isinstance(resources, dict) else None
    if not info or "db_url" not in info:
        return None
    try:
        with Gradebook(info["db_url"]) as gb:
            cuaderno = gb.find_notebook(info["notebook"], info["assignment"])
            return frozenset(c.name for c in cuaderno.source_cells)
    except (MissingEntry, KeyError):
        return None


class AcotarCeldas(NbGraderPreprocessor):
    """Keep at most ``MAX_CELDAS`` cells: every cell of the assignment, and of the others the first ones.

    First of the sanitize step, before anything nbgrader does per cell.  Cells without nbgrader marks
    of the assignment (a grade_id the gradebook knows, its last copy) are left out from the end of the
    notebook: markdown and raw cells first, then code cells (``cuaderno_acotado.elegir_celdas``).  A
    Spanish note at the top says how many (``AvisarCeldasOmitidas``; it reaches the feedback and the
    formgrader, its metadata the TA table), also for what ``LecturaAcotada`` left out of a large file.
    """

    def preprocess(self, nb, resources):
        # a note copied from elsewhere by the student is not ours: drop it
        nb.cells = [c for c in nb.cells if not (isinstance(c.get("metadata", {}).get(CLAVE), dict)
                                                and "celdas_omitidas" in c.metadata[CLAVE])]
        previas = resources.pop(CLAVE_RECORTE, None) or {}
        omitidas = {k: int(previas.get(k, 0)) for k in ("texto", "codigo", "adjuntos", "metadatos")}
        if len(nb.cells) > MAX_CELDAS:
            fuera, nuevas = cuaderno_acotado.elegir_celdas(nb.cells, MAX_CELDAS - 1, grade_ids_de(resources))
            nb.cells = [c for i, c in enumerate(nb.cells) if i not in fuera]
            omitidas["texto"] += nuevas["texto"]
            omitidas["codigo"] += nuevas["codigo"]
        if not any(omitidas.values()):
            resources.pop(CLAVE_OMITIDAS, None)
            return nb, resources
        self.log.warning("Submission with more than %d cells or oversized parts: %d text and %d code cells "
                         "outside the assignment, %d attachments and %d metadata left out", MAX_CELDAS,
                         omitidas["texto"], omitidas["codigo"], omitidas["adjuntos"], omitidas["metadatos"])
        # the note goes in at the end of the sanitize step (AvisarCeldasOmitidas): the steps in between drop
        # the course's metadata from every cell the student brought
        resources[CLAVE_OMITIDAS] = omitidas
        return nb, resources


CLAVE_OMITIDAS = "curso_celdas_omitidas"
CLAVE_RECORTE = "curso_recorte_de_lectura"     # what LecturaAcotada left out, for AcotarCeldas


def _leer_hasta(fd: int, limite: int) -> bytes:
    """At most ``limite`` bytes of the file open at ``fd``, from its start."""
    partes, leidos = [], 0
    while leidos < limite:
        parte = os.pread(fd, min(1 << 20, limite - leidos), leidos)
        if not parte:
            break
        partes.append(parte)
        leidos += len(parte)
    return b"".join(partes)


class LecturaAcotada(NotebookExporter):
    """Autograde's exporter: a notebook file over ``cuaderno_acotado.UMBRAL_BYTES`` is read within bounds.

    nbgrader reads the submitted notebook with ``Exporter.from_file`` (``nbformat.read``) in the TA's
    process.  A larger file goes first through ``cuaderno_acotado.leer_acotado`` (a separate process with
    memory and CPU limits; the gradebook's grade_ids decide which cells are the assignment's), and
    nbformat reads what it keeps; a smaller one is read as nbgrader does.  Configured as
    ``c.Autograde.exporter_class`` in nbgrader_config.py.

    Either way the bytes may be UTF-8, or UTF-8/16/32 with a byte-order mark (``cuaderno_acotado.decodificar``;
    the TA's log notes the latter).

    Raises:
        cuaderno_acotado.CuadernoDesmesurado: the file cannot be read within the limits or in any Unicode
            encoding (Spanish reason; nbgrader reports this student's notebook as failed and grades the rest).
    """

    def from_file(self, file_stream, resources=None, **kw):
        try:
            fd = file_stream.fileno()
            tamaño = os.fstat(fd).st_size
        except (AttributeError, OSError, ValueError):
            return super().from_file(file_stream, resources=resources, **kw)
        if tamaño <= cuaderno_acotado.UMBRAL_BYTES:
            # read as nbgrader does, except the encoding: a notebook an editor saved in UTF-16 (Notepad's
            # «Unicode») is read too, and one in no Unicode encoding fails with a Spanish reason
            texto, codificacion = cuaderno_acotado.decodificar(_leer_hasta(fd, cuaderno_acotado.UMBRAL_BYTES))
            avisos = []
            if codificacion:
                avisos.append(f"el cuaderno {self._nombre(resources)} estaba guardado en {codificacion}, no en "
                              "UTF-8 como lo guarda Jupyter: se ha leído igualmente")
            repetidas = claves_repetidas(texto)
            if repetidas:
                avisos.append(f"el JSON del cuaderno {self._nombre(resources)} repite la clave "
                              f"{', '.join(repetidas)}: vale la última, como al abrirlo en Jupyter")
            nb = nbformat.reads(texto, as_version=4)
        else:
            texto, recorte = cuaderno_acotado.leer_acotado(fd, grade_ids_de(resources))
            if resources is None:
                resources = {}
            if any(recorte.get(k) for k in ("texto", "codigo", "adjuntos", "metadatos")):
                resources[CLAVE_RECORTE] = recorte
            self.log.info("Notebook of %d bytes read within bounds: %s", tamaño, recorte)
            nb, avisos = nbformat.reads(texto, as_version=4), []
        sustituidos = sin_sustitutos(nb)
        if sustituidos:
            cuantos = "un carácter suelto" if sustituidos == 1 else f"{sustituidos} caracteres sueltos"
            avisos.append(f"el cuaderno {self._nombre(resources)} tenía {cuantos} que Unicode no admite (sustitutos, "
                          "como \\ud800): se muestran como «\ufffd» y se ha leído igualmente")
        if avisos:
            datos = (resources or {}).get("nbgrader") or {}
            coursedir = CourseDirectory(config=self.config)     # where the feedback will look for them
            carpeta = coursedir.format_path(coursedir.autograded_directory, datos.get("student", "?"),
                                            datos.get("assignment", "?"))
            archivos_alumno.registrar(carpeta, avisos, self.log, datos.get("student", "?"),
                                      datos.get("assignment", "?"))
        return self.from_notebook_node(nb, resources=resources, **kw)

    @staticmethod
    def _nombre(resources) -> str:
        return archivos_alumno.nombre_legible(((resources or {}).get("nbgrader") or {}).get("notebook", "?"), 60)


def claves_repetidas(texto: str, maximo: int = 3) -> list[str]:
    """The keys a notebook's JSON writes twice in the same object (at most ``maximo``, shown safely).

    JSON readers keep the last value (Python's and the browser's: JupyterLab shows the same notebook), so a
    hand-merged file with ``"cells"`` twice loses the first list without a word; the TA table names them.
    The text is already known to decode; if it is not JSON, nbformat's own reader says so next.
    """
    import json
    vistas: list[str] = []

    def anotar(pares):
        claves = [k for k, _ in pares]
        if len(claves) != len(set(claves)):
            for clave in claves:
                legible = f"«{archivos_alumno.nombre_legible(clave, 40)}»"
                if claves.count(clave) > 1 and legible not in vistas and len(vistas) < maximo:
                    vistas.append(legible)
        return dict(pares)

    try:
        json.loads(texto, object_pairs_hook=anotar)
    except (ValueError, RecursionError):
        return []
    return vistas


def sin_sustitutos(nb) -> int:
    """Replace every lone surrogate in the notebook's strings (keys included) with U+FFFD; how many there were.

    JSON may escape one (``"\\ud800"``) and Python's reader keeps it, but no UTF-8 file can hold it: nbgrader
    stopped with ``UnicodeEncodeError`` when it saved the graded notebook (0, a bare Python error in the
    table).  A pair that makes one character was already joined by the reader, so any surrogate left is lone.
    Walks the tree with a stack (a deeply nested notebook was already read; no recursion here).
    """
    import re
    patron = re.compile("[\ud800-\udfff]")
    cuenta = 0

    def limpiar(texto):
        nonlocal cuenta
        nuevo, n = patron.subn("\ufffd", texto)
        cuenta += n
        return nuevo

    pila = [nb]
    while pila:
        nodo = pila.pop()
        if isinstance(nodo, dict):
            for clave in list(nodo):
                valor = nodo[clave]
                if isinstance(clave, str) and patron.search(clave):
                    del nodo[clave]
                    clave = limpiar(clave)
                    nodo[clave] = valor
                if isinstance(valor, str):
                    if patron.search(valor):
                        nodo[clave] = limpiar(valor)
                elif isinstance(valor, (dict, list)):
                    pila.append(valor)
        elif isinstance(nodo, list):
            for i, valor in enumerate(nodo):
                if isinstance(valor, str):
                    if patron.search(valor):
                        nodo[i] = limpiar(valor)
                elif isinstance(valor, (dict, list)):
                    pila.append(valor)
    return cuenta


class AvisarCeldasOmitidas(NbGraderPreprocessor):
    """Last of the sanitize step: the note of ``AcotarCeldas`` at the top of the notebook, if it left cells out."""

    def preprocess(self, nb, resources):
        omitidas = resources.pop(CLAVE_OMITIDAS, None)
        if not omitidas:
            return nb, resources
        nota = from_dict({"cell_type": "markdown",
                          "source": nota_de_celdas_omitidas(omitidas["texto"], omitidas["codigo"],
                                                            omitidas.get("adjuntos", 0), omitidas.get("metadatos", 0)),
                          "metadata": {CLAVE: {"celdas_omitidas": omitidas}}})
        if nb.nbformat_minor >= 5:
            usados = {c.get("id") for c in nb.cells}
            nota["id"] = next(f"aviso-celdas-omitidas{sufijo}" for sufijo in ("", *(f"-{k}" for k in range(1, 1000)))
                              if f"aviso-celdas-omitidas{sufijo}" not in usados)
        nb.cells.insert(0, nota)
        return nb, resources


def celda_editada(celda) -> bool:
    """The sanitize step marked this test cell as edited by the student."""
    marca = celda.get("metadata", {}).get(CLAVE)
    return isinstance(marca, dict) and marca.get("celda_editada") is True
