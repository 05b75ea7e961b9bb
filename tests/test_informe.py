"""The class report (scripts/informe/) from a small gradebook and verdict records built here.

Fast: no notebook runs.  The gradebook is nbgrader's (SQLite in a temporary
course folder), the records are written with the trusted recorder
(``grader_tests.extensiones_nbgrader.registro_de_veredictos``) from real ``Veredicto`` objects
with the exercise's real known mistakes.  Checked: counts, rates over the
students who attempted (blank, undefined, ungradable and missing ones counted
apart as «sin contestar»), ranking, quiz answers and titles (from the
``source/`` notebook), incidents (a cell that raised, students without a
submission), stale records, the «qué repasar» thresholds, plurals, the charts'
bars, and that hostile student ids are escaped in the HTML and neutralised in
the CSVs.
"""
from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

import pytest

from grader_tests.juez import descubrimiento
from grader_tests.extensiones_nbgrader import plazos, registro_de_veredictos
from grader_tests.juez.veredicto import Diagnostico, ResultadoCaso, Veredicto
from scripts import informe
from scripts.calificacion import libro_de_notas
from scripts.informe import datos, graficos, pagina

RAIZ = Path(__file__).resolve().parent.parent

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
    # its exercise cell raised ValueError before defining multi_head; the quiz is fine
    "hugo": [_celda("multi_head_mapas", 0, motivo="no_definido"), _celda("multi_head_salida", 0, motivo="no_definido"),
             _celda("comprueba_respuesta_1", 1, respuesta="b"), _celda("comprueba_respuesta_2", 1, respuesta=4)],
    # the notebook as released: nothing attempted
    "ines": [_celda("multi_head_mapas", 0, excepcion="NotImplementedError"),
             _celda("multi_head_salida", 0, excepcion="NotImplementedError"),
             _celda("comprueba_respuesta_1", 0, motivo="no_definido"),
             _celda("comprueba_respuesta_2", 0, motivo="no_definido")],
}
CON_ERROR = {"hugo": {"multi_head": "ValueError"}, "ines": {"respuesta_1": "<b>Falsa</b>",
                                                            "respuesta_2": "NotImplementedError"}}
SIN_ENTREGA = ["gil"]            # in the gradebook, without a submission
CLASE_ENTERA = len(CLASE) + len(SIN_ENTREGA)
ENUNCIADO_1 = (r"**Pregunta 1.** Con $d_{\text{model}} = 512$ y $h = 8$, ¿cuánto vale $d_k$ en cada cabeza "
               "si se reparte la anchura como en el artículo, sin dejar columnas sin usar?\n\n- **a)** 64\n- **b)** 8")


