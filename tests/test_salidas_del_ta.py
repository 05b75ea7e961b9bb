"""What a submission can put in front of the TA stays inert: terminal, spreadsheets, worker exclusion lists.

Student ids, file names, error messages and LMS profile names are hostile input
(docs/seguridad.md, «Seguridad»): the table escapes control characters, the CSV files a TA
opens in a spreadsheet never start a formula, grades.csv is quoted CSV, a file
whose name holds control characters is not copied, and the list of students a
worker leaves out holds any name (commas too).
"""
from __future__ import annotations

import csv
import json

import pytest
from nbgrader.api import Gradebook

from grader_tests.caja import archivos_alumno
from grader_tests.extensiones_nbgrader import nbgrader_seguro
from lms import formatos
from lms.exportadores import NotasCsv
from scripts.calificacion import observaciones
from scripts.calificacion import libro_de_notas
from scripts.calificacion.ordenes import Nbgrader

ESC = "\x1b"


def test_legible_escapa_control_y_formato_y_respeta_acentos():
    texto = f"x{ESC}[2J{ESC}]0;t\x07\n  otra / tarea: 0\r\t\u202eñá √"
    limpio = observaciones.legible(texto)
    assert limpio.isprintable()
    assert limpio == "x\\x1b[2J\\x1b]0;t\\x07\\x0a  otra / tarea: 0\\x0d\\x09\\u202eñá √"


@pytest.mark.parametrize("valor, esperado", [
    ('=HYPERLINK("http://x","clic")', '\'=HYPERLINK("http://x","clic")'),
    ("+34 600", "'+34 600"), ("-Rf", "'-Rf"), ("@SUMA(A1)", "'@SUMA(A1)"), ("\tx", "'\tx"),
    ("-", "-"), ("-1", "-1"), ("7,5", "7,5"), ("+3.5", "+3.5"), ("Ana María", "Ana María"), ("", ""), (None, ""),
])
def test_celda_inerte(valor, esperado):
    assert formatos.celda_inerte(valor) == esperado


def test_escribir_csv_neutraliza_salvo_para_nbgrader(tmp_path):
    filas = [["nombre", "nota"], ["=1+1", "7,5"]]
    formatos.escribir_csv(tmp_path / "hoja.csv", filas)
    formatos.escribir_csv(tmp_path / "lista.csv", filas, para_hoja_de_calculo=False)
    assert list(csv.reader(open(tmp_path / "hoja.csv", encoding="utf-8")))[1] == ["'=1+1", "7,5"]
    assert list(csv.reader(open(tmp_path / "lista.csv", encoding="utf-8")))[1] == ["=1+1", "7,5"]


def test_grades_csv_va_entrecomillado_e_inerte(tmp_path):
    libro_de_notas.herramientas_en_path()
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(url) as gb:
        gb.add_assignment("tarea")
        gb.add_student("ana", first_name='=HYPERLINK("http://x")', last_name="Pérez, López\nzz,0,0")
        gb.add_student("luis")
        gb.add_submission("tarea", "ana")       # handed in by someone: a published assignment
        NotasCsv(to=str(tmp_path / "grades.csv")).export(gb)
    filas = list(csv.DictReader(open(tmp_path / "grades.csv", encoding="utf-8", newline="")))
    assert sorted(f["student_id"] for f in filas) == ["ana", "luis"]
    assert list(filas[0]) == NotasCsv.COLUMNAS
    ana, luis = (next(f for f in filas if f["student_id"] == i) for i in ("ana", "luis"))
    assert ana["first_name"] == '\'=HYPERLINK("http://x")'
    assert ana["last_name"] == "Pérez, López\nzz,0,0"
    assert luis["score"] == "0.0" and luis["timestamp"] == ""


