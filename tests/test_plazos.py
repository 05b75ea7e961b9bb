"""Due dates, extensions and the late penalty (grader_tests/extensiones_nbgrader/plazos.py), without running nbgrader's apps.

Madrid wall time to UTC across both daylight-saving changes of 2026 (29 March,
25 October), to the second; the policy (per started day, capped, grace);
nbgrader's own gradebook fields written by ``sincronizar`` (due date,
extension, penalty) and read back through nbgrader's ``total_seconds_late``;
the timestamps nbgrader's exchange writes are read back exactly only in UTC.
"""
from __future__ import annotations

import datetime as dt
import json

import pytest
from traitlets.config import Config

from grader_tests.extensiones_nbgrader import plazos

UTC = dt.timezone.utc


def _utc(*partes) -> dt.datetime:
    return dt.datetime(*partes, tzinfo=UTC)


@pytest.mark.parametrize("texto, esperado", [
    ("2026-03-28 23:59", _utc(2026, 3, 28, 22, 59)),           # winter: CET, UTC+1
    ("2026-03-29 12:00", _utc(2026, 3, 29, 10, 0)),            # same day, after the change: CEST, UTC+2
    ("2026-10-25 12:00", _utc(2026, 10, 25, 11, 0)),           # back to CET the same day
    ("2026-10-24 23:59:59", _utc(2026, 10, 24, 21, 59, 59)),   # the evening before: still CEST
    ("2026-06-01", _utc(2026, 6, 1, 21, 59, 59)),              # a date alone: the end of that day
    ("2026-10-25 02:30+01:00", _utc(2026, 10, 25, 1, 30)),     # the second 02:30, with its offset
    ("2026-10-25 02:30+02:00", _utc(2026, 10, 25, 0, 30)),
    ("2026-03-29T09:00Z", _utc(2026, 3, 29, 9, 0)),
])
def test_hora_de_madrid_a_utc_con_el_cambio_de_hora(texto, esperado):
    assert plazos.fecha(texto) == esperado


def test_una_hora_que_se_repite_se_muestra_con_su_desfase():
    """The October night's 02:30 happens twice: shown with which one (a TA tester, issue 21: the course page read
    the same for two instants an hour apart); any other time, as always."""
    assert plazos.mostrar(plazos.fecha("2026-10-25 02:30+02:00")) == \
        "domingo 25/10/2026 02:30 (hora de Madrid, +02:00: la primera vez, aún en horario de verano)"
    assert plazos.mostrar(plazos.fecha("2026-10-25 02:30+01:00")) == \
        "domingo 25/10/2026 02:30 (hora de Madrid, +01:00: la segunda vez, ya en horario de invierno)"
    assert plazos.mostrar(plazos.fecha("2026-10-25 03:30")) == "domingo 25/10/2026 03:30 (hora de Madrid)"
    assert plazos.mostrar(plazos.fecha("2026-03-29 03:00")) == "domingo 29/03/2026 03:00 (hora de Madrid)"


@pytest.mark.parametrize("texto, motivo", [
    ("2026-03-29 02:30", "no existe"),        # skipped when clocks go forward
    ("2026-10-25 02:30", "dos veces"),         # happens twice when they go back
    ("27/03/2026", "no es una fecha"),
    ("2026-02-30 10:00", "no es una fecha válida"),
])
def test_horas_que_no_existen_o_se_repiten_se_rechazan(texto, motivo):
    with pytest.raises(plazos.PlazoInvalido, match=motivo):
        plazos.fecha(texto)


def test_retraso_exacto_al_segundo_a_traves_del_cambio_de_hora():
    """A due date after the spring change and a timestamp nbgrader wrote in UTC: exact to the second."""
    from nbgrader.utils import parse_utc
    plazo = plazos.utc_ingenua(plazos.fecha("2026-03-29 12:00"))              # 10:00 UTC
    a_tiempo = parse_utc("2026-03-29 10:00:00.000000 UTC")
    un_segundo = parse_utc("2026-03-29 10:00:01.000000 UTC")
    assert (a_tiempo - plazo).total_seconds() == 0
    assert (un_segundo - plazo).total_seconds() == 1
    # across the change: due Saturday 23:59 CET, submitted Sunday 23:58:59 CEST = 22 h 59 min 59 s later
    plazo = plazos.utc_ingenua(plazos.fecha("2026-03-28 23:59"))
    entrega = plazos.utc_ingenua(plazos.fecha("2026-03-29 23:58:59"))
    assert (entrega - plazo).total_seconds() == 22 * 3600 + 59 * 60 + 59
    # and in October the day has 25 hours
    plazo = plazos.utc_ingenua(plazos.fecha("2026-10-24 23:59"))
    entrega = plazos.utc_ingenua(plazos.fecha("2026-10-25 23:59"))
    assert (entrega - plazo).total_seconds() == 25 * 3600


def test_la_penalizacion_cuenta_dias_empezados_con_tope_y_cortesia():
    p = plazos.PenalizacionPorRetraso(por_dia=0.1, maximo=0.5)
    assert p.fraccion(0) == 0 and p.late_submission_penalty("a", 18, 0) is None
    assert p.fraccion(1) == pytest.approx(0.1)                 # one second late: one started day
    assert p.fraccion(86400) == pytest.approx(0.1)
    assert p.fraccion(86401) == pytest.approx(0.2)
    assert p.fraccion(30 * 86400) == pytest.approx(0.5)        # capped
    assert p.late_submission_penalty("a", 18, 86401) == pytest.approx(3.6)
    assert p.late_submission_penalty("a", 0, 86401) is None
    con_cortesia = plazos.PenalizacionPorRetraso(por_dia=0.1, maximo=0.5, gracia_minutos=5)
    assert con_cortesia.fraccion(299) == 0 and con_cortesia.fraccion(301) == pytest.approx(0.1)
    assert "10 %" in p.descripcion() and "50 %" in p.descripcion()
    with pytest.raises(plazos.PlazoInvalido):
        plazos.PenalizacionPorRetraso(por_dia=2)


@pytest.mark.parametrize("texto, segundos", [
    ("2 días", 2 * 86400), ("36 h", 36 * 3600), ("1 día 12 h", 36 * 3600), ("+90 min", 5400),
    ("1,5 días", 1.5 * 86400), ("2026-03-23 23:59", 3 * 86400),
])
def test_prorrogas_como_duracion_o_fecha(texto, segundos):
    plazo = plazos.fecha("2026-03-20 23:59")
    assert plazos.prorroga(texto, plazo).total_seconds() == segundos


