"""The student's own ``jupyter lab`` speaks Spanish, without English and without teacher tools.

The server serves release copies with EMPTY user settings (``ServidorLab``): what it shows
is what the course environment installs (``ajustes_jupyterlab/``: the Spanish language pack
for JupyterLab 4.6 with the course's translations, Spanish by default, and the student's
configuration of nbgrader's extensions).  The lessons name menu items as this interface shows
them («Ejecutar ▸ Ejecutar todas las celdas», «Núcleo ▸ Reiniciar el núcleo…»).
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from playwright.sync_api import expect

from . import laboratorio as lab
from .interfaz import textos_de_la_interfaz

CUADERNO = "02_codificacion_posicional/codificacion_posicional.ipynb"

# Names, not English: products, formats, keys, the kernel's name and the workspace's id.
PERMITIDAS = {
    "jupyter", "jupyterlab", "python", "ipython", "ipykernel", "numpy", "matplotlib", "markdown",
    "latex", "html", "pdf", "url", "json", "ctrl", "shift", "alt", "enter", "del", "delete",
    "backspace", "home", "end", "tab", "esc", "escape", "arrowup", "arrowdown", "arrowleft",
    "arrowright", "up", "down", "left", "right", "default",
}
# Texts no translation reaches (ajustes_jupyterlab/README.md, «Lo que sigue en inglés»):
# nbgrader's Validate button (nbgrader has no translations; the lessons call it «Validate»; its
# tooltip and its dialog are the course's, ajustes_jupyterlab/labextension); a session's type, as the server names it; and
# «No Kernel», which JupyterLab 4.6 writes without its translator once a notebook's kernel is shut down.
TEXTOS_SIN_TRADUCCION = {"Validate", "notebook", "No Kernel"}
# English of nbgrader's own interface (it has no translations, so JupyterLab's messages miss it).
INGLES_DE_NBGRADER = {"assignment", "assignments", "formgrader", "course", "courses", "fetch", "submit",
                      "released", "downloaded", "submitted", "validating", "success", "failed"}
# Items that are names in any language: the text editor's syntax modes (Ruby, Go, Julia…).
SIN_REVISAR = ("Resaltado de sintaxis",)
# English that is not in JupyterLab's messages, so the words of their Spanish cannot cancel it:
# a value written where a text was missing (JupyterLab 4.6 writes «None» for a file without a
# checkpoint, outside its translator), and the names of languages and countries as the server
# gives them when it takes the interface for English («Spanish (Spain)» in Configuración ▸ Idioma).
VALORES_SUELTOS = {"none", "null", "undefined", "nan"}
# Ids, not words: a kernel session's UUID in the running panel («b5548be2-…» read «be» as English).
HEXADECIMAL = re.compile(r"\b(?=[0-9a-f-]*\d)[0-9a-f]{6,}(?:-[0-9a-f]{4,})*\b")
# In the language menu each other language also shows its own name («Inglés - English»).
MENU_IDIOMA = "Configuración > Idioma"


def _nombres_de_idiomas_y_paises() -> set[str]:
    """Words of the English names of languages and countries (babel) that Spanish does not share."""
    import babel

    def palabras(locale: str) -> set[str]:
        datos = babel.Locale.parse(locale)
        return set().union(*(_palabras(n) for n in [*datos.languages.values(), *datos.territories.values()]))
    return palabras("en") - palabras("es")


def _palabras(texto: str) -> set[str]:
    """Its words of two letters or more (a single letter is a key: «Ctrl+Shift+F», «D, D»)."""
    return {p.lower() for p in re.findall(r"[^\W\d_]{2,}", texto)}


def _textos_de_formularios_de_metadatos(datos: Path) -> set[str]:
    """The Property Inspector's English (issue 22, fifth student's report): the section labels and the
    fields' and choices' titles of every ``jupyter.lab.metadataforms`` in the installed schemas.
    They are not in JupyterLab's messages (the course's server extension translates them)."""
    def recorrer(valor, ruta):
        if isinstance(valor, dict):
            for k, v in valor.items():
                yield from recorrer(v, f"{ruta}/{k}")
        elif isinstance(valor, list):
            for i, v in enumerate(valor):
                yield from recorrer(v, f"{ruta}/{i}")
        elif isinstance(valor, str):
            yield ruta, valor

    textos = set()
    for esquema in [*(datos / "lab" / "schemas").rglob("*.json"), *(datos / "labextensions").rglob("schemas/**/*.json")]:
        try:
            formularios = json.loads(esquema.read_text(encoding="utf-8")).get("jupyter.lab.metadataforms", [])
        except (ValueError, AttributeError):
            continue
        for ruta, texto in recorrer(formularios, ""):
            if re.fullmatch(r"/\d+/label|/\d+/metadataSchema/properties/.*/title", ruta):
                textos.add(texto)
    return textos


@pytest.fixture(scope="module")
def palabras_inglesas() -> set[str]:
    """English words of the interface: JupyterLab's messages minus the words of their Spanish."""
    sys.path.insert(0, str(lab.RAIZ / "ajustes_jupyterlab"))
    import traducir

    datos = Path(sys.prefix) / "share" / "jupyter"
    mensajes = traducir.mensajes_de_jupyterlab([datos / "lab" / "static", datos / "labextensions"])
    ingles = set().union(*(_palabras(m.rpartition("\u0004")[2]) for m in mensajes))
    espanol = set()
    for catalogo in traducir.DESTINO.glob("*.json"):
        for clave, formas in json.loads(catalogo.read_text(encoding="utf-8")).items():
            if clave:
                espanol |= set().union(*(_palabras(f) for f in formas))
    ingles |= set().union(*(_palabras(t) for t in _textos_de_formularios_de_metadatos(datos)))
    return (ingles | INGLES_DE_NBGRADER | VALORES_SUELTOS | _nombres_de_idiomas_y_paises()) - espanol - PERMITIDAS