def test_grades_csv_deja_fuera_las_tareas_sin_publicar_y_lo_dice(tmp_path, monkeypatch, caplog):
    """A TA uploads grades.csv to the LMS: an assignment no student has received (not in the exchange's
    outbound/) and nobody handed in must not give the whole class a 0; it is named in the output.
    Released but not handed in yet: exported (0 for everyone, nbgrader's rule); named with --assignment: exported."""
    from traitlets.config import Config
    from lms.exportadores import aviso_de_omitidas
    monkeypatch.delenv("CURSO_HUB_INTERCAMBIO", raising=False)
    monkeypatch.delenv("CURSO_HUB_CURSO", raising=False)
    intercambio = tmp_path / "intercambio"
    (intercambio / "curso" / "outbound" / "publicada").mkdir(parents=True)
    config = Config({"Exchange": {"root": str(intercambio)}, "CourseDirectory": {"course_id": "curso"}})
    libro_de_notas.herramientas_en_path()
    destino = tmp_path / "grades.csv"
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as gb:
        for tarea in ("entregada", "publicada", "borrador"):
            gb.add_assignment(tarea)
        gb.add_student("ana")
        gb.add_student("luis")
        gb.add_submission("entregada", "ana")
        exportador = NotasCsv(to=str(destino), config=config)
        with caplog.at_level("WARNING"):
            exportador.export(gb)
        filas = list(csv.DictReader(open(destino, encoding="utf-8", newline="")))
        assert sorted({f["assignment"] for f in filas}) == ["entregada", "publicada"]
        assert len(filas) == 4
        assert exportador.omitidas == ["borrador"]
        assert aviso_de_omitidas(["borrador"]) in caplog.text
        assert "grades.csv no incluye borrador: ningún alumno la ha recibido" in caplog.text
        # the other course's exchange is not ours
        (intercambio / "otro" / "outbound" / "borrador").mkdir(parents=True)
        NotasCsv(to=str(destino), config=config).export(gb)
        assert "borrador" not in {f["assignment"] for f in csv.DictReader(open(destino, encoding="utf-8"))}
        # named on purpose: exported
        NotasCsv(to=str(destino), config=config, assignment=["borrador"]).export(gb)
        assert [f["assignment"] for f in csv.DictReader(open(destino, encoding="utf-8"))] == ["borrador"] * 2
    # on the hub, make grade reads only the course's config: the exchange comes from the environment
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as gb:
        monkeypatch.setenv("CURSO_HUB_INTERCAMBIO", str(intercambio))
        monkeypatch.setenv("CURSO_HUB_CURSO", "curso")
        exportador = NotasCsv(to=str(destino))
        exportador.export(gb)
        assert exportador.omitidas == ["borrador"]
        assert "publicada" in {f["assignment"] for f in csv.DictReader(open(destino, encoding="utf-8"))}
    assert "las ha recibido (no están publicadas" in aviso_de_omitidas(["a", "b"])


def test_make_grade_exporta_con_el_exportador_del_curso_y_devuelve_las_omitidas(tmp_path, monkeypatch, capfd):
    """make grade's export (grade.exportar) leaves out the draft, returns it for the table and the
    message, and does not print the warning itself (main prints it once)."""
    import shutil
    from pathlib import Path
    from scripts.calificacion import grade
    monkeypatch.delenv("CURSO_HUB_INTERCAMBIO", raising=False)
    monkeypatch.delenv("CURSO_DB_URL", raising=False)
    raiz = tmp_path / "curso"
    raiz.mkdir()
    shutil.copy(Path(grade.RAIZ) / "nbgrader_config.py", raiz)
    with libro_de_notas.abrir(raiz) as gb:
        gb.add_assignment("01_entregada")
        gb.add_assignment("02_borrador")
        gb.add_student("ana")
        gb.add_submission("01_entregada", "ana")
    assert grade.exportar(raiz, raiz / "grades.csv") == ["02_borrador"]
    assert {f["assignment"] for f in csv.DictReader(open(raiz / "grades.csv", encoding="utf-8"))} == {"01_entregada"}
    assert "no incluye" not in capfd.readouterr().err


