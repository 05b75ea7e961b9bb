"""Every string the student's JupyterLab shows around a notebook, collected in the browser.

``textos_de_la_interfaz(pagina, servidor, cuaderno)`` opens a notebook and walks what a
student can reach: the menu bar and every submenu, the context menus (cell, formula, file browser,
tab), the kernel status tooltip, the toolbars, the side panels, the status bar, a launcher, the dialogs of the
notebook's usual commands (restart, shut down, close, rename, change kernel) and the command
palette (every command it lists, and its message when a search finds nothing).  It returns
``{texto: {dónde, …}}`` with the visible text, ``title``, ``aria-label`` and ``placeholder``
of each element (tooltips included; not ``aria-label``, read only by screen readers and in
places hard-coded in English by JupyterLab), not the notebook's own content (cells, outputs).

``tests/navegador/test_1_interfaz_espanol.py`` checks it for English; the same walk, with the
interface set to English, lists the strings the course's translations must cover
(``ajustes_jupyterlab/README.md``).
"""
from __future__ import annotations

from . import laboratorio as lab

# Texts under these roots; the notebook's cells and outputs are the lesson, not the interface.
RAICES = ("#jp-top-panel", "#jp-menu-panel", "#jp-main-statusbar", "#jp-left-stack", "#jp-right-stack",
          ".jp-SideBar", ".lm-DockPanel-tabBar", ".jp-NotebookPanel-toolbar", ".jp-Toolbar",
          ".jp-cell-toolbar", ".jp-Dialog", ".lm-Menu", ".jp-Launcher", ".jp-Notification",
          ".jp-toast-container", ".Toastify", ".lm-CommandPalette")

RECOGER = """(raices) => {
    // the cell's source and the metadata (JSON) the Property Inspector shows are the notebook, not the interface
    const fuera = '.jp-Cell-inputArea .cm-content, .jp-OutputArea, .jp-RenderedMarkdown, .jp-RenderedHTMLCommon, ' +
        '.jp-ActiveCellTool-Content, .jp-MetadataEditorTool .cm-editor';
    const textos = [];
    // whole labels: a menu item's mnemonic is a separate span («O» + «pen»)
    const enteras = '.lm-Menu-itemLabel, .lm-MenuBar-itemLabel, .lm-TabBar-tabLabel, .lm-CommandPalette-itemLabel';
    for (const raiz of document.querySelectorAll(raices.join(','))) {
        for (const e of [raiz, ...raiz.querySelectorAll('*')]) {
            if (e.closest(fuera)) continue;
            if (e.parentElement && e.parentElement.closest(enteras)) continue;
            const estilo = getComputedStyle(e);
            if (estilo.display === 'none' || estilo.visibility === 'hidden') continue;
            if (!e.getClientRects().length) continue;
            for (const atributo of ['title', 'placeholder']) {      // tooltips and hints: visible
                const v = e.getAttribute(atributo);
                if (v) textos.push(v);
            }
            if (e.matches(enteras)) { textos.push(e.textContent); continue; }
            for (const hijo of e.childNodes) {
                if (hijo.nodeType === Node.TEXT_NODE && hijo.textContent.trim()) textos.push(hijo.textContent);
            }
            if (e.tagName === 'OPTION' || e.tagName === 'INPUT' && e.type === 'button') textos.push(e.textContent || e.value);
        }
    }
    return textos;
}"""


class Textos(dict):
    """``{texto: {dónde, …}}``."""

    def anotar(self, donde: str, textos) -> None:
        for texto in textos:
            for linea in str(texto).splitlines():
                linea = " ".join(linea.split())
                if linea:
                    self.setdefault(linea, set()).add(donde)


def _recoger(pagina, textos: Textos, donde: str) -> None:
    textos.anotar(donde, pagina.evaluate(RECOGER, list(RAICES)))


def _escape(pagina, veces: int = 3) -> None:
    for _ in range(veces):
        pagina.keyboard.press("Escape")
    pagina.wait_for_timeout(150)


def _recorrer_menu(pagina, textos: Textos, ruta: list[str], profundidad: int = 0) -> None:
    menus = pagina.query_selector_all(".lm-Menu:not(.lm-mod-hidden)")
    if not menus:
        return
    ultimo = menus[-1]
    _recoger(pagina, textos, " > ".join(ruta))
    for item in ultimo.query_selector_all(":scope > .lm-Menu-content > .lm-Menu-item"):
        if not item.is_visible() or item.get_attribute("data-type") != "submenu" or profundidad >= 3:
            continue
        etiqueta = item.query_selector(".lm-Menu-itemLabel")
        nombre = etiqueta.inner_text() if etiqueta else "?"
        # Lumino closes the previous submenu and opens this one after a delay (300 ms, longer under
        # load): wait for both, or one submenu's texts would be read under another item's name.
        marca = _marcar_submenus(pagina, len(menus))
        item.hover()
        if _esperar_submenu(pagina, len(menus), marca):
            pagina.wait_for_timeout(100)
            _recorrer_menu(pagina, textos, ruta + [nombre], profundidad + 1)


