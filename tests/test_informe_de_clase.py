"""End to end: ``make grade`` on the samples writes the class report, with the planted mistakes counted.

Uses the session's graded course (``curso_calificado``: ``python scripts/calificacion/grade.py``
on the sample submissions).  The samples plant known mistakes (``escala_d_model``
and ``sin_wo`` in lesson 1, ``[sin | cos]`` concatenated in lesson 2), a wrong
quiz answer, blank and broken notebooks; the report must count each once, in
the right assignment, and agree with the gradebook.  K workers and PostgreSQL
giving the same report: tests/test_calificacion_paralela.py.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from curso_temporal import ejecutar, tareas
from scripts.calificacion import libro_de_notas
from scripts.informe import datos

pytestmark = pytest.mark.slow

L1, L2 = "01_atencion_multicabeza", "02_codificacion_posicional"


@pytest.fixture(scope="module")
def curso(curso_calificado) -> Path:
    return curso_calificado.curso


def _csv(curso: Path, tarea: str, nombre: str) -> list[dict]:
    with open(curso / "informe" / tarea / f"{nombre}.csv", encoding="utf-8") as archivo:
        return list(csv.DictReader(archivo))


def test_make_grade_escribe_el_informe(curso_calificado, curso):
    assert "Informe de la clase (sólo para el profesorado):" in curso_calificado.salida()
    texto = (curso / "informe" / "informe.html").read_text(encoding="utf-8")
    assert L1 in texto and L2 in texto and "Qué repasar" in texto


def test_los_errores_sembrados_aparecen_con_su_cuenta(curso):
    assert [(f["id"], f["alumnos"]) for f in _csv(curso, L1, "errores")] == [("escala_d_model", "1"), ("sin_wo", "1")]
    assert [(f["id"], f["alumnos"]) for f in _csv(curso, L2, "errores")] == [("concatenado", "1")]
    fila = _csv(curso, L1, "errores")[0]
    assert fila["seccion"] and fila["nombre"] == "escala √d_model"
    pregunta = {f["variable"]: f for f in _csv(curso, L1, "cuestionario")}["respuesta_2"]
    assert (pregunta["respuesta_incorrecta_mas_elegida"], pregunta["veces"]) == (str(4 * 512 * 512 + 1), "1")


def test_las_incidencias_de_las_entregas_en_blanco_y_rotas(curso):
    incidencias = {(f["alumno"], f["motivo"]) for t in (L1, L2) for f in _csv(curso, t, "incidencias")}
    assert ("en_blanco", datos.SIN_IMPLEMENTAR) in incidencias
    assert ("en_blanco", datos.PREGUNTA_SIN_DEFINIR) in incidencias
    # con_error's exercise cell raised: the report says so, with the exception's class
    assert ("con_error", "la celda de multi_head se detuvo con ValueError, así que multi_head no llegó a "
                         "definirse") in incidencias
    assert ("con_error", datos.MOTIVOS_INCIDENCIA["no_definido"]) not in incidencias
    assert not any(a in ("perfecta", "escala_d_model", "sin_wo") for a, _ in incidencias)


def test_las_tasas_cuentan_solo_a_quienes_lo_intentaron(curso):
    """Blank (en_blanco), crashed (con_error) and unanswered (pe_concatenada) are «sin contestar», not wrong."""
    propiedades = {f["grade_id"]: f for f in _csv(curso, L1, "propiedades")}
    fila = propiedades["multi_head_no_modifica"]
    assert [fila[c] for c in ("aprobadas", "intentaron", "porcentaje", "sin_contestar")] == ["4", "4", "100.0", "2"]
    preguntas = {f["variable"]: f for f in _csv(curso, L1, "cuestionario")}
    fila = preguntas["respuesta_1"]
    # answered by perfecta, escala_d_model, sin_wo and con_error, all right
    assert [fila[c] for c in ("correctas", "contestaron", "porcentaje", "sin_contestar")] == ["4", "4", "100.0", "2"]
    assert fila["pregunta"].startswith("Con las cuatro columnas de W^Q y de W^K del explorable")
    assert preguntas["respuesta_3"]["pregunta"] == "El artículo toma d_k = d_v = d_model/h. ¿Qué consigue con esa…"
    texto = (curso / "informe" / "informe.html").read_text(encoding="utf-8")
    repasar = texto[texto.index("Qué repasar"):texto.index("</section>")]
    assert "no escribir en los argumentos" not in repasar and "Pregunta 1 " not in repasar
    assert datos.SIN_IMPLEMENTAR not in repasar
    assert "6 entregas en el libro de notas" in texto and " 1 entregas" not in texto


def test_los_veredictos_guardados_suman_la_nota_del_libro(curso):
    """Every submission's recorded verdicts add up to its gradebook score, and live outside autograded/."""
    with libro_de_notas.abrir(curso) as gb:
        for tarea in tareas(curso):
            filas = _csv(curso, tarea, "veredictos")
            for entrega in gb.find_assignment(tarea).submissions:
                alumno = entrega.student.id
                suma = sum(float(f["puntos"]) for f in filas if f["alumno"] == alumno)
                assert suma == pytest.approx(entrega.score), (tarea, alumno)
                for nb in entrega.notebooks:
                    registro = curso / "veredictos" / tarea / alumno / f"{nb.name}.json"
                    assert json.loads(registro.read_text())["alumno"] == alumno
    assert not list((curso / "autograded").rglob("veredictos*"))


def test_make_informe_da_lo_mismo_que_make_grade(curso):
    antes = {p: p.read_bytes() for p in (curso / "informe").rglob("*.csv")}
    proceso = ejecutar(curso, "python", "-m", "scripts.informe")
    assert "informe.html" in proceso.stdout
    assert {p: p.read_bytes() for p in (curso / "informe").rglob("*.csv")} == antes