def _fuente(raiz: Path) -> None:
    """The assignment's source notebook: question 1 has a statement, question 2 none of its own."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    def celda(fuente: str, gid: str, solucion: bool, nota: bool):
        c = new_code_cell(fuente)
        c.metadata["nbgrader"] = {"grade_id": gid, "solution": solucion, "grade": nota, "locked": nota,
                                  "schema_version": 3, **({"points": 1} if nota else {})}
        return c

    nb = new_notebook(cells=[new_markdown_cell(ENUNCIADO_1), celda('respuesta_1 = "a"', "respuesta_1", True, False),
                             celda("pass", "comprueba_respuesta_1", False, True),
                             celda("respuesta_2 = 1", "respuesta_2", True, False),
                             celda("pass", "comprueba_respuesta_2", False, True)])
    (raiz / "source" / TAREA).mkdir(parents=True)
    nbformat.write(nb, str(raiz / "source" / TAREA / f"{CUADERNO}.ipynb"))


def _curso(raiz: Path) -> Path:
    """A course folder with a gradebook of CLASE and the verdict records."""
    raiz.mkdir(parents=True, exist_ok=True)
    _fuente(raiz)
    with libro_de_notas.abrir(raiz) as gb:
        for alumno in SIN_ENTREGA:
            gb.update_or_create_student(alumno)
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
                                                {c["grade_id"]: c for c in celdas}, CON_ERROR.get(alumno))
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
    assert tarea.sin_entrega == SIN_ENTREGA
    assert tarea.maximo == sum(CELDAS.values())
    assert [c.grade_id for c in entregas["ana"].celdas] == sorted(CELDAS)
    assert entregas["ana"].puntos == 1 and entregas["dani"].puntos == 2
    assert not entregas["eva"].celdas and "nbgrader no pudo calificar" in entregas["eva"].sin_veredicto[0]
    assert not entregas["fran"].celdas and "no coinciden con el libro" in entregas["fran"].sin_veredicto[0]
    # the exception's class name is kept; anything that is not a class name never reaches the record
    assert entregas["hugo"].celdas_con_error == {CUADERNO: {"multi_head": "ValueError"}}
    assert entregas["ines"].celdas_con_error == {CUADERNO: {"respuesta_2": "NotImplementedError"}}


def test_errores_conocidos_sobre_quienes_escribieron_la_funcion(resumen):
    # seven submissions judged; only ana, bea and carlos wrote a multi_head the judge could run
    # (dani and ines left the stub, hugo's cell raised, the hostile one timed out); escala_d_model
    # charged in two cells of ana and carlos counts once per student
    assert resumen.juzgadas == 7 and resumen.en_blanco == 1
    filas = [(f.id, f.alumnos, f.intentos, round(f.tasa, 2)) for f in resumen.errores]
    assert filas == [("escala_d_model", 2, 3, 0.67), ("sin_wo", 1, 3, 0.33)]
    primera = resumen.errores[0]
    assert (primera.nombre, primera.seccion, primera.funcion) == (_error("escala_d_model").nombre,
                                                                  _error("escala_d_model").seccion, "multi_head")


def test_propiedades_y_cuestionario_sobre_quienes_lo_intentaron(resumen):
    assert resumen.alumnos == CLASE_ENTERA == 10
    tasas = {f.grade_id: (f.aprobadas, f.intentos, f.sin_contestar) for f in resumen.propiedades}
    assert tasas == {"multi_head_mapas": (1, 3, 7), "multi_head_salida": (0, 3, 7)}
    assert {f.grade_id: f.descripcion for f in resumen.propiedades}["multi_head_mapas"] == \
        descubrimiento.propiedad("multi_head_mapas").descripcion
    preguntas = {f.variable: f for f in resumen.preguntas}
    assert [f.variable for f in resumen.preguntas] == ["respuesta_1", "respuesta_2"]
    p1, p2 = preguntas["respuesta_1"], preguntas["respuesta_2"]
    # respuesta_1: answered by ana, bea, carlos, dani, hugo; not by the hostile one, ines, eva, fran, gil
    assert (p1.correctas, p1.intentos, p1.sin_contestar, p1.error_frecuente, p1.veces_error_frecuente) == \
        (3, 5, 5, "a", 2)
    assert (p2.correctas, p2.intentos, p2.sin_contestar, p2.error_frecuente, p2.veces_error_frecuente) == \
        (3, 6, 4, "12", 2)


def test_una_clase_que_contesta_bien_no_tiene_nada_que_repasar_aunque_haya_entregas_en_blanco():
    """The TA's case: every student who wrote the answer got it right; blank and crashed ones do not count."""
    def entrega(alumno, celdas):
        return datos.EntregaLeida(alumno, 0, 4, [datos.CeldaJuzgada(CUADERNO, c["grade_id"], c) for c in celdas])
    bien = [_celda("multi_head_mapas", 3), _celda("comprueba_respuesta_1", 1, respuesta="b")]
    en_blanco = [_celda("multi_head_mapas", 0, excepcion="NotImplementedError"),
                 _celda("comprueba_respuesta_1", 0, motivo="no_definido")]
    con_error = [_celda("multi_head_mapas", 0, motivo="no_definido"), _celda("comprueba_respuesta_1", 0,
                                                                               motivo="sin_contestar")]
    tarea = datos.TareaLeida(TAREA, 4, [entrega(f"a{i}", bien) for i in range(4)]
                             + [entrega("blanco", en_blanco), entrega("roto", con_error)], ["ausente"])
    r = datos.resumir(tarea)
    assert r.repasar == []
    [propiedad], [pregunta] = r.propiedades, r.preguntas
    assert (propiedad.aprobadas, propiedad.intentos, propiedad.sin_contestar) == (4, 4, 3)
    assert (pregunta.correctas, pregunta.intentos, pregunta.sin_contestar) == (4, 4, 3)


