"""Unit tests of the gradebook's URL, the merge of workers' gradebooks, the shards and the progress bar."""
from __future__ import annotations

import io
import shutil
import sys

import pytest
from nbgrader.api import Gradebook

from conftest import RAIZ
from scripts.calificacion import libro_de_notas
from scripts.calificacion import fusion, reparto
from scripts.calificacion.progreso import Progreso

libro_de_notas.herramientas_en_path()      # nbgrader runs alembic from PATH on a new gradebook


# ---------------------------------------------------------------------------- db_url

def _curso(tmp_path, antes_del_libro: str = "", despues: str = ""):
    """A course root with the course's nbgrader_config.py (and what it imports), lines added to it."""
    curso = tmp_path / "curso"
    curso.mkdir(parents=True)
    shutil.copytree(RAIZ / "grader_tests", curso / "grader_tests",
                    ignore=shutil.ignore_patterns("__pycache__"))
    texto = (RAIZ / "nbgrader_config.py").read_text()
    bloque = texto.index("# The gradebook's URL")
    (curso / "nbgrader_config.py").write_text(texto[:bloque] + antes_del_libro + texto[bloque:] + despues)
    return curso


def test_la_url_por_defecto_es_el_sqlite_del_curso(tmp_path, monkeypatch):
    monkeypatch.delenv("CURSO_DB_URL", raising=False)
    curso = _curso(tmp_path)
    assert libro_de_notas.url_del_curso(curso) == f"sqlite:///{curso / 'gradebook.db'}"
    otra = _curso(tmp_path / "otra", antes_del_libro='c.CourseDirectory.db_url = "sqlite:////otra/libro.db"\n')
    assert libro_de_notas.url_del_curso(otra) == "sqlite:////otra/libro.db"


def test_curso_db_url_manda_y_postgresql_lleva_su_controlador(tmp_path, monkeypatch):
    curso = _curso(tmp_path, antes_del_libro='c.CourseDirectory.db_url = "postgres://ta@db/notas"\n')
    monkeypatch.delenv("CURSO_DB_URL", raising=False)
    assert libro_de_notas.url_del_curso(curso) == "postgresql+psycopg2://ta@db/notas"
    monkeypatch.setenv("CURSO_DB_URL", "postgresql://ta:secreta@db.example:5432/notas")
    assert libro_de_notas.url_del_curso(curso) == "postgresql+psycopg2://ta:secreta@db.example:5432/notas"


def test_una_url_postgresql_sin_controlador_escrita_a_mano_se_rechaza_en_espanol(tmp_path, monkeypatch):
    monkeypatch.delenv("CURSO_DB_URL", raising=False)
    curso = _curso(tmp_path, despues='\nc.CourseDirectory.db_url = "postgresql://ta:secreta@db/notas"\n')
    with pytest.raises(libro_de_notas.LibroDeNotasInvalido, match=r"postgresql\+psycopg2://") as error:
        libro_de_notas.url_del_curso(curso)
    assert "secreta" not in str(error.value)


def test_la_configuracion_del_curso_no_importa_nada_para_el_libro_de_notas():
    """Partial copies of the course (the battery's: config, grader_tests, source) must keep the whole config."""
    texto = (RAIZ / "nbgrader_config.py").read_text()
    assert "scripts" not in [linea.split()[1].split(".")[0] for linea in texto.splitlines()
                             if linea.startswith(("import ", "from "))]