def test_prorrogas_mal_escritas():
    plazo = plazos.fecha("2026-03-20 23:59")
    for texto in ("2 semanas", "mañana", "2026-03-19 10:00"):
        with pytest.raises(plazos.PlazoInvalido):
            plazos.prorroga(texto, plazo)
    config = Config({"PlazosDelCurso": {"fechas": {"t": "2026-03-29 02:15"}, "prorrogas": {"t": {"ana": "x"}}}})
    errores = plazos.PlazosDelCurso(config=config).errores()
    assert any("no existe" in e for e in errores) and any("'ana'" in e for e in errores), errores


def test_duracion_en_español():
    assert plazos.duracion(40) == "40 s"
    assert plazos.duracion(61) == "1 min y 1 s"
    assert plazos.duracion(0.5) == "0 s"
    assert plazos.duracion(3600) == "1 h"
    assert plazos.duracion(86400 + 2 * 3600 + 5 * 60) == "1 día, 2 h y 5 min"
    assert plazos.duracion(2 * 86400 + 60) == "2 días y 1 min"
    assert "viernes 27/03/2026 23:59 (hora de Madrid)" == plazos.mostrar(plazos.fecha("2026-03-27 23:59"))


def test_solo_utc_se_relee_exacto():
    """nbgrader's exchange writes «%Z»: Europe/Madrid gives «CEST» in summer, read back as UTC."""
    assert plazos.zona_de_marcas_segura("UTC")
    assert not plazos.zona_de_marcas_segura("Europe/Madrid")


@pytest.fixture(scope="module")
def _libro_inicial(tmp_path_factory):
    """A gradebook with one assignment (one notebook, two graded cells: 10 points) and two submissions.

    Built once (nbgrader runs alembic on a new gradebook: seconds); each test gets a copy.
    """
    from nbgrader.api import Gradebook
    from scripts.calificacion.libro_de_notas import herramientas_en_path
    herramientas_en_path()
    ruta = tmp_path_factory.mktemp("libro") / "gradebook.db"
    with Gradebook(f"sqlite:///{ruta}") as gb:
        gb.add_assignment("t")
        gb.add_notebook("nb", "t")
        gb.add_grade_cell("c1", "nb", "t", max_score=6, cell_type="code")
        gb.add_grade_cell("c2", "nb", "t", max_score=4, cell_type="code")
        for alumno, marca in (("ana", "2026-03-29 10:00:01.000000 UTC"), ("bea", "2026-03-29 09:59:59.000000 UTC")):
            gb.add_student(alumno)
            entrega = gb.add_submission("t", alumno, timestamp=marca)
            for g in entrega.notebooks[0].grades:
                g.auto_score = g.max_score
        gb.db.commit()
    return ruta


@pytest.fixture
def libro(_libro_inicial, tmp_path):
    import shutil
    from nbgrader.api import Gradebook
    ruta = tmp_path / "gradebook.db"
    shutil.copy(_libro_inicial, ruta)
    gb = Gradebook(f"sqlite:///{ruta}")
    yield gb
    gb.close()


def _config(fechas, prorrogas=None, **politica):
    return plazos.desde_config(Config({"PlazosDelCurso": {"fechas": fechas, "prorrogas": prorrogas or {}},
                                       "PenalizacionPorRetraso": politica}))


def test_sincronizar_escribe_plazo_prorroga_y_penalizacion_en_el_libro_de_notas(libro):
    p, politica = _config({"t": "2026-03-29 12:00"})             # CEST: 10:00 UTC
    plazos.sincronizar(libro, p, politica)
    assert libro.find_assignment("t").duedate == dt.datetime(2026, 3, 29, 10, 0)
    ana, bea = libro.find_submission("t", "ana"), libro.find_submission("t", "bea")
    assert ana.total_seconds_late == 1 and bea.total_seconds_late == 0        # nbgrader's own arithmetic
    assert ana.notebooks[0].late_submission_penalty == pytest.approx(1.0)     # 10 % of 10
    assert bea.notebooks[0].late_submission_penalty is None
    e = plazos.estado(ana)
    assert e.tarde and e.penalizacion == pytest.approx(1.0)
    assert "1 s después del plazo" in plazos.texto_del_retraso(e, politica)
    assert plazos.texto_del_retraso(e, politica).endswith(": −1 punto por retraso (10 %)")   # singular

    # an extension of one day removes it; the late mark goes with it
    p, politica = _config({"t": "2026-03-29 12:00"}, {"t": {"ana": "1 día"}})
    plazos.sincronizar(libro, p, politica)
    ana = libro.find_submission("t", "ana")
    assert ana.extension == dt.timedelta(days=1) and ana.total_seconds_late == 0
    assert ana.notebooks[0].late_submission_penalty is None
    assert plazos.texto_del_retraso(plazos.estado(ana), politica) is None

    # removing the extension from the config removes it from the gradebook, and the penalty comes back
    p, politica = _config({"t": "2026-03-29 12:00"})
    notas = plazos.sincronizar(libro, p, politica)
    assert libro.find_submission("t", "ana").extension is None and any("prórroga" in n for n in notas)


def test_la_penalizacion_sigue_a_la_nota_a_mano(libro):
    p, politica = _config({"t": "2026-03-28 23:59"}, por_dia=0.2, maximo=0.5)
    plazos.sincronizar(libro, p, politica)
    ana = libro.find_submission("t", "ana")                    # ~10 h late: one day, 20 %
    assert ana.notebooks[0].late_submission_penalty == pytest.approx(2.0)
    ana.notebooks[0].grades[0].manual_score = 1                 # 1 + 4 = 5 points after manual grading
    libro.db.commit()
    plazos.sincronizar(libro, p, politica)
    assert libro.find_submission("t", "ana").notebooks[0].late_submission_penalty == pytest.approx(1.0)


def test_un_plazo_cambiado_fuera_de_la_configuracion_se_dice(libro):
    libro.update_or_create_assignment("t", duedate="2026-01-01 00:00:00 UTC")
    p, politica = _config({"t": "2026-03-29 12:00"})
    notas = plazos.sincronizar(libro, p, politica)
    assert any("manda plazos.toml" in n for n in notas), notas