_MARCAS = iter(range(1, 1 << 30))


def _marcar_submenus(pagina, abiertos: int) -> str:
    """Mark the open menus past the first ``abiertos`` (the submenu left open by the last item)."""
    marca = str(next(_MARCAS))
    pagina.evaluate("""([n, marca]) => {
        [...document.querySelectorAll('.lm-Menu:not(.lm-mod-hidden)')].slice(n)
            .forEach(m => m.setAttribute('data-recorrido', marca));
    }""", [abiertos, marca])
    return marca


def _esperar_submenu(pagina, abiertos: int, marca: str, plazo: float = 3.0) -> bool:
    """Wait (at most ``plazo`` s) for the marked submenus to close and a new one to open."""
    comprobar = """([n, marca]) => {
        const menus = [...document.querySelectorAll('.lm-Menu:not(.lm-mod-hidden)')]
            .filter(m => m.isConnected && m.getClientRects().length);
        return menus.length > n && !menus.some(m => m.getAttribute('data-recorrido') === marca);
    }"""
    for _ in range(int(plazo / 0.05)):
        if pagina.evaluate(comprobar, [abiertos, marca]):
            return True
        pagina.wait_for_timeout(50)
    return False


def _comando(pagina, comando: str, args: dict | None = None) -> None:
    """Run a JupyterLab command without waiting for it (a dialog would block the wait)."""
    pagina.evaluate("([c, a]) => { window.jupyterapp.commands.execute(c, a || {}); }", [comando, args])
    pagina.wait_for_timeout(600)


def _dialogo(pagina, textos: Textos, comando: str, args: dict | None = None) -> None:
    _comando(pagina, comando, args)
    dialogo = pagina.locator(".jp-Dialog")
    if dialogo.count():
        _recoger(pagina, textos, f"diálogo de {comando}")
        boton = dialogo.locator(".jp-Dialog-button.jp-mod-reject")
        if boton.count():
            boton.first.click()
        else:
            _escape(pagina)
    pagina.wait_for_timeout(300)


def abrir_inspector_de_propiedades(pagina) -> None:
    """Show the Property Inspector and unfold each of its sections (``Common Tools``…)."""
    _comando(pagina, "property-inspector:show-panel")
    pagina.locator("#jp-property-inspector").wait_for()
    plegadas = pagina.locator("#jp-property-inspector .jp-Collapse-header-collapsed")
    for _ in range(plegadas.count()):
        plegadas.first.click()
        pagina.wait_for_timeout(300)


