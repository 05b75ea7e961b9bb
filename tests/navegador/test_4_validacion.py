"""A student validates with nbgrader's JupyterLab extension: the «Validate» button of the notebook toolbar.

The button (nbgrader's validate_assignment lab extension) saves the notebook,
asks the server extension to run ``nbgrader validate`` on it and shows the
result in a dialog.  The perfect sample (``examples/respuestas/perfecta.py``
planted into the release) must pass; the untouched release must not.  With
JupyterLab started in the assignment folder (as docs/estudiantes.md tells students),
Validate uses the released ``nbgrader_config.py``: a correct answer that writes
to stderr passes, a wrong one fails with the visible test's Spanish message.
"""
from __future__ import annotations

import shutil

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


# --------------------------------------------- JupyterLab opened in the assignment folder

@pytest.fixture(scope="module")
def servidor_en_la_tarea(carpeta_alumno, tmp_path_factory):
    """JupyterLab started in a copy of one released assignment, as docs/estudiantes.md tells students.

    The folder holds the released ``nbgrader_config.py``, so Validate uses the
    course's limits.  Two answers are planted: a correct ``positional_encoding``
    that writes warnings and stderr (autograde gives it full marks) and one with
    base 1000 (autograde takes value points).
    """
    import sys

    import nbformat

    from .conftest import RAIZ
    sys.path.insert(0, str(RAIZ))
    from scripts.calificacion import samples

    tarea = "02_codificacion_posicional"
    carpeta = tmp_path_factory.mktemp("tarea") / tarea
    shutil.copytree(carpeta_alumno / tarea, carpeta)
    for nombre, archivo in (("con_avisos", "c05_avisos.py"), ("base_1000", "e07_base_1000.py")):
        nb = nbformat.read(carpeta / TAREAS[tarea], as_version=4)
        for grade_id, linea in samples.correct_quiz_answers("codificacion_posicional").items():
            samples.plant(nb, grade_id, linea)
        codigo = (RAIZ / "grader_tests" / "ejercicios" / "positional_encoding" / "bateria" / archivo).read_text(
            encoding="utf-8")
        samples.plant(nb, "positional_encoding", codigo)
        nbformat.write(nb, carpeta / f"{nombre}.ipynb")
    registro = lab.ARTEFACTOS / "servidor-tarea.log"
    registro.unlink(missing_ok=True)
    servidor = lab.ServidorLab(carpeta, registro=registro).arrancar()
    yield servidor
    servidor.limpiar()


def test_avisos_en_stderr_no_hacen_fallar_la_validacion(servidor_en_la_tarea, pagina, captura):
    texto, clase = _validar(pagina, servidor_en_la_tarea, "con_avisos.ipynb", captura, "avisos")
    assert EXITO in texto, texto[:3000]
    assert "nbgrader-SuccessDialog" in clase


def test_un_error_de_valores_no_pasa_y_el_mensaje_dice_la_causa(servidor_en_la_tarea, pagina, captura):
    texto, _ = _validar(pagina, servidor_en_la_tarea, "base_1000.ipynb", captura, "base-1000")
    assert EXITO not in texto
    assert "La columna 2 debería ser sin(pos / 10000^(2/8))" in texto, texto[:3000]
    assert "la base es 10000" in texto