def test_publicar_plazos_y_prorrogas_sin_nombres(libro, tmp_path):
    p, politica = _config({"t": "2026-03-29 12:00"}, {"t": {"ana": "2 días"}})
    plazos.sincronizar(libro, p, politica)
    curso = tmp_path / "intercambio" / "curso"
    curso.mkdir(parents=True)
    clave = bytes(range(32))
    carpeta = plazos.publicar(str(curso), "curso", p, politica, clave, tareas=["t", "sin_plazo"])
    publico = json.loads((curso / "plazos" / "plazos.json").read_text())
    assert publico["tareas"]["t"]["plazo"] == "2026-03-29T10:00:00Z"
    assert publico["tareas"]["sin_plazo"]["plazo"] is None
    assert publico["politica"]["por_dia"] == pytest.approx(0.1)
    ficha = curso / "plazos" / f"{plazos.ficha_de_alumno(clave, 'curso', 'ana')}.json"
    assert json.loads(ficha.read_text())["tareas"]["t"] == {"plazo": "2026-03-31T10:00:00Z", "prorroga": True}
    archivos = sorted(x.name for x in (curso / "plazos").iterdir())
    assert not any("ana" in n for n in archivos), archivos
    assert (curso / "plazos").stat().st_mode & 0o777 == 0o711
    # the extension is withdrawn: its file goes
    p, politica = _config({"t": "2026-03-29 12:00"})
    plazos.publicar(str(curso), "curso", p, politica, clave)
    assert not ficha.exists() and carpeta


def test_un_borrador_con_plazo_entra_en_el_libro_de_notas_con_su_fecha(libro):
    """A draft in source/ with a due date in the config is in the gradebook (and so in formgrader's
    Due Date column) before Generate; one without a due date, or not in source/, is not added."""
    p, politica = _config({"t": "2026-03-29 12:00", "borrador": "2026-11-02 09:30", "ajena": "2026-11-02 09:30"})
    plazos.sincronizar(libro, p, politica, crear=["borrador", "sin_plazo", "t"])
    assert libro.find_assignment("borrador").duedate == dt.datetime(2026, 11, 2, 8, 30)   # CET: UTC+1
    nombres = {a.name for a in libro.assignments}
    assert "sin_plazo" not in nombres and "ajena" not in nombres
    assert libro.find_assignment("t").duedate == dt.datetime(2026, 3, 29, 10, 0)


def test_con_desfase_da_la_hora_del_curso_con_su_desfase():
    assert plazos.con_desfase(dt.datetime(2026, 3, 29, 10, 0)) == "2026-03-29 12:00:00+02:00"        # CEST
    assert plazos.con_desfase(dt.datetime(2026, 12, 1, 23, 15)) == "2026-12-02 00:15:00+01:00"       # CET
    assert plazos.con_desfase(dt.datetime(2026, 12, 1, 23, 3, 25, 2049)) == "2026-12-02 00:03:25.002049+01:00"
    assert plazos.con_desfase(dt.datetime(2026, 12, 1, 23, 15), "UTC") == "2026-12-01 23:15:00+00:00"
    assert plazos.con_desfase(None) == ""


def test_grades_csv_conserva_las_horas_de_nbgrader_y_anade_las_del_curso(libro, tmp_path, monkeypatch):
    """nbgrader's duedate and timestamp stay naive UTC (LMS imports read them); two more columns give
    them in the course's zone with the offset: a due date at midnight in Madrid is that day."""
    import csv
    from lms.exportadores import NotasCsv
    config = Config({"PlazosDelCurso": {"fechas": {"t": "2026-03-29 12:00"}}})
    NotasCsv(to=str(tmp_path / "grades.csv"), config=config).export(libro)
    filas = {f["student_id"]: f for f in csv.DictReader(open(tmp_path / "grades.csv", encoding="utf-8"))}
    ana = filas["ana"]
    assert ana["duedate"] == "2026-03-29 10:00:00" and ana["timestamp"] == "2026-03-29 10:00:01"
    assert ana["duedate_course_time"] == "2026-03-29 12:00:00+02:00"
    assert ana["timestamp_course_time"] == "2026-03-29 12:00:01+02:00"
    assert ana["extension_seconds"] == "" and ana["student_duedate_course_time"] == "2026-03-29 12:00:00+02:00"
    # an extension: in seconds (as seconds_late), and the student's own due date a spreadsheet can read
    config = Config({"PlazosDelCurso": {"fechas": {"t": "2026-03-29 12:00"}, "prorrogas": {"t": {"ana": "1 día 12 h"}}}})
    NotasCsv(to=str(tmp_path / "grades.csv"), config=config).export(libro)
    ana = {f["student_id"]: f for f in csv.DictReader(open(tmp_path / "grades.csv", encoding="utf-8"))}["ana"]
    assert ana["extension_seconds"] == "129600" and ana["student_duedate_course_time"] == "2026-03-31 00:00:00+02:00"
    # a typo in another extension: that row keeps the previous one, the rest is exported, and the log says so
    config = Config({"PlazosDelCurso": {"fechas": {"t": "2026-03-29 12:00"},
                                        "prorrogas": {"t": {"ana": "1 dia y pico", "bea": "1 h"}}}})
    exportador = NotasCsv(to=str(tmp_path / "grades.csv"), config=config)
    errores = []
    # the exporter's log is the process-wide "traitlets" logger: patched for this test only (a plain assignment
    # outlived it and silenced every later log.error, e.g. test_intercambio's refusals)
    monkeypatch.setattr(exportador.log, "error", lambda *a: errores.append(a[0] % a[1:]))
    exportador.export(libro)
    filas = {f["student_id"]: f for f in csv.DictReader(open(tmp_path / "grades.csv", encoding="utf-8"))}
    assert filas["ana"]["extension_seconds"] == "129600" and filas["bea"]["extension_seconds"] == "3600"
    assert len(errores) == 1 and "«1 dia y pico»" in errores[0] and "prórroga anterior" in errores[0]
    config = Config({"PlazosDelCurso": {"fechas": {"t": "2026-03-29 12:00"}, "zona": "America/Mexico_City"}})
    NotasCsv(to=str(tmp_path / "grades.csv"), config=config).export(libro)
    filas = {f["student_id"]: f for f in csv.DictReader(open(tmp_path / "grades.csv", encoding="utf-8"))}
    assert filas["bea"]["timestamp_course_time"] == "2026-03-29 03:59:59-06:00"