def test_un_nombre_con_caracteres_de_control_no_se_copia(tmp_path):
    (tmp_path / "bien.txt").write_text("x")
    (tmp_path / f"mal{ESC}[31m\n.txt").write_text("x")
    recorrido = archivos_alumno.recorrer(str(tmp_path))
    assert [e.ruta for e in recorrido.entradas] == ["bien.txt"]
    assert [m for _, m in recorrido.prohibidas] == ["un archivo o carpeta cuyo nombre lleva caracteres de control"]


def test_la_lista_de_excluidos_admite_comas_y_se_rechaza_si_esta_mal(tmp_path, monkeypatch):
    monkeypatch.delenv(nbgrader_seguro.VARIABLE_EXCLUIDOS, raising=False)
    assert nbgrader_seguro.alumnos_excluidos() == frozenset()
    lista = tmp_path / "excluidos.json"
    lista.write_text(json.dumps(["zz,perfecta", "ana"]))
    monkeypatch.setenv(nbgrader_seguro.VARIABLE_EXCLUIDOS, str(lista))
    assert nbgrader_seguro.alumnos_excluidos() == {"zz,perfecta", "ana"}
    lista.write_text('{"no": "lista"}')
    with pytest.raises(nbgrader_seguro.NbGraderException, match="lista JSON"):
        nbgrader_seguro.alumnos_excluidos()


def test_cada_trabajador_pasa_su_lista_y_nadie_hereda_la_del_entorno(tmp_path, monkeypatch):
    monkeypatch.setenv(nbgrader_seguro.VARIABLE_EXCLUIDOS, "/otra/lista.json")
    assert nbgrader_seguro.VARIABLE_EXCLUIDOS not in Nbgrader(tmp_path).entorno()
    lista = tmp_path / "excluidos.json"
    assert Nbgrader(tmp_path, excluidos=lista).entorno()[nbgrader_seguro.VARIABLE_EXCLUIDOS] == str(lista)


def test_un_punto_y_coma_no_parte_la_celda_en_una_hoja_que_separa_por_punto_y_coma(tmp_path):
    formatos.escribir_csv(tmp_path / "hoja.csv", [["alumno", "nota"], ["p;=1+2", "7,5"]])
    texto = (tmp_path / "hoja.csv").read_text(encoding="utf-8")
    assert '"p;=1+2"' in texto
    # read as a Spanish-locale spreadsheet does (";" as delimiter, quotes respected): no cell starts a formula
    for fila in csv.reader(texto.splitlines(), delimiter=";"):
        assert not any(c.startswith(formatos.INICIO_DE_FORMULA) for c in fila), fila


def test_una_respuesta_con_error_no_se_llama_sin_contestar(tmp_path):
    """TA round 7, P3-6: an answer written below the stub's comment that raised NameError («respuesta_5 = true»)
    is said as the error it raised; «sin contestar» is only for cells that hold nothing but the stub."""
    import nbformat
    from scripts.calificacion import razones

    def respuesta(gid: str, fuente: str, error: str | None = None):
        celda = nbformat.v4.new_code_cell(fuente)
        celda.metadata["nbgrader"] = {"grade_id": gid, "solution": True, "grade": False, "locked": False,
                                      "schema_version": 3}
        if error:
            celda.outputs = [nbformat.v4.new_output("error", ename="NameError", evalue=error, traceback=[])]
        return celda

    stub = "# Escribe tu respuesta así: respuesta_5 = True\n# ESCRIBE TU CÓDIGO AQUÍ\n"
    nb = nbformat.v4.new_notebook()
    nb.cells = [respuesta("respuesta_4", stub + "respuesta_4 = False"),
                respuesta("respuesta_5", stub + "respuesta_5 = true", "name 'true' is not defined")]
    ruta = tmp_path / "atencion_multicabeza.ipynb"
    nbformat.write(nb, ruta)
    lineas = razones.problemas_del_cuaderno(ruta)
    assert not any("sin contestar" in l for l in lineas), lineas
    assert "la celda de respuesta respuesta_5 lanzó NameError: name 'true' is not defined" in lineas, lineas
    # only the stub (its comment and raise NotImplementedError), or nothing at all: unanswered
    nb.cells = [respuesta("respuesta_4", stub + "raise NotImplementedError()"), respuesta("respuesta_5", "# nada\n")]
    nbformat.write(nb, ruta)
    assert razones.problemas_del_cuaderno(ruta) == ["atencion_multicabeza.ipynb: sin contestar (ninguna respuesta "
                                                    "escrita)"]