def test_ningun_texto_en_ingles(servidor_alumno, pagina, captura, palabras_inglesas):
    """Every menu and submenu, context menu, toolbar, side panel, the status bar, a launcher and
    the notebook's dialogs: no English word outside a short list of names."""
    assert servidor_alumno.ajustes is None   # nothing but what the environment installs
    textos = textos_de_la_interfaz(pagina, servidor_alumno, CUADERNO)
    assert len(textos) > 300, f"el recorrido sólo encontró {len(textos)} textos"
    en_ingles = {}
    for texto, lugares in textos.items():
        if all(any(s in lugar for s in SIN_REVISAR) for lugar in lugares):
            continue
        if (re.match(r"^(/|https?://)\S+$", texto)             # example paths in the placeholders
                or texto in TEXTOS_SIN_TRADUCCION or texto.split(" | ")[0] in TEXTOS_SIN_TRADUCCION):
            continue
        revisado = texto
        if (any(lugar.startswith((MENU_IDIOMA, "paleta de comandos")) for lugar in lugares)
                and " - " in texto):
            # «Inglés - English»: the language's own name, in its menu and in the palette's command
            # that switches to it (listed there once the languages have loaded, which is a race)
            revisado = texto.rsplit(" - ", 1)[0]
        palabras = sorted(_palabras(HEXADECIMAL.sub(" ", revisado)) & palabras_inglesas)
        if palabras:
            en_ingles[texto] = (palabras, sorted(lugares)[0])
    captura("recorrido")
    assert not en_ingles, "textos en inglés:\n" + "\n".join(
        f"  «{t}» ({', '.join(p)}) en {l}" for t, (p, l) in sorted(en_ingles.items()))
    # One word for the kernel, in every menu and dialog.
    for otra in ("Kernel", "intérprete", "Notebook"):
        con_otra = [t for t in textos if re.search(rf"\b{otra}\b", t)
                    and t.split(" | ")[0] not in TEXTOS_SIN_TRADUCCION]
        assert not con_otra, f"«{otra}» en vez de núcleo/cuaderno: {con_otra}"
    assert any("núcleo" in t for t in textos) and "Núcleo" in textos
    # the kinds VALORES_SUELTOS and the languages' names stand for, where a student met them
    assert "Español (España)" in textos and MENU_IDIOMA in textos["Español (España)"], \
        [t for t, l in textos.items() if MENU_IDIOMA in l]
    assert any(t.startswith("Último punto de control: ") for t in textos), "sin la ayuda de la pestaña"
    # where a new student found English (issue 22): an output's context menu, the listing header's, File ▸ Shut Down
    for visto in ("Copiar la salida al portapapeles", "Mostrar la columna de la última modificación",
                  "Poner los cuadernos antes que los demás archivos", "Confirmar el apagado"):
        assert visto in textos, (visto, sorted(t for t in textos if "salida" in t or "columna" in t)[:20])


