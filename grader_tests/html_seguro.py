"""Students' HTML made inert for the TA (formgrader) and for the feedback they and others read.

A student controls the markdown of their cells, every rich output
(``display(HTML(...))``, ``text/markdown``, JavaScript, widget state,
images and their metadata) and the cell metadata of their notebook.  In an
HTML page served from the TA's Jupyter server (formgrader) a ``<script>``
there runs with the TA's credentials and can change grades through the
server's API.  So every ``HTMLExporter`` of this course (formgrader's and
``generate_feedback``'s; see ``nbgrader_config.py``) gets:

* ``SanearCuaderno``, a preprocessor that keeps only outputs a page can show
  inertly (text, sanitised HTML, markdown, LaTeX, PNG/JPEG/GIF with a valid
  base64 body, SVG shown as an ``<img>``), drops JavaScript, widget views and
  the notebook's widget state, keeps only nbgrader's cell metadata (with safe
  values), replaces invalid cell ids and keeps only image attachments;
* ``markdown2html_seguro`` and ``limpiar_html`` as the templates'
  ``markdown2html`` and ``clean_html`` filters (``HTMLExporter.sanitize_html``
  on): nbconvert's own markdown rendering (math, tables, attachments), then
  ``nh3`` (the Ammonia sanitiser) with an allow-list of tags and attributes.

Kept: math (MathJax reads the text, ``$a<b$`` included), tables, headings,
lists, code, links (http, https, mailto) and images embedded as
``data:image/png|jpeg|gif|webp;base64`` (the explorables' static pictures).
Not kept: scripts, event handlers, styles, forms, iframes, external or
relative image URLs (a page that loads them would call home or call the
TA's server), ``id`` attributes (prefixed with ``alumno-`` so they cannot
collide with formgrader's).
"""
from __future__ import annotations

import math
import re

import nh3
from jinja2 import pass_context
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.preprocessors import Preprocessor