def textos_de_la_interfaz(pagina, servidor, cuaderno: str) -> Textos:
    textos = Textos()
    lab.abrir_cuaderno(pagina, servidor, cuaderno)
    lab.cerrar_dialogos(pagina)
    # the Settings ▸ Language submenu and its palette commands appear once the server has listed the
    # language packs: wait for them, or the walk would sometimes miss them
    pagina.wait_for_function("""() => window.jupyterapp.commands.listCommands().some(
        c => c.startsWith('jupyterlab-translation:') && c !== 'jupyterlab-translation:install-languages')""",
                             timeout=30_000)
    _recoger(pagina, textos, "ventana")
    # the kernel status circle's tooltip, shown while the pointer is on it («Estado del núcleo: Libre»;
    # seventh student's report B3-2)
    indicador = pagina.locator(".jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator").first
    if indicador.count():
        indicador.hover()
        pagina.wait_for_timeout(400)
        _recoger(pagina, textos, "ayuda del estado del núcleo")

    for nombre in pagina.locator("#jp-MainMenu .lm-MenuBar-itemLabel").all_inner_texts():
        _escape(pagina)
        pagina.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text=nombre).first.click()
        pagina.wait_for_timeout(300)
        _recorrer_menu(pagina, textos, [nombre])
    _escape(pagina)

    # Context menus: a code cell, a markdown cell, the notebook's tab, the file browser.
    for selector, nombre in ((".jp-Notebook .jp-CodeCell .jp-InputArea-editor", "menú contextual de una celda"),
                             (".jp-Notebook .jp-MarkdownCell", "menú contextual de un texto"),
                             # a formula: MathJax's own items («Copiar el LaTeX…», the scale; seventh student's B3-3)
                             (".jp-Notebook .jp-MarkdownCell .MathJax", "menú contextual de una fórmula"),
                             (".lm-DockPanel-tabBar .lm-TabBar-tab", "menú contextual de la pestaña")):
        pagina.locator(selector).first.click(button="right", force=True)
        pagina.wait_for_timeout(400)
        _recorrer_menu(pagina, textos, [nombre])
        _escape(pagina)
    # An output's context menu («Copiar la salida al portapapeles»; a new student's report, issue 22): the quiz's
    # first check cell, run unanswered, leaves one
    pagina.evaluate("""() => {
        const nb = window.jupyterapp.shell.currentWidget.content;
        nb.activeCellIndex = nb.widgets.findIndex(
            c => (c.model.getMetadata('nbgrader') || {}).grade_id === 'comprueba_respuesta_1');
        window.jupyterapp.commands.execute('notebook:run-cell');
    }""")
    salida = pagina.locator(".jp-Notebook .jp-OutputArea-output").first
    salida.wait_for(timeout=60000)
    salida.click(button="right", force=True)
    pagina.wait_for_timeout(400)
    _recorrer_menu(pagina, textos, ["menú contextual de una salida"])
    _escape(pagina)
    _comando(pagina, "filebrowser:activate")
    # the listing's header too (its columns: «Mostrar la columna…»; the same report)
    for selector, nombre in ((".jp-DirListing-item[data-isdir='false']", "menú contextual de un archivo"),
                             (".jp-DirListing-header", "menú contextual de la cabecera del explorador"),
                             (".jp-DirListing-content", "menú contextual del explorador")):
        elemento = pagina.locator(selector).first
        if elemento.count():
            elemento.click(button="right", force=True, position={"x": 5, "y": 5})
            pagina.wait_for_timeout(400)
            _recorrer_menu(pagina, textos, [nombre])
            _escape(pagina)
    _recoger(pagina, textos, "explorador de archivos")

    # The side panels a student can open, one after another.
    for comando in ("running:show-panel", "toc:show-panel", "filebrowser:activate"):
        _comando(pagina, comando)
        _recoger(pagina, textos, f"panel de {comando}")
    # The Property Inspector (the right sidebar's gear, Ctrl+Shift+U): every section unfolded.
    abrir_inspector_de_propiedades(pagina)
    _recoger(pagina, textos, "inspector de propiedades")
    # A launcher (the inspector, with no notebook, shows its placeholder), then back to the notebook.
    _comando(pagina, "launcher:create")
    _recoger(pagina, textos, "lanzador")
    pagina.evaluate("() => { window.jupyterapp.commands.execute('application:close'); }")
    pagina.wait_for_timeout(500)

    # The notebook's dialogs (each one cancelled).
    for comando in ("notebook:restart-kernel", "notebook:restart-run-all", "notebook:restart-clear-output",
                    "notebook:restart-and-run-to-selected", "kernelmenu:shutdown", "kernelmenu:shutdownAll",
                    "notebook:change-kernel", "docmanager:rename", "docmanager:restore-checkpoint",
                    "docmanager:reload", "filemenu:close-and-cleanup", "filebrowser:open-path",
                    "filebrowser:open-url", "notebook:delete-cell", "apputils:display-shortcuts",
                    "filemenu:shutdown"):
        _dialogo(pagina, textos, comando)
    # The command palette (Ver ▸ Abrir la paleta de comandos): every command it lists, then a search
    # that finds nothing (its message).
    _comando(pagina, "apputils:activate-command-palette")
    paleta = pagina.locator(".lm-CommandPalette .lm-CommandPalette-input")
    paleta.wait_for()
    _recoger(pagina, textos, "paleta de comandos")
    paleta.fill("zzzqqq")
    pagina.wait_for_timeout(300)
    _recoger(pagina, textos, "paleta de comandos sin resultados")
    _escape(pagina)
    # The status bar's pop-ups: the kernel's (change kernel) and the cell counter's (go to cell).
    for selector in ("#jp-main-statusbar .jp-StatusBar-TextItem[title]", ):
        for elemento in pagina.locator(selector).all()[:6]:
            try:
                elemento.click(timeout=2000)
            except Exception:  # noqa: BLE001 - not every item opens something
                continue
            pagina.wait_for_timeout(400)
            _recoger(pagina, textos, "ventana emergente de la barra de estado")
            _escape(pagina)
    return textos
