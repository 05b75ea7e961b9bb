"""Shared pytest fixtures and helpers for the course's tests."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parent.parent
if str(RAIZ) not in sys.path:      # `scripts` and `grader_tests` importable from any runner
    sys.path.insert(0, str(RAIZ))


def cargar_modulo(ruta: Path | str, nombre: str | None = None):
    """Import a module from a file path (e.g. an explorable in ``source/``)."""
    ruta = Path(ruta)
    nombre = nombre or ruta.stem
    spec = importlib.util.spec_from_file_location(nombre, ruta)
    modulo = importlib.util.module_from_spec(spec)
    sys.modules[nombre] = modulo
    spec.loader.exec_module(modulo)
    return modulo


@pytest.fixture(scope="session")
def raiz() -> Path:
    """The course root (where nbgrader_config.py lives)."""
    return RAIZ


@pytest.fixture(scope="session", autouse=True)
def _calificacion_de_muestra(request):
    """Start the TA's job on a course copy early, when a collected test needs it."""
    from curso_temporal import CalificacionEnSegundoPlano
    necesita = any("curso_calificado" in getattr(item, "fixturenames", ())
                   and not item.get_closest_marker("skip") for item in request.session.items)
    if not necesita:
        yield None
        return
    calificacion = CalificacionEnSegundoPlano(RAIZ / "test-artifacts" / "grade-muestras.log")
    calificacion.lanzar()
    yield calificacion
    calificacion.limpiar()


@pytest.fixture(scope="session")
def curso_calificado(_calificacion_de_muestra):
    """A course copy after ``python scripts/calificacion/grade.py`` (samples graded); returns the job."""
    _calificacion_de_muestra.esperar()
    return _calificacion_de_muestra


@pytest.fixture(scope="session")
def lote_hostil(tmp_path_factory):
    """The hostile battery's course after ``scripts/calificacion/grade.py`` (tests/test_seguridad.py), once per session.

    Shared with the formgrader browser test of the injected scripts.
    """
    import test_seguridad
    return test_seguridad.calificar_lote(tmp_path_factory)


@pytest.fixture(autouse=True)
def _cada_prueba_es_un_cuaderno_nuevo():
    """The control rule remembers the value cells of the notebook being judged: never across tests."""
    from grader_tests import propiedades
    propiedades.empezar_cuaderno()
    yield