ETIQUETAS = set(nh3.ALLOWED_TAGS) | {
    "div", "span", "p", "br", "hr", "pre", "code", "kbd", "samp", "var", "b", "i", "u", "s", "em",
    "strong", "small", "sub", "sup", "mark", "blockquote", "q", "cite", "abbr",
    "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd",
    "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "colgroup", "col",
    "img", "figure", "figcaption", "details", "summary", "a",
}
ATRIBUTOS = {
    "*": {"class", "id", "title", "lang", "dir", "align"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan", "scope"},
    "ol": {"start", "type"}, "col": {"span"}, "colgroup": {"span"},
}
ESQUEMAS = {"http", "https", "mailto", "data"}
_IMAGEN_DATOS = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*", re.I)
_BASE64 = re.compile(r"[A-Za-z0-9+/=\s]*")
_DIMENSION = re.compile(r"\d{1,5}(px|%)?")


def _filtro_atributos(etiqueta: str, atributo: str, valor: str) -> str | None:
    if atributo == "src":
        return valor if etiqueta == "img" and _IMAGEN_DATOS.fullmatch(valor) else None
    if atributo == "href":
        return None if valor.strip().lower().startswith("data:") else valor
    if atributo in ("width", "height"):
        return valor if _DIMENSION.fullmatch(valor.strip()) else None
    return valor


def limpiar_html(html) -> str:
    """Sanitise an HTML fragment (str or bytes): only the allow-listed tags and attributes remain."""
    texto = html.decode("utf-8", errors="replace") if isinstance(html, bytes) else str(html)
    return nh3.clean(texto, tags=ETIQUETAS, attributes=ATRIBUTOS, attribute_filter=_filtro_atributos,
                     url_schemes=ESQUEMAS, url_relative="deny", id_prefix="alumno-",
                     link_rel="noopener noreferrer nofollow")


@pass_context
def markdown2html_seguro(context, source) -> str:
    """nbconvert's ``HTMLExporter.markdown2html`` (math, tables, attachments), then ``limpiar_html``."""
    celda = context.get("cell", {}) or {}
    adjuntos = celda.get("attachments", {}) if hasattr(celda, "get") else {}
    ruta = (context.get("resources", {}) or {}).get("metadata", {}).get("path", "")
    renderer = IPythonRenderer(escape=False, attachments=adjuntos or {}, embed_images=False, path=ruta,
                               anchor_link_text="¶", exclude_anchor_links=True)
    return limpiar_html(MarkdownWithMath(renderer=renderer).render(str(source)))


# ------------------------------------------------------------------ notebook

SALIDAS_SEGURAS = ("text/plain", "text/html", "text/markdown", "text/latex",
                   "image/png", "image/jpeg", "image/gif", "image/svg+xml")
_IMAGENES = ("image/png", "image/jpeg", "image/gif")
_ID_CELDA = re.compile(r"[A-Za-z0-9_-]{1,64}")
_GRADE_ID = re.compile(r"[^A-Za-z0-9_.-]")
MAX_TEXTO = 2_000_000     # characters of one output field kept


def _texto(valor) -> str:
    if isinstance(valor, list):
        valor = "".join(str(v) for v in valor)
    texto = str(valor) if valor is not None else ""
    return texto if len(texto) <= MAX_TEXTO else texto[:MAX_TEXTO] + "\n[… recortado]"


def _numero(valor):
    if isinstance(valor, bool):
        return None
    if isinstance(valor, (int, float)) and math.isfinite(valor):
        return valor
    return None


def metadatos_nbgrader_seguros(meta) -> dict | None:
    """nbgrader's cell metadata with only known keys and safe values (None if there is none)."""
    if not isinstance(meta, dict):
        return None
    seguro = {}
    for clave in ("grade", "solution", "locked", "task"):
        if clave in meta:
            seguro[clave] = bool(meta[clave])
    if "grade_id" in meta:
        seguro["grade_id"] = _GRADE_ID.sub("_", str(meta["grade_id"]))[:100]
    for clave in ("points", "score"):
        if clave in meta and _numero(meta[clave]) is not None:
            seguro[clave] = meta[clave]
    for clave in ("schema_version",):
        if isinstance(meta.get(clave), int):
            seguro[clave] = meta[clave]
    if isinstance(meta.get("comment"), str):
        seguro["comment"] = meta["comment"][:20000]
    return seguro


def _salida_segura(salida) -> dict | None:
    tipo = salida.get("output_type")
    if tipo == "stream":
        return {"output_type": "stream", "name": "stderr" if salida.get("name") == "stderr" else "stdout",
                "text": _texto(salida.get("text"))}
    if tipo == "error":
        traza = salida.get("traceback")
        return {"output_type": "error", "ename": _texto(salida.get("ename"))[:200],
                "evalue": _texto(salida.get("evalue"))[:5000],
                "traceback": [_texto(l)[:5000] for l in traza[:200]] if isinstance(traza, list) else []}
    if tipo not in ("display_data", "execute_result"):
        return None
    datos = salida.get("data") if isinstance(salida.get("data"), dict) else {}
    limpios = {}
    for mime in SALIDAS_SEGURAS:
        if mime not in datos:
            continue
        valor = _texto(datos[mime])
        if mime in _IMAGENES:
            if not _BASE64.fullmatch(valor):
                continue
        elif mime == "text/html":
            valor = limpiar_html(valor)
        limpios[mime] = valor
    if not limpios:
        limpios = {"text/plain": "[salida omitida: no se puede mostrar con seguridad]"}
    metadatos = {}
    meta = salida.get("metadata") if isinstance(salida.get("metadata"), dict) else {}
    for mime, valor in meta.items():
        if mime in _IMAGENES and isinstance(valor, dict):
            dims = {k: int(valor[k]) for k in ("width", "height")
                    if _numero(valor.get(k)) is not None and 0 < valor[k] < 100_000}
            if dims:
                metadatos[mime] = dims
    limpia = {"output_type": tipo, "data": limpios, "metadata": metadatos}
    if tipo == "execute_result":
        cuenta = salida.get("execution_count")
        limpia["execution_count"] = cuenta if isinstance(cuenta, int) and not isinstance(cuenta, bool) else None
    return limpia


class SanearCuaderno(Preprocessor):
    """Keep only what a page can show inertly (see module doc); runs before every HTML export."""

    def preprocess(self, nb, resources):
        from nbformat.notebooknode import from_dict
        for clave in list(nb.metadata):
            if clave not in ("kernelspec", "language_info", "curso_avisos"):
                del nb.metadata[clave]
        for indice, celda in enumerate(nb.cells):
            if not _ID_CELDA.fullmatch(str(celda.get("id", ""))):
                celda["id"] = f"celda-{indice}"
            nbgrader = metadatos_nbgrader_seguros(celda.get("metadata", {}).get("nbgrader"))
            celda["metadata"] = from_dict({"nbgrader": nbgrader} if nbgrader is not None else {})
            if celda.get("cell_type") not in ("code", "markdown", "raw"):
                celda["cell_type"] = "raw"
            celda["source"] = _texto(celda.get("source"))
            if "attachments" in celda:
                adjuntos = celda["attachments"] if isinstance(celda["attachments"], dict) else {}
                seguros = {}
                for nombre, datos in adjuntos.items():
                    if not isinstance(datos, dict):
                        continue
                    imagenes = {m: _texto(v) for m, v in datos.items()
                                if m in _IMAGENES and _BASE64.fullmatch(_texto(v))}
                    if imagenes and re.fullmatch(r"[\w .-]{1,100}", str(nombre)):
                        seguros[str(nombre)] = imagenes
                celda["attachments"] = from_dict(seguros)
            if celda.get("cell_type") == "code":
                salidas = [_salida_segura(s) for s in celda.get("outputs", []) if isinstance(s, dict)]
                celda["outputs"] = [from_dict(s) for s in salidas if s is not None]
                cuenta = celda.get("execution_count")
                if not (cuenta is None or (isinstance(cuenta, int) and not isinstance(cuenta, bool))):
                    celda["execution_count"] = None
            elif celda.get("cell_type") == "raw":
                celda["metadata"].pop("raw_mimetype", None)
        return nb, resources
