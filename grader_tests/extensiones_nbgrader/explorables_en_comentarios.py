"""nbgrader extension: in the feedback, every explorable is a still picture, never a live widget.

``nbgrader generate_feedback`` renders the autograded notebook with nbconvert.
A widget output there is only a reference to a widget model
(``application/vnd.jupyter.widget-view+json``) that no feedback page can
bring back, so the explorables came out blank.  ``ExplorablesComoImagen``
(added to ``c.GenerateFeedback.preprocessors`` in ``nbgrader_config.py``):

* drops the widget references and the notebook's saved widget state (nothing
  the student's kernel left is ever rendered live: no widget JavaScript, no
  HTML widgets);
* turns each explorable's static fallback output (the one the course's
  explorables display under themselves, marked with
  ``{"explorable": {"respaldo": true}}`` in its metadata) into a PNG image with
  a one-line caption, and drops its HTML;
* shows **the picture the student last saw**: autograde re-runs the notebook,
  so the autograded fallback is the explorable as its cell builds it; if the
  submitted notebook (``submitted/<alumno>/<tarea>/``) still holds the
  fallback of the same cell (same cell id and same code), that picture is
  used instead.

Everything read from a notebook is untrusted: the submitted file is opened
without following links and only if it is a regular file under a size
budget; a picture is accepted only if PIL decodes it as a PNG under a pixel
budget, and it is re-encoded before it reaches the feedback; captions are
plain text, cut to a few hundred characters.  Anything that fails falls back
to the autograded picture or to a Spanish note, never to an error.
"""
from __future__ import annotations

import base64
import binascii
import io
import os
import re
import stat

import nbformat
from nbformat.notebooknode import NotebookNode, from_dict
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Int

MIME_WIDGET = "application/vnd.jupyter.widget-view+json"
NOTA_WIDGET = "(Aquí había un control interactivo: sólo funciona en JupyterLab, con el cuaderno abierto.)"
NOTA_SIN_IMAGEN = "(El explorable de esta celda no dejó ninguna imagen que se pueda enseñar.)"
_PNG = re.compile(r"data:image/png;base64,([A-Za-z0-9+/=\s]+)")
_FIRMA_PNG = b"\x89PNG\r\n\x1a\n"
_MAX_LEYENDA = 300


def es_respaldo(salida: NotebookNode) -> bool:
    """True if ``salida`` is an explorable's static fallback (its output metadata says so)."""
    if salida.get("output_type") != "display_data":
        return False
    marca = (salida.get("metadata") or {}).get("explorable")
    return isinstance(marca, dict) and marca.get("respaldo") is True


def _texto(valor) -> str:
    """Plain text of a mimebundle entry (str or list of str), '' otherwise."""
    if isinstance(valor, list):
        valor = "".join(v for v in valor if isinstance(v, str))
    return valor if isinstance(valor, str) else ""


def png_del_respaldo(salida: NotebookNode, max_bytes: int) -> bytes | None:
    """The PNG bytes of a fallback output (``image/png`` or the data URI in its HTML), unchecked."""
    datos = salida.get("data") or {}
    codificado = _texto(datos.get("image/png"))
    if not codificado:
        encontrado = _PNG.search(_texto(datos.get("text/html"))[: 2 * max_bytes])
        codificado = encontrado.group(1) if encontrado else ""
    if not codificado or len(codificado) > 2 * max_bytes:
        return None
    try:
        png = base64.b64decode("".join(codificado.split()), validate=True)
    except (binascii.Error, ValueError):
        return None
    return png if len(png) <= max_bytes else None


def png_seguro(png: bytes | None, max_pixeles: int) -> bytes | None:
    """``png`` decoded by PIL and re-encoded (RGB), or None if it is not a reasonable PNG."""
    if not png or not png.startswith(_FIRMA_PNG):
        return None
    from PIL import Image

    try:
        with Image.open(io.BytesIO(png), formats=["PNG"]) as imagen:
            ancho, alto = imagen.size
            if ancho < 1 or alto < 1 or ancho * alto > max_pixeles:
                return None
            imagen.load()
            salida = io.BytesIO()
            imagen.convert("RGB").save(salida, format="png", compress_level=6)
            return salida.getvalue()
    except Exception:  # noqa: BLE001 - any decoding problem means "no picture"
        return None


def _leyenda(salida: NotebookNode) -> str:
    texto = _texto((salida.get("data") or {}).get("text/plain"))
    texto = "".join(c for c in texto if c.isprintable() or c == " ").strip()
    if len(texto) > _MAX_LEYENDA:
        texto = texto[: _MAX_LEYENDA - 1] + "…"
    return texto or "Explorable"


