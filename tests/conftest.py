"""Shared pytest fixtures and helpers for the course's tests."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parent.parent
if str(RAIZ) not in sys.path:      # `scripts` and `grader_tests` importable from any runner
    sys.path.insert(0, str(RAIZ))
# What travels with each assignment (explorable_*, pruebas_*, pruebas_visibles, respaldo_explorable) importable
# by name, last, as in a kernel started in the assignment folder: a battery file judged in-process may import it
# as a student's solution does (issue 19, ninth attack).  The shared files are the same in every lesson.
for _leccion in sorted((RAIZ / "source").glob("[0-9]*")):
    if _leccion.is_dir() and str(_leccion) not in sys.path:
        sys.path.append(str(_leccion))


def cargar_modulo(ruta: Path | str, nombre: str | None = None):
    """Import a module from a file path (e.g. an explorable in ``source/``)."""
    ruta = Path(ruta)
    nombre = nombre or ruta.stem
    # its folder on sys.path, as in a kernel started there: a lesson's explorable imports
    # its neighbour respaldo_explorable.py
    if str(ruta.parent) not in sys.path:
        sys.path.append(str(ruta.parent))
    spec = importlib.util.spec_from_file_location(nombre, ruta)
    modulo = importlib.util.module_from_spec(spec)
    sys.modules[nombre] = modulo
    spec.loader.exec_module(modulo)
    return modulo


@pytest.fixture(scope="session")
def raiz() -> Path:
    """The course root (where nbgrader_config.py lives)."""
    return RAIZ


# The batches graded in the background (tests/segundo_plano.py): fixture -> (job, module, function).
# Their tests run last (``pytest_collection_modifyitems``), in this order, so the batches are graded
# while the rest of the session runs.
TRABAJOS = {
    "lote_hostil": ("hostil", "test_seguridad", "calificar_lote"),
    "bateria_autocalificada": ("bateria", "test_bateria", "autocalificar"),
}
ESPERA_MAXIMA = 3600          # seconds a test waits for its batch (the jobs before it included)


def _necesitan(items, fixture: str) -> bool:
    """Whether a collected test that is not skipped uses ``fixture``."""
    return any(fixture in getattr(item, "fixturenames", ()) and not item.get_closest_marker("skip")
               for item in items)


# ``make test`` runs the suite as two pytest sessions at once (``--flujo``): the tests that mostly wait
# (a browser, a hub, and every module that reads the samples' grading or the hostile batch, which the
# browser tests read too, so each batch is graded once) and the rest (CPU: nbgrader, in-process tests,
# the battery in the background).  See tests/README.md, «Dos sesiones a la vez».
FLUJOS = ("espera", "calculo")
LOTES_DE_ESPERA = ("curso_calificado", "lote_hostil")


def pytest_addoption(parser):
    parser.addoption("--flujo", choices=FLUJOS, default=None,
                     help="sólo una de las dos sesiones de make test: «espera» (navegador, hub y los módulos que "
                          "leen las muestras calificadas o el lote hostil) o «calculo» (el resto)")


def flujo_de(modulos: dict[str, list]) -> dict[str, str]:
    """module -> ``"espera"`` or ``"calculo"``: a module waits when one of its tests drives a browser, uses
    the hub (``test_hub.py``) or reads a batch of ``LOTES_DE_ESPERA``; whole modules, so module fixtures
    are built once."""
    def espera(item) -> bool:
        return (item.get_closest_marker("browser") is not None or "/navegador/" in f"/{item.nodeid}"
                or item.nodeid.startswith("tests/test_hub.py")
                or any(f in LOTES_DE_ESPERA for f in getattr(item, "fixturenames", ())))
    return {modulo: "espera" if any(map(espera, items)) else "calculo" for modulo, items in modulos.items()}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The modules that read a background batch run last, in the order of ``TRABAJOS`` (each module's
    tests in their own order; every other module where it was).  With ``--flujo``, only that session's
    modules (``flujo_de``); the others are deselected."""
    flujo = config.getoption("--flujo", default=None)
    if flujo:
        modulos: dict[str, list] = {}
        for item in items:
            modulos.setdefault(item.nodeid.split("::")[0], []).append(item)
        de = flujo_de(modulos)
        fuera = [item for item in items if de[item.nodeid.split("::")[0]] != flujo]
        if fuera:
            config.hook.pytest_deselected(items=fuera)
            items[:] = [item for item in items if de[item.nodeid.split("::")[0]] == flujo]
    orden = list(TRABAJOS)
    posicion: dict[str, int] = {}
    for item in items:
        usados = [orden.index(f) for f in getattr(item, "fixturenames", ()) if f in TRABAJOS]
        if usados:
            modulo = item.nodeid.split("::")[0]
            posicion[modulo] = max(posicion.get(modulo, 0), 1 + max(usados))
    items.sort(key=lambda item: posicion.get(item.nodeid.split("::")[0], 0))