def test_titulos_de_las_preguntas_desde_el_cuaderno_fuente(resumen):
    p1, p2 = resumen.preguntas
    assert p1.titulo == "Con d_model = 512 y h = 8, ¿cuánto vale d_k en cada cabeza si se…"
    assert len(p1.titulo) <= datos.LARGO_TITULO + 1 and p1.nombre.startswith("Pregunta 1 («Con d_model")
    assert p2.titulo == "respuesta_2" and p2.nombre == "Pregunta 2"     # no statement of its own: its variable
    # the course's own lessons: every question gets a short title, LaTeX and Markdown removed
    for leccion in sorted((RAIZ / "source").glob("*/*.ipynb")):
        titulos = datos.titulos_de_preguntas(leccion)
        assert titulos and all(0 < len(t) <= datos.LARGO_TITULO + 1 for t in titulos.values()), leccion
        assert not any(c in t for t in titulos.values() for c in "$*`\\"), titulos
    titulos = datos.titulos_de_preguntas(RAIZ / "source" / TAREA / f"{CUADERNO}.ipynb")
    assert titulos["comprueba_respuesta_3"] == "El artículo toma d_k = d_v = d_model/h. ¿Qué consigue con esa…"
    assert datos.titulos_de_preguntas(RAIZ / "no_existe.ipynb") == {}


def test_titulo_corto():
    assert datos.titulo_corto("corto") == "corto"
    largo = "palabra " * 20
    assert datos.titulo_corto(largo, 20) == "palabra palabra…"


def test_incidencias_con_su_motivo_y_los_puntos_perdidos(resumen):
    filas = {(i.alumno, i.motivo): (i.celdas, i.puntos_perdidos) for i in resumen.incidencias}
    assert filas[(HOSTIL, "agotó el tiempo de la celda")] == (["multi_head_mapas"], 3)
    assert filas[(HOSTIL, "el proceso de Python del cuaderno murió")] == (["multi_head_salida"], 3)
    assert filas[(HOSTIL, "pregunta sin contestar")] == (["comprueba_respuesta_1"], 1)
    assert filas[("dani", datos.SIN_IMPLEMENTAR)] == (["multi_head_mapas", "multi_head_salida"], 6)
    assert [k for k in filas if k[0] in ("eva", "fran")] and all(
        filas[k][1] is None for k in filas if k[0] in ("eva", "fran"))
    # the cell that raised is named with its exception, not «no estaba definida»
    assert filas[("hugo", "la celda de multi_head se detuvo con ValueError, así que multi_head no llegó a "
                          "definirse")] == (["multi_head_mapas", "multi_head_salida"], 6)
    assert not any(a == "hugo" and m == datos.MOTIVOS_INCIDENCIA["no_definido"] for a, m in filas)
    # the released stub's NotImplementedError is a blank answer, not an error
    assert filas[("ines", datos.PREGUNTA_SIN_DEFINIR)] == (["comprueba_respuesta_1", "comprueba_respuesta_2"], 2)
    # students without a submission: their own line
    assert filas[("gil", datos.SIN_ENTREGA)] == ([], None)
    # a wrong answer or a known mistake is not an incident
    assert not any(a in ("ana", "bea", "carlos") for a, _ in filas)