class ExplorablesComoImagen(NbGraderPreprocessor):
    """Feedback: explorables as the still picture the student last saw (see the module docstring)."""

    max_bytes_cuaderno = Int(
        64 * 1024 ** 2, help="Mayor cuaderno entregado que se lee para buscar la última imagen."
    ).tag(config=True)
    max_bytes_imagen = Int(8 * 1024 ** 2, help="Mayor PNG de un explorable que se enseña.").tag(config=True)
    max_pixeles = Int(4096 * 4096, help="Mayor número de píxeles de ese PNG.").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: dict):
        nb.metadata.pop("widgets", None)
        entregados = self._respaldos_entregados(resources)
        for celda in nb.cells:
            if celda.get("cell_type") != "code":
                continue
            salidas = list(celda.get("outputs") or [])
            respaldos = [s for s in salidas if es_respaldo(s)]
            de_la_entrega = entregados.get((celda.get("id"), celda.get("source")), [])
            if len(de_la_entrega) != len(respaldos):
                de_la_entrega = [None] * len(respaldos)
            nuevas, n = [], 0
            for salida in salidas:
                if es_respaldo(salida):
                    nuevas.extend(self._como_imagen(salida, de_la_entrega[n]))
                    n += 1
                elif MIME_WIDGET in (salida.get("data") or {}):
                    if respaldos:
                        continue          # the fallback below it shows the picture
                    datos = salida["data"]
                    del datos[MIME_WIDGET]
                    if not set(datos) - {"text/plain"}:
                        datos["text/plain"] = NOTA_WIDGET
                    nuevas.append(salida)
                else:
                    nuevas.append(salida)
            celda["outputs"] = nuevas
        return nb, resources

    # --- the picture --------------------------------------------------------------

    def _como_imagen(self, salida: NotebookNode, entregada: tuple | None) -> list:
        png, leyenda = None, None
        if entregada is not None:
            png, leyenda = entregada
        if png is None:
            png = png_seguro(png_del_respaldo(salida, self.max_bytes_imagen), self.max_pixeles)
            leyenda = _leyenda(salida)
        if png is None:
            return [from_dict({"output_type": "stream", "name": "stdout", "text": NOTA_SIN_IMAGEN + "\n"})]
        return [
            from_dict({"output_type": "stream", "name": "stdout",
                       "text": f"{leyenda}. Imagen fija: en JupyterLab, con el cuaderno abierto, "
                               "se puede mover.\n"}),
            from_dict({"output_type": "display_data", "metadata": {},
                       "data": {"image/png": base64.b64encode(png).decode("ascii"),
                                "text/plain": leyenda}}),
        ]

    # --- the submitted notebook -----------------------------------------------------

    def _respaldos_entregados(self, resources: dict) -> dict:
        """{(cell id, code): [(png, caption), ...]} from the submitted notebook; {} if unusable."""
        info = (resources or {}).get("nbgrader") or {}
        alumno, tarea, cuaderno = info.get("student"), info.get("assignment"), info.get("notebook")
        if not (alumno and tarea and cuaderno):
            return {}
        try:
            carpeta = CourseDirectory(config=self.config)
            base = os.path.realpath(os.path.join(carpeta.root, carpeta.submitted_directory))
            ruta = os.path.join(carpeta.format_path(carpeta.submitted_directory, alumno, tarea),
                                f"{cuaderno}.ipynb")
            if os.path.commonpath([base, os.path.realpath(ruta)]) != base:
                return {}
            texto = self._leer(ruta)
            if texto is None:
                return {}
            entregado = nbformat.reads(texto, as_version=4)
        except Exception as error:  # noqa: BLE001 - a broken submission only loses the nicety
            self.log.info("Explorables: no se pudo leer la entrega (%s); se usa la imagen calificada.",
                          error)
            return {}
        encontrados: dict = {}
        for celda in entregado.get("cells", []):
            if celda.get("cell_type") != "code" or not isinstance(celda.get("source"), str):
                continue
            imagenes = []
            for salida in celda.get("outputs") or []:
                if es_respaldo(salida):
                    png = png_seguro(png_del_respaldo(salida, self.max_bytes_imagen), self.max_pixeles)
                    imagenes.append(None if png is None else (png, _leyenda(salida)))
            if imagenes:
                encontrados[(celda.get("id"), celda.get("source"))] = imagenes
        return encontrados

    def _leer(self, ruta: str) -> str | None:
        """The file's text if it is a regular file (not a link) under the size budget."""
        try:
            descriptor = os.open(ruta, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None
        with os.fdopen(descriptor, "rb") as archivo:
            estado = os.fstat(archivo.fileno())
            if not stat.S_ISREG(estado.st_mode) or estado.st_size > self.max_bytes_cuaderno:
                return None
            datos = archivo.read(self.max_bytes_cuaderno + 1)
        if len(datos) > self.max_bytes_cuaderno:
            return None
        return datos.decode("utf-8", errors="replace")
