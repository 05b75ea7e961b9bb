"""A student validates with nbgrader's JupyterLab extension: the «Validate» button of the notebook toolbar.

The button (nbgrader's validate_assignment lab extension) saves the notebook,
asks the server extension to run ``nbgrader validate`` on it and shows the
result in a dialog.  The perfect sample (``examples/respuestas/perfecta.py``
planted into the release) must pass; the untouched release must not.
"""
from __future__ import annotations

import pytest

from . import laboratorio as lab
from .conftest import TAREAS

EXITO = "Success! Your notebook passes all the tests."


def _validar(pagina, servidor, ruta: str, captura, nombre: str) -> tuple[str, str]:
    lab.abrir_cuaderno(pagina, servidor, ruta)
    lab.cerrar_dialogos(pagina)
    boton = pagina.locator(".jp-NotebookPanel:visible .jp-NotebookPanel-toolbar .validate-button")
    boton.wait_for()
    captura(f"{nombre}-cuaderno")
    boton.locator("jp-button, button").first.click()
    dialogo = pagina.locator(".jp-Dialog").filter(has=pagina.locator("#validation-message"))
    dialogo.wait_for(timeout=240_000)
    texto = dialogo.locator("#validation-message").inner_text()
    clase = dialogo.get_attribute("class") or ""
    captura(f"{nombre}-resultado")
    dialogo.locator(".jp-Dialog-button.jp-mod-accept").click()
    return texto, clase


@pytest.mark.parametrize("tarea", sorted(TAREAS))
def test_muestra_perfecta_pasa_la_validacion(servidor_alumno, pagina, captura, tarea):
    ruta = f"perfecta/{tarea}/{TAREAS[tarea]}"
    texto, clase = _validar(pagina, servidor_alumno, ruta, captura, "perfecta")
    assert EXITO in texto, f"{ruta} no pasa la validación de nbgrader:\n{texto[:3000]}"
    assert "nbgrader-SuccessDialog" in clase


def test_release_sin_contestar_no_pasa_la_validacion(servidor_alumno, pagina, captura):
    tarea = "02_codificacion_posicional"
    texto, clase = _validar(pagina, servidor_alumno, f"{tarea}/{TAREAS[tarea]}", captura, "en-blanco")
    assert EXITO not in texto
    assert "The following cell failed" in texto or "NotImplementedError" in texto, texto[:2000]
