"""A submitted notebook read within bounds, before nbformat and nbgrader see it.

nbgrader's autograde reads the student's notebook in the TA's process, outside
the sandbox: ``nbformat`` parses and validates every node, then each
preprocessor walks every cell.  The 64 MiB file budget and the 1000-cell cap
(``saneamiento.AcotarCeldas``) did not bound that: a notebook of 48 MB made of
600 000 outputs and 300 000 attachments cost 85 s and 2.6 GB of the TA's
autograde (an honest one: 4.5 s, 0.13 GB), and 300 000 raw cells 31 s and
1.57 GB before the cap dropped them (a hostile tester's F4, issue 19).

So a notebook file larger than :data:`UMBRAL_BYTES` is first read by a
separate, short-lived Python process with a memory and CPU limit
(:func:`leer_acotado`; this file is that program, stdlib only, started with
``python -I``).  It parses the JSON and keeps only what grading reads
(:func:`compactar`):

* **cells**: every cell with nbgrader marks and, of the others, the first
  ones up to :data:`MAX_CELDAS` (markdown/raw cells are left out from the end
  first, then code cells: :func:`elegir_celdas`, the same rule as
  ``AcotarCeldas``, which imports it);
* **outputs**: none (autograde's sanitize step clears them anyway with
  nbgrader's ``ClearOutput``; the graded outputs come from the sandboxed run);
* **attachments** (pictures pasted into a markdown cell, which the TA sees in
  formgrader): at most :data:`MAX_ADJUNTOS_CELDA` per cell and
  :data:`MAX_BYTES_ADJUNTOS` per notebook, in order;
* **metadata**: a cell's metadata larger than :data:`MAX_BYTES_METADATOS_CELDA`
  keeps only its ``nbgrader`` entry (when that one is small; nbgrader puts the
  gradebook's marks back anyway), the notebook's larger than
  :data:`MAX_BYTES_METADATOS_CUADERNO` keeps ``kernelspec``,
  ``language_info`` and ``nbgrader``.

The result is a small JSON document that nbformat then reads as usual; what
was left out is counted (:class:`Recorte`) and reaches the notebook's note for
the student and the TA table.  A file the reader cannot parse within its
limits (not JSON, too deep, too many nodes for :data:`MEMORIA_LECTOR`) is not
graded, with the reason (:class:`CuadernoDesmesurado`), and the rest of the
class is graded as usual.  A notebook below the threshold (1 MiB) is read exactly as
nbgrader reads it; at 4 MiB, 88 000 empty cells still cost 25 s and 0.57 GB of
the TA's process (a third attacker's F4), so the threshold is 1 MiB: an honest
submission with its outputs (0.1–3 MB) may take the bounded reader, which
keeps the same cells and drops the outputs autograde clears anyway.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

UMBRAL_BYTES = 1024 ** 2              # larger notebook files go through the bounded reader
MAX_CELDAS = 1000                     # saneamiento.MAX_CELDAS (the lessons have under 100 cells)
MAX_ADJUNTOS_CELDA = 10
MAX_BYTES_ADJUNTOS = 8 * 1024 ** 2    # pasted pictures kept per notebook (their base64 text)
MAX_BYTES_METADATOS_CELDA = 16 * 1024
MAX_BYTES_METADATOS_CUADERNO = 64 * 1024
MEMORIA_LECTOR = 1536 * 1024 ** 2     # address space of the reader process
CPU_LECTOR = 60                       # seconds of CPU for the reader
ESPERA_LECTOR = 120                   # seconds of wall time before it is killed
MAX_SALIDA_LECTOR = 96 * 1024 ** 2    # what the parent reads back at most
MARCAS_NBGRADER = ("grade", "solution", "locked", "task")
METADATOS_CONSERVADOS = ("kernelspec", "language_info", "nbgrader")
# the keys nbformat 4 (and 3) knows; anything else is invalid for nbformat and dropped here
CLAVES_CUADERNO = ("cells", "metadata", "nbformat", "nbformat_minor", "worksheets")
CLAVES_CELDA = ("cell_type", "id", "metadata", "source", "outputs", "execution_count", "attachments",
                "input", "prompt_number", "language", "level", "collapsed")


class CuadernoDesmesurado(Exception):
    """The bounded reader could not read a notebook file: its Spanish reason is the message."""


# Byte-order marks an editor writes when it saves a notebook in a Unicode encoding other than plain UTF-8
# (Windows Notepad's «Unicode» is UTF-16 LE with a BOM).  Longest first: UTF-32 LE starts with UTF-16 LE's.
MARCAS_DE_ORDEN = ((b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32"), (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32"),
                   (b"\xef\xbb\xbf", "utf-8", "UTF-8 con BOM"),
                   (b"\xff\xfe", "utf-16-le", "UTF-16"), (b"\xfe\xff", "utf-16-be", "UTF-16"))
NO_ES_UTF8 = ("el cuaderno no está en UTF-8 (ni en UTF-16/UTF-32 con marca de orden de bytes): no se califica; "
              "se arregla abriéndolo y guardándolo desde Jupyter")


def decodificar(datos: bytes) -> tuple[str, str | None]:
    """The text of a notebook file's bytes: UTF-8 as Jupyter writes it, or UTF-8/16/32 with a byte-order mark.

    Returns:
        the text (without the mark) and, when it was not plain UTF-8, the encoding's name for a note
        (``"UTF-16"``, ``"UTF-32"``, ``"UTF-8 con BOM"``), else None.

    Raises:
        CuadernoDesmesurado: not valid in any of them (:data:`NO_ES_UTF8`, Spanish).
    """
    for marca, codec, nombre in MARCAS_DE_ORDEN:
        if datos.startswith(marca):
            try:
                return str(memoryview(datos)[len(marca):], codec), nombre      # no copy of the bytes
            except UnicodeDecodeError:
                raise CuadernoDesmesurado(NO_ES_UTF8) from None
    try:
        return datos.decode("utf-8"), None
    except UnicodeDecodeError:
        raise CuadernoDesmesurado(NO_ES_UTF8) from None


def de_la_tarea(celda, propios: frozenset[str] | set[str] | None = None) -> bool:
    """Whether a cell (a dict or a NotebookNode) carries nbgrader marks, so grading needs it.

    With ``propios`` (the gradebook's grade_ids of this notebook), only a cell whose grade_id is one of
    them counts: marks a student forged on other cells do not make them the assignment's.
    """
    metadatos = celda.get("metadata") if isinstance(celda, dict) else None
    marcas = metadatos.get("nbgrader") if isinstance(metadatos, dict) else None
    if not (isinstance(marcas, dict) and any(marcas.get(m) for m in MARCAS_NBGRADER)):
        return False
    return propios is None or marcas.get("grade_id") in propios


def elegir_celdas(celdas: list, maximo: int,
                  propios: frozenset[str] | set[str] | None = None) -> tuple[set[int], dict[str, int]]:
    """Which cells to leave out so that at most ``maximo`` remain, and how many of each kind.

    Cells of the assignment (:func:`de_la_tarea`; with ``propios``, only the last copy of each
    grade_id, the one nbgrader grades) stay; of the others, markdown and raw cells go first, from the
    end of the notebook, then code cells, from the end.

    Returns:
        the indices left out and ``{"texto": n, "codigo": m}``.
    """
    sobran = len(celdas) - maximo
    fuera: set[int] = set()
    omitidas = {"texto": 0, "codigo": 0}
    if sobran <= 0:
        return fuera, omitidas
    vistos: set[str] = set()
    protegidas: set[int] = set()
    for i in range(len(celdas) - 1, -1, -1):
        if de_la_tarea(celdas[i], propios):
            grade_id = celdas[i]["metadata"]["nbgrader"].get("grade_id")
            if propios is None or grade_id not in vistos:
                protegidas.add(i)
                vistos.add(grade_id)
    for tipos, clave in (({"markdown", "raw", "heading"}, "texto"), ({"code"}, "codigo"), (None, "codigo")):
        for i in range(len(celdas) - 1, -1, -1):
            if len(fuera) >= sobran:
                return fuera, omitidas
            celda = celdas[i]
            tipo = celda.get("cell_type") if isinstance(celda, dict) else None
            # last round: whatever is not a cell nbformat knows
            if i not in fuera and i not in protegidas and (tipo in tipos if tipos else True):
                fuera.add(i)
                omitidas[clave if tipos or tipo == "code" else "texto"] += 1
    return fuera, omitidas


def _tamaño_json(valor) -> int:
    return len(json.dumps(valor, ensure_ascii=False, separators=(",", ":")))


def compactar(datos: dict, propios: frozenset[str] | set[str] | None = None) -> tuple[dict, dict[str, int]]:
    """Keep only what grading reads of a parsed notebook (module doc); pure, changes ``datos`` in place.

    Args:
        datos: the notebook as ``json.loads`` gives it (nbformat 4, or 3 with worksheets).
        propios: the gradebook's grade_ids of this notebook (:func:`elegir_celdas`).

    Returns:
        the same dict and what was left out: ``texto``/``codigo`` cells, ``adjuntos`` (attachments),
        ``metadatos`` (cells or notebook whose metadata was cut), ``salidas`` (outputs cleared).
    """
    recorte = {"texto": 0, "codigo": 0, "adjuntos": 0, "metadatos": 0, "salidas": 0}
    if not isinstance(datos, dict):
        return datos, recorte
    for clave in [k for k in datos if k not in CLAVES_CUADERNO]:
        del datos[clave]
    metadatos = datos.get("metadata")
    if isinstance(metadatos, dict) and _tamaño_json(metadatos) > MAX_BYTES_METADATOS_CUADERNO:
        datos["metadata"] = {k: v for k, v in metadatos.items() if k in METADATOS_CONSERVADOS
                             and _tamaño_json(v) <= MAX_BYTES_METADATOS_CUADERNO // 4}
        recorte["metadatos"] += 1
    hojas = [datos] if isinstance(datos.get("cells"), list) else []
    hojas += [h for h in datos.get("worksheets") or [] if isinstance(h, dict) and isinstance(h.get("cells"), list)]
    # one cell budget for the whole notebook, whatever its worksheets (nbformat 3); one cell of room
    # for the note that says what was left out
    todas = [c for h in hojas for c in h["cells"]]
    fuera, omitidas = elegir_celdas(todas, MAX_CELDAS - 1, propios) if len(todas) > MAX_CELDAS else (set(), {})
    recorte["texto"] += omitidas.get("texto", 0)
    recorte["codigo"] += omitidas.get("codigo", 0)
    adjuntos_bytes = 0
    inicio = 0
    for hoja in hojas:
        n = len(hoja["cells"])
        hoja["cells"] = celdas = [c for i, c in enumerate(hoja["cells"], start=inicio) if i not in fuera]
        inicio += n
        for celda in celdas:
            if not isinstance(celda, dict):
                continue
            for clave in [k for k in celda if k not in CLAVES_CELDA]:
                del celda[clave]
            for clave in ("source", "input"):
                # a source written as millions of one-character lines is one string for nbformat
                if isinstance(celda.get(clave), list) and all(isinstance(t, str) for t in celda[clave]):
                    celda[clave] = "".join(celda[clave])
            if celda.get("cell_type") == "code":
                if celda.get("outputs"):
                    recorte["salidas"] += len(celda["outputs"]) if isinstance(celda["outputs"], list) else 1
                celda["outputs"] = []
                if "execution_count" in celda or "prompt_number" not in celda:
                    celda["execution_count"] = None
            adjuntos = celda.get("attachments")
            if isinstance(adjuntos, dict):
                conservados = {}
                for nombre, contenido in adjuntos.items():
                    if isinstance(contenido, dict):
                        contenido = {t: "".join(v) if isinstance(v, list) and all(isinstance(x, str) for x in v)
                                     else v for t, v in contenido.items()}
                    tamaño = _tamaño_json(contenido)
                    if len(conservados) < MAX_ADJUNTOS_CELDA and adjuntos_bytes + tamaño <= MAX_BYTES_ADJUNTOS:
                        conservados[nombre] = contenido
                        adjuntos_bytes += tamaño
                    else:
                        recorte["adjuntos"] += 1
                celda["attachments"] = conservados
            meta = celda.get("metadata")
            if isinstance(meta, dict) and _tamaño_json(meta) > MAX_BYTES_METADATOS_CELDA:
                marcas = meta.get("nbgrader")
                celda["metadata"] = ({"nbgrader": marcas} if marcas is not None
                                     and _tamaño_json(marcas) <= MAX_BYTES_METADATOS_CELDA else {})
                recorte["metadatos"] += 1
    return datos, recorte


def _limitar() -> None:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORIA_LECTOR, MEMORIA_LECTOR))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LECTOR, CPU_LECTOR))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def leer_acotado(fd: int, propios: frozenset[str] | set[str] | None = None) -> tuple[str, dict[str, int]]:
    """Read the notebook open at ``fd`` through the bounded reader process.

    Args:
        fd: a file descriptor open for reading at the notebook (the caller
            opened it without following links); it is read from offset 0.
        propios: the gradebook's grade_ids of this notebook (:func:`elegir_celdas`).

    Returns:
        the compacted notebook as JSON text (nbformat's input) and what was left out (:func:`compactar`).

    Raises:
        CuadernoDesmesurado: not JSON, too deep or too large to parse within
            :data:`MEMORIA_LECTOR` and :data:`CPU_LECTOR`, or it took longer than
            :data:`ESPERA_LECTOR`; the message is the Spanish reason.
    """
    os.lseek(fd, 0, os.SEEK_SET)
    try:
        hecho = subprocess.run([sys.executable, "-I", os.path.abspath(__file__),
                                json.dumps(sorted(propios) if propios is not None else None)], stdin=fd,
                               capture_output=True, timeout=ESPERA_LECTOR, preexec_fn=_limitar,
                               env={"PATH": os.defpath, "LC_ALL": "C.UTF-8"})
    except subprocess.TimeoutExpired:
        raise CuadernoDesmesurado(f"el cuaderno tarda más de {ESPERA_LECTOR} s en leerse: no se califica") \
            from None
    if hecho.returncode == 0 and len(hecho.stdout) > MAX_SALIDA_LECTOR:
        raise CuadernoDesmesurado(f"el cuaderno sigue ocupando más de {MAX_SALIDA_LECTOR // 1024 ** 2} MiB sin "
                                  "sus salidas: no se califica")
    if hecho.returncode != 0:
        lineas = hecho.stderr.decode("utf-8", "replace").strip().splitlines()
        if hecho.returncode == 2 and lineas:
            raise CuadernoDesmesurado(lineas[-1][:200])
        # killed by its CPU limit (SIGXCPU), or died of its memory limit inside C code
        raise CuadernoDesmesurado(f"el cuaderno es demasiado grande o complejo para leerlo (más de "
                                  f"{MEMORIA_LECTOR // 1024 ** 2} MiB o {CPU_LECTOR} s): no se califica")
    cabecera, _, texto = hecho.stdout.partition(b"\n")
    return texto.decode("ascii"), json.loads(cabecera)


def _principal() -> int:
    """The reader process: notebook JSON on stdin; on stdout what was left out (one JSON line), then the notebook."""
    datos = sys.stdin.buffer.read()
    try:
        texto, _ = decodificar(datos)
        del datos
        cuaderno = json.loads(texto)
        del texto
    except CuadernoDesmesurado as error:
        print(error, file=sys.stderr)
        return 2
    except (ValueError, RecursionError):
        print("el cuaderno no es un JSON válido o anida demasiado: no se califica", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"el cuaderno tiene demasiados elementos para leerlo con {MEMORIA_LECTOR // 1024 ** 2} MiB: "
              "no se califica", file=sys.stderr)
        return 2
    try:
        propios = json.loads(sys.argv[1]) if len(sys.argv) > 1 else None
        cuaderno, recorte = compactar(cuaderno, frozenset(propios) if propios is not None else None)
        texto = json.dumps(cuaderno)         # ASCII: lone surrogates stay escaped, as in the file
    except (MemoryError, RecursionError):
        print("el cuaderno tiene demasiados elementos o anida demasiado para leerlo: no se califica", file=sys.stderr)
        return 2
    sys.stdout.buffer.write((json.dumps(recorte) + "\n" + texto).encode("ascii"))
    return 0


if __name__ == "__main__":
    sys.exit(_principal())