def test_la_pestana_assignments_recibe_la_hora_de_cada_entrega_como_instante():
    """The hub's exchange list gives each submission its time as an ISO instant in UTC (the tab shows it in
    the student's zone, to the second), with the delay and the policy's share; an unreadable time, none."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "despliegue" / "plazos_assignments"))
    from plazos_assignments import lista
    politica = {"por_dia": 0.1, "maximo": 0.5, "gracia_s": 0.0, "texto": ""}
    plazo = dt.datetime(2026, 12, 1, 23, 15)                                # 00:15 in Madrid
    tarde = lista.anotar_entrega({"timestamp": "2026-12-01 23:23:36.158876 UTC"}, plazo, politica)
    assert tarde["curso_entregada"] == "2026-12-01T23:23:36Z"
    assert tarde["curso_segundos_tarde"] == pytest.approx(516.158876) and tarde["curso_fraccion"] == 0.1
    a_tiempo = lista.anotar_entrega({"timestamp": "2026-12-01 23:03:25.002049 UTC"}, plazo, politica)
    assert a_tiempo["curso_entregada"] == "2026-12-01T23:03:25Z" and a_tiempo["curso_segundos_tarde"] == 0
    sin_plazo = lista.anotar_entrega({"timestamp": "2026-12-01 23:03:25.002049 UTC"}, None, politica)
    assert sin_plazo["curso_entregada"] == "2026-12-01T23:03:25Z" and sin_plazo["curso_fraccion"] == 0
    for rota in ("pasado mañana", None, "<img src=x onerror=alert(1)>"):
        e = lista.anotar_entrega({"timestamp": rota}, plazo, politica)
        assert e["curso_entregada"] is None and e["curso_segundos_tarde"] == 0, rota


def test_la_pestana_assignments_cuenta_la_hora_real_como_la_recogida(tmp_path):
    """A copy whose name says on time but was written later (a forged name, TA round 8 P3) gets the time of
    its last change in the tab, as the course's collect counts it: never «a tiempo» for what the grade counts
    late.  The same margin as collect; links are not followed."""
    import os
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "despliegue" / "plazos_assignments"))
    from plazos_assignments import lista
    from grader_tests.extensiones_nbgrader.intercambio import RecogerSeguro
    assert lista.MARGEN_PASADO_S == RecogerSeguro.margen_pasado.default_value
    politica = {"por_dia": 0.1, "maximo": 0.5, "gracia_s": 0.0, "texto": ""}
    copia = tmp_path / "alumna+tarea+2026-12-01 23:03:25.002049 UTC"
    (copia / "tarea").mkdir(parents=True)
    (copia / "tarea" / "tarea.ipynb").write_text("{}")
    (copia / "enlace").symlink_to("/")
    ahora = lista.ultimo_cambio(str(copia))
    assert ahora is not None and abs((ahora - dt.datetime.utcnow()).total_seconds()) < 600
    # written now, named long before: the real time
    nombre = (ahora - dt.timedelta(days=2)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    plazo = ahora - dt.timedelta(days=1)
    e = lista.anotar_entrega({"timestamp": nombre, "path": str(copia)}, plazo, politica)
    assert e["curso_hora_real"] and e["curso_segundos_tarde"] > 86000 and e["curso_fraccion"] == 0.1
    assert e["curso_entregada"] == ahora.replace(microsecond=0).isoformat() + "Z"
    # within the margin, but across the due date: the real time too (late)
    nombre = (ahora - dt.timedelta(seconds=60)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    e = lista.anotar_entrega({"timestamp": nombre, "path": str(copia)}, ahora - dt.timedelta(seconds=30), politica)
    assert e["curso_hora_real"] and e["curso_segundos_tarde"] > 0
    # within the margin and no due date crossed: the name's time (an honest submit writes its copy at once)
    e = lista.anotar_entrega({"timestamp": nombre, "path": str(copia)}, ahora + dt.timedelta(days=1), politica)
    assert not e["curso_hora_real"] and e["curso_segundos_tarde"] == 0
    assert e["curso_entregada"] == (ahora - dt.timedelta(seconds=60)).replace(microsecond=0).isoformat() + "Z"
    # no copy to measure (nbgrader gave no path, or it is gone): the name's time
    for ruta in (None, str(tmp_path / "no-existe"), 7):
        e = lista.anotar_entrega({"timestamp": nombre, "path": ruta}, plazo, politica)
        assert not e["curso_hora_real"] and e["curso_segundos_tarde"] > 0
    assert os.path.islink(copia / "enlace")


def test_formgrader_recibe_los_retrasos_del_libro_de_notas_al_dia(libro, tmp_path):
    """grader_tests/extensiones_nbgrader/formgrader_avisos.retrasos: what formgrader's pages mark «tarde» (nbgrader's
    total_seconds_late and late_submission_penalty, brought up to date with nbgrader_config.py and with the
    score the gradebook has now: a manual grade typed in formgrader changes the penalty)."""
    from grader_tests.extensiones_nbgrader import formgrader_avisos
    (tmp_path / "nbgrader_config.py").write_text('c = get_config()\nc.PlazosDelCurso.fechas = {"t": "2026-03-29 12:00"}\n')
    datos = formgrader_avisos.retrasos(libro, str(tmp_path))
    assert datos["aviso"] is None and "10 %" in datos["politica"]
    [ana] = datos["entregas"]                                   # bea is on time: not listed
    assert (ana["tarea"], ana["alumno"], ana["segundos_tarde"]) == ("t", "ana", 1)
    assert (ana["puntos"], ana["penalizacion"], ana["nota"], ana["maximo"]) == (10, 1.0, 9, 10)
    assert ana["texto"].startswith("entregada 1 s después del plazo del domingo 29/03/2026 12:00 (hora de Madrid)")
    assert ana["texto"].endswith("−1 punto por retraso (10 %)")
    [(nombre, cuaderno)] = ana["cuadernos"].items()
    assert nombre == "nb" and cuaderno["id"] == libro.find_submission_notebook("nb", "t", "ana").id
    assert (cuaderno["penalizacion"], cuaderno["puntos"]) == (1.0, 10)
    # a manual grade (formgrader's PUT): the penalty follows the new score
    nota = libro.find_submission_notebook("nb", "t", "ana").grades[0]
    nota.manual_score = 1
    libro.db.commit()
    [ana] = formgrader_avisos.retrasos(libro, str(tmp_path), ["t"], ["ana"])["entregas"]
    assert (ana["puntos"], ana["penalizacion"], ana["nota"]) == (5, 0.5, 4.5)
    assert formgrader_avisos.retrasos(libro, str(tmp_path), ["t"], ["bea"])["entregas"] == []
    assert formgrader_avisos.retrasos(libro, str(tmp_path), ["otra"])["entregas"] == []
    # an extension: no longer late
    (tmp_path / "nbgrader_config.py").write_text('c = get_config()\nc.PlazosDelCurso.fechas = {"t": "2026-03-29 12:00"}\n'
                                                 'c.PlazosDelCurso.prorrogas = {"t": {"ana": "1 día"}}\n')
    assert formgrader_avisos.retrasos(libro, str(tmp_path))["entregas"] == []
    # an unreadable date: the gradebook as it is, and a Spanish warning
    (tmp_path / "nbgrader_config.py").write_text('c = get_config()\nc.PlazosDelCurso.fechas = {"t": "mañana"}\n')
    datos = formgrader_avisos.retrasos(libro, str(tmp_path))
    assert datos["entregas"] == [] and "No se pudieron poner al día los plazos" in datos["aviso"]
    assert any("mañana" in e for e in datos["errores_plazos"]), datos      # formgrader says it in red (P4)
    # an unreadable extension, and one for someone not in the gradebook: the rest is brought up to date
    (tmp_path / "nbgrader_config.py").write_text('c = get_config()\nc.PlazosDelCurso.fechas = {"t": "2026-03-29 12:00"}\n'
                                                 'c.PlazosDelCurso.prorrogas = {"t": {"bea": "1 dia y pico", '
                                                 '"anna": "1 día"}}\n')
    datos = formgrader_avisos.retrasos(libro, str(tmp_path))
    assert datos["aviso"] is None and [e["alumno"] for e in datos["entregas"]] == ["ana"], datos
    assert len(datos["errores_plazos"]) == 2 and any("«1 dia y pico»" in e for e in datos["errores_plazos"])
    assert any("«anna»" in e and "¿querías decir ana?" in e for e in datos["errores_plazos"]), datos


def test_leer_en_bloque_filtra_por_tarea_y_alumno(libro):
    """notas_en_bloque.leer with ``alumnos`` reads only those students' submissions (one student's table or
    a grading fragment), with their cells; every student's record (names, LMS id) stays available."""
    from grader_tests.extensiones_nbgrader import notas_en_bloque
    todas = notas_en_bloque.leer(libro)
    assert sorted(todas.entregas) == [("t", "ana"), ("t", "bea")]
    solo_ana = notas_en_bloque.leer(libro, ["t"], ["ana"])
    assert sorted(solo_ana.entregas) == [("t", "ana")]
    assert solo_ana.entregas[("t", "ana")].cuadernos == todas.entregas[("t", "ana")].cuadernos
    assert solo_ana.entregas[("t", "ana")].cuadernos, "sin las celdas de ana"
    assert notas_en_bloque.leer(libro, ["t"], []).entregas == {}
    assert notas_en_bloque.leer(libro, ["otra"], ["ana"]).entregas == {}
    assert set(solo_ana.alumnos) >= {"ana", "bea"}