def test_inspector_de_propiedades_en_espanol(servidor_alumno, pagina, captura):
    """The right sidebar's gear (Ctrl+Shift+U): its sections, fields and choices, and its placeholder
    with no notebook, in Spanish (translated by the catalogue; the forms' labels via the course's
    server extension, ajustes_jupyterlab/curso_atencion_jupyterlab_es)."""
    from .interfaz import abrir_inspector_de_propiedades

    lab.abrir_cuaderno(pagina, servidor_alumno, CUADERNO)
    lab.cerrar_dialogos(pagina)
    abrir_inspector_de_propiedades(pagina)
    inspector = pagina.locator("#jp-property-inspector")
    # another cell becomes active (the inspector shows the active cell's fields)
    pagina.locator(".jp-Notebook .jp-CodeCell .jp-InputPrompt").first.click(force=True)
    pagina.locator(".jp-Notebook .jp-Cell .jp-InputPrompt").nth(1).click(force=True)
    pagina.evaluate("() => { window.jupyterapp.commands.execute('notebook:move-cursor-down'); }")
    expect(inspector).to_contain_text("Tipo de diapositiva")
    inspector = pagina.locator("#jp-property-inspector")
    expect(inspector).to_contain_text("Herramientas comunes")
    expect(inspector).to_contain_text("Herramientas avanzadas")
    expect(inspector).to_contain_text("Metadatos de la celda")
    texto = inspector.inner_text() + " ".join(inspector.locator("option").all_inner_texts())
    captura("inspector-de-propiedades")
    for ingles in ("Common Tools", "Advanced Tools", "Slide Type", "Cell metadata", "Notebook metadata",
                   "Not deletable", "Table of content"):
        assert ingles.lower() not in texto.lower(), (ingles, texto)
    assert "Tipo de diapositiva" in texto and "No se puede borrar" in texto, texto
    expect(inspector).to_contain_text("Etiquetas de la celda")
    assert "Cell Tags" not in texto
    pagina.evaluate("() => { window.jupyterapp.commands.execute('launcher:create'); }")
    expect(inspector).to_contain_text("Sin propiedades")
    expect(inspector).not_to_contain_text("property inspector allows")


def test_menus_de_jupyterlab_en_espanol(servidor_alumno, pagina, captura):
    lab.abrir_cuaderno(pagina, servidor_alumno, CUADERNO)
    lab.cerrar_dialogos(pagina)
    etiquetas = pagina.locator("#jp-MainMenu .lm-MenuBar-itemLabel").all_inner_texts()
    assert etiquetas == ["Archivo", "Editar", "Ver", "Ejecutar", "Núcleo", "Pestañas", "Configuración",
                         "Ayuda"], etiquetas          # no «Nbgrader»: no teacher tools, no exchange
    captura("barra-de-menus")
    # the skip link the first Tab shows (a literal upstream: ajustes_jupyterlab's curso-atencion-interfaz)
    expect(pagina.locator("#jp-skiplink a.skip-link")).to_have_text("Saltar al panel principal")
    # what a screen reader says of a Markdown cell (a hub TA's report: JupyterLab labels it in English)
    expect(pagina.locator(".jp-MarkdownCell[aria-label='Contenido de la celda de Markdown']").first).to_be_attached()
    # JupyterLab builds a notebook's cells lazily (windowing) and labels each one as it builds it; the course's
    # extension relabels it on the next animation frame after the DOM changes. So a cell built at this very moment
    # may carry the English label for one frame (seen once in CI): wait for none left, not a single snapshot.
    expect(pagina.locator("[aria-label='Markdown Cell Content']")).to_have_count(0)
    # The items the lessons and the explorables' hint name, exactly as they appear.
    lab.menu(pagina, "Ejecutar")
    ejecutar = pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel").all_inner_texts()
    assert "Ejecutar todas las celdas" in ejecutar, ejecutar
    assert "Reiniciar el núcleo y ejecutar todas las celdas…" in ejecutar, ejecutar
    pagina.keyboard.press("Escape")
    lab.menu(pagina, "Núcleo")
    nucleo = pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel").all_inner_texts()
    assert {"Reiniciar el núcleo…", "Interrumpir el núcleo", "Cambiar de núcleo…"} <= set(nucleo), nucleo
    pagina.keyboard.press("Escape")
    pagina.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    assert pagina.locator(".jp-DirListing-headerItem").filter(has_text="Nombre").count() == 1


