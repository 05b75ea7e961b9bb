"""The class report (scripts/informe/) from a small gradebook and verdict records built here.

Fast: no notebook runs.  The gradebook is nbgrader's (SQLite in a temporary
course folder), the records are written with the trusted recorder
(``grader_tests.registro_de_veredictos``) from real ``Veredicto`` objects
with the exercise's real known mistakes.  Checked: counts, rates, ranking,
quiz answers, incidents, stale records, the «qué repasar» thresholds, and that
hostile student ids are escaped in the HTML and neutralised in the CSVs.
"""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from grader_tests import descubrimiento, registro_de_veredictos
from grader_tests.veredicto import Diagnostico, ResultadoCaso, Veredicto
from scripts import informe
from scripts.calificacion import libro_de_notas
from scripts.informe import datos, pagina

TAREA, CUADERNO = "01_atencion_multicabeza", "atencion_multicabeza"
CELDAS = {"multi_head_mapas": 3.0, "multi_head_salida": 3.0, "comprueba_respuesta_1": 1.0,
          "comprueba_respuesta_2": 1.0}
HOSTIL = '=HYPERLINK("x")<img src=x onerror=alert(1)>'
CASO_OCULTO = "T = 7, d_model = 35, h = 5 (caso oculto)"


def _error(id_: str):
    return descubrimiento.ejercicio("multi_head").error(id_)


def _celda(grade_id: str, puntos: float, errores: tuple[str, ...] = (), motivo: str | None = None,
           respuesta: object = None, excepcion: str | None = None) -> dict:
    """A real verdict of one cell, as the judge records it."""
    casos = []
    if grade_id.startswith("multi_head_") and motivo is None:
        casos = [ResultadoCaso(1, CASO_OCULTO, aprobado=puntos >= CELDAS[grade_id], excepcion=excepcion,
                               diagnosticos=[Diagnostico(_error(e), "texto") for e in errores])]
    propiedad = grade_id.removeprefix("multi_head_").removeprefix("comprueba_")
    return Veredicto(puntos, CELDAS[grade_id], ["…"], grade_id=grade_id, propiedad=propiedad, casos=casos,
                     motivo=motivo, respuesta=respuesta).a_dict()


# student -> its cells' verdicts (None: no record at all)
CLASE = {
    "ana": [_celda("multi_head_mapas", 0, ("escala_d_model",)), _celda("multi_head_salida", 0, ("escala_d_model",)),
            _celda("comprueba_respuesta_1", 1, respuesta="b"), _celda("comprueba_respuesta_2", 0, respuesta=12)],
    "bea": [_celda("multi_head_mapas", 3), _celda("multi_head_salida", 0, ("sin_wo",)),
            _celda("comprueba_respuesta_1", 0, respuesta="a"), _celda("comprueba_respuesta_2", 0, respuesta=12)],
    "carlos": [_celda("multi_head_mapas", 0, ("escala_d_model",)), _celda("multi_head_salida", 0, ("escala_d_model",)),
               _celda("comprueba_respuesta_1", 0, respuesta="a"), _celda("comprueba_respuesta_2", 0, respuesta=7)],
    HOSTIL: [_celda("multi_head_mapas", 0, motivo="tiempo_agotado"), _celda("multi_head_salida", 0, motivo="kernel_muerto"),
             _celda("comprueba_respuesta_1", 0, motivo="sin_contestar"), _celda("comprueba_respuesta_2", 1, respuesta=4)],
    "dani": [_celda("multi_head_mapas", 0, excepcion="NotImplementedError"),
             _celda("multi_head_salida", 0, excepcion="NotImplementedError"),
             _celda("comprueba_respuesta_1", 1, respuesta="b"), _celda("comprueba_respuesta_2", 1, respuesta=4)],
    "eva": None,                 # submitted, but nbgrader could not grade it (no record)
    "fran": "antiguo",           # a record of an older grading run (scores differ from the gradebook)
}