def test_manage_assignments_da_el_plazo_de_la_configuracion_sin_esperar(libro, tmp_path):
    """formgrader's Manage Assignments (NbGraderAPI.get_assignments) reads the due dates of
    nbgrader_config.py when it lists: it said «None» for 20-30 s after the TA saved a date that the
    course page already showed (fifth TA's report, P5); a draft (source/ only) gets its date too."""
    from nbgrader.apps.api import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from grader_tests.extensiones_nbgrader import formgrader_seguro
    formgrader_seguro.aplicar()
    for tarea in ("t", "borrador"):
        (tmp_path / "source" / tarea).mkdir(parents=True)
        (tmp_path / "source" / tarea / "nb.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, '
                                                              '"nbformat_minor": 5}')
    (tmp_path / "nbgrader_config.py").write_text(
        'c = get_config()\nc.PlazosDelCurso.fechas = {"t": "2026-03-29 12:00", "borrador": "2026-04-02 09:30"}\n')
    url = str(libro.db.bind.url)
    libro.close()
    coursedir = CourseDirectory(root=str(tmp_path), db_url=url)
    api = NbGraderAPI(coursedir=coursedir, config=Config({"NbGraderAPI": {"timezone": "Europe/Madrid"}}))
    fechas = {a["name"]: a["display_duedate"] for a in api.get_assignments()}
    assert fechas == {"t": "2026-03-29 12:00:00 CEST", "borrador": "2026-04-02 09:30:00 CEST"}, fechas


def test_manage_students_solo_suma_las_tareas_publicadas(libro, tmp_path):
    """Manage Students and a student's page (NbGraderAPI.get_students / get_student): the maximum counts
    the assignments released or handed in, as grades.csv; a lesson make grade generated but nobody has
    seen is not summed (fifth TA's report, P4: «18 / 29» with one assignment of 18 published)."""
    from nbgrader.apps.api import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from grader_tests.extensiones_nbgrader import formgrader_seguro
    formgrader_seguro.aplicar()
    libro.add_assignment("sin_publicar")
    libro.add_notebook("nb", "sin_publicar")
    libro.add_grade_cell("c", "nb", "sin_publicar", max_score=11, cell_type="code")
    url = str(libro.db.bind.url)
    libro.close()
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n")
    api = NbGraderAPI(coursedir=CourseDirectory(root=str(tmp_path), db_url=url),
                      config=Config({"Exchange": {"root": str(tmp_path / "intercambio")}}))
    alumnos = {a["id"]: a for a in api.get_students()}
    assert {a: (d["score"], d["max_score"]) for a, d in alumnos.items()} == {"ana": (10, 10), "bea": (10, 10)}
    assert api.get_student("ana")["max_score"] == 10
    # ... and a student's page lists only those (sixth TA report, P4-4: «sin_publicar (no submission) 0 / 0»)
    for tarea in ("t", "sin_publicar"):
        (tmp_path / "source" / tarea).mkdir(parents=True)
        (tmp_path / "source" / tarea / "nb.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, '
                                                              '"nbformat_minor": 5}')
    assert [e["name"] for e in api.get_student_submissions("ana")] == ["t"]


# ------------------------------------------------------------------------------ plazos.toml, the TA's file