def test_una_entrega_que_nbgrader_no_pudo_calificar_queda_en_blanco_y_marcada(tmp_path, caplog):
    """Autograde refused a submission (an unreadable extension in plazos.toml, no notebook that could be read):
    make grade gives it a gradebook row at 0 so formgrader does not list it forever, but that 0 is not a
    grade: grades.csv leaves its scores blank with not_graded = sí and says so, the LMS exporters skip it,
    and the make grade table says «sin nota» (issue 21, TA round 8)."""
    from traitlets.config import Config
    from grader_tests.extensiones_nbgrader import notas_en_bloque
    from lms.exportadores import LibroDeCalificacionesCanvas, aviso_de_sin_calificar
    from scripts.calificacion import grade
    libro_de_notas.herramientas_en_path()
    config = Config({"CourseDirectory": {"root": str(tmp_path)}})
    destino = tmp_path / "grades.csv"
    # no autograded/ at all: a gradebook from elsewhere, taken as it is
    assert notas_en_bloque.calificadas_en_disco(tmp_path) is None
    (tmp_path / "autograded" / "ana" / "tarea").mkdir(parents=True)
    (tmp_path / "autograded" / "ana" / "tarea" / "tarea.ipynb").write_text("{}")
    (tmp_path / "autograded" / "bea" / "tarea").mkdir(parents=True)          # refused: the folder, no notebook
    (tmp_path / "fuera").mkdir()
    (tmp_path / "fuera" / "x.ipynb").write_text("{}")
    (tmp_path / "autograded" / "eva").mkdir()
    (tmp_path / "autograded" / "eva" / "tarea").symlink_to(tmp_path / "fuera")  # a link is never followed
    assert notas_en_bloque.calificadas_en_disco(tmp_path) == {("ana", "tarea")}
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as gb:
        gb.add_assignment("tarea")
        for alumno in ("ana", "bea", "eva", "luis"):
            gb.add_student(alumno)
        for alumno in ("ana", "bea", "eva"):
            gb.add_submission("tarea", alumno)
        with caplog.at_level("WARNING"):
            NotasCsv(to=str(destino), config=config).export(gb)
        filas = {f["student_id"]: f for f in csv.DictReader(open(destino, encoding="utf-8", newline=""))}
        assert list(next(iter(filas.values()))) == NotasCsv.COLUMNAS
        assert filas["ana"]["not_graded"] == "" and filas["ana"]["score"] == "0.0"
        for alumno in ("bea", "eva"):
            assert filas[alumno]["not_graded"] == "sí", filas[alumno]
            assert filas[alumno]["score"] == filas[alumno]["raw_score"] == filas[alumno]["late_submission_penalty"] == ""
        assert filas["luis"]["not_graded"] == "" and filas["luis"]["score"] == "0.0"     # nothing handed in: nbgrader's 0
        assert aviso_de_sin_calificar(["bea / tarea", "eva / tarea"]) in caplog.text
        assert "grades.csv deja en blanco las 2 entregas que nbgrader no pudo calificar" in caplog.text
        canvas = LibroDeCalificacionesCanvas(config=config)
        assert canvas._nota(gb, "tarea", "ana") == (0.0, 0.0)
        assert canvas._nota(gb, "tarea", "bea") is None
        assert "bea: nbgrader no pudo calificar su entrega de tarea" in caplog.text
    # the make grade table
    (tmp_path / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.db_url = 'sqlite:///{tmp_path / 'gradebook.db'}'\n")
    resultado = grade.Resultado(alumnos=["ana", "bea"], tareas=["tarea"], fragmento=(0, 1))
    texto = grade.tabla(resultado, tmp_path)
    assert "sin nota / 0" in texto.splitlines()[3] and "0 / 0" in texto.splitlines()[2], texto
