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

Math in the feedback is typeset here, not in the reader's browser: the
feedback exporter (``retroalimentacion``) sets ``resources["curso_mathml"]``,
and then every formula of the markdown (``$…$``, ``$$…$$``, ``\\begin{…}``) and
every ``text/latex`` output becomes MathML (``latex2mathml``), sanitised with
the rest through an allow-list of MathML elements and attributes.  Browsers
draw MathML by themselves, so a feedback page needs no script and no network,
shows its math where scripts never run (JupyterLab's HTML viewer before
«Trust HTML», a file opened from disk, an LMS preview) and can forbid every
script in its CSP.  A formula latex2mathml cannot read stays as its TeX text.
Typesetting has a budget per page (:func:`presupuesto_mathml`, which the
feedback exporter opens): :data:`MAX_FORMULAS` formulas and
:data:`MAX_MATHML` characters of MathML; past it formulas stay as TeX text,
after one Spanish note.  A student's output of tens of thousands of formulas
otherwise grew into gigabytes of MathML in the TA's ``generate_feedback`` (a
fresh attacker: 6 GB and three minutes for one student; the process was
killed and a classmate of the same worker lost her feedback).
formgrader's page keeps the TeX for MathJax, which its scripts need anyway and
the course serves locally (``formgrader_seguro``).