def test_que_repasar_sigue_los_umbrales(curso):
    [tarea] = datos.leer(curso)
    lineas = datos.resumir(tarea).repasar
    assert any("«escala √d_model»" in l and "lo cometen 2 de 3 alumnos que escribieron la función" in l
               and datos.porcentaje(2 / 3) in l for l in lineas), lineas
    assert any("sin W^O" in l and "lo comete 1 de 3" in l for l in lineas)               # 33 % ≥ 15 %
    assert any(l.startswith("Pregunta 1 («Con d_model") and "(3 de 5)" in l and "«a» (2 veces)" in l
               and "5 sin contestar" in l for l in lineas), lineas
    estricto = datos.resumir(tarea, umbral_error=0.5, umbral_acierto=0.0).repasar
    assert any("escala" in l for l in estricto) and not any("sin W^O" in l for l in estricto)
    assert not any(l.startswith(("Pregunta", "Propiedad")) for l in estricto)


def test_una_respuesta_cuya_celda_lanza_lo_dice_con_el_nombre_de_la_excepcion():
    celdas = [_celda("comprueba_respuesta_1", 0, motivo="no_definido"), _celda("comprueba_respuesta_2", 0,
                                                                               motivo="no_definido")]
    entrega = datos.EntregaLeida("x", 0, 2, [datos.CeldaJuzgada(CUADERNO, c["grade_id"], c) for c in celdas],
                                 celdas_con_error={CUADERNO: {"respuesta_1": "ZeroDivisionError",
                                                              "respuesta_2": "ZeroDivisionError"}})
    [incidencia] = datos.resumir(datos.TareaLeida(TAREA, 2, [entrega])).incidencias
    assert incidencia.motivo == "la celda de la respuesta se detuvo con ZeroDivisionError antes de asignar la variable"
    assert incidencia.celdas == ["comprueba_respuesta_1", "comprueba_respuesta_2"]


def test_plurales():
    assert datos.cuenta(1, "entrega") == "1 entrega" and datos.cuenta(0, "entrega") == "0 entregas"
    assert datos.cuenta(2, "vez", "veces") == "2 veces"
    r = datos.Resumen(TAREA, 1.0, [1.0], 1, [], [], [], [], [], [])
    assert pagina._linea_de_entregas(r).startswith("1 entrega en el libro de notas; 1 con veredictos")
    assert pagina._linea_de_entregas(r).endswith("Nota máxima: 1 punto.")
    r = datos.Resumen(TAREA, 18.0, [0.0, 18.0], 2, [], [], [], [], [], [], ["x"], 1)
    assert pagina._linea_de_entregas(r) == ("2 entregas en el libro de notas (de 3 alumnos: 1 sin entrega); "
                                            "2 con veredictos del corrector, 1 en blanco (ninguna celda "
                                            "contestada). Nota máxima: 18 puntos.")


def test_el_histograma_da_a_la_nota_maxima_su_propia_barra():
    barras = graficos.recuento([0, 0.5, 17, 17.5, 18, 18], 18)
    assert len(barras) == 19 and [b[0] for b in barras] == list(range(19))
    assert barras[-1] == (18, 18, 18, 2) and barras[17] == (17, 17, 18, 2) and barras[0] == (0, 0, 1, 2)
    # more than 20 points: tenths, the full score still alone
    barras = graficos.recuento([0, 49.9, 50, 60], 50)
    assert len(barras) == 11 and barras[-1] == (50, 50, 50, 2) and barras[-2][3] == 1


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
    # the rule of the rates, said once; the students without a submission, on their own line
    assert texto.count(pagina.e(datos.REGLA)) == 1
    assert "<strong>Sin entrega (1):</strong> gil" in texto
    assert "9 entregas en el libro de notas (de 10 alumnos: 1 sin entrega)" in texto
    assert "Pregunta 1 («Con d_model" in texto
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
    assert [(f["intentaron"], f["porcentaje"]) for f in leer("errores")] == [("3", "66.7"), ("3", "33.3")]
    exportados = leer("veredictos")
    assert len(exportados) == 7 * len(CELDAS)
    fila = next(f for f in exportados if f["alumno"] == "carlos" and f["grade_id"] == "multi_head_mapas")
    assert (fila["puntos"], fila["errores"], fila["intentada"]) == ("0.0", "escala_d_model", "sí")
    fila = next(f for f in exportados if f["alumno"] == "dani" and f["grade_id"] == "multi_head_mapas")
    assert (fila["motivo"], fila["intentada"]) == ("sin_implementar", "no")
    # both numbers: the rate over those who attempted and the «sin contestar» apart
    propiedades = {f["grade_id"]: f for f in leer("propiedades")}
    assert [propiedades["multi_head_mapas"][c] for c in ("aprobadas", "intentaron", "porcentaje", "sin_contestar")] \
        == ["1", "3", "33.3", "7"]
    pregunta = leer("cuestionario")[0]
    assert [pregunta[c] for c in ("variable", "correctas", "contestaron", "porcentaje", "sin_contestar")] == \
        ["respuesta_1", "3", "5", "60.0", "5"]
    assert pregunta["pregunta"].startswith("Con d_model = 512") and pregunta["pregunta"].endswith("…")
    # a spreadsheet never runs a student's id as a formula
    incidencias = leer("incidencias")
    assert {f["alumno"] for f in incidencias} >= {"'" + HOSTIL, "eva", "fran", "gil"}
    assert [f["motivo"] for f in incidencias if f["alumno"] == "gil"] == [datos.SIN_ENTREGA]
    assert sum(int(f["entregas"]) for f in leer("distribucion")) == len(CLASE)