def _curso(raiz: Path) -> Path:
    """A course folder with a gradebook of CLASE and the verdict records."""
    raiz.mkdir(parents=True, exist_ok=True)
    with libro_de_notas.abrir(raiz) as gb:
        gb.update_or_create_assignment(TAREA)
        gb.update_or_create_notebook(CUADERNO, TAREA)
        for gid, puntos in CELDAS.items():
            gb.update_or_create_grade_cell(gid, CUADERNO, TAREA, max_score=puntos, cell_type="code")
        for alumno, celdas in CLASE.items():
            gb.update_or_create_student(alumno)
            gb.add_submission(TAREA, alumno)
            (raiz / "submitted" / alumno / TAREA).mkdir(parents=True)
            (raiz / "submitted" / alumno / TAREA / f"{CUADERNO}.ipynb").write_text("{}")
            puntos = {c["grade_id"]: c["puntos"] for c in celdas} if isinstance(celdas, list) else {}
            for gid in CELDAS:
                grade = gb.find_grade(gid, CUADERNO, TAREA, alumno)
                grade.auto_score = puntos.get(gid, 0.0)
            gb.db.commit()
            if isinstance(celdas, list):
                registro_de_veredictos.escribir(str(raiz / "veredictos"), TAREA, alumno, CUADERNO,
                                                {c["grade_id"]: c for c in celdas})
            elif celdas == "antiguo":
                registro_de_veredictos.escribir(str(raiz / "veredictos"), TAREA, alumno, CUADERNO,
                                                {"multi_head_mapas": _celda("multi_head_mapas", 3)})
    return raiz


@pytest.fixture(scope="module")
def curso(tmp_path_factory) -> Path:
    return _curso(tmp_path_factory.mktemp("informe") / "curso")


@pytest.fixture(scope="module")
def resumen(curso) -> datos.Resumen:
    [tarea] = datos.leer(curso)
    return datos.resumir(tarea)


def test_se_leen_las_entregas_y_los_registros_que_coinciden_con_el_libro(curso):
    [tarea] = datos.leer(curso)
    entregas = {e.alumno: e for e in tarea.entregas}
    assert sorted(entregas) == sorted(CLASE)
    assert tarea.maximo == sum(CELDAS.values())
    assert [c.grade_id for c in entregas["ana"].celdas] == sorted(CELDAS)
    assert entregas["ana"].puntos == 1 and entregas["dani"].puntos == 2
    assert not entregas["eva"].celdas and "nbgrader no pudo calificar" in entregas["eva"].sin_veredicto[0]
    assert not entregas["fran"].celdas and "no coinciden con el libro" in entregas["fran"].sin_veredicto[0]


def test_errores_conocidos_por_alumnos_y_en_orden(resumen):
    # five submissions judged; escala_d_model charged in two cells of ana and carlos counts once per student
    assert resumen.juzgadas == 5
    filas = [(f.id, f.alumnos, round(f.tasa, 2)) for f in resumen.errores]
    assert filas == [("escala_d_model", 2, 0.4), ("sin_wo", 1, 0.2)]
    primera = resumen.errores[0]
    assert (primera.nombre, primera.seccion, primera.funcion) == (_error("escala_d_model").nombre,
                                                                  _error("escala_d_model").seccion, "multi_head")


def test_propiedades_y_cuestionario(resumen):
    tasas = {f.grade_id: (f.aprobadas, f.entregas) for f in resumen.propiedades}
    assert tasas == {"multi_head_mapas": (1, 5), "multi_head_salida": (0, 5)}
    assert {f.grade_id: f.descripcion for f in resumen.propiedades}["multi_head_mapas"] == \
        descubrimiento.propiedad("multi_head_mapas").descripcion
    preguntas = {f.variable: f for f in resumen.preguntas}
    assert [f.variable for f in resumen.preguntas] == ["respuesta_1", "respuesta_2"]
    p1, p2 = preguntas["respuesta_1"], preguntas["respuesta_2"]
    assert (p1.correctas, p1.entregas, p1.sin_contestar, p1.error_frecuente, p1.veces_error_frecuente) == \
        (2, 5, 1, "a", 2)
    assert (p2.correctas, p2.error_frecuente, p2.veces_error_frecuente) == (2, "12", 2)


def test_incidencias_con_su_motivo_y_los_puntos_perdidos(resumen):
    filas = {(i.alumno, i.motivo): (i.celdas, i.puntos_perdidos) for i in resumen.incidencias}
    assert filas[(HOSTIL, "agotó el tiempo de la celda")] == (["multi_head_mapas"], 3)
    assert filas[(HOSTIL, "el proceso de Python del cuaderno murió")] == (["multi_head_salida"], 3)
    assert filas[(HOSTIL, "pregunta sin contestar")] == (["comprueba_respuesta_1"], 1)
    assert filas[("dani", datos.SIN_IMPLEMENTAR)] == (["multi_head_mapas", "multi_head_salida"], 6)
    assert [k for k in filas if k[0] in ("eva", "fran")] and all(
        filas[k][1] is None for k in filas if k[0] in ("eva", "fran"))
    # a wrong answer or a known mistake is not an incident
    assert not any(a in ("ana", "bea", "carlos") for a, _ in filas)


