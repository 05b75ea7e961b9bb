"""The student's copy of each assignment validates with the course's limits (issue 11).

``source/<tarea>/nbgrader_config.py`` is released with the notebook: `nbgrader
validate` and JupyterLab's Validate button read it in the assignment folder.
It must give the limits autograde uses (``nbgrader_config.py`` at the course
root), so Validate and the grade judge time and stderr the same way.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from traitlets.config.loader import PyFileConfigLoader

from conftest import RAIZ

COPIAS = sorted((RAIZ / "source").glob("*/nbgrader_config.py"))
# what Validate must share with autograde
CLAVES = [("Execute", "timeout"), ("Execute", "interrupt_on_timeout")]


def cargar(ruta: Path):
    return PyFileConfigLoader(ruta.name, path=str(ruta.parent)).load_config()


def test_cada_tarea_lleva_su_configuracion_y_todas_son_iguales():
    tareas = sorted(p.parent.name for p in (RAIZ / "source").glob("*/*.ipynb"))
    assert [p.parent.name for p in COPIAS] == tareas
    assert len({p.read_bytes() for p in COPIAS}) == 1, "las copias de nbgrader_config.py de source/ difieren"


@pytest.mark.parametrize("ruta", COPIAS, ids=lambda p: p.parent.name)
def test_la_copia_del_alumno_tiene_los_limites_de_la_correccion(ruta):
    alumno, curso = cargar(ruta), cargar(RAIZ / "nbgrader_config.py")
    for seccion, clave in CLAVES:
        assert alumno[seccion][clave] == curso[seccion][clave], (seccion, clave)
    # only Validate's kernels send stderr as stdout; autograde's keep it apart
    assert alumno.Validator.Execute.extra_arguments == curso.Validator.Execute.extra_arguments
    assert any("sys.stderr.name = 'stdout'" in a for a in alumno.Validator.Execute.extra_arguments)
    assert "extra_arguments" not in alumno.Execute and "extra_arguments" not in curso.Execute
    # it configures nothing else a student could use to change their grade
    assert set(alumno) <= {"Execute", "Validator"}


def test_el_hub_da_a_validate_los_mismos_limites():
    """On the hub Validate runs in the student's home, not in the assignment folder: the hub's common
    nbgrader configuration (every account's) carries the same Validate settings (issue 21)."""
    hub = cargar(RAIZ / "despliegue" / "hub" / "jupyter" / "comun" / "nbgrader_config.py")
    alumno = cargar(COPIAS[0])
    for seccion, clave in CLAVES:
        assert hub[seccion][clave] == alumno[seccion][clave], (seccion, clave)
    assert hub.Validator.Execute.extra_arguments == alumno.Validator.Execute.extra_arguments