def test_celda_csv_neutraliza_formulas():
    assert pagina.celda_csv("=1+1") == "'=1+1" and pagina.celda_csv("-Rf") == "'-Rf"
    assert pagina.celda_csv("-2") == "-2"          # a number, not a formula
    assert pagina.celda_csv("ana") == "ana" and pagina.celda_csv(-2) == -2


def test_el_registrador_rechaza_rutas_y_escribe_de_forma_atomica(tmp_path):
    for malo in ("..", "a/b", "", "x\x00"):
        with pytest.raises(ValueError):
            registro_de_veredictos.ruta_del_registro(str(tmp_path), TAREA, malo, CUADERNO)
    ruta = registro_de_veredictos.escribir(str(tmp_path), TAREA, "ana", CUADERNO, {})
    assert Path(ruta).is_file() and not list(tmp_path.rglob("*.tmp"))


def test_la_celda_que_lanza_queda_registrada_solo_con_el_nombre_de_su_excepcion(tmp_path):
    from nbformat.v4 import new_code_cell, new_notebook, new_output
    from grader_tests.extensiones_nbgrader.nbgrader_juez import celdas_con_error

    def solucion(gid, *salidas):
        c = new_code_cell("x", outputs=list(salidas))
        c.metadata["nbgrader"] = {"grade_id": gid, "solution": True, "grade": False}
        return c
    error = lambda ename: new_output("error", ename=ename, evalue="<script>alert(1)</script>", traceback=[])  # noqa: E731
    nb = new_notebook(cells=[solucion("multi_head", error("ValueError")), solucion("respuesta_1"),
                             solucion("respuesta_2", error("<img src=x>")), new_code_cell("y", outputs=[error("E")])])
    assert celdas_con_error(nb) == {"multi_head": "ValueError", "respuesta_2": "Exception"}
    assert registro_de_veredictos.nombre_de_excepcion("numpy.linalg.LinAlgError") == "numpy.linalg.LinAlgError"
    for malo in ("<b>", "Value Error", "x" * 300, 3, None, ""):
        assert registro_de_veredictos.nombre_de_excepcion(malo) is None
    ruta = registro_de_veredictos.escribir(str(tmp_path), TAREA, "ana", CUADERNO, {},
                                           {"multi_head": "ValueError", "respuesta_1": "<b>"})
    assert datos._celdas_con_error(datos._leer_registro(Path(ruta))) == {"multi_head": "ValueError"}