def test_paleta_de_comandos_sin_guardar_como(servidor_alumno, pagina, captura):
    """The palette offers no «Guardar como…»: its dialog is English in JupyterLab 4.6 whatever the
    catalogue says (built with nullTranslator), as in the menus; a search that finds nothing says so
    in Spanish (lumino's literal, translated by ajustes_jupyterlab/labextension)."""
    lab.abrir_cuaderno(pagina, servidor_alumno, CUADERNO)
    lab.cerrar_dialogos(pagina)
    pagina.evaluate("() => window.jupyterapp.commands.execute('apputils:activate-command-palette')")
    entrada = pagina.locator(".lm-CommandPalette .lm-CommandPalette-input")
    entrada.fill("guardar")
    pagina.wait_for_timeout(300)
    guardar = pagina.locator(".lm-CommandPalette-itemLabel").all_inner_texts()
    assert guardar and any(t.startswith("Guardar") for t in guardar), guardar
    assert not [t for t in guardar if "como" in t.lower() and "espacio de trabajo" not in t], guardar
    entrada.fill("validate")
    expect(pagina.locator(".lm-CommandPalette-emptyMessage")).to_have_text("Ningún comando coincide con «validate»")
    captura("paleta-sin-resultados")
    pagina.keyboard.press("Escape")


def _estado(servidor, ruta: str) -> int:
    try:
        with urllib.request.urlopen(servidor.enlace(ruta), timeout=20) as respuesta:
            return respuesta.status
    except urllib.error.HTTPError as error:
        return error.code


def test_sin_herramientas_del_profesorado(servidor_alumno, pagina, captura):
    """No Create Assignment panel, no Formgrader, no course or assignment list (there is no
    exchange on this route, so no «Error fetching courses!»); Validate stays."""
    lab.abrir_cuaderno(pagina, servidor_alumno, CUADERNO)
    lab.cerrar_dialogos(pagina)
    comandos = pagina.evaluate("() => window.jupyterapp.commands.listCommands()")
    for comando in ("nbgrader:open-formgrader", "nbgrader:open-formgrader-local", "nbgrader:open-course-list",
                    "nbgrader:open-assignment-list", "nbgrader:open-create-assignment"):
        assert comando not in comandos, f"el alumno tiene {comando}"
    laterales = pagina.locator(".jp-SideBar .lm-TabBar-tab").evaluate_all(
        "ts => ts.map(t => (t.getAttribute('title') || '') + ' ' + t.textContent)")
    assert not [t for t in laterales if "Assignment" in t or "nbgrader" in t.lower()], laterales
    assert pagina.locator("#nbgrader-create_assignemnt, .nbgrader-mainarea-widget").count() == 0
    assert pagina.locator(".jp-NotebookPanel-toolbar").get_by_text("Validate").count() == 1
    captura("sin-herramientas")
    # the two tooltips hard-coded in English upstream (curso-atencion-interfaz, ajustes_jupyterlab/labextension)
    expect(pagina.locator('.jp-NotebookPanel-toolbar .validate-button[title], '
                          '.jp-NotebookPanel-toolbar .validate-button [title]')).to_have_attribute(
        "title", "Validar la tarea: ejecuta el cuaderno y sus pruebas visibles")
    tamano = pagina.viewport_size
    pagina.set_viewport_size({"width": 560, "height": tamano["height"]})   # the toolbar overflows: «…»
    try:
        abridor = pagina.locator(".jp-NotebookPanel-toolbar .jp-Toolbar-responsive-opener")
        expect(abridor).to_be_visible()
        expect(pagina.locator('.jp-NotebookPanel-toolbar .jp-Toolbar-responsive-opener[title], '
                              '.jp-NotebookPanel-toolbar .jp-Toolbar-responsive-opener [title]')).to_have_attribute(
            "title", "Más comandos")
        captura("barra-estrecha")
    finally:
        pagina.set_viewport_size(tamano)
    # nor their server side: formgrader's pages and the exchange's API are not there
    for ruta in ("formgrader", "formgrader/api/assignments", "assignments?course_id=curso", "courses"):
        assert _estado(servidor_alumno, ruta) == 404, ruta
    assert _estado(servidor_alumno, "lab") == 200