def test_que_repasar_sigue_los_umbrales(curso):
    [tarea] = datos.leer(curso)
    lineas = datos.resumir(tarea).repasar
    assert any("«escala √d_model»" in l and "2 de 5" in l and datos.porcentaje(0.4) in l for l in lineas), lineas
    assert any("sin W^O" in l for l in lineas)               # 20 % ≥ 15 %
    assert any(l.startswith("Pregunta respuesta_1") and "«a» (2)" in l for l in lineas)
    estricto = datos.resumir(tarea, umbral_error=0.3, umbral_acierto=0.0).repasar
    assert any("escala" in l for l in estricto) and not any("sin W^O" in l for l in estricto)
    assert not any(l.startswith(("Pregunta", "Propiedad")) for l in estricto)


def test_el_informe_es_autocontenido_escapa_lo_hostil_y_no_filtra_lo_oculto(curso, tmp_path):
    ruta = informe.generar(curso, tmp_path / "informe")
    texto = ruta.read_text(encoding="utf-8")
    assert '<html lang="es">' in texto and "Sólo para el profesorado" in texto and "Qué repasar" in texto
    assert "<img src=x" not in texto and "&lt;img src=x onerror=alert(1)&gt;" in texto
    assert "<script" not in texto.lower()
    # nothing is loaded from anywhere: every src is a data: URI, every href an anchor
    assert all(u.startswith("data:image/svg+xml;base64,") for u in re.findall(r'src="([^"]*)"', texto))
    assert all(u.startswith("#") for u in re.findall(r'href="([^"]*)"', texto))
    assert texto.count("data:image/svg+xml") == 3          # histogram, properties, quiz
    # the hidden cases' names never reach the report (nor the CSVs)
    todo = texto + "".join(p.read_text() for p in (tmp_path / "informe").rglob("*.csv"))
    assert CASO_OCULTO not in todo
    # the same data gives the same report (apart from the date line)
    otra = informe.generar(curso, tmp_path / "otra").read_text(encoding="utf-8")
    assert re.sub(r"Generado el [^<]*", "", otra) == re.sub(r"Generado el [^<]*", "", texto)


def test_los_csv(curso, tmp_path):
    informe.generar(curso, tmp_path)
    carpeta = tmp_path / TAREA
    leer = lambda n: list(csv.DictReader(open(carpeta / f"{n}.csv", encoding="utf-8")))  # noqa: E731
    assert [(f["id"], f["alumnos"]) for f in leer("errores")] == [("escala_d_model", "2"), ("sin_wo", "1")]
    exportados = leer("veredictos")
    assert len(exportados) == 5 * len(CELDAS)
    fila = next(f for f in exportados if f["alumno"] == "carlos" and f["grade_id"] == "multi_head_mapas")
    assert (fila["puntos"], fila["errores"]) == ("0.0", "escala_d_model")
    # a spreadsheet never runs a student's id as a formula
    assert {f["alumno"] for f in leer("incidencias")} >= {"'" + HOSTIL, "eva", "fran"}
    assert sum(int(f["entregas"]) for f in leer("distribucion")) == len(CLASE)


def test_celda_csv_neutraliza_formulas():
    assert pagina.celda_csv("=1+1") == "'=1+1" and pagina.celda_csv("-2") == "'-2"
    assert pagina.celda_csv("ana") == "ana" and pagina.celda_csv(-2) == -2


def test_el_registrador_rechaza_rutas_y_escribe_de_forma_atomica(tmp_path):
    for malo in ("..", "a/b", "", "x\x00"):
        with pytest.raises(ValueError):
            registro_de_veredictos.ruta_del_registro(str(tmp_path), TAREA, malo, CUADERNO)
    ruta = registro_de_veredictos.escribir(str(tmp_path), TAREA, "ana", CUADERNO, {})
    assert Path(ruta).is_file() and not list(tmp_path.rglob("*.tmp"))


def test_un_registro_corrupto_o_enorme_no_se_usa(tmp_path):
    ruta = tmp_path / "r.json"
    ruta.write_text('{"celdas": {"x": {"puntos": "mucho"}}}')
    assert datos._leer_registro(ruta) is None
    ruta.write_text("[1, 2]")
    assert datos._leer_registro(ruta) is None
    ruta.write_text('{"celdas": {}}' + " " * (datos.MAX_BYTES_REGISTRO + 1))
    assert datos._leer_registro(ruta) is None