def _curso_con_plazos(tmp_path, texto: str):
    """A course root with the course's own nbgrader_config.py and this plazos.toml."""
    import shutil
    from pathlib import Path
    shutil.copy(Path(__file__).resolve().parents[1] / "nbgrader_config.py", tmp_path / "nbgrader_config.py")
    (tmp_path / "plazos.toml").write_text(texto, encoding="utf-8")
    return tmp_path


def test_plazos_toml_es_el_archivo_que_lee_nbgrader_config(tmp_path):
    """The course's nbgrader_config.py takes the due dates and extensions from plazos.toml (P2-2 of the sixth
    TA report): quoted text or TOML's own dates, the zone, extensions per assignment."""
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-03-29 12:00"\nu = 2026-06-01\n'
                                '[prorrogas.t]\nana = "1 día"\n"luis.gomez" = 2026-03-30T12:00:00\n')
    p, politica, _ = plazos.leer(tmp_path)
    assert p.errores() == [] and p.zona == "Europe/Madrid"
    assert p.plazo("t") == _utc(2026, 3, 29, 10, 0) and p.plazo("u") == _utc(2026, 6, 1, 21, 59, 59)
    assert p.prorroga("t", "ana") == dt.timedelta(days=1)
    assert p.prorroga("t", "luis.gomez") == dt.timedelta(days=1)
    assert p.prorroga("u", "ana") is None and politica.por_dia == pytest.approx(0.1)
    # the course's own file: the tables a TA fills, nothing set yet
    from pathlib import Path
    vacio = plazos.leer_archivo(Path(__file__).resolve().parents[1] / "plazos.toml")
    assert vacio == {"zona": "Europe/Madrid", "fechas": {}, "prorrogas": {}}


def test_una_prorroga_mal_escrita_se_dice_al_cargar_y_no_toca_a_nadie_mas(tmp_path, capsys):
    """«1 dia y pico» (P2-1): a Spanish message naming the student, the value and the accepted format, printed
    when nbgrader_config.py loads; the other student's extension and the due date still hold."""
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-03-29 12:00"\n'
                                '[prorrogas.t]\nana = "1 día"\nluis = "1 dia y pico"\n')
    p, _, _ = plazos.leer(tmp_path)
    [error] = p.errores()
    for parte in ("plazos.toml", "luis", "«1 dia y pico»", "«2 días»", "AAAA-MM-DD HH:MM"):
        assert parte in error, error
    assert "⚠ Plazos: " + error in capsys.readouterr().err
    assert p.invalidas()["prorrogas"] == {("t", "luis"): error}
    assert p.prorroga("t", "ana") == dt.timedelta(days=1) and p.plazo("t") == _utc(2026, 3, 29, 10, 0)
    with pytest.raises(plazos.PlazoInvalido, match="luis"):
        p.prorroga("t", "luis")
    # a due date written badly names the assignment, the value and the format
    _curso_con_plazos(tmp_path, '[fechas]\nt = "29/03/2026"\n')
    [error] = plazos.leer(tmp_path)[0].errores()
    assert "el plazo de t («29/03/2026»)" in error and "AAAA-MM-DD HH:MM" in error


def test_un_plazos_toml_roto_no_rompe_la_configuracion_y_no_deja_sin_plazo(tmp_path):
    """A TOML syntax error: nbgrader_config.py still loads (formgrader, nbgrader's commands), and every due date
    is unreadable rather than empty: nothing is graded as if there were no due date."""
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-03-29 12:00\n')
    p, _, config = plazos.leer(tmp_path)
    assert config.CourseDirectory.course_id == "atencion-y-posicion"
    [error] = p.errores()
    assert error.startswith("plazos.toml no es TOML válido") and "line 2" in error
    with pytest.raises(plazos.PlazoInvalido, match="no vale ningún plazo"):
        p.plazo("t")
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-03-29 12:00"\n[prorrogas]\nt = "1 día"\n')
    assert "[prorrogas.<tarea>]" in plazos.leer(tmp_path)[0].errores()[0]


def test_una_prorroga_ilegible_conserva_lo_anterior_en_la_pestana_y_en_el_libro(libro, tmp_path):
    """The course page publishes the rest; the student whose new extension cannot be read keeps what was
    published and what the gradebook has, and the page says so in red."""
    curso = tmp_path / "intercambio" / "curso"
    curso.mkdir(parents=True)
    clave = bytes(range(32))
    p, politica = _config({"t": "2026-03-29 12:00"}, {"t": {"ana": "1 día", "bea": "2 días"}})
    plazos.sincronizar(libro, p, politica)
    plazos.publicar(str(curso), "curso", p, politica, clave)
    ficha = curso / "plazos" / f"{plazos.ficha_de_alumno(clave, 'curso', 'ana')}.json"
    ficha_bea = curso / "plazos" / f"{plazos.ficha_de_alumno(clave, 'curso', 'bea')}.json"
    antes = json.loads(ficha.read_text())
    p, politica = _config({"t": "2026-03-29 12:00"}, {"t": {"ana": "1 dia y pico", "bea": "3 días"}})
    saltar = set(p.invalidas()["prorrogas"])
    assert saltar == {("t", "ana")}
    plazos.sincronizar(libro, p, politica, saltar=saltar)
    plazos.publicar(str(curso), "curso", p, politica, clave)
    assert json.loads(ficha.read_text()) == antes                                   # ana: the previous one
    assert json.loads(ficha_bea.read_text())["tareas"]["t"]["plazo"] == "2026-04-01T10:00:00Z"   # bea: the new one
    assert libro.find_submission("t", "ana").extension == dt.timedelta(days=1)
    assert libro.find_submission("t", "bea").extension == dt.timedelta(days=3)
    # an unreadable due date publishes nothing new at all
    p, politica = _config({"t": "mañana"}, {"t": {"bea": "4 días"}})
    with pytest.raises(plazos.PlazoInvalido):
        plazos.publicar(str(curso), "curso", p, politica, clave)
    assert json.loads(ficha_bea.read_text())["tareas"]["t"]["plazo"] == "2026-04-01T10:00:00Z"


