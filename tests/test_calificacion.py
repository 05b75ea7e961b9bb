"""End to end: `scripts/calificacion/grade.py` (make grade) on the sample submissions in a temporary course."""
from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import RAIZ
from curso_temporal import ejecutar, tareas
from scripts.calificacion import libro_de_notas

pytestmark = pytest.mark.slow

L1, L2 = "01_atencion_multicabeza", "02_codificacion_posicional"


@pytest.fixture(scope="module")
def curso(curso_calificado):
    """The session's course copy after `python scripts/calificacion/grade.py`, and what it printed."""
    return curso_calificado.curso, curso_calificado.salida()


def _notas(curso: Path) -> dict[tuple[str, str], tuple[float, float]]:
    notas = {}
    with libro_de_notas.abrir(curso) as gb:
        for tarea in tareas(curso):
            for entrega in gb.find_assignment(tarea).submissions:
                notas[(entrega.student.id, tarea)] = (entrega.score, entrega.max_score)
    return notas


def _puntos_del_cuestionario(curso: Path, tarea: str) -> float:
    total = 0.0
    for ruta in (curso / "release" / tarea).glob("*.ipynb"):
        for celda in json.loads(ruta.read_text())["cells"]:
            meta = celda.get("metadata", {}).get("nbgrader", {})
            if meta.get("grade") and meta.get("grade_id", "").startswith("comprueba_respuesta_"):
                total += float(meta["points"])
    return total


def _texto_autograded(curso: Path, alumno: str, tarea: str) -> str:
    return "\n".join(p.read_text() for p in (curso / "autograded" / alumno / tarea).glob("*.ipynb"))


def test_las_notas_de_las_muestras_no_cambian(curso):
    """Every sample submission recorded before issue 14 gets the same points in every cell."""
    registradas = json.loads((RAIZ / "tests" / "notas_de_referencia.json").read_text(encoding="utf-8"))["muestras"]
    obtenidas = {}
    with libro_de_notas.abrir(curso[0]) as gb:
        for tarea in tareas(curso[0]):
            for entrega in gb.find_assignment(tarea).submissions:
                obtenidas[f"{entrega.student.id}/{tarea}"] = {
                    g.name: float(g.score) for nb in entrega.notebooks for g in nb.grades}
    distintas = {k: (v, obtenidas.get(k)) for k, v in registradas.items() if obtenidas.get(k) != v}
    assert not distintas, distintas


def test_la_alumna_perfecta_saca_la_nota_maxima_y_la_entrega_en_blanco_cero(curso):
    notas = _notas(curso[0])
    for tarea in (L1, L2):
        nota, maximo = notas[("perfecta", tarea)]
        assert maximo > 0 and nota == maximo, (tarea, nota, maximo)
        assert notas[("en_blanco", tarea)][0] == 0


def test_los_errores_tipicos_quedan_entre_cero_y_el_maximo(curso):
    notas = _notas(curso[0])
    for alumno, tarea in [("escala_d_model", L1), ("sin_wo", L1), ("pe_concatenada", L2)]:
        nota, maximo = notas[(alumno, tarea)]
        assert 0 < nota < maximo, (alumno, tarea, nota, maximo)
    # lo que está bien en esas mismas entregas puntúa entero
    assert notas[("escala_d_model", L2)][0] == notas[("escala_d_model", L2)][1]
    assert notas[("sin_wo", L2)][0] == notas[("sin_wo", L2)][1]


def test_una_pregunta_fallada_cuesta_exactamente_su_punto(curso):
    c = curso[0]
    notas = _notas(c)
    assert notas[("pe_concatenada", L1)][0] == notas[("pe_concatenada", L1)][1] - _puntos_del_cuestionario(c, L1)


def test_el_cuaderno_que_lanza_un_error_se_califica_hasta_donde_se_puede(curso):
    c = curso[0]
    nota, _ = _notas(c)[("con_error", L1)]
    assert nota == _puntos_del_cuestionario(c, L1)
    assert "multi_head" in _texto_autograded(c, "con_error", L1)


