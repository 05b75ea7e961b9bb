"""The student's own ``jupyter lab`` speaks Spanish without any setting of theirs.

The server serves release copies with EMPTY user settings (``ServidorLab``):
the Spanish interface must come from the course environment itself
(``ajustes_jupyterlab/``: an ``overrides.d`` file with the language and the
«Run»/«Tabs» menus that the language pack leaves in English).  The lessons name
menu items as this interface shows them («Ejecutar ▸ Ejecutar todas las celdas»).
"""
from __future__ import annotations

from . import laboratorio as lab

CUADERNO = "02_codificacion_posicional/codificacion_posicional.ipynb"


def _abrir_menu(pagina, etiqueta: str) -> list[str]:
    pagina.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text=etiqueta).first.click()
    elementos = pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel")
    elementos.first.wait_for()
    return [t for t in elementos.all_inner_texts() if t.strip()]


def test_menus_de_jupyterlab_en_espanol(servidor_alumno, pagina, captura):
    assert servidor_alumno.ajustes is None   # nothing but what the environment installs
    lab.abrir_cuaderno(pagina, servidor_alumno, CUADERNO)
    lab.cerrar_dialogos(pagina)
    barra = pagina.locator("#jp-MainMenu .lm-MenuBar-itemLabel")
    etiquetas = barra.all_inner_texts()
    for esperada in ("Archivo", "Editar", "Ver", "Ejecutar", "Kernel", "Pestañas", "Configuración",
                     "Ayuda"):
        assert esperada in etiquetas, f"falta el menú «{esperada}»; la barra tiene {etiquetas}"
    for inglesa in ("File", "Edit", "View", "Run", "Tabs", "Settings", "Help"):
        assert inglesa not in etiquetas, f"el menú «{inglesa}» sigue en inglés: {etiquetas}"
    captura("barra-de-menus")

    assert "Nuevo" in _abrir_menu(pagina, "Archivo")
    pagina.keyboard.press("Escape")

    # The items the lessons name, exactly as they appear.
    ejecutar = _abrir_menu(pagina, "Ejecutar")
    assert "Ejecutar todas las celdas" in ejecutar, ejecutar
    captura("menu-ejecutar")
    pagina.keyboard.press("Escape")
    pestanas = _abrir_menu(pagina, "Pestañas")
    assert "Activar la Siguiente Pestaña" in pestanas, pestanas
    captura("menu-pestanas")
    pagina.keyboard.press("Escape")
    # The file browser too: the header of the name column.
    pagina.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    cabecera = pagina.locator(".jp-DirListing-headerItem").filter(has_text="Nombre")
    cabecera.first.wait_for()
    assert cabecera.count() == 1
