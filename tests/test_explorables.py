"""Every lesson's explorable follows the course's conventions (found by ``source/*/explorable_*.py``).

The particular logic of each explorable is tested in its own
``tests/test_explorable_<nombre>.py``; here, what all of them share:

* the module docstring describes its three layers (pure functions, drawing,
  ipywidgets wiring);
* ``crear_explorable()`` builds it headlessly with its defaults (no browser);
* shown in a notebook, it leaves the widget and, under it, the static
  fallback marked ``METADATOS_RESPALDO`` (the feedback turns it into a
  picture: ``grader_tests/extensiones_nbgrader/explorables_en_comentarios.py``), with the Spanish
  hint to run the cell again and the last picture, shown in place of the
  widget once it is dead (reopened notebook, kernel restarted or shut down);
* the release's cell that shows it runs alone (it imports what it needs);
* it offers nothing named like the lesson's graded function.
"""
from __future__ import annotations

import sys

import matplotlib

matplotlib.use("Agg")

import pytest

from conftest import RAIZ, cargar_modulo
from grader_tests.juez import descubrimiento

EXPLORABLES = [(l, ruta) for l in descubrimiento.lecciones(RAIZ) for ruta in l.explorables]


@pytest.fixture(scope="module", params=EXPLORABLES, ids=[r.stem for _, r in EXPLORABLES])
def explorable(request):
    leccion, ruta = request.param
    return leccion, cargar_modulo(ruta, ruta.stem)


def test_cada_leccion_tiene_su_explorable():
    for leccion in descubrimiento.lecciones(RAIZ):
        assert leccion.explorables, f"source/{leccion.tarea}/ no tiene explorable_<nombre>.py"


def test_tres_capas_descritas(explorable):
    _, modulo = explorable
    doc = (modulo.__doc__ or "").lower()
    assert "tres capas" in doc and "widgets" in doc and "dibujo" in doc, modulo.__name__


def test_se_crea_sin_navegador_y_deja_su_salida_fija(explorable, monkeypatch):
    _, modulo = explorable
    assert modulo.METADATOS_RESPALDO == {"explorable": {"respaldo": True}}
    caja = modulo.crear_explorable()
    assert "explorable-vivo" in caja._dom_classes
    mostrados = []

    class Salida:
        def update(self, *a, **k):
            mostrados.append(("update", a, k))

    def display(*args, **kwargs):
        mostrados.append(("display", args, kwargs))
        return Salida()

    import IPython.display
    monkeypatch.setattr(IPython.display, "display", display)
    caja._ipython_display_()
    assert [m[0] for m in mostrados] == ["display", "display"]
    fija = mostrados[1]
    assert fija[2].get("metadata") == modulo.METADATOS_RESPALDO
    html = fija[1][0]["text/html"]
    assert "no está activo" in html and "ejecuta esta celda otra vez" in html
    assert "data:image/png;base64," in html
    # after the tab is reopened with a live kernel JupyterLab no longer renews it (the display_id is not
    # saved): the notice says what the picture shows and that it may be older, never «la última»
    assert "última imagen" not in html and "puede ser anterior a tus últimos cambios" in html
    # dead controls (kernel restarted or shut down: ipywidgets marks them) give way to the fallback
    assert ":has(.explorable-vivo:not(.jupyter-widgets-disconnected)) .explorable-respaldo{display:none}" in html
    assert ":has(.explorable-vivo.jupyter-widgets-disconnected){display:none}" in html


def test_no_ofrece_la_funcion_del_ejercicio(explorable):
    leccion, modulo = explorable
    for funcion in leccion.funciones:
        assert not hasattr(modulo, funcion), (modulo.__name__, funcion)


@pytest.mark.parametrize("leccion", descubrimiento.lecciones(RAIZ), ids=lambda l: l.tarea)
def test_la_celda_del_explorable_se_basta_sola(leccion, tmp_path, monkeypatch):
    """«Ejecuta esta celda otra vez» works from a reopened notebook, after a restart or out of order.

    The release's cell that calls ``crear_explorable`` runs alone in an empty
    namespace (a fresh kernel that ran nothing before it), from the student's
    copy of the assignment, and shows the explorable.
    """
    import shutil

    import nbformat

    copia = tmp_path / leccion.tarea
    shutil.copytree(RAIZ / "release" / leccion.tarea, copia)
    nb = nbformat.read(copia / leccion.cuaderno.name, as_version=4)
    celdas = [c for c in nb.cells if c.cell_type == "code" and "crear_explorable(" in c.source]
    assert len(celdas) == 1, f"{leccion.cuaderno.name}: una sola celda muestra el explorable"
    monkeypatch.chdir(copia)
    monkeypatch.syspath_prepend(str(copia))
    for ruta in leccion.explorables:            # the student's copy, not a module loaded before
        monkeypatch.delitem(sys.modules, ruta.stem, raising=False)
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell()
    try:
        resultado = shell.run_cell(celdas[0].source, store_history=False)
        assert resultado.error_in_exec is None, repr(resultado.error_in_exec)
        assert "explorable-vivo" in resultado.result._dom_classes
    finally:
        InteractiveShell.clear_instance()