@pytest.fixture(scope="session", autouse=True)
def _calificacion_de_muestra(request):
    """Start the TA's job on a course copy early, when a collected test needs it."""
    from curso_temporal import CalificacionEnSegundoPlano
    if not _necesitan(request.session.items, "curso_calificado"):
        yield None
        return
    calificacion = CalificacionEnSegundoPlano(RAIZ / "test-artifacts" / "grade-muestras.log")
    calificacion.lanzar()
    yield calificacion
    calificacion.limpiar()


@pytest.fixture(scope="session", autouse=True)
def _segundo_plano(request, tmp_path_factory, _calificacion_de_muestra):
    """The background batches the collected tests need, graded one after another from the session's
    start (after the samples, which the first browser tests need)."""
    from segundo_plano import Cola, Trabajo
    base = tmp_path_factory.mktemp("segundo-plano")
    trabajos = [Trabajo(nombre, modulo, funcion, base / nombre,
                        RAIZ / "test-artifacts" / f"segundo-plano-{nombre}.log")
                for fixture, (nombre, modulo, funcion) in TRABAJOS.items()
                if _necesitan(request.session.items, fixture)]
    import os
    tras, avisa = (os.environ.get(f"CURSO_SEGUNDO_PLANO_{v}") for v in ("TRAS", "AVISA"))   # tests/dos_sesiones.py
    cola = Cola(trabajos, antes=_calificacion_de_muestra and _calificacion_de_muestra.proceso,
                tras=tras and Path(tras), avisa=avisa and Path(avisa)).lanzar()
    yield cola
    cola.parar()


@pytest.fixture(scope="session")
def curso_calificado(_calificacion_de_muestra):
    """A course copy after ``python scripts/calificacion/grade.py`` (samples graded); returns the job."""
    _calificacion_de_muestra.esperar()
    return _calificacion_de_muestra


def _resultado(cola, fixture: str, tmp_path_factory):
    """The result of ``fixture``'s background job (run now, in the foreground, if it was not queued)."""
    nombre, modulo, funcion = TRABAJOS[fixture]
    if nombre in cola:
        return cola[nombre].esperar(ESPERA_MAXIMA)
    from segundo_plano import Trabajo
    trabajo = Trabajo(nombre, modulo, funcion, tmp_path_factory.mktemp(nombre),
                      RAIZ / "test-artifacts" / f"segundo-plano-{nombre}.log")
    trabajo.lanzar(cola.entorno)
    trabajo.proceso.wait()
    trabajo.terminado.set()
    return trabajo.esperar(0)


@pytest.fixture(scope="session")
def lote_hostil(_segundo_plano, tmp_path_factory):
    """The hostile battery's course after ``scripts/calificacion/grade.py`` (tests/test_seguridad.py,
    ``calificar_lote``), once per session, in the background.

    Shared with the formgrader browser test of the injected scripts.
    """
    return _resultado(_segundo_plano, "lote_hostil", tmp_path_factory)


@pytest.fixture(scope="session")
def bateria_autocalificada(_segundo_plano, tmp_path_factory):
    """Both batteries autograded and validated (tests/test_bateria.py, ``autocalificar``), in the background."""
    return _resultado(_segundo_plano, "bateria_autocalificada", tmp_path_factory)


@pytest.fixture
def sin_esperas(monkeypatch):
    """``time.sleep`` returns at once in the test's own thread (other threads still wait).

    For the in-process runs of the battery: ``c08_lenta`` sleeps 32 s on its first call to be slower than
    nbgrader's default cell timeout and faster than the course's, which only a real kernel can show
    (tests/test_bateria.py, under autograde and Validate); in-process nothing measures the time, so the
    verdicts are the same and the tests no longer wait for nothing.
    """
    import threading
    import time
    esperar = time.sleep
    principal = threading.current_thread()

    def sleep(segundos):
        if threading.current_thread() is not principal:
            esperar(segundos)

    monkeypatch.setattr(time, "sleep", sleep)


@pytest.fixture(autouse=True)
def _cada_prueba_es_un_cuaderno_nuevo():
    """The control rule remembers the value cells of the notebook being judged: never across tests."""
    from grader_tests.juez import propiedades
    propiedades.empezar_cuaderno()
    yield
