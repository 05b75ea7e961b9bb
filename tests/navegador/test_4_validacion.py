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
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from . import laboratorio as lab
from .conftest import TAREAS

# nbgrader's dialog, in Spanish in the course's JupyterLab (ajustes_jupyterlab/labextension; the seventh student's
# report B3-4): nbgrader writes these sentences as literals, the course's extension rewrites them
EXITO = "Todo bien: tu cuaderno pasa todas las pruebas visibles."
FALLO = "Esta celda ha fallado:"
TITULO = "Resultado de la validación"
INGLES = ("Success!", "The following cell failed", "Validation Results")


def _validar(pagina, servidor, ruta: str, captura, nombre: str, titulo: list | None = None) -> tuple[str, str]:
    """Validate ``ruta``; the dialog's text and classes (its title appended to ``titulo``, if given)."""
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
    if titulo is not None:
        titulo.append(dialogo.locator(".jp-Dialog-header").inner_text().strip())
    captura(f"{nombre}-resultado")
    dialogo.locator(".jp-Dialog-button.jp-mod-accept").click()
    return texto, clase


@pytest.mark.parametrize("tarea", sorted(TAREAS))
def test_muestra_perfecta_pasa_la_validacion(servidor_alumno, pagina, captura, tarea):
    ruta = f"perfecta/{tarea}/{TAREAS[tarea]}"
    texto, clase = _validar(pagina, servidor_alumno, ruta, captura, "perfecta")
    assert EXITO in texto, f"{ruta} no pasa la validación de nbgrader:\n{texto[:3000]}"
    assert "nbgrader-SuccessDialog" in clase
    assert not [i for i in INGLES if i in texto], texto[:2000]


def test_release_sin_contestar_no_pasa_la_validacion(servidor_alumno, pagina, captura):
    tarea = "02_codificacion_posicional"
    texto, clase = _validar(pagina, servidor_alumno, f"{tarea}/{TAREAS[tarea]}", captura, "en-blanco")
    assert EXITO not in texto
    assert FALLO in texto, texto[:2000]
    assert not [i for i in INGLES if i in texto], texto[:2000]
    # the untouched exercise: one Spanish line per visible cell, not «lanzó NotImplementedError» and its lines
    assert "✘ Aún no has escrito `positional_encoding`: cambia su raise por tu código." in texto, texto[:3000]
    assert "lanzó NotImplementedError" not in texto, texto[:3000]


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
    # the cause itself, read from the table's frequencies (the seventh student's report B3), not a list of four
    assert "Causa probable: tus frecuencias son las de otra base, 1000 en lugar de 10000" in texto, texto[:3000]
    assert "Causas probables" not in texto, texto[:3000]


# ------------------------------------- Spanish first: a failing Validate and the quiz's instant check

def _plantar(carpeta, cuaderno: str, nombre: str, funcion: str, archivo: str, respuestas: dict | None = None,
             solo_respuestas: bool = False):
    """A copy of a released notebook with the quiz answered right (or ``respuestas``) and a battery file.

    With ``solo_respuestas`` only the questions in ``respuestas`` are answered; the others keep their stub."""
    import sys

    import nbformat

    from .conftest import RAIZ
    sys.path.insert(0, str(RAIZ))
    from scripts.calificacion import samples

    nb = nbformat.read(carpeta / cuaderno, as_version=4)
    for grade_id, linea in samples.correct_quiz_answers(cuaderno.removesuffix(".ipynb")).items():
        if solo_respuestas and grade_id not in (respuestas or {}):
            continue
        samples.plant(nb, grade_id, (respuestas or {}).get(grade_id, linea))
    codigo = (RAIZ / "grader_tests" / "ejercicios" / funcion / "bateria" / archivo).read_text(encoding="utf-8")
    samples.plant(nb, funcion, codigo)
    nbformat.write(nb, carpeta / nombre)
    return nombre