@pytest.mark.parametrize("alumno,tarea,diagnostico", [
    ("escala_d_model", L1, "√d_model"),
    ("sin_wo", L1, "Wo"),
    ("pe_concatenada", L2, "cosenos"),
])
def test_el_comentario_nombra_el_error(curso, alumno, tarea, diagnostico):
    c = curso[0]
    assert diagnostico in _texto_autograded(c, alumno, tarea)
    html = "\n".join(p.read_text() for p in (c / "feedback" / alumno / tarea).glob("*.html"))
    assert "Diagnóstico probable" in html and diagnostico in html


def test_hay_un_comentario_por_alumno_y_cuaderno_sin_pruebas_ocultas(curso):
    c = curso[0]
    for alumno in ("perfecta", "en_blanco", "escala_d_model", "pe_concatenada", "sin_wo", "con_error"):
        for tarea in tareas(c):
            for cuaderno in (c / "release" / tarea).glob("*.ipynb"):
                html = c / "feedback" / alumno / tarea / (cuaderno.stem + ".html")
                assert html.exists(), html
                texto = html.read_text()
                assert "HIDDEN TESTS" not in texto and "corregir(" not in texto
                assert "application/vnd.curso-atencion" not in texto
                assert "Puntos:" in texto and "Score:" not in texto   # the Spanish template
                assert "No response." not in texto                       # nbgrader's automatic comment
                assert "white-space: pre-wrap" in texto                  # long verdict lines wrap
    en_blanco = "\n".join(p.read_text() for p in (c / "feedback" / "en_blanco").rglob("*.html"))
    assert "Sin respuesta: la celda está como se publicó." in en_blanco


def test_grades_csv_y_la_tabla(curso):
    c, salida = curso
    filas = list(csv.DictReader((c / "grades.csv").open()))
    alumnos = {f["student_id"] for f in filas}
    assert {"perfecta", "en_blanco", "con_error"} <= alumnos
    assert re.search(r"^perfecta\s+\S+ / \S+", salida, re.M)
    assert "alumno" in salida and L1 in salida and L2 in salida


def _tabla(salida: str) -> list[str]:
    lineas = salida.splitlines()
    inicio = next(i for i, l in enumerate(lineas) if l.startswith("alumno "))
    return lineas[inicio:next(i for i, l in enumerate(lineas) if l.startswith("Notas:"))]


# The second run grades two of the six samples: what it checks (the same grades and table again, with one
# worker where the first run had one per core, on an ASCII terminal) does not depend on the class's size,
# and these two bring what can go wrong on a second pass: an exception and a blank notebook (con_error),
# partial marks in both lessons and an unanswered quiz (pe_concatenada), observations with accents.
SEGUNDA_VEZ = ("con_error", "pe_concatenada")


def _con_menos_muestras(original: Path, destino: Path) -> Path:
    """A copy of the graded course whose samples are only ``SEGUNDA_VEZ``, as if the class had been them."""
    from scripts.calificacion import samples
    c = destino / "curso"
    shutil.copytree(original, c, symlinks=True)
    respuestas = c / "examples" / "respuestas"
    quitar = sorted(set(samples.sample_students(respuestas)) - set(SEGUNDA_VEZ))
    for alumno in quitar:
        (respuestas / f"{alumno}.py").unlink()
        for carpeta in ("submitted", "autograded", "feedback", *(f"veredictos/{t}" for t in tareas(c))):
            shutil.rmtree(c / carpeta / alumno, ignore_errors=True)
    with libro_de_notas.abrir(c) as gb:
        for alumno in quitar:
            gb.remove_student(alumno)
    samples.write_marker(c / "submitted", list(SEGUNDA_VEZ))
    return c


def _sin_alumnos(lineas: list[str], alumnos: list[str]) -> list[str]:
    """The table without the rows and observations of ``alumnos``."""
    return [l for l in lineas if not any(l.startswith((f"{a} ", f"  {a} / ")) for a in alumnos)]