def _textos(pagina, selector: str) -> list[str]:
    """The visible text and the tooltips under ``selector``, one line each."""
    return pagina.locator(selector).first.evaluate(
        """raiz => [raiz, ...raiz.querySelectorAll('*')].flatMap(e => [
               ...[...e.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent.trim()),
               e.getAttribute('title') || '']).filter(t => t)""")


def test_licencias_tree_y_paginas_de_error_en_espanol(servidor_alumno, pagina, captura):
    """What the fifth student's report still found in English (issue 22, B2-B4): Ayuda ▸ Licencias,
    Jupyter Notebook's /tree (one address away, or `jupyter notebook`) and the server's error pages; and
    no Settings Editor, whose hundreds of settings JupyterLab describes in English (ajustes_jupyterlab/README.md)."""
    lab.abrir_cuaderno(pagina, servidor_alumno, CUADERNO)
    lab.cerrar_dialogos(pagina)
    comandos = pagina.evaluate("() => window.jupyterapp.commands.listCommands()")
    assert not [c for c in comandos if c.startswith("settingeditor:")], "el alumno tiene el editor de la configuración"
    assert not [c for c in comandos if c.startswith("pluginmanager:")], "el alumno tiene el administrador de complementos"
    pagina.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text="Configuración").first.click()
    opciones = pagina.locator(".lm-Menu:not(.lm-mod-hidden) .lm-Menu-itemLabel").all_inner_texts()
    pagina.keyboard.press("Escape")
    assert "Tema" in opciones and not [o for o in opciones if "Editor" in o], opciones

    pagina.evaluate("() => { window.jupyterapp.commands.execute('help:licenses'); }")
    pagina.locator(".jp-Licenses-Filters-title, .jp-Licenses").first.wait_for()
    pagina.locator(".jp-Licenses-Grid tbody tr").first.wait_for(timeout=60_000)
    textos = _textos(pagina, "#jp-main-dock-panel .lm-DockPanel-widget:visible")
    captura("licencias")
    for espanol in ("Filtrar las licencias por", "Paquete", "Versión", "Licencia", "Distribuciones",
                    "Actualizar las licencias", "Descargar todas las licencias en formato CSV"):
        assert espanol in textos, (espanol, textos[:40])
    for ingles in ("Filter Licenses By", "Package", "Version", "License", "Distributions", "Refresh Licenses"):
        assert ingles not in textos, ingles
    assert not [t for t in textos if t.startswith("Download")], textos

    pagina.goto(servidor_alumno.enlace("tree"))
    pagina.locator(".jp-DirListing-headerItem").first.wait_for(timeout=60_000)
    pagina.wait_for_timeout(1000)
    textos = _textos(pagina, "body")
    captura("tree")
    for espanol in ("Archivos", "En marcha", "Nuevo", "Cargar", "Nombre", "Tamaño del archivo"):
        assert espanol in textos, (espanol, textos)
    for ingles in ("Files", "Running", "New", "Upload", "File Size", "Select items to perform actions on them."):
        assert ingles not in textos, (ingles, textos)

    for ruta in ("formgrader", "files/no_existe.txt"):
        pagina.goto(servidor_alumno.enlace(ruta))
        texto = pagina.locator("body").inner_text()
        assert "404 : No existe" in texto and "La página que pides no existe" in texto, texto
        assert "Not Found" not in texto and "requesting" not in texto, texto
    captura("404")