def test_un_validate_que_falla_da_el_diagnostico_en_espanol_en_sus_primeras_lineas(
        servidor_alumno, carpeta_alumno, pagina, captura):
    """√d_k missing: the dialog shows the failing cell's two lines and then, in Spanish, the cause (issue 22.3).

    The number the lesson quotes in its example (mayor diferencia 0.11) is the one the dialog shows.
    """
    tarea = "01_atencion_multicabeza"
    nombre = _plantar(carpeta_alumno / tarea, TAREAS[tarea], "sin_escala.ipynb", "multi_head", "e02_sin_escala.py")
    texto, clase = _validar(pagina, servidor_alumno, f"{tarea}/{nombre}", captura, "sin-escala")
    assert EXITO not in texto and "nbgrader-ErrorDialog" in clase
    lineas = texto.splitlines()
    primeras = "\n".join(lineas[:15])
    assert FALLO in primeras, texto[:2000]
    assert '__import__("pruebas_multi_head").mapas(globals())' in primeras, texto[:2000]
    assert "✘ El mapa de la cabeza 0 no coincide (mayor diferencia 0.11)." in primeras, texto[:2000]
    assert "Causa probable: no divides las puntuaciones entre √d_k = √2." in primeras, texto[:2000]
    assert "Traceback" not in texto and "AssertionError" not in texto, texto[:3000]
    # the output cell blames the maps, not a transpose
    assert "La salida no coincide porque los mapas tampoco" in texto
    assert "transpose" not in texto, texto
    assert len(texto) < 3000, len(texto)


def test_con_el_cuestionario_a_medias_el_diagnostico_del_ejercicio_sigue_cerca(
        servidor_alumno, carpeta_alumno, pagina, captura):
    """Validating halfway: only the first unanswered question fails in Validate (one line, saying that Validate
    shows only the first; the others write their line in their cell), so √d_k's diagnosis comes within the
    dialog's first 15 lines (it came at line 54 with six unanswered, and at line 42 with eight: issue 22).  The
    dialog's title is the one the lesson and docs/estudiantes.md quote."""
    import sys

    from .conftest import RAIZ
    sys.path.insert(0, str(RAIZ))
    from scripts.calificacion import samples

    tarea = "01_atencion_multicabeza"
    contestadas = {gid: linea for gid, linea in samples.correct_quiz_answers("atencion_multicabeza").items()
                   if gid in ("respuesta_4", "respuesta_7")}
    nombre = _plantar(carpeta_alumno / tarea, TAREAS[tarea], "a_medias.ipynb", "multi_head", "e02_sin_escala.py",
                      respuestas=contestadas, solo_respuestas=True)
    titulo: list = []
    texto, clase = _validar(pagina, servidor_alumno, f"{tarea}/{nombre}", captura, "a-medias", titulo)
    assert EXITO not in texto and "nbgrader-ErrorDialog" in clase
    assert titulo == [TITULO]
    for guia in (RAIZ / "docs" / "estudiantes.md", RAIZ / "source" / tarea / TAREAS[tarea],
                 RAIZ / "source" / "02_codificacion_posicional" / TAREAS["02_codificacion_posicional"]):
        assert TITULO in guia.read_text(encoding="utf-8") and FALLO in guia.read_text(encoding="utf-8"), guia
    lineas = texto.splitlines()
    pendientes = [l for l in lineas if "sin contestar" in l]
    assert pendientes == ["✘ Pregunta 1 sin contestar: escribe respuesta_1 arriba y ejecuta las dos celdas.",
                          "Validate sólo enseña la primera pregunta sin contestar."], texto[:3000]
    diagnostico = lineas.index("✘ El mapa de la cabeza 0 no coincide (mayor diferencia 0.11).")
    assert diagnostico < 15, "\n".join(lineas[:diagnostico + 1])