def test_la_pagina_del_curso_marca_en_rojo_lo_que_no_se_lee_y_da_el_plazo_de_cada_prorroga(tmp_path):
    from scripts.calificacion import servicio_del_curso
    (tmp_path / "source" / "t").mkdir(parents=True)
    (tmp_path / "source" / "t" / "nb.ipynb").write_text("{}")
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-12-02 11:35"\n'
                                '[prorrogas.t]\n"prueba-alumno2" = "1 dia y pico"\nana = "1 día"\n"<b>" = "1 h"\n')
    html = servicio_del_curso._tabla_de_plazos(tmp_path)
    assert 'class="error">⚠ 1 valor de <code>plazos.toml</code> no se puede leer' in html
    [fila] = [l for l in html.split("<li") if "prueba-alumno2" in l]
    assert 'class="error"' in fila and "«1 dia y pico»" in fila and "«2 días»" in fila
    assert "conserva la prórroga anterior" in fila
    assert "ana: «1 día» → plazo: jueves 03/12/2026 11:35 (hora de Madrid)" in html
    assert "<b>" not in html and "&lt;b&gt;" in html
    _curso_con_plazos(tmp_path, '[fechas\n')
    html = servicio_del_curso._tabla_de_plazos(tmp_path)
    assert "plazos.toml no es TOML válido" in html and "no califica hasta que lo corrijas" in html


def test_autograde_rechaza_solo_la_entrega_con_la_prorroga_ilegible(tmp_path):
    """ComprobarPlazos, autograde's first step: the submission whose extension cannot be read is refused
    (before anything runs or is saved), with the student, the value and the format; the others pass."""
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-03-29 12:00"\n[prorrogas.t]\nana = "1 dia y pico"\n'
                                'bea = "1 día"\n')
    paso = plazos.ComprobarPlazos(config=Config({"CourseDirectory": {"root": str(tmp_path)}}))
    for alumno in ("bea", "carla"):
        assert paso.preprocess("nb", {"nbgrader": {"assignment": "t", "student": alumno}}) == \
            ("nb", {"nbgrader": {"assignment": "t", "student": alumno}})
    with pytest.raises(plazos.PlazoInvalido) as error:
        paso.preprocess("nb", {"nbgrader": {"assignment": "t", "student": "ana"}})
    assert str(error.value).startswith("No se califica a ana en t (sus notas anteriores no cambian)")
    assert "«1 dia y pico»" in str(error.value) and "«2 días»" in str(error.value)


def test_make_grade_dice_que_valor_de_plazos_toml_no_se_lee_y_no_cambia_ninguna_nota(tmp_path):
    from scripts.calificacion import grade
    # an unreadable extension stops only that student on that assignment (TA round 7, P3-7: as the course
    # page says); an unreadable due date stops everything
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-03-29 12:00"\n[prorrogas.t]\nluis = "1 dia y pico"\n')
    assert grade.problemas_de_plazos(tmp_path) is None
    [aviso] = grade.avisos_de_prorrogas(tmp_path)
    assert "la prórroga de luis en t («1 dia y pico»)" in aviso and "«2 días»" in aviso
    assert "No se califica a luis en t (sus notas anteriores no cambian)" in aviso and "al resto de la clase, sí" in aviso
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-03-29 12h"\n')
    problema = grade.problemas_de_plazos(tmp_path)
    assert problema.startswith("No se puede calificar (no se ha cambiado ninguna nota): corrige estos plazos en "
                               "plazos.toml"), problema
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-03-29 12:00"\n[prorrogas.t]\nluis = "1 día 12 h"\n')
    assert grade.problemas_de_plazos(tmp_path) is None


