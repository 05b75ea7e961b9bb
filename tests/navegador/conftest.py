"""Fixtures of the browser tests: JupyterLab servers, Chromium, screenshots.

- Every test in this folder gets the ``browser`` marker.
- Without Chromium (``/usr/bin/chromium``) or the playwright package they are
  skipped with a Spanish reason, and the pytest summary says so and how to
  enable them; with ``CURSO_EXIGIR_NAVEGADOR=1`` (what ``.ci/run`` sets) the
  same situation makes them FAIL instead.
- ``servidor_alumno``: one JupyterLab for the whole session, serving a
  temporary folder laid out as a student gets the course (``<tarea>/`` from
  ``release/``) plus the perfect sample's completed notebooks in
  ``perfecta/<tarea>/``, with the course's JupyterLab settings (Spanish).
- ``curso_ta``: the session's course copy where ``python scripts/calificacion/grade.py`` ran
  (``curso_calificado`` in tests/conftest.py, shared with the end-to-end tests;
  started in the background as soon as the session starts).
- ``captura(nombre, objetivo=None)``: PNG of the page (or of one element) in
  ``test-artifacts/navegador/<test>-NN-<nombre>.png``.  A failing test also
  leaves ``<test>-NN-fallo.png`` and the browser's console errors
  (``<test>-consola.log``); the servers' logs are ``servidor-*.log``.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from . import laboratorio as lab

AQUI = Path(__file__).resolve().parent
RAIZ = lab.RAIZ
EXIGIR = os.environ.get("CURSO_EXIGIR_NAVEGADOR", "").strip() not in ("", "0", "no", "false")
FALTAS = lab.faltas_del_navegador()
MOTIVO = f"{FALTAS}. {lab.COMO_ACTIVARLAS}" if FALTAS else None
FALLO = (f"CURSO_EXIGIR_NAVEGADOR=1 exige las pruebas de navegador, pero {FALTAS}. "
         "En CI, .ci/run instala Chromium con apt-get." if FALTAS else None)

def _tareas() -> dict[str, str]:
    """assignment -> notebook file, for every lesson of source/ (found by convention)."""
    from grader_tests.descubrimiento import lecciones
    return {l.tarea: l.cuaderno.name for l in lecciones(RAIZ)}


TAREAS = _tareas()
_omitidas: list[str] = []


def _es_nuestra(item) -> bool:
    return AQUI in Path(str(item.fspath)).resolve().parents


def pytest_collection_modifyitems(config, items):
    for item in items:
        if not _es_nuestra(item):
            continue
        item.add_marker(pytest.mark.browser)
        if MOTIVO and not EXIGIR:
            item.add_marker(pytest.mark.skip(reason=f"pruebas de navegador omitidas: {MOTIVO}"))


def pytest_runtest_logreport(report):
    if report.skipped and MOTIVO and "navegador" in report.nodeid and report.when == "setup":
        _omitidas.append(report.nodeid)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _omitidas:
        terminalreporter.section("pruebas de navegador", sep="=", yellow=True, bold=True)
        terminalreporter.write_line(
            f"OMITIDAS {len(_omitidas)} pruebas de navegador (JupyterLab + Chromium): {MOTIVO}",
            yellow=True, bold=True)
        terminalreporter.write_line(
            "Comprueban en un navegador de verdad los explorables de las dos lecciones, la "
            "validación de nbgrader, el formgrader y la interfaz en español.")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    resultado = yield
    informe = resultado.get_result()
    setattr(item, f"informe_{informe.when}", informe)


# ------------------------------------------------------------------ Chromium

@pytest.fixture(scope="session")
def playwright_sync():
    if MOTIVO:
        pytest.fail(FALLO, pytrace=False)
    from playwright.sync_api import sync_playwright
    pw = sync_playwright().start()
    yield pw
    pw.stop()


@pytest.fixture(scope="session")
def navegador(playwright_sync):
    chromium = lab.lanzar_chromium(playwright_sync)
    yield chromium
    chromium.close()


@pytest.fixture
def pagina(navegador, request, captura):
    pagina = lab.nueva_pagina(navegador)
    captura.pagina = pagina
    consola: list[str] = []
    pagina.on("pageerror", lambda error: consola.append(f"[pageerror] {error}"))
    pagina.on("console", lambda m: consola.append(f"[{m.type}] {m.text}") if m.type == "error" else None)
    yield pagina
    informe = getattr(request.node, "informe_call", None)
    if informe is not None and informe.failed:
        try:
            captura("fallo")
            (lab.ARTEFACTOS / f"{captura.prefijo}-consola.log").write_text("\n".join(consola) + "\n")
        except Exception:  # noqa: BLE001 - the failure itself matters more
            pass
    pagina.context.close()


class Capturas:
    """Numbered PNGs of one test in test-artifacts/navegador/."""

    def __init__(self, prueba: str):
        self.prefijo = re.sub(r"[^\w.-]+", "_", prueba).strip("_")
        self.n = 0
        self.pagina = None
        self.rutas: list[Path] = []
        lab.ARTEFACTOS.mkdir(parents=True, exist_ok=True)
        for vieja in lab.ARTEFACTOS.glob(f"{self.prefijo}-*.png"):
            vieja.unlink()

    def __call__(self, nombre: str, objetivo=None, pagina=None) -> Path:
        self.n += 1
        ruta = lab.ARTEFACTOS / f"{self.prefijo}-{self.n:02d}-{nombre}.png"
        if objetivo is not None:
            objetivo.screenshot(path=str(ruta))
        else:
            (pagina or self.pagina).screenshot(path=str(ruta))
        self.rutas.append(ruta)
        return ruta


@pytest.fixture
def captura(request):
    return Capturas(request.node.name)


# ------------------------------------------------------------- the student

def release_de_la_sesion(destino: Path) -> Path:
    """``release/`` of the repo if it has every assignment; else generated in a course copy."""
    completa = all((RAIZ / "release" / t / nb).exists() for t, nb in TAREAS.items())
    if completa:
        return RAIZ / "release"
    from curso_temporal import copiar_curso, ejecutar
    curso = copiar_curso(destino / "curso")
    for tarea in TAREAS:
        ejecutar(curso, "nbgrader", "generate_assignment", tarea, "--force")
    return curso / "release"


@pytest.fixture(scope="session")
def carpeta_alumno(tmp_path_factory):
    """A student's folder: ``<tarea>/`` as released, ``perfecta/<tarea>/`` completed."""
    if MOTIVO:
        pytest.fail(FALLO, pytrace=False)
    base = tmp_path_factory.mktemp("alumno")
    release = release_de_la_sesion(base)
    alumno = base / "alumno"
    ignorar = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints")
    for tarea in TAREAS:
        shutil.copytree(release / tarea, alumno / tarea, ignore=ignorar)
    sys.path.insert(0, str(RAIZ))
    from scripts.calificacion import samples
    entregas = base / "entregas"
    samples.build_student("perfecta", samples.RESPUESTAS / "perfecta.py", release, entregas)
    shutil.copytree(entregas / "perfecta", alumno / "perfecta", ignore=ignorar)
    return alumno


@pytest.fixture(scope="session")
def servidor_alumno(carpeta_alumno):
    registro = lab.ARTEFACTOS / "servidor-alumno.log"
    registro.unlink(missing_ok=True)
    servidor = lab.ServidorLab(carpeta_alumno, registro=registro).arrancar()
    yield servidor
    servidor.limpiar()


# ------------------------------------------------------------------ the TA

@pytest.fixture(scope="session")
def curso_ta(curso_calificado):
    """A course copy after ``python scripts/calificacion/grade.py``: release, samples, gradebook, feedback.

    Shared with the end-to-end tests (``curso_calificado`` in tests/conftest.py).
    """
    if MOTIVO:
        pytest.fail(FALLO, pytrace=False)
    return curso_calificado.curso


@pytest.fixture(scope="session")
def servidor_ta(curso_ta):
    """JupyterLab run from the TA's course copy (root dir = course root), for the formgrader."""
    registro = lab.ARTEFACTOS / "servidor-ta.log"
    registro.unlink(missing_ok=True)
    servidor = lab.ServidorLab(curso_ta, cwd=curso_ta, registro=registro, perfil=lab.PROFESORADO).arrancar()
    yield servidor
    servidor.limpiar()