def _ejecutar_respuesta(pagina, variable: str, fuente: str) -> str:
    """Type an answer into the cell of ``variable``, run it and its check cell; the check's output text.

    Each cell counts as run when its execution count changes: a run command JupyterLab dropped (the
    notebook not yet focused, on a loaded CI machine) is sent again instead of waiting for an output
    that never comes."""
    for gid, nueva in ((variable, fuente), (f"comprueba_{variable}", None)):
        antes = pagina.evaluate(
            """([gid, fuente]) => {
                const p = window.jupyterapp.shell.currentWidget;
                const i = p.content.widgets.findIndex(
                    c => (c.model.getMetadata('nbgrader') || {}).grade_id === gid);
                if (fuente !== null) p.content.widgets[i].model.sharedModel.setSource(fuente);
                return p.content.widgets[i].model.executionCount;
            }""", [gid, nueva])
        for intento in range(3):
            pagina.evaluate(
                """(gid) => {
                    const p = window.jupyterapp.shell.currentWidget;
                    const i = p.content.widgets.findIndex(
                        c => (c.model.getMetadata('nbgrader') || {}).grade_id === gid);
                    window.jupyterapp.shell.activateById(p.id);
                    p.content.activeCellIndex = i;
                    p.content.deselectAll();
                    p.content.widgets[i].node.scrollIntoView();
                    void window.jupyterapp.commands.execute('notebook:run-cell');
                }""", gid)
            try:
                pagina.wait_for_function(
                    """([gid, antes]) => {
                        const p = window.jupyterapp.shell.currentWidget;
                        const c = p.content.widgets.find(w => (w.model.getMetadata('nbgrader') || {}).grade_id === gid);
                        const n = c.model.executionCount;
                        return n !== null && n !== antes;
                    }""", arg=[gid, antes], timeout=30_000)
                break
            except PlaywrightTimeoutError:
                if intento == 2:
                    raise
        lab.esperar_nucleo_libre(pagina)
    # the outputs are read from the cell's model, not its DOM (JupyterLab's windowed notebook may leave an
    # off-screen output unrendered: CI timed out twice reading the DOM, with the output on the failure's screenshot)
    leer = """(gid) => {
            const p = window.jupyterapp.shell.currentWidget;
            const c = p.content.widgets.find(w => (w.model.getMetadata('nbgrader') || {}).grade_id === gid);
            // a wrong answer raises (an error output whose traceback is the Spanish text, without colours here)
            return c.model.outputs.toJSON().map(o => {
                const t = o.output_type === 'error' ? (o.traceback || []).join('\\n')
                        : o.text !== undefined ? o.text : ((o.data || {})['text/plain'] || '');
                return (Array.isArray(t) ? t.join('') : t).replace(/\\x1b\\[[0-9;]*m/g, '');
            }).join('\\n');
        }"""
    # polled from here with a plain interval
    texto = ""
    for _ in range(240):
        texto = pagina.evaluate(leer, f"comprueba_{variable}")
        if texto.strip():
            break
        pagina.wait_for_timeout(250)
    assert texto.strip(), f"la celda comprueba_{variable} no escribió nada en 60 s"
    return texto


def test_el_cuestionario_se_corrige_al_momento_con_su_explicacion(servidor_alumno, pagina, captura):
    """A wrong answer: the check cell says so at once, with the right one and why; then a right one (issue 22.6)."""
    import sys

    from .conftest import RAIZ
    sys.path.insert(0, str(RAIZ))
    from grader_tests.juez import descubrimiento

    tarea = "02_codificacion_posicional"
    pregunta = descubrimiento.cuestionario("codificacion_posicional")["comprueba_respuesta_1"]
    explicacion = " ".join(pregunta.explicacion.split()[:8])
    lab.abrir_cuaderno(pagina, servidor_alumno, f"{tarea}/{TAREAS[tarea]}")
    lab.cerrar_dialogos(pagina)
    mal = "a" if pregunta.correcta != "a" else "c"
    salida = _ejecutar_respuesta(pagina, "respuesta_1", f'respuesta_1 = "{mal}"')
    captura("respuesta-incorrecta")
    texto = " ".join(salida.split())
    assert f"✘ Pregunta 1. Has respondido «{mal}»; la respuesta correcta es «{pregunta.correcta}»." in texto, salida
    assert explicacion in texto, salida
    assert "Traceback" not in salida and "AssertionError" not in salida, salida
    salida = _ejecutar_respuesta(pagina, "respuesta_1", f'respuesta_1 = "opción {pregunta.correcta.upper()}"')
    captura("respuesta-correcta")
    texto = " ".join(salida.split())
    assert f"✔ Pregunta 1. Correcto: «{pregunta.correcta}»." in texto, salida
    assert explicacion in texto, salida
