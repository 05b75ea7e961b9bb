"""``make test`` as two pytest sessions at once (tests/dos_sesiones.py, ``--flujo`` in tests/conftest.py).

Every collected test runs in exactly one session, each session-wide batch is graded in one session only
(all the tests that read it are there), whole modules go together, the browser and hub tests wait in
``espera`` and the battery's CPU stays in ``calculo``.
"""
from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from conftest import FLUJOS, LOTES_DE_ESPERA, flujo_de

RAIZ = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def reparto() -> dict[str, list]:
    proceso = subprocess.run([sys.executable, str(RAIZ / "tests" / "dos_sesiones.py"), "--reparto"], cwd=RAIZ,
                             capture_output=True, text=True, timeout=600)
    assert proceso.returncode == 0, proceso.stderr[-3000:]
    return json.loads(proceso.stdout)


def test_cada_lote_se_califica_en_una_sola_sesion(reparto):
    sesiones = defaultdict(set)
    for nodeid, (flujo, lotes) in reparto.items():
        assert flujo in FLUJOS, nodeid
        for lote in lotes:
            sesiones[lote].add(flujo)
    assert {lote: sorted(s) for lote, s in sesiones.items() if len(s) > 1} == {}
    for lote in LOTES_DE_ESPERA:
        assert sesiones[lote] == {"espera"}, lote
    assert sesiones["bateria_autocalificada"] == {"calculo"}


def test_los_modulos_van_enteros_y_lo_que_espera_va_aparte(reparto):
    por_modulo = defaultdict(set)
    for nodeid, (flujo, _) in reparto.items():
        por_modulo[nodeid.split("::")[0]].add(flujo)
    assert {m: sorted(f) for m, f in por_modulo.items() if len(f) > 1} == {}
    for modulo, flujos in por_modulo.items():
        if modulo.startswith("tests/navegador/") or modulo == "tests/test_hub.py":
            assert flujos == {"espera"}, modulo
    # the CPU-bound end-to-end gradings stay in the other session
    for modulo in ("tests/test_calificacion_paralela.py", "tests/test_caja_sin_root.py", "tests/test_bateria.py",
                   "tests/test_diagnostico.py", "tests/test_lms_de_principio_a_fin.py"):
        assert por_modulo[modulo] == {"calculo"}, modulo


class _Item:
    def __init__(self, nodeid: str, fixturenames=(), browser: bool = False):
        self.nodeid, self.fixturenames, self._browser = nodeid, list(fixturenames), browser

    def get_closest_marker(self, nombre: str):
        return object() if nombre == "browser" and self._browser else None


def test_un_modulo_espera_si_una_de_sus_pruebas_espera():
    modulos = {"tests/test_a.py": [_Item("tests/test_a.py::x"), _Item("tests/test_a.py::y", ["curso_calificado"])],
               "tests/test_b.py": [_Item("tests/test_b.py::x", ["bateria_autocalificada", "tmp_path"])],
               "tests/test_c.py": [_Item("tests/test_c.py::x", browser=True)],
               "tests/navegador/test_d.py": [_Item("tests/navegador/test_d.py::x")],
               "tests/test_hub.py": [_Item("tests/test_hub.py::x")],
               "tests/test_e.py": [_Item("tests/test_e.py::x", ["lote_hostil"])]}
    assert flujo_de(modulos) == {"tests/test_a.py": "espera", "tests/test_b.py": "calculo",
                                 "tests/test_c.py": "espera", "tests/navegador/test_d.py": "espera",
                                 "tests/test_hub.py": "espera", "tests/test_e.py": "espera"}


def test_con_flujo_solo_se_ejecuta_esa_sesion(tmp_path):
    """``--flujo`` deselects the other session's modules (a module of each, collected only)."""
    modulos = ["tests/test_semillas.py", "tests/navegador/test_2_explorable_cabezas.py"]
    vistos = {}
    for flujo in FLUJOS:
        proceso = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                                  f"--flujo={flujo}", *modulos], cwd=RAIZ, capture_output=True, text=True, timeout=300)
        assert proceso.returncode == 0, proceso.stdout[-3000:] + proceso.stderr[-3000:]
        vistos[flujo] = {l.split("::")[0] for l in proceso.stdout.splitlines() if "::" in l}
    assert vistos == {"calculo": {modulos[0]}, "espera": {modulos[1]}}


class _TrabajoFalso:
    """A background job that records when it starts (segundo_plano.Trabajo's interface)."""

    def __init__(self, nombre: str):
        import threading
        self.nombre, self.terminado, self.lanzado, self.proceso = nombre, threading.Event(), None, None

    def lanzar(self, entorno) -> None:
        import time
        self.lanzado = time.monotonic()
        self.proceso = subprocess.Popen([sys.executable, "-c", "pass"])

    def parar(self) -> None:
        self.terminado.set()


def test_la_bateria_espera_a_los_lotes_de_la_otra_sesion(tmp_path):
    """The queues of the two sessions run one after the other: ``tras`` holds the first job until the other
    queue's ``avisa`` file exists; a queue with nothing to do still says it is done."""
    import time
    from segundo_plano import Cola
    hecho, mio = tmp_path / "espera-hecha", tmp_path / "calculo-hecho"
    trabajo = _TrabajoFalso("bateria")
    cola = Cola([trabajo], tras=hecho, avisa=mio).lanzar()
    try:
        time.sleep(3)
        assert trabajo.lanzado is None and not mio.exists()
        vacia = Cola([], avisa=hecho).lanzar()           # the other session: nothing queued, done at once
        vacia._hilo.join(10)
        assert hecho.exists()
        cola._hilo.join(30)
        assert trabajo.lanzado is not None and trabajo.terminado.is_set() and mio.exists()
    finally:
        cola.parar()