def test_calificar_dos_veces_da_las_mismas_notas(curso, tmp_path):
    original, primera = curso
    from scripts.calificacion import samples
    todos = samples.sample_students(original / "examples" / "respuestas")
    # the table's first column is as wide as the longest name: kept, so the rows keep their width
    assert max(map(len, SEGUNDA_VEZ)) == max(map(len, todos)) and set(SEGUNDA_VEZ) < set(todos)
    c = _con_menos_muestras(original, tmp_path)
    antes = _notas(c)
    assert {alumno for alumno, _ in antes} == set(SEGUNDA_VEZ)
    # the second time with one worker (the first used one per core) and on a terminal that only
    # prints ASCII: the same grades and table, accents degraded, nothing crashes
    salida = ejecutar(c, "python", "scripts/calificacion/grade.py", "--trabajadores", "1", env={"PYTHONIOENCODING": "ascii"})
    assert "Entregas de muestra: " + ", ".join(SEGUNDA_VEZ) in salida.stdout   # rebuilt and graded again
    assert _notas(c) == antes
    assert "Se califica con 1 trabajador " in salida.stdout
    from scripts.calificacion import observaciones      # registers the error handler the ASCII terminal used
    esperada = _sin_alumnos(_tabla(primera), [a for a in todos if a not in SEGUNDA_VEZ])
    ascii_ = "\n".join(esperada).encode("ascii", observaciones.DEGRADAR).decode()
    assert "\n".join(_tabla(salida.stdout)) == ascii_
    assert re.search(r"^con_error\s+\S+ / \S+", salida.stdout, re.M), salida.stdout[-2000:]
    assert "Observaciones (lo que no se pudo calificar" in salida.stdout   # 'Observaciones' has no accent
    assert "sin contestar" in salida.stdout and "Notas:" in salida.stdout


def _carpeta_de_muestra(sub: Path, alumno: str, tarea: str = L1, texto: str = "muestra") -> Path:
    carpeta = sub / alumno / tarea
    carpeta.mkdir(parents=True)
    (carpeta / f"{tarea}.ipynb").write_text(texto)
    return carpeta


def test_las_entregas_reales_tienen_prioridad_sobre_las_muestras(tmp_path):
    from scripts.calificacion import samples
    sub = tmp_path / "submitted"
    _carpeta_de_muestra(sub, "maria")
    assert samples.has_real_submissions(sub)
    samples.write_marker(sub, ["maria"])
    assert not samples.has_real_submissions(sub)
    # a broken marker records no sample, nor does one from before fingerprints (a bare list) for a name
    # that is not a sample student's (for one that is, see the next test)
    for marca in ('["maria"]', "{no es json", '{"alumnos": {"maria": {"%s": "x"}}}' % L1):
        (sub / samples.MARCA_MUESTRAS).write_text(marca)
        assert samples.has_real_submissions(sub), marca


@pytest.mark.parametrize("como", ["contenido", "archivo nuevo", "enlace", "otra tarea"])
def test_una_entrega_real_con_el_id_de_una_muestra_no_se_confunde_con_ella(tmp_path, como):
    """nbgrader collect or zip_collect writing into a sample's folder (a real student «perfecta»)
    makes it real: it counts, is never removed with the samples, and no later build overwrites it."""
    from scripts.calificacion import samples
    sub = tmp_path / "submitted"
    carpeta = _carpeta_de_muestra(sub, "perfecta")
    samples.write_marker(sub, ["perfecta"])
    assert samples.sample_folders(sub) == ({("perfecta", L1)}, set())
    if como == "contenido":
        (carpeta / f"{L1}.ipynb").write_text("la entrega de verdad")
    elif como == "archivo nuevo":
        (carpeta / "timestamp.txt").write_text("2026-12-01 10:00:00")
    elif como == "enlace":
        (carpeta / f"{L1}.ipynb").unlink()
        (carpeta / f"{L1}.ipynb").symlink_to(tmp_path / "fuera")
    else:
        _carpeta_de_muestra(sub, "perfecta", L2, "la entrega de verdad")
    assert samples.has_real_submissions(sub)
    if como != "otra tarea":
        assert samples.sample_folders(sub) == (set(), {("perfecta", L1)})


