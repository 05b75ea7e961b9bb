"""release/ is exactly what `nbgrader generate_assignment` makes from source/, and leaks nothing."""
from __future__ import annotations

import filecmp

import pytest

from conftest import RAIZ
from curso_temporal import copiar_curso, ejecutar, tareas
from grader_tests import descubrimiento
from scripts.autores import convenciones

TAREAS = tareas()


def _cuadernos(carpeta):
    return sorted(carpeta.glob("*/*.ipynb"))


def test_las_dos_lecciones_del_curso_estan():
    assert {"01_atencion_multicabeza", "02_codificacion_posicional"} <= set(TAREAS)


def test_lecciones_ejercicios_y_cuestionarios_encajan():
    """Every lesson has its grader, every cell its cases, property, points and quiz answer."""
    problemas = descubrimiento.problemas(RAIZ, bateria=False)
    assert not problemas, "\n".join(problemas)


@pytest.mark.slow
def test_release_es_lo_que_genera_generate_assignment(tmp_path):
    curso = copiar_curso(tmp_path / "curso")
    for tarea in TAREAS:
        ejecutar(curso, "nbgrader", "generate_assignment", tarea, "--force")
    for tarea in TAREAS:
        comparacion = filecmp.dircmp(RAIZ / "release" / tarea, curso / "release" / tarea,
                                     ignore=["__pycache__", ".ipynb_checkpoints"])
        assert not comparacion.left_only and not comparacion.right_only, tarea
        for nombre in comparacion.common_files:
            nuevo = (curso / "release" / tarea / nombre).read_bytes()
            assert (RAIZ / "release" / tarea / nombre).read_bytes() == nuevo, (
                f"release/{tarea}/{nombre} no coincide con source/: ejecuta `make release`")


@pytest.mark.parametrize("ruta", _cuadernos(RAIZ / "release"), ids=lambda p: p.name)
def test_release_no_contiene_soluciones_ni_pruebas_ocultas(ruta):
    problemas = convenciones.problemas_de_release(ruta)
    assert not problemas, "\n".join(problemas)


@pytest.mark.parametrize("ruta", _cuadernos(RAIZ / "source"), ids=lambda p: p.name)
def test_source_sin_salidas_y_con_las_convenciones_de_las_celdas(ruta):
    """Saved without outputs; each test cell: docstring, hidden block right after, visible names with _."""
    problemas = convenciones.problemas_de_salidas(ruta) + convenciones.problemas_de_celdas(ruta)
    assert not problemas, "\n".join(problemas)


def test_el_bloque_oculto_no_crea_nombres():
    import ast
    assert not convenciones.nombres_ligados(ast.parse(convenciones.BLOQUE_OCULTO.format(gid="x")), todos=True)


@pytest.mark.slow
@pytest.mark.parametrize("ruta", _cuadernos(RAIZ / "source"), ids=lambda p: p.name)
def test_source_pasa_nbgrader_validate(ruta):
    salida = ejecutar(RAIZ, "nbgrader", "validate", str(ruta), check=False)
    assert "Success! Your notebook passes all the tests." in salida.stdout, salida.stdout[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("ruta", _cuadernos(RAIZ / "release"), ids=lambda p: p.name)
def test_release_en_blanco_no_pasa_nbgrader_validate(ruta, tmp_path):
    salida = ejecutar(tmp_path, "nbgrader", "validate", str(ruta), check=False)
    assert "VALIDATION FAILED" in salida.stdout, salida.stdout[-3000:]


def test_cada_leccion_lleva_al_dia_lo_que_necesitan_sus_pruebas_visibles():
    """pruebas_visibles.py is grader_tests' copy and cuestionario.json the course's quiz, in source/ and release/."""
    from scripts.autores import publicar_comprobaciones
    assert not publicar_comprobaciones.desfasados(RAIZ), publicar_comprobaciones.desfasados(RAIZ)
    for ruta, (datos, _) in publicar_comprobaciones.contenidos(RAIZ).items():
        publicada = RAIZ / "release" / ruta.parent.name / ruta.name
        assert publicada.read_bytes() == datos, f"release/{ruta.parent.name}/{ruta.name}: ejecuta make release"
