"""The student's JupyterLab speaks Spanish (course settings + jupyterlab-language-pack-es-ES)."""
from __future__ import annotations

from . import laboratorio as lab


def test_menus_de_jupyterlab_en_espanol(servidor_alumno, pagina, captura):
    pagina.goto(servidor_alumno.enlace("lab"))
    lab.esperar_lab(pagina)
    barra = pagina.locator("#jp-MainMenu .lm-MenuBar-itemLabel")
    barra.first.wait_for()
    pagina.locator(".jp-DirListing-itemText", has_text="01_atencion_multicabeza").wait_for()
    etiquetas = barra.all_inner_texts()
    for esperada in ("Archivo", "Editar", "Ver", "Ejecutar", "Kernel", "Configuración", "Ayuda"):
        assert esperada in etiquetas, f"falta el menú «{esperada}»; la barra tiene {etiquetas}"
    for inglesa in ("File", "Edit", "View", "Run", "Tabs", "Settings", "Help"):
        assert inglesa not in etiquetas, f"el menú «{inglesa}» sigue en inglés: {etiquetas}"
    captura("barra-de-menus")

    barra.filter(has_text="Archivo").first.click()
    menu = pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel")
    menu.first.wait_for()
    assert "Nuevo" in menu.all_inner_texts()
    captura("menu-archivo")
    pagina.keyboard.press("Escape")

    barra.filter(has_text="Ejecutar").first.click()
    menu.first.wait_for()
    textos = menu.all_inner_texts()
    assert "Ejecutar todo" in textos and "Ejecutar seleccionados" in textos, textos
    captura("menu-ejecutar")
    pagina.keyboard.press("Escape")
    # The file browser too: the header of the name column.
    assert pagina.locator(".jp-DirListing-headerItem").filter(has_text="Nombre").count() == 1