def test_al_llegar_entregas_reales_se_retiran_las_muestras(tmp_path, monkeypatch):
    from scripts.calificacion import grade, samples
    monkeypatch.setattr(grade, "RAIZ", tmp_path)
    monkeypatch.delenv("CURSO_DB_URL", raising=False)
    sub = tmp_path / "submitted"
    for alumno in ("perfecta", "sin_wo"):
        for tarea in (L1, L2):
            _carpeta_de_muestra(sub, alumno, tarea)
    samples.write_marker(sub, ["perfecta", "sin_wo"])
    # the class: maria, and a real student whose Moodle name maps to the sample id «sin_wo» (lesson 1 only)
    _carpeta_de_muestra(sub, "maria")
    (sub / "sin_wo" / L1 / f"{L1}.ipynb").write_text("la entrega de verdad de sin_wo")
    for carpeta in ("autograded", "feedback"):
        for alumno in ("perfecta", "maria", "sin_wo"):
            for tarea in (L1, L2):
                (tmp_path / carpeta / alumno / tarea).mkdir(parents=True)
    assert grade.retirar_muestras() == ["perfecta", "sin_wo"]
    for carpeta in ("submitted", "autograded", "feedback"):
        assert not (tmp_path / carpeta / "perfecta").exists()
        assert (tmp_path / carpeta / "maria" / L1).is_dir()
        assert (tmp_path / carpeta / "sin_wo" / L1).is_dir()           # the real one stays
        assert not (tmp_path / carpeta / "sin_wo" / L2).exists()       # the sample's lesson 2 goes
    assert (sub / "sin_wo" / L1 / f"{L1}.ipynb").read_text() == "la entrega de verdad de sin_wo"
    assert not (sub / samples.MARCA_MUESTRAS).exists()
    assert grade.retirar_muestras() == []


def test_una_marca_sin_huellas_reconoce_las_muestras_tal_como_se_construirian_hoy(tmp_path):
    """A course graded by an earlier version (``.muestras.json`` a bare list of names): its sample
    folders are recognised by building them again; one a real submission replaced is not."""
    from scripts.calificacion import samples
    respuestas = tmp_path / "examples" / "respuestas"
    shutil.copytree(samples.RESPUESTAS, respuestas)
    shutil.copytree(samples.RAIZ / "release", tmp_path / "release")
    sub = tmp_path / "submitted"
    for alumno in ("perfecta", "sin_wo"):
        samples.build_student(alumno, respuestas / f"{alumno}.py", tmp_path / "release", sub)
    (sub / samples.MARCA_MUESTRAS).write_text(json.dumps(["perfecta", "sin_wo"]))
    assert not samples.has_real_submissions(sub)
    cuaderno = next((sub / "sin_wo" / L1).glob("*.ipynb"))
    cuaderno.write_text(cuaderno.read_text().replace("def multi_head", "def multi_head_de_verdad", 1))
    intactas, pisadas = samples.sample_folders(sub)
    assert pisadas == {("sin_wo", L1)} and ("sin_wo", L2) in intactas and ("perfecta", L1) in intactas
    assert samples.has_real_submissions(sub)


def test_rehacer_las_muestras_no_pisa_una_entrega_real(tmp_path, capsys):
    """``grade.py --muestras`` with a real student «perfecta»: that sample is skipped, said, and the
    real folder is untouched; the other samples are built and recorded."""
    from scripts.calificacion import samples
    (tmp_path / "release" / L1).mkdir(parents=True)
    (tmp_path / "release" / L1 / "nota.txt").write_text("enunciado")
    respuestas = tmp_path / "respuestas"
    respuestas.mkdir()
    for alumno in ("perfecta", "en_blanco"):
        (respuestas / f"{alumno}.py").write_text("")
    real = _carpeta_de_muestra(tmp_path / "submitted", "perfecta", texto="la entrega de verdad")
    assert samples.build_samples(tmp_path, respuestas) == ["en_blanco"]
    assert "no se crea la muestra «perfecta»" in capsys.readouterr().out
    assert (real / f"{L1}.ipynb").read_text() == "la entrega de verdad"
    assert samples.sample_folders(tmp_path / "submitted") == ({("en_blanco", L1)}, set())
    assert not (tmp_path / "submitted" / samples.EN_OBRA).exists()
    # rebuilt: the intact sample is replaced, the real folder still untouched
    assert samples.build_samples(tmp_path, respuestas) == ["en_blanco"]
    assert (real / f"{L1}.ipynb").read_text() == "la entrega de verdad"
