"""The TA grades a hostile submission by hand in formgrader (issue 10).

Uses the hostile battery's graded course (``lote_hostil``): formgrader, run
from the course root as a TA runs it, opens ``c25_html`` (markdown with
``<script>``, event handlers, ``display(HTML/Javascript)``, forged image
outputs, each of which would set ``window.__inyectado`` and call the grading
API).  Checks: the student's text is there and no injected script ran; a
manual score and a comment typed in formgrader are saved, and after
formgrader's «Generate feedback» (its API) they are in the Spanish feedback
and, after ``nbgrader export``, in grades.csv.
"""
from __future__ import annotations

import csv
import json
import time

from scripts.calificacion import libro_de_notas

from . import laboratorio as lab

TAREA = "02_codificacion_posicional"
ALUMNO = "c25_html"
COMENTARIO = "Comentario manual de la profesora 2718"


def _entrega(curso):
    with libro_de_notas.abrir(curso) as gb:
        nb = gb.find_submission_notebook("codificacion_posicional", TAREA, ALUMNO)
        nota = gb.find_submission(TAREA, ALUMNO).score
        return nb.id, nota


def _estado(curso):
    with libro_de_notas.abrir(curso) as gb:
        nb = gb.find_submission_notebook("codificacion_posicional", TAREA, ALUMNO)
        valores = [g for g in nb.grades if g.name == "positional_encoding_valores"][0]
        comentarios = [c.manual_comment for c in nb.comments if c.manual_comment]
        otras = sorted((s.student.id, s.score) for s in gb.find_assignment(TAREA).submissions
                       if s.student.id != ALUMNO)
        return valores.manual_score, comentarios, otras


def test_formgrader_entrega_hostil_inerte_y_nota_manual(lote_hostil, pagina, captura):
    curso = lote_hostil["curso"]
    id_cuaderno, nota_antes = _entrega(curso)
    _, _, otras_antes = _estado(curso)
    registro = lab.ARTEFACTOS / "servidor-ta-hostil.log"
    registro.unlink(missing_ok=True)
    servidor = lab.ServidorLab(curso, cwd=curso, registro=registro, perfil=lab.PROFESORADO).arrancar()
    try:
        # logged in as a TA is: JupyterLab first (the token sets the session cookie), then formgrader
        pagina.goto(servidor.enlace("lab?reset"))
        lab.esperar_lab(pagina)
        pagina.goto(f"{servidor.url}/formgrader/submissions/{id_cuaderno}/?index=0")
        pagina.locator("input.score").first.wait_for(timeout=60_000)
        pagina.wait_for_timeout(1500)                 # time for anything that would run
        captura("entrega-hostil")
        contenido = pagina.content()
        assert "Texto visible del alumno 4815" in contenido
        assert pagina.evaluate("() => window.__inyectado === undefined"), "un guion del alumno se ejecutó"
        assert pagina.evaluate("""() => Array.from(document.scripts)
            .filter(s => (s.textContent || '').includes('__inyectado')).length""") == 0
        assert pagina.evaluate("""() => Array.from(document.querySelectorAll('*')).filter(e =>
            Array.from(e.attributes).some(a => a.name.startsWith('on') && a.value.includes('__inyectado')
                || /^\\s*javascript:/i.test(a.value))).length""") == 0

        # a manual score for the values cell and a comment on the answer, as a TA types them
        puntos = pagina.locator("input.score#positional_encoding_valores")
        puntos.fill("1")
        puntos.press("Tab")
        comentario = pagina.locator("textarea#positional_encoding-comment")
        comentario.fill(COMENTARIO)
        comentario.press("Tab")
        limite = time.monotonic() + 30
        while time.monotonic() < limite:
            manual, comentarios, _ = _estado(curso)
            if manual == 1 and COMENTARIO in comentarios:
                break
            pagina.wait_for_timeout(300)
        manual, comentarios, otras = _estado(curso)
        assert manual == 1 and COMENTARIO in comentarios, (manual, comentarios)
        assert otras == otras_antes, "cambiaron las notas de otros alumnos"
        captura("nota-manual")

        # formgrader's «Generate feedback» for this student (the button's API call)
        respuesta = pagina.evaluate("""async (url) => {
            const m = document.cookie.match(/_xsrf=([^;]+)/);
            const r = await fetch(url, {method: 'POST',
                headers: m ? {'X-CSRFToken': decodeURIComponent(m[1])} : {}});
            return [r.status, await r.text()]; }""",
            f"{servidor.url}/formgrader/api/assignment/{TAREA}/{ALUMNO}/generate_feedback")
        assert respuesta[0] == 200, respuesta
        assert json.loads(respuesta[1]).get("success"), respuesta[1][-2000:]
    finally:
        servidor.limpiar()

    html = (curso / "feedback" / ALUMNO / TAREA / "codificacion_posicional.html").read_text()
    assert COMENTARIO in html
    assert "Puntos: 1.0 / 3.0" in html and "Respuesta del alumno" in html    # the Spanish template
    assert "<script>window.__inyectado" not in html
    lab.ARTEFACTOS.mkdir(parents=True, exist_ok=True)
    exportar = __import__("curso_temporal").ejecutar(curso, "nbgrader", "export", "--to", str(curso / "grades.csv"))
    assert exportar.returncode == 0
    with open(curso / "grades.csv") as f:
        filas = [r for r in csv.DictReader(f) if r["student_id"] == ALUMNO and r["assignment"] == TAREA]
    assert len(filas) == 1 and float(filas[0]["score"]) == nota_antes - 2, (filas, nota_antes)