def test_los_comentarios_publicados_desactualizados_llegan_a_la_pestana_del_alumno(libro, tmp_path):
    """Sixth TA report, P3-2: after an extension the tab said «✓ Entregada a tiempo» beside feedback with a late
    penalty.  The service marks, in each such student's own file, the assignments whose released feedback no
    longer states the grade; the exchange list (plazos_assignments) passes it to the tab; nobody else sees it."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "despliegue" / "plazos_assignments"))
    from plazos_assignments import lista
    curso = tmp_path / "intercambio" / "curso"
    curso.mkdir(parents=True)
    clave = bytes(range(32))
    p, politica = _config({"t": "2026-03-29 12:00"}, {"t": {"ana": "2 días"}})
    plazos.publicar(str(curso), "curso", p, politica, clave, comentarios_viejos={("ana", "t"), ("bea", "t")})
    ficha = {a: plazos.ficha_de_alumno(clave, "curso", a) for a in ("ana", "bea", "carla")}
    ana = lista.plazos_publicados(str(tmp_path / "intercambio"), "curso", ficha["ana"])["tareas"]["t"]
    bea = lista.plazos_publicados(str(tmp_path / "intercambio"), "curso", ficha["bea"])["tareas"]["t"]
    carla = lista.plazos_publicados(str(tmp_path / "intercambio"), "curso", ficha["carla"])["tareas"]["t"]
    assert ana["prorroga"] and ana["comentarios_desactualizados"] is True
    assert not bea["prorroga"] and bea["comentarios_desactualizados"] is True
    assert bea["plazo"] == dt.datetime(2026, 3, 29, 10, 0)                 # the general due date still
    assert "comentarios_desactualizados" not in carla
    # republished: bea's file goes, ana keeps her extension without the mark
    plazos.publicar(str(curso), "curso", p, politica, clave, comentarios_viejos=set())
    assert not (curso / "plazos" / f"{ficha['bea']}.json").exists()
    ana = lista.plazos_publicados(str(tmp_path / "intercambio"), "curso", ficha["ana"])["tareas"]["t"]
    assert ana["prorroga"] and "comentarios_desactualizados" not in ana


def test_el_servicio_lee_los_comentarios_desactualizados_como_mucho_cada_pocos_segundos(tmp_path, monkeypatch):
    import contextlib
    import logging
    from grader_tests.extensiones_nbgrader import huella_de_comentarios
    from scripts.calificacion import libro_de_notas, servicio_del_curso
    llamadas = []
    monkeypatch.setattr(libro_de_notas, "existe", lambda url: True)
    monkeypatch.setattr(libro_de_notas, "url_del_curso", lambda raiz: "sqlite:///x")
    monkeypatch.setattr(libro_de_notas, "abrir", lambda raiz: contextlib.nullcontext("gb"))
    monkeypatch.setattr(huella_de_comentarios, "desactualizados", lambda gb, feedback, carpeta_publicada: (
        llamadas.append((gb, feedback, carpeta_publicada)) or {("ana", "t"): "nb: la nota cambió"}))
    publicador = servicio_del_curso.Publicador(tmp_path, logging.getLogger("prueba"))
    assert publicador._comentarios_viejos("/x/intercambio", "curso") == {("ana", "t")}
    assert publicador._comentarios_viejos("/x/intercambio", "curso") == {("ana", "t")}
    assert llamadas == [("gb", str(tmp_path / "feedback"), "/x/intercambio/curso/feedback")]


def test_una_prorroga_para_alguien_que_no_es_de_la_clase_se_dice_con_los_parecidos(libro, tmp_path, monkeypatch,
                                                                                   capsys):
    """TA round 7, P2-3: an extension for an id that is not in the class (a misspelt «prueba-mrta») is said on
    the course page, in red, with the close ids of the class, and by make grade; nobody has it."""
    from scripts.calificacion import servicio_del_curso
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    for alumno in ("prueba-marta", "prueba-ana", "prueba-luis"):
        libro.add_student(alumno)
    libro.db.commit()
    (tmp_path / "source" / "t").mkdir(parents=True)
    (tmp_path / "source" / "t" / "nb.ipynb").write_text("{}")
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-12-02 15:00"\n'
                                '[prorrogas.t]\n"prueba-mrta" = "2 días"\n"prueba-ana" = "1 día"\n'
                                '"zzz<b>" = "1 h"\n')
    p, _, _ = plazos.leer(tmp_path)
    clase, fuentes = plazos.clase_del_curso(libro)
    assert fuentes == ["el libro de notas"]
    avisos = plazos.prorrogas_de_desconocidos(p, clase, fuentes)
    assert set(avisos) == {("t", "prueba-mrta"), ("t", "zzz<b>")}
    assert "«prueba-mrta» en t es para alguien que no está en la clase" in avisos[("t", "prueba-mrta")]
    assert "¿querías decir prueba-marta?" in avisos[("t", "prueba-mrta")]
    assert "nombre de usuario del hub" in avisos[("t", "zzz<b>")]
    assert plazos.prorrogas_de_desconocidos(p, set(), []) == {}       # no class list: nothing to compare with
    html = servicio_del_curso._tabla_de_plazos(tmp_path)
    assert "1 prórroga es para alguien" not in html and "2 prórrogas son para alguien que no está en la clase" in html
    [fila] = [l for l in html.split("<li") if "prueba-mrta" in l]
    assert 'class="error"' in fila and "¿querías decir prueba-marta?" in fila
    assert "prueba-ana: «1 día» → plazo: jueves 03/12/2026 15:00" in html
    assert "<b>" not in html
    from scripts.calificacion import grade
    libro.close()
    grade.estado_de_plazos(tmp_path, ["prueba-marta"], ["t"])
    salida = capsys.readouterr().out
    assert "Plazos: ⚠ plazos.toml: la prórroga de «prueba-mrta» en t" in salida, salida
    assert "¿querías decir prueba-marta?" in salida


def test_formgrader_avisa_de_una_prorroga_para_alguien_del_hub_antes_de_calificar(tmp_path, monkeypatch):
    """Early in the semester the gradebook has no students yet: Manage Assignments still names an extension
    for an id that is not in the hub's course group, as the course page does (TA round 8); the group is asked
    at most once a minute."""
    from nbgrader.api import Gradebook
    import nbgrader.auth.jupyterhub as jh
    from grader_tests.extensiones_nbgrader import formgrader_avisos
    preguntas = []

    def grupo(metodo, ruta, **_):
        preguntas.append(ruta)
        return {"users": ["prueba-marta", "prueba-ana"]}
    monkeypatch.setattr(jh, "_query_jupyterhub_api", grupo)
    monkeypatch.setenv("CURSO_HUB_CURSO", "curso")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "x")
    monkeypatch.setattr(formgrader_avisos, "_GRUPO_DEL_HUB", {})
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-12-02 15:00"\n[prorrogas.t]\n"prueba-mrta" = "2 días"\n'
                                '"prueba-ana" = "1 día"\n')
    p, _, _ = plazos.leer(tmp_path)
    with Gradebook(f"sqlite:///{tmp_path / 'gb.db'}") as libro:       # nobody graded yet
        for _ in range(3):
            errores = formgrader_avisos.errores_de_plazos(libro, p)
        assert len(errores) == 1 and "«prueba-mrta»" in errores[0] and "¿querías decir prueba-marta?" in errores[0]
        assert "el grupo nbgrader-curso del hub" in errores[0]
        assert preguntas == ["/groups/nbgrader-curso"]
        # outside the hub: the gradebook alone, and with nobody in it nothing to compare with
        monkeypatch.delenv("JUPYTERHUB_API_TOKEN")
        monkeypatch.setattr(formgrader_avisos, "_GRUPO_DEL_HUB", {})
        assert formgrader_avisos.errores_de_plazos(libro, p) == []


def test_la_pagina_del_curso_dice_que_entregas_recogidas_quedan_tarde_con_los_plazos_de_ahora(libro, tmp_path,
                                                                                              monkeypatch):
    """A TA who moves a due date earlier turns submissions already collected into late ones (a hub TA's report,
    stop 31: no warning). The course page's due-date table says, per assignment, how many submissions are
    collected and which are late by plazos.toml as it is now (with each student's extension), names escaped."""
    import datetime as dt

    from scripts.calificacion import servicio_del_curso
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    # the fixture's ana and bea submitted in March: on time
    for alumno, entregada in (("carla", "2026-12-02 13:00"), ("luis<b>", "2026-12-02 16:00"),
                              ("marta", "2026-12-02 18:00")):
        libro.add_student(alumno)
        libro.add_submission("t", alumno, timestamp=dt.datetime.fromisoformat(entregada))   # naive UTC
    libro.db.commit()
    libro.close()
    (tmp_path / "source" / "t").mkdir(parents=True)
    (tmp_path / "source" / "t" / "nb.ipynb").write_text("{}")
    # 15:00 in Madrid (winter) is 14:00 UTC: carla on time; luis 2 h late; marta with 1 day more, on time
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-12-02 15:00"\n[prorrogas.t]\nmarta = "1 día"\n')
    html = servicio_del_curso._tabla_de_plazos(tmp_path)
    assert "5 recogidas; " in html and "1 tarde con estos plazos: luis&lt;b&gt; (2 h)" in html, html
    assert "<b>" not in html
    # the due date moved earlier: carla is late too, the latest first
    _curso_con_plazos(tmp_path, '[fechas]\nt = "2026-12-02 12:00"\n[prorrogas.t]\nmarta = "1 día"\n')
    html = servicio_del_curso._tabla_de_plazos(tmp_path)
    assert "2 tarde con estos plazos: luis&lt;b&gt; (5 h), carla (2 h)" in html, html
