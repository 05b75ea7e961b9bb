"""End to end: a Moodle download (assignment 1) and a Canvas download (assignment 2) through ``make grade``.

One tiny class (four submissions), graded once: real ``nbgrader zip_collect`` with the course's
plugins, ``nbgrader db student import``, autograde, feedback, ``nbgrader
export`` with the LMS exporters and the feedback zips.
"""
from __future__ import annotations

import csv
import io
import re
import time
import zipfile
from pathlib import Path

import pytest
from curso_temporal import copiar_curso, ejecutar
from descargas_lms import (NB1, NB2, T1, T2, canvas, cuaderno_comprimible, escribir, hoja_moodle, libro_canvas,
                           moodle, zip_de)
from scripts.calificacion import libro_de_notas
from scripts.calificacion import samples

pytestmark = pytest.mark.slow

ROSTER = ("id,first_name,last_name,email,lms_user_id\n"
          "alu01,Ana,López García,ana@uni.es,101\n"
          "alu02,José,Ñúñez,jose@uni.es,102\n"
          "alu05,Carmen,Ruiz,carmen@uni.es,105\n")


@pytest.fixture(scope="module")
def curso(tmp_path_factory):
    base = tmp_path_factory.mktemp("lms")
    curso = copiar_curso(base / "curso")
    respuestas = base / "respuestas"
    for alumno in ("perfecta", "sin_wo", "en_blanco"):
        samples.build_student(alumno, curso / "examples" / "respuestas" / f"{alumno}.py", curso / "release",
                              respuestas)

    def nb(alumno, tarea, cuaderno):
        return (respuestas / alumno / tarea / cuaderno).read_bytes()

    # the TA ran make grade before the downloads came: the sample students are in submitted/
    samples.build_samples(curso, curso / "examples" / "respuestas")
    ahora = time.time()
    archivo1 = curso / "downloaded" / T1 / "archive"
    escribir(archivo1 / "CURSO-Tarea 1-55.zip", zip_de(moodle([
        ("Ana López García", 1001, {NB1: nb("en_blanco", T1, NB1)}),
        # a valid notebook padded to 8 MiB that compresses over 200 times (issue 19.5): it must not sink the class
        ("José Ñúñez", 1002, {"mi entrega.ipynb": cuaderno_comprimible(nb("sin_wo", T1, NB1), 8 * 1024 ** 2),
                              "notas.pdf": b"%PDF-1.4"}),
        ("María Pérez", 1003, {"entrega.zip": zip_de({f"mi carpeta/{NB1}": nb("perfecta", T1, NB1)})}),
        # a real student whose provisional id is a sample's ("perfecta"): graded, never removed with the samples
        ("Perfecta", 1004, {NB1: nb("sin_wo", T1, NB1)}),
    ]), ahora - 86400), ahora - 86400)
    escribir(archivo1 / "CURSO-Tarea 1-55 (1).zip",
             zip_de(moodle([("Ana López García", 1001, {NB1: nb("perfecta", T1, NB1)})]), ahora), ahora)
    escribir(archivo1 / "bomba.zip", zip_de({"ceros.ipynb": b"\0" * 30_000_000}))
    escribir(archivo1 / "Calificaciones-CURSO-Tarea 1-55.csv", hoja_moodle([
        (1001, "Ana López García", "ana@uni.es"), (1002, "José Ñúñez", "jose@uni.es"),
        (1003, "María Pérez", "maria@uni.es"), (1005, "Carmen Ruiz", "carmen@uni.es")]))
    escribir(curso / "downloaded" / T2 / "archive" / "curso-tarea_2 submissions.zip", zip_de(canvas([
        ("Ñúñez, José", 102, 9002, "codificacion_posicional-1.ipynb", nb("perfecta", T2, NB2), True),
    ])))
    escribir(curso / "downloaded" / "Grades-CURSO.csv", libro_canvas(
        [("López García, Ana", 101, "", "ana@uni.es", "S1"), ("Ñúñez, José", 102, "", "jose@uni.es", "S1"),
         ("Ruiz, Carmen", 105, "", "carmen@uni.es", "S1")], {f"{T2} (556)": 10}))
    escribir(curso / "downloaded" / "alumnos.csv", ROSTER.encode())
    salida = ejecutar(curso, "python", "scripts/calificacion/grade.py", timeout=1200).stdout
    return curso, salida