def test_la_columna_modificado_del_explorador_sigue_el_reloj(servidor_alumno, pagina, captura):
    """The file browser's relative dates move on with time (issue 22, fifth student's report B5: «hace 53 s»
    a quarter of an hour later, even after «Actualizar»): JupyterLab 4.6 only writes them when it draws a
    row; the course's labextension writes them again. The page's clock jumps 20 minutes ahead."""
    # a file saved a minute ago, whatever the age of the copy (a file two hours old reads «hace 2 h»
    # before and after the jump)
    archivo = servidor_alumno.raiz / Path(CUADERNO).parent / "pruebas_visibles.py"
    hace_un_minuto = time.time() - 60
    os.utime(archivo, (hace_un_minuto, hace_un_minuto))
    pagina.clock.install()
    lab.abrir_cuaderno(pagina, servidor_alumno, CUADERNO)
    lab.cerrar_dialogos(pagina)
    pagina.evaluate("() => { window.jupyterapp.commands.execute('filebrowser:activate'); }")
    # a file nobody opens or saves (the notebook's own row is drawn again when it is saved)
    fila = pagina.locator("#filebrowser .jp-DirListing-item", has_text="pruebas_visibles.py")
    fecha = fila.locator(".jp-DirListing-itemModified")
    fecha.wait_for()
    antes = fecha.inner_text()
    pagina.clock.fast_forward("20:00")
    pagina.evaluate("() => { window.jupyterapp.commands.execute('filebrowser:refresh'); }")
    expect(fecha).not_to_have_text(antes, timeout=40_000)
    despues = fecha.inner_text()
    captura("modificado")
    assert _minutos(despues) - _minutos(antes) >= 19, (antes, despues)


def _minutos(fecha: str) -> float:
    """«hace 53 s», «hace 20 min», «hace 2 h», «ahora» (the narrow relative dates) in minutes."""
    if fecha.strip() == "ahora":
        return 0.0
    numero, unidad = re.fullmatch(r"hace (\d+) (s|min|h)\.?", fecha.strip()).groups()
    return int(numero) * {"s": 1 / 60, "min": 1, "h": 60}[unidad]


def test_formulas_y_estado_del_nucleo_en_espanol(servidor_alumno, pagina, captura):
    """The seventh student's report (issue 22, B3-2 and B3-3): a formula's context menu has MathJax's items in
    Spanish («Copiar el LaTeX de la fórmula»; the scale items labelled whole by ajustes_jupyterlab/labextension),
    and the kernel status circle's tooltip says «Estado del núcleo: …», not «Kernel status: …»."""
    lab.abrir_cuaderno(pagina, servidor_alumno, CUADERNO)
    lab.cerrar_dialogos(pagina)
    formula = pagina.locator(".jp-Notebook .jp-MarkdownCell .MathJax").first
    formula.wait_for(timeout=30_000)
    formula.click(button="right", force=True)
    menu = pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel")
    expect(menu.filter(has_text="Copiar el LaTeX de la fórmula")).to_have_count(1)
    etiquetas = menu.all_inner_texts()
    captura("menu-de-una-formula")
    pagina.keyboard.press("Escape")
    assert {"Fórmulas a su tamaño normal", "Fórmulas al 150 %"} <= set(etiquetas), etiquetas
    assert not [e for e in etiquetas if re.search(r"mathjax|scale|reset|copy", e, re.I)], etiquetas
    indicador = pagina.locator(".jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator").first
    indicador.hover()
    ayuda = pagina.locator(".jp-Notebook-ExecutionIndicator-tooltip:visible").first
    expect(ayuda).to_contain_text("Estado del núcleo: ", timeout=15_000)
    assert "Kernel" not in ayuda.inner_text(), ayuda.inner_text()
    captura("ayuda-del-estado-del-nucleo")