def test_sin_psycopg2_postgresql_dice_que_instalar(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg2", None)
    with pytest.raises(libro_de_notas.LibroDeNotasInvalido, match="requirements-calificador.txt"):
        libro_de_notas.comprobar("postgresql+psycopg2://ta@db/notas")
    with pytest.raises(libro_de_notas.LibroDeNotasInvalido, match="no es una URL"):
        libro_de_notas.comprobar("gradebook.db")


def test_la_clave_no_se_imprime():
    assert "secreta" not in libro_de_notas.ocultar_clave("postgresql+psycopg2://ta:secreta@db/notas")


# ---------------------------------------------------------------------------- merge

@pytest.fixture(scope="module")
def plantilla(tmp_path_factory):
    """A small gradebook (one assignment, two students graded), built once: nbgrader creates a new one slowly."""
    ruta = tmp_path_factory.mktemp("plantilla") / "gradebook.db"
    with Gradebook(f"sqlite:///{ruta}") as gb:
        gb.add_assignment("tarea")
        gb.add_notebook("cuaderno", "tarea")
        gb.add_grade_cell("prueba", "cuaderno", "tarea", max_score=3.0, cell_type="code")
        gb.add_solution_cell("respuesta", "cuaderno", "tarea")
        gb.add_source_cell("prueba", "cuaderno", "tarea", cell_type="code", checksum="abc", source="x")
        gb.add_source_cell("respuesta", "cuaderno", "tarea", cell_type="code", checksum="r", source="y")
        for alumno in ("ana", "luis"):
            gb.add_student(alumno)
            gb.add_submission("tarea", alumno)
            gb.find_grade("prueba", "cuaderno", "tarea", alumno).auto_score = 1.0
        gb.db.commit()
    return ruta


def _libro(ruta, plantilla, puntos: float | None = None, checksum: str | None = None) -> str:
    shutil.copy(plantilla, ruta)
    url = f"sqlite:///{ruta}"
    with Gradebook(url) as gb:
        if puntos is not None:
            gb.find_grade_cell("prueba", "cuaderno", "tarea").max_score = puntos
        if checksum is not None:
            gb.find_source_cell("prueba", "cuaderno", "tarea").checksum = checksum
        gb.db.commit()
    return url


def _estado(url: str) -> dict:
    with Gradebook(url) as gb:
        estado = {}
        for entrega in gb.find_assignment("tarea").submissions:
            nb = entrega.notebooks[0]
            estado[entrega.student.id] = (
                entrega.student.first_name, entrega.timestamp, nb.flagged,
                [(g.name, g.auto_score, g.manual_score, g.extra_credit, g.needs_manual_grade) for g in nb.grades],
                [(c.name, c.auto_comment, c.manual_comment) for c in nb.comments])
        return estado


def test_la_fusion_copia_las_filas_del_trabajador_y_no_toca_a_los_demas(tmp_path, plantilla):
    curso = _libro(tmp_path / "curso.db", plantilla)
    copia = tmp_path / "trabajador.db"
    fusion.copiar(tmp_path / "curso.db", copia)
    url_copia = f"sqlite:///{copia}"
    with Gradebook(url_copia) as gb:
        gb.update_or_create_student("ana", first_name="Ana")
        gb.remove_submission("tarea", "ana")
        gb.add_submission("tarea", "ana", timestamp="2026-11-30 10:00:00 UTC")
        nota = gb.find_grade("prueba", "cuaderno", "tarea", "ana")
        nota.auto_score, nota.manual_score, nota.extra_credit, nota.needs_manual_grade = 2.0, 2.5, 0.5, False
        comentario = gb.find_comment("respuesta", "cuaderno", "tarea", "ana")
        comentario.auto_comment, comentario.manual_comment = "Sin respuesta.", "Repasa √d_k"
        gb.find_submission_notebook("cuaderno", "tarea", "ana").flagged = True
        gb.add_student("nuevo", email="nuevo@example.org")
        gb.add_submission("tarea", "nuevo")
        gb.find_grade("prueba", "cuaderno", "tarea", "luis").auto_score = 3.0    # not this worker's
        gb.db.commit()
    antes = _estado(curso)
    with Gradebook(curso) as gb:
        id_antes = gb.find_submission_notebook("cuaderno", "tarea", "ana").id
    assert fusion.fusionar(url_copia, curso, ["ana", "nuevo"], ["tarea"]) == 2
    despues, del_trabajador = _estado(curso), _estado(url_copia)
    assert despues["ana"] == del_trabajador["ana"] != antes["ana"]
    assert despues["nuevo"] == del_trabajador["nuevo"]
    assert despues["luis"] == antes["luis"] != del_trabajador["luis"]
    with Gradebook(curso) as gb:
        assert gb.find_student("nuevo").email == "nuevo@example.org"
        assert gb.find_submission("tarea", "ana").score == 3.0       # manual 2.5 + extra 0.5
        assert gb.find_submission_notebook("cuaderno", "tarea", "ana").id == id_antes   # formgrader's links


def test_la_fusion_quita_la_entrega_que_el_trabajador_no_tiene(tmp_path, plantilla):
    curso = _libro(tmp_path / "curso.db", plantilla)
    fusion.copiar(tmp_path / "curso.db", tmp_path / "trabajador.db")
    with Gradebook(f"sqlite:///{tmp_path / 'trabajador.db'}") as gb:
        gb.remove_submission("tarea", "ana")
    fusion.fusionar(f"sqlite:///{tmp_path / 'trabajador.db'}", curso, ["ana"], ["tarea"])
    assert set(_estado(curso)) == {"luis"}


@pytest.mark.parametrize("cambio,nombre", [({"puntos": 2.0}, "prueba"), ({"checksum": "otro"}, "prueba")])
def test_la_fusion_se_niega_si_la_tarea_no_esta_definida_igual(tmp_path, plantilla, cambio, nombre):
    curso = _libro(tmp_path / "curso.db", plantilla)
    otra = _libro(tmp_path / "regenerada.db", plantilla, **cambio)
    antes = _estado(curso)
    with pytest.raises(fusion.DefinicionesDistintas) as error:
        fusion.fusionar(otra, curso, ["ana"], ["tarea"])
    assert "No se fusionan las notas" in str(error.value) and "tarea" in str(error.value)
    assert nombre in str(error.value) and "generate_assignment" in str(error.value)
    assert _estado(curso) == antes


def test_la_fusion_se_niega_si_falta_un_cuaderno(tmp_path, plantilla):
    curso = _libro(tmp_path / "curso.db", plantilla)
    fusion.copiar(tmp_path / "curso.db", tmp_path / "trabajador.db")
    with Gradebook(f"sqlite:///{tmp_path / 'trabajador.db'}") as gb:
        gb.add_notebook("otro", "tarea")
    with pytest.raises(fusion.DefinicionesDistintas, match="cuadernos"):
        fusion.fusionar(f"sqlite:///{tmp_path / 'trabajador.db'}", curso, ["ana"], ["tarea"])


# ---------------------------------------------------------------------------- shards, workers

def test_el_reparto_por_posicion_cubre_a_todos_una_vez():
    alumnos = [f"a{i:02d}" for i in range(11)]
    partes = [reparto.repartir(alumnos, i, 3) for i in range(3)]
    assert sorted(sum(partes, [])) == alumnos
    assert partes[1] == ["a01", "a04", "a07", "a10"]


@pytest.mark.parametrize("texto", ["3/3", "1", "-1/2", "a/b", "0/0"])
def test_un_fragmento_mal_escrito_se_explica(texto):
    with pytest.raises(reparto.RepartoInvalido, match="I/N"):
        reparto.leer_fragmento(texto)


def test_trabajadores_del_argumento_de_la_variable_o_los_nucleos(monkeypatch):
    monkeypatch.delenv("CURSO_TRABAJADORES", raising=False)
    assert reparto.trabajadores() == reparto.nucleos() >= 1
    monkeypatch.setenv("CURSO_TRABAJADORES", "3")
    assert reparto.trabajadores() == 3 and reparto.trabajadores(1) == 1
    monkeypatch.setenv("CURSO_TRABAJADORES", "cero")
    with pytest.raises(reparto.RepartoInvalido, match="CURSO_TRABAJADORES"):
        reparto.trabajadores()


# ---------------------------------------------------------------------------- progress

class _Terminal(io.StringIO):
    encoding = "utf-8"

    def isatty(self):
        return True


def test_la_barra_cuenta_calificadas_y_fallidas_y_estima_lo_que_queda():
    terminal = _Terminal()
    progreso = Progreso(terminal)
    with progreso.tarea("01_atencion_multicabeza", total=4):
        progreso.terminada("ana", True)
        progreso.terminada("luis", False)
        progreso.terminada("eva", True)
        assert (progreso.calificadas, progreso.fallidas) == (2, 1)
        progreso.terminada("luis", True)      # graded alone after all: moves, does not count twice
    texto = terminal.getvalue()
    assert "01_atencion_multicabeza" in texto and "0/4 entregas, calificadas 0, fallidas 0" in texto
    assert "3/4 entregas, calificadas 3, fallidas 0" in texto and "quedan" in texto


def test_sin_terminal_la_barra_calla():
    salida = io.StringIO()
    progreso = Progreso(salida)
    with progreso.tarea("01_atencion_multicabeza", total=2):
        progreso.terminada("ana", True)
    assert salida.getvalue() == ""


def test_sin_terminal_y_con_curso_progreso_lineas_da_lineas_en_español(monkeypatch):
    """The hub's course page (sixth TA report, P3-3: 154 s without a sign of life): plain lines, at most one
    every few seconds per assignment and always the last one; the phases of make grade announced."""
    from scripts.calificacion import progreso as modulo
    monkeypatch.setenv("CURSO_PROGRESO", "lineas")
    monkeypatch.setattr(modulo, "INTERVALO_LINEAS", 3600.0)
    salida = io.StringIO()
    progreso = Progreso(salida)
    with progreso.tarea("01_atencion_multicabeza", total=3):
        for alumno, bien in (("ana", True), ("luis", False), ("eva", True)):
            progreso.terminada(alumno, bien)
    lineas = salida.getvalue().splitlines()
    assert lineas == ["01_atencion_multicabeza: 3 entregas por calificar",
                      "01_atencion_multicabeza: 1/3 entregas (calificadas 1, fallidas 0)",
                      "01_atencion_multicabeza: 3/3 entregas (calificadas 2, fallidas 1)"], lineas
    assert Progreso(_Terminal()).lineas is False          # a terminal keeps its bar


def test_las_fases_de_make_grade_se_anuncian_solo_si_se_pide(monkeypatch, capsys):
    from scripts.calificacion import tiempos
    with tiempos.fase("exportar"):
        pass
    assert capsys.readouterr().out == ""
    monkeypatch.setenv("CURSO_PROGRESO", "lineas")
    with tiempos.fase("exportar"):
        pass
    assert capsys.readouterr().out == "▶ Exportando grades.csv…\n"


def test_la_pagina_del_curso_dice_cada_paso_de_calificar(tmp_path):
    """«Recoger y calificar»: each command under a Spanish label with its step and time, as it comes."""
    import sys
    import time
    from scripts.calificacion.servicio_del_curso import Trabajo, entorno
    env = entorno(tmp_path)
    assert env["PYTHONUNBUFFERED"] == "1" and env["CURSO_PROGRESO"] == "lineas"
    trabajo = Trabajo()
    assert trabajo.lanzar([([sys.executable, "-c", "print('hola')"], True, "recoger las entregas de t"),
                           ([sys.executable, "-c", "print('adiós')"], False)], tmp_path, env)
    for _ in range(300):
        if not trabajo.en_marcha:
            break
        time.sleep(0.1)
    salida = trabajo.estado()["salida"].splitlines()
    assert salida[0].startswith("— Paso 1 de 2: recoger las entregas de t (") and salida[0].endswith(" hora de Madrid) —")
    assert salida[2] == "hola" and salida[-1] == "adiós" and trabajo.codigo == 0


def test_una_barra_por_tarea_a_la_vez():
    """The workers grade every assignment without waiting for each other: all the bars are drawn at once."""
    terminal = _Terminal()
    progreso = Progreso(terminal)
    with progreso.tareas({"01_atencion_multicabeza": 2, "02_codificacion_posicional": 2}):
        progreso.terminada("ana", True, "02_codificacion_posicional")
        progreso.terminada("ana", False, "01_atencion_multicabeza")
        assert progreso.contada("ana", "01_atencion_multicabeza") and not progreso.contada("luis", "01_atencion_multicabeza")
        assert (progreso.calificadas, progreso.fallidas) == (1, 1)
    texto = terminal.getvalue()
    assert "01_atencion_multicabeza" in texto and "02_codificacion_posicional" in texto
    assert "1/2 entregas, calificadas 0, fallidas 1" in texto and "1/2 entregas, calificadas 1, fallidas 0" in texto