def _notas(curso: Path) -> dict:
    with libro_de_notas.abrir(curso) as gb:
        return {(s.student.id, t): (s.score, s.max_score)
                for t in (T1, T2) for s in gb.find_assignment(t).submissions}


def _csv(ruta: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(ruta.read_bytes().decode("utf-8-sig"), newline="")))


def test_recoge_califica_y_lo_cuenta(curso):
    curso, salida = curso
    assert "Entregas de muestra" not in salida
    notas = _notas(curso)
    assert set(notas) == {("alu01", T1), ("alu02", T1), ("maria_perez", T1), ("perfecta", T1), ("alu02", T2)}
    assert notas[("perfecta", T1)] == notas[("alu02", T1)]                 # her own work (sin_wo's), not the sample
    assert "submitted/perfecta/01_atencion_multicabeza: una entrega real con el id de un alumno de muestra" in salida
    assert sorted(p.name for p in (curso / "submitted").iterdir()) == ["alu01", "alu02", "maria_perez", "perfecta"]
    assert notas[("alu01", T1)][0] == notas[("alu01", T1)][1] > 0          # the resubmission was graded
    assert 0 < notas[("alu02", T1)][0] < notas[("alu02", T1)][1]            # renamed notebook, known mistake
    assert notas[("maria_perez", T1)][0] == notas[("maria_perez", T1)][1]   # from her zipped folder
    assert notas[("alu02", T2)][0] == notas[("alu02", T2)][1]
    for esperado in ["ARCHIVO RECHAZADO «bomba.zip/ceros.ipynb»", "llegó 2 veces: se califica la versión más reciente",
                     "«mi entrega.ipynb» no se llama como el cuaderno de la tarea",
                     "notas.pdf»: no es un cuaderno", "maria_perez: se descomprimió",
                     "(Canvas la marca como entregada tarde)", "sin entrega (en la lista de clase): alu05",
                     "3 alumnos importados al libro de notas"]:
        assert esperado in salida, (esperado, salida[:4000])
    fila = re.search(r"^alu05\s+(.*)$", salida, re.M)
    assert fila and fila.group(1).split("  ")[0] == "sin entrega" and fila.group(1).count("sin entrega") == 2
    assert re.search(r"^maria_perez\s+\S+ / \S+\s+sin entrega\s*$", salida, re.M), salida
    filas = _csv(curso / "grades.csv")
    assert {(f[0], f[3]) for f in filas[1:]} >= {(T1, "alu05"), (T2, "alu05")}


def test_hoja_de_moodle_para_subir(curso):
    curso, _ = curso
    notas = _notas(curso)
    filas = _csv(curso / "para_subir" / T1 / "calificaciones_moodle.csv")
    cab = filas[0]
    por_id = {f[0]: dict(zip(cab, f)) for f in filas[1:]}
    assert por_id["Participante1001"]["Calificación"] == "10,00"
    assert por_id["Participante1003"]["Calificación"] == "10,00"
    puntos, maximo = notas[("alu02", T1)]
    assert por_id["Participante1002"]["Calificación"] == f"{puntos / maximo * 10:.2f}".replace(".", ",")
    assert por_id["Participante1005"]["Calificación"] == ""


def test_libro_de_canvas_para_subir(curso):
    curso, _ = curso
    filas = _csv(curso / "para_subir" / "calificaciones_canvas.csv")
    assert filas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{T2} (556)"]
    assert filas[1][0] == "Points Possible" and filas[1][5] == "10"
    assert [f[:2] + f[5:] for f in filas[2:]] == [["Ñúñez, José", "102", "10"]]


def test_comentarios_para_subir(curso):
    curso, salida = curso
    with zipfile.ZipFile(curso / "para_subir" / T1 / "comentarios_moodle.zip") as zf:
        assert sorted(zf.namelist()) == sorted(
            f"{prefijo}_assignsubmission_file/atencion_multicabeza.html"
            for prefijo in ("Ana López García_1001", "José Ñúñez_1002", "María Pérez_1003", "Perfecta_1004"))
        assert all(len(zf.read(n)) > 1000 for n in zf.namelist())
    with zipfile.ZipFile(curso / "para_subir" / T2 / "comentarios_canvas.zip") as zf:
        assert zf.namelist() == ["ñúñezjosé_LATE_102_9002_codificacion_posicional.html"]
    assert "para_subir/01_atencion_multicabeza/comentarios_moodle.zip" in salida