Kept: math, tables, headings,
lists, code, links (http, https, mailto) and images embedded as
``data:image/png|jpeg|gif|webp;base64`` (the explorables' static pictures).
Every link opens in a new window (``target="_blank"``, ``rel="noopener"``).
Not kept: scripts, event handlers, styles, forms, iframes, external or
relative image URLs (a page that loads them would call home or call the
TA's server), ``id`` attributes (prefixed with ``alumno-`` so they cannot
collide with formgrader's), and every ``class`` but the few the course's own
rendering writes (:data:`CLASES`: code highlighting, TeX left as text): a
student's ``class="modal show"`` or ``class="modal-backdrop"`` would borrow the
page's Bootstrap to draw a fake dialog or lay an invisible link over the whole
page, ``class="tabbable"`` would join formgrader's keyboard order.

Sizes are bounded before anything is rendered (:class:`SanearCuaderno`): a
cell's source up to :data:`MAX_FUENTE` characters, all sources of a notebook
up to :data:`MAX_FUENTES`, one output field up to :data:`MAX_TEXTO`, all
outputs up to :data:`MAX_SALIDAS`; what is cut ends with a Spanish note.  A
markdown image that names an attachment the cell does not have (or one the
sanitiser dropped) shows a note instead of stopping the page.
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import math
import re

import nh3
from jinja2 import pass_context
from pygments.token import STANDARD_TYPES
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
    "*": {"class", "id", "title", "lang", "dir", "align"},     # class: only CLASES (_filtro_atributos)
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan", "scope"},
    "ol": {"start", "type"}, "col": {"span"}, "colgroup": {"span"},
}
# MathML (the elements and presentation attributes latex2mathml writes, and MathML Core's): no
# <semantics>/<annotation-xml> (they can carry HTML in another namespace), no <maction>, no href,
# style, class or colour (a student's formula cannot restyle or link anything).
ETIQUETAS_MATHML = {
    "math", "mi", "mn", "mo", "ms", "mtext", "mspace", "mrow", "mfrac", "msqrt", "mroot", "mstyle",
    "merror", "mpadded", "mphantom", "msub", "msup", "msubsup", "munder", "mover", "munderover",
    "mmultiscripts", "mprescripts", "none", "mtable", "mtr", "mtd", "menclose",
}
_VALORES_MATHML = {
    "display": re.compile(r"block|inline"),
    "mathvariant": re.compile(r"[a-z-]{1,30}"),
    "displaystyle": re.compile(r"true|false"), "stretchy": re.compile(r"true|false"),
    "fence": re.compile(r"true|false"), "separator": re.compile(r"true|false"),
    "accent": re.compile(r"true|false"), "accentunder": re.compile(r"true|false"),
    "largeop": re.compile(r"true|false"), "movablelimits": re.compile(r"true|false"),
    "symmetric": re.compile(r"true|false"),
    "form": re.compile(r"prefix|infix|postfix"),
    "scriptlevel": re.compile(r"[+-]?\d{1,2}"),
    "linebreak": re.compile(r"[a-z]{1,20}"),
    "notation": re.compile(r"[a-z ]{1,60}"),
    "columnalign": re.compile(r"[a-z ]{1,200}"), "rowalign": re.compile(r"[a-z ]{1,200}"),
    "columnlines": re.compile(r"[a-z ]{1,200}"), "rowlines": re.compile(r"[a-z ]{1,200}"),
    "frame": re.compile(r"[a-z]{1,10}"),
}
_LONGITUD_MATHML = re.compile(r"-?\d{1,4}(\.\d{1,4})?(em|ex|px|%|pt|mu)?|[a-z]{1,30}mathspace|0")
for _atributo in ("width", "height", "depth", "lspace", "rspace", "minsize", "maxsize", "voffset",
                  "linethickness", "columnspacing", "rowspacing"):
    _VALORES_MATHML[_atributo] = _LONGITUD_MATHML
ATRIBUTOS_MATHML = set(_VALORES_MATHML) | {"columnspan", "rowspan"}

ETIQUETAS |= ETIQUETAS_MATHML
for _etiqueta in ETIQUETAS_MATHML:
    ATRIBUTOS[_etiqueta] = ATRIBUTOS_MATHML
# The only classes kept: what nbconvert's markdown writes for a code block (Pygments' token
# classes, ``highlight``, ``hl-<language>``) and the course's own ``tex-sin-convertir``.  None
# of them means anything to Bootstrap or to formgrader's scripts.
CLASES = frozenset(c for c in STANDARD_TYPES.values() if c) | {"highlight", "hll", "tex-sin-convertir"}
_CLASE_LENGUAJE = re.compile(r"hl-[a-z0-9_+-]{1,30}")
ESQUEMAS = {"http", "https", "mailto", "data"}
_IMAGEN_DATOS = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*", re.I)
_BASE64 = re.compile(r"[A-Za-z0-9+/=\s]*")
_DIMENSION = re.compile(r"\d{1,5}(px|%)?")


def clases_permitidas(valor: str) -> str | None:
    """The classes of ``valor`` the course keeps (:data:`CLASES`), or None if none is left."""
    buenas = [c for c in str(valor).split() if c in CLASES or _CLASE_LENGUAJE.fullmatch(c)]
    return " ".join(dict.fromkeys(buenas)) or None


def _filtro_atributos(etiqueta: str, atributo: str, valor: str) -> str | None:
    if atributo == "class":
        return None if etiqueta in ETIQUETAS_MATHML else clases_permitidas(valor)
    if etiqueta in ETIQUETAS_MATHML:
        if atributo in ("columnspan", "rowspan"):
            return valor if re.fullmatch(r"\d{1,3}", valor.strip()) else None
        patron = _VALORES_MATHML.get(atributo)
        return valor if patron is not None and patron.fullmatch(valor.strip()) else None
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
    # target=_blank: a student's link never navigates the page it is in.  In JupyterLab's
    # Formgrader panel that page is an iframe whose messages JupyterLab runs as commands
    # (nbgrader's extension checks the sender window, not its origin); the panel's sandbox
    # has no allow-popups, so there the link just does not open.
    limpio = nh3.clean(texto, tags=ETIQUETAS, attributes=ATRIBUTOS, attribute_filter=_filtro_atributos,
                       url_schemes=ESQUEMAS, url_relative="deny", id_prefix="alumno-",
                       link_rel="noopener noreferrer nofollow", set_tag_attribute_values={"a": {"target": "_blank"}})
    # an image without alt gets a Spanish one here, not nbconvert's English «No description has been provided
    # for this image» (TA round 7, P4); nh3's output quotes every value, so no «>» is left inside a tag
    return _SIN_ALT.sub(f'<img alt="{SIN_DESCRIPCION}"', limpio)


SIN_DESCRIPCION = "imagen sin descripción"
_SIN_ALT = re.compile(r"<img(?![^>]*\salt=)")


MAX_TEX = 5000          # characters of one formula typeset (longer ones stay as text)
MAX_FORMULAS = 2000     # formulas typeset in one page (each lesson's feedback: about 450)
MAX_MATHML = 1_000_000  # characters of MathML in one page (each lesson's feedback: about 60 000)
NOTA_SIN_MATHML = ("<em>[Hay demasiadas fórmulas para estos comentarios: desde aquí se "
                   "muestran como texto TeX.]</em> ")


class PresupuestoMathML:
    """What is left of one page's typesetting: formulas and characters of MathML."""

    def __init__(self, formulas: int = MAX_FORMULAS, caracteres: int = MAX_MATHML):
        self.formulas, self.caracteres = formulas, caracteres
        self.avisado = False

    def agotado(self) -> bool:
        return self.formulas <= 0 or self.caracteres <= 0

    def gastar(self, mathml: str) -> None:
        self.formulas -= 1
        self.caracteres -= len(mathml)


_PRESUPUESTO: contextvars.ContextVar[PresupuestoMathML | None] = contextvars.ContextVar(
    "curso_presupuesto_mathml", default=None)


@contextlib.contextmanager
def presupuesto_mathml(formulas: int = MAX_FORMULAS, caracteres: int = MAX_MATHML):
    """Within it, :func:`tex_a_mathml` typesets at most ``formulas`` formulas and ``caracteres``
    characters of MathML in all (one page: ``retroalimentacion`` opens one per notebook); then
    every formula is its TeX text, the first one after :data:`NOTA_SIN_MATHML`."""
    token = _PRESUPUESTO.set(PresupuestoMathML(formulas, caracteres))
    try:
        yield _PRESUPUESTO.get()
    finally:
        _PRESUPUESTO.reset(token)


def tex_a_mathml(tex: str, bloque: bool = False) -> str:
    """MathML for the TeX of one formula (``bloque``: a display formula), not yet sanitised.

    A formula latex2mathml cannot read (or one longer than ``MAX_TEX``, or one
    past the page's budget, :func:`presupuesto_mathml`) is returned as its
    escaped TeX between its delimiters, in a ``<span class="tex-sin-convertir">``:
    the reader sees what was written.
    """
    presupuesto = _PRESUPUESTO.get()
    if presupuesto is not None and presupuesto.agotado():
        nota = "" if presupuesto.avisado else NOTA_SIN_MATHML
        presupuesto.avisado = True
        return nota + _como_texto(tex, bloque)
    mathml = _mathml(tex, bloque)
    if presupuesto is not None:
        presupuesto.gastar(mathml)
    return mathml


def _como_texto(tex: str, bloque: bool) -> str:
    delimitador = "$$" if bloque else "$"
    return f'<span class="tex-sin-convertir">{_escapar(delimitador + str(tex) + delimitador)}</span>'


@functools.lru_cache(maxsize=4096)
def _mathml(tex: str, bloque: bool) -> str:
    """``tex_a_mathml`` without the budget; the lessons' formulas repeat in every student's
    feedback, so results are cached."""
    import html
    import xml.etree.ElementTree as ET
    from latex2mathml.converter import convert_to_element
    limpio = str(tex).strip()
    if limpio and len(limpio) <= MAX_TEX:
        try:
            raiz = convert_to_element(limpio, display="block" if bloque else "inline")
        except Exception:  # noqa: BLE001 - any TeX it cannot read: shown as text
            raiz = None
        if raiz is not None:
            # latex2mathml writes character references into the tree's text and its own
            # serialiser un-escapes them, so «\text{<b>}» would come out as a tag: read them
            # here and let ElementTree escape every text and attribute.
            for nodo in raiz.iter():
                nodo.text = html.unescape(nodo.text) if nodo.text else nodo.text
                nodo.tail = html.unescape(nodo.tail) if nodo.tail else nodo.tail
                for clave, valor in list(nodo.attrib.items()):
                    nodo.attrib[clave] = html.unescape(valor)
            return ET.tostring(raiz, encoding="unicode")
    return _como_texto(tex, bloque)


def _escapar(texto: str) -> str:
    return texto.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def latex_a_html(latex) -> str:
    """A ``text/latex`` output (``$…$``, ``$$…$$``, ``\\[…\\]`` or bare TeX) as sanitised MathML."""
    texto = _texto(latex).strip()
    for abre, cierra, bloque in (("$$", "$$", True), ("\\[", "\\]", True), ("\\(", "\\)", False),
                                 ("$", "$", False)):
        if len(texto) >= len(abre) + len(cierra) and texto.startswith(abre) and texto.endswith(cierra):
            return limpiar_html(tex_a_mathml(texto[len(abre):len(texto) - len(cierra)], bloque))
    return limpiar_html(tex_a_mathml(texto, True))


class Renderizador(IPythonRenderer):
    """nbconvert's markdown renderer; an image of a missing attachment is a note, not an error.

    nbconvert raises ``InvalidNotebook`` for ``![x](attachment:nombre)`` when the
    cell has no such attachment, and the whole page (formgrader's submission,
    the feedback) fails.  A student may write that link, and the sanitiser
    drops attachments that are not images (an SVG one, for instance).
    """

    def image(self, text: str, url: str, title: str | None = None) -> str:
        if str(url).startswith("attachment:") and str(url)[len("attachment:"):] not in (self.attachments or {}):
            nombre = str(url)[len("attachment:"):]
            return f'<em>[imagen adjunta no disponible: {_escapar(nombre[:100])}]</em>'
        return super().image(text, url, title)


class RenderizadorConMathML(Renderizador):
    """The course's markdown renderer with every formula typeset as MathML (``tex_a_mathml``)."""

    def block_math(self, body: str) -> str:
        return tex_a_mathml(body, True)

    def inline_math(self, body: str) -> str:
        return tex_a_mathml(body, False)

    def latex_environment(self, name: str, body: str) -> str:
        return tex_a_mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", True)


CLAVE_MATHML = "curso_mathml"     # resources flag: typeset math as MathML (the feedback exporter sets it)


@pass_context
def markdown2html_seguro(context, source) -> str:
    """nbconvert's ``HTMLExporter.markdown2html`` (math, tables, attachments), then ``limpiar_html``.

    With ``resources["curso_mathml"]`` (feedback) every formula is MathML; without it
    (formgrader) the TeX stays for MathJax, as nbconvert writes it.
    """
    celda = context.get("cell", {}) or {}
    adjuntos = celda.get("attachments", {}) if hasattr(celda, "get") else {}
    recursos = context.get("resources", {}) or {}
    ruta = recursos.get("metadata", {}).get("path", "")
    clase = RenderizadorConMathML if recursos.get(CLAVE_MATHML) else Renderizador
    renderer = clase(escape=False, attachments=adjuntos or {}, embed_images=False,
                     path=ruta, anchor_link_text="¶", exclude_anchor_links=True)
    return limpiar_html(MarkdownWithMath(renderer=renderer).render(str(source)))


# ------------------------------------------------------------------ notebook

SALIDAS_SEGURAS = ("text/plain", "text/html", "text/markdown", "text/latex",
                   "image/png", "image/jpeg", "image/gif", "image/svg+xml")
_IMAGENES = ("image/png", "image/jpeg", "image/gif")
_ID_CELDA = re.compile(r"[A-Za-z0-9_-]{1,64}")
_GRADE_ID = re.compile(r"[^A-Za-z0-9_.-]")
MAX_TEXTO = 2_000_000     # characters of one output field kept
MAX_SALIDAS = 8_000_000   # characters of all the outputs of a notebook kept
MAX_FUENTE = 50_000       # characters of one cell's source shown (the lessons' longest: under 7 000)
MAX_FUENTES = 500_000     # characters of all the cells' sources of a notebook shown (the lessons': ~120 000)


def _texto(valor, limite: int = MAX_TEXTO) -> str:
    if isinstance(valor, list):
        valor = "".join(str(v) for v in valor[:limite])
    texto = str(valor) if valor is not None else ""
    return texto if len(texto) <= limite else texto[:limite] + "\n[… recortado]"


def nota_de_recorte(total: int, mostrados: int) -> str:
    """The Spanish note that ends a text cut for display."""
    if mostrados <= 0:
        return f"[… contenido omitido al mostrarlo: {total:,} caracteres]".replace(",", ".")
    return (f"[… recortado al mostrarlo: tenía {total:,} caracteres y se muestran los primeros "
            f"{mostrados:,}]").replace(",", ".")


def _recortar(texto: str, limite: int) -> str:
    if len(texto) <= limite:
        return texto
    return texto[:max(limite, 0)] + "\n\n" + nota_de_recorte(len(texto), max(limite, 0))


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


def _salida_segura(salida, mathml: bool = False) -> dict | None:
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
    if mathml and "text/latex" in limpios and "text/html" not in limpios:
        # typeset here (see module doc): the page shows MathML, with no script to read the TeX
        limpios["text/html"] = latex_a_html(limpios.pop("text/latex"))
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
        fuentes_restantes, salidas_restantes = MAX_FUENTES, MAX_SALIDAS
        for indice, celda in enumerate(nb.cells):
            if not _ID_CELDA.fullmatch(str(celda.get("id", ""))):
                celda["id"] = f"celda-{indice}"
            nbgrader = metadatos_nbgrader_seguros(celda.get("metadata", {}).get("nbgrader"))
            celda["metadata"] = from_dict({"nbgrader": nbgrader} if nbgrader is not None else {})
            if celda.get("cell_type") not in ("code", "markdown", "raw"):
                celda["cell_type"] = "raw"
            fuente = celda.get("source")
            fuente = "".join(str(l) for l in fuente) if isinstance(fuente, list) else str(fuente or "")
            celda["source"] = _recortar(fuente, min(MAX_FUENTE, fuentes_restantes))
            fuentes_restantes -= min(len(fuente), MAX_FUENTE)
            if "attachments" in celda:
                adjuntos = celda["attachments"] if isinstance(celda["attachments"], dict) else {}
                seguros = {}
                for nombre, datos in adjuntos.items():
                    if not isinstance(datos, dict):
                        continue
                    imagenes = {m: _texto(v) for m, v in datos.items()
                                if m in _IMAGENES and _BASE64.fullmatch(_texto(v))}
                    tamaño = sum(len(v) for v in imagenes.values())
                    if imagenes and re.fullmatch(r"[\w .-]{1,100}", str(nombre)) and tamaño <= salidas_restantes:
                        seguros[str(nombre)] = imagenes
                        salidas_restantes -= tamaño
                celda["attachments"] = from_dict(seguros)
            if celda.get("cell_type") == "code":
                mathml = bool((resources or {}).get(CLAVE_MATHML))
                salidas = [_salida_segura(s, mathml) for s in celda.get("outputs", []) if isinstance(s, dict)]
                celda["outputs"], salidas_restantes = _dentro_del_presupuesto(
                    [s for s in salidas if s is not None], salidas_restantes)
                celda["outputs"] = [from_dict(s) for s in celda["outputs"]]
                cuenta = celda.get("execution_count")
                if not (cuenta is None or (isinstance(cuenta, int) and not isinstance(cuenta, bool))):
                    celda["execution_count"] = None
            elif celda.get("cell_type") == "raw":
                celda["metadata"].pop("raw_mimetype", None)
        return nb, resources


def _tamaño_salida(salida: dict) -> int:
    if salida["output_type"] == "stream":
        return len(salida["text"])
    if salida["output_type"] == "error":
        return sum(len(l) for l in salida["traceback"]) + len(salida["evalue"])
    return sum(len(v) for v in salida["data"].values())


def _dentro_del_presupuesto(salidas: list[dict], restantes: int) -> tuple[list[dict], int]:
    """The outputs that fit in what is left of the notebook's budget; the rest becomes one note."""
    guardadas = []
    for posicion, salida in enumerate(salidas):
        tamaño = _tamaño_salida(salida)
        if tamaño > restantes:
            omitido = sum(_tamaño_salida(s) for s in salidas[posicion:])
            guardadas.append({"output_type": "stream", "name": "stdout",
                              "text": nota_de_recorte(omitido, 0) + " (el cuaderno supera lo que se "
                                      "muestra de sus salidas)\n"})
            return guardadas, 0
        guardadas.append(salida)
        restantes -= tamaño
    return guardadas, restantes