def test_la_ayuda_de_la_orden_esta_en_español():
    proceso = subprocess.run([sys.executable, "-m", "scripts.informe", "--help"], cwd=RAIZ, capture_output=True,
                             text=True, timeout=60)
    assert proceso.returncode == 0, proceso.stderr
    ayuda = proceso.stdout
    assert ayuda.startswith("uso: ") and "opciones:" in ayuda and "muestra esta ayuda y termina" in ayuda
    assert not any(p in ayuda for p in ("usage:", "options:", "show this help"))
    proceso = subprocess.run([sys.executable, "-m", "scripts.informe", "--umbral-error", "200"], cwd=RAIZ,
                             capture_output=True, text=True, timeout=60)
    assert proceso.returncode == 2 and proceso.stderr.startswith("uso: ")
    assert "error: opción --umbral-error: el porcentaje tiene que estar entre 0 y 100" in proceso.stderr


def test_un_registro_corrupto_o_enorme_no_se_usa(tmp_path):
    ruta = tmp_path / "r.json"
    ruta.write_text('{"celdas": {"x": {"puntos": "mucho"}}}')
    assert datos._leer_registro(ruta) is None
    ruta.write_text("[1, 2]")
    assert datos._leer_registro(ruta) is None
    ruta.write_text('{"celdas": {}}' + " " * (datos.MAX_BYTES_REGISTRO + 1))
    assert datos._leer_registro(ruta) is None


def test_el_informe_marca_las_entregas_tardias_con_su_penalizacion_y_las_prorrogas(curso, tmp_path):
    """A late submission with its delay and penalty, an extension, in the page and in plazo.csv."""
    import datetime as dt
    import shutil
    copia = tmp_path / "curso"
    shutil.copytree(curso, copia)
    with libro_de_notas.abrir(copia) as gb:
        gb.update_or_create_assignment(TAREA, duedate="2026-03-20 22:59:00 UTC")       # 23:59 in Madrid
        bea = gb.find_submission(TAREA, "bea")
        bea.timestamp = dt.datetime(2026, 3, 22, 1, 0)                                   # 26 h 1 min late
        bea.notebooks[0].late_submission_penalty = 0.6
        carlos = gb.find_submission(TAREA, "carlos")
        carlos.timestamp, carlos.extension = dt.datetime(2026, 3, 22, 1, 0), dt.timedelta(days=2)
        gb.db.commit()
    html = informe.generar(copia, tmp_path / "informe").read_text(encoding="utf-8")
    assert "Plazo: viernes 20/03/2026 23:59 (hora de Madrid)" in html
    assert "1 día, 2 h y 1 min" in html and "−0.6" in html
    # one decimal mark in every TA-facing output (the make grade table, formgrader, grades.csv): the point
    assert not re.search(r"\d,\d", html), re.findall(r".{30}\d,\d.{30}", html)
    filas = {f["alumno"]: f for f in csv.DictReader(open(tmp_path / "informe" / TAREA / "plazo.csv",
                                                         encoding="utf-8"))}
    assert set(filas) == {"bea", "carlos"}
    assert (filas["bea"]["segundos_tarde"], filas["bea"]["penalizacion"]) == ("93660.0", "0.6")
    assert (filas["carlos"]["segundos_tarde"], filas["carlos"]["prorroga"]) == ("0.0", "2 días")


def test_generado_el_en_la_hora_del_curso_y_diciendolo():
    """«Generado el…» in the course's zone, as every other time of the report, whatever the machine's zone."""
    import datetime as dt
    html = pagina.pagina([], 0.3, 0.5, fecha=dt.datetime(2026, 12, 1, 23, 36, 12, tzinfo=dt.timezone.utc))
    assert "Generado el miércoles 02/12/2026 00:36 (hora de Madrid)" in html
    html = pagina.pagina([], 0.3, 0.5, fecha=dt.datetime(2026, 7, 1, 22, 5), zona="America/Mexico_City")
    assert "Generado el miércoles 01/07/2026 16:05 (hora de Mexico City)" in html
    # by default, now (whatever the machine's zone): within a minute of now, in Madrid
    ahora = dt.datetime.now(dt.timezone.utc)
    html = pagina.pagina([], 0.3, 0.5)
    dichas = {plazos.mostrar(ahora.replace(second=0, microsecond=0) + dt.timedelta(minutes=m)) for m in (0, 1)}
    assert any(f"Generado el {d}" in html for d in dichas), html[:2000]
