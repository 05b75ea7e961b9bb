"""release/ is exactly what `nbgrader generate_assignment` makes from source/, and leaks nothing."""
from __future__ import annotations

import ast
import filecmp
import json

import pytest

from conftest import RAIZ
from curso_temporal import copiar_curso, ejecutar, tareas
from grader_tests import juez
from grader_tests.casos import especificacion
from grader_tests.propiedades import PROPIEDADES

TAREAS = tareas()


def _cuadernos(carpeta):
    return sorted(carpeta.glob("*/*.ipynb"))


def _celdas_calificadas(ruta):
    nb = json.loads(ruta.read_text())
    return [c for c in nb["cells"] if c.get("metadata", {}).get("nbgrader", {}).get("grade")]


# the whole hidden region of a test cell (README, «Autores»)
BLOQUE_OCULTO = ('### BEGIN HIDDEN TESTS\n__import__("grader_tests").corregir("{gid}", globals())\n'
                 '### END HIDDEN TESTS\n')


def nombres_ligados(arbol: ast.AST, todos: bool = False) -> set[str]:
    """Names that code binds in the notebook's namespace (assignments, imports, loops...).

    Function bodies and comprehensions have their own namespace and are not
    entered; with ``todos`` the names of the functions and classes it
    defines count too.
    """
    ligados: set[str] = set()

    def visitar(nodo):
        for hijo in ast.iter_child_nodes(nodo):
            if isinstance(hijo, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if todos:
                    ligados.add(hijo.name)
                continue                      # its body has its own namespace
            if isinstance(hijo, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                continue
            if isinstance(hijo, ast.Name) and isinstance(hijo.ctx, (ast.Store, ast.Del)):
                ligados.add(hijo.id)
            elif isinstance(hijo, ast.alias):
                ligados.add((hijo.asname or hijo.name).split(".")[0])
            elif isinstance(hijo, (ast.Global, ast.Nonlocal)):
                ligados.update(hijo.names)
            visitar(hijo)

    visitar(arbol)
    return ligados


def test_hay_dos_lecciones():
    assert TAREAS == ["01_atencion_multicabeza", "02_codificacion_posicional"]


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
    texto = ruta.read_text()
    for prohibido in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "corregir(", "grader_tests"):
        assert prohibido not in texto, prohibido
    assert "ESCRIBE TU CÓDIGO AQUÍ" in texto


@pytest.mark.parametrize("ruta", _cuadernos(RAIZ / "source"), ids=lambda p: p.name)
def test_source_sin_salidas_y_cada_celda_de_prueba_esta_registrada(ruta):
    nb = json.loads(ruta.read_text())
    for celda in nb["cells"]:
        if celda["cell_type"] == "code":
            assert celda["outputs"] == [] and celda["execution_count"] is None
    for celda in _celdas_calificadas(ruta):
        meta = celda["metadata"]["nbgrader"]
        if meta.get("solution"):
            continue
        gid = meta["grade_id"]
        fuente = "".join(celda["source"])
        assert fuente.lstrip().startswith('"""'), f"{gid}: la celda de prueba empieza con un docstring"
        # the hidden block comes right after the docstring (a failing visible assert
        # can then never stop the evidence from being published) and is one
        # expression that binds no name in the student's namespace
        despues_del_docstring = fuente.split('"""', 2)[2].lstrip("\n")
        assert despues_del_docstring.startswith(BLOQUE_OCULTO.format(gid=gid)), gid
        oculto = BLOQUE_OCULTO.format(gid=gid)
        assert not nombres_ligados(ast.parse(oculto), todos=True), gid
        visibles = nombres_ligados(ast.parse(despues_del_docstring[len(oculto):]), todos=True)
        assert all(n.startswith("_") for n in visibles), (
            f"{gid}: las pruebas visibles sólo usan nombres que empiezan por _: {sorted(visibles)}")
        especificacion(gid)
        if gid in PROPIEDADES:
            assert float(meta["points"]) == PROPIEDADES[gid].puntos, gid
        else:
            assert gid in juez.preguntas_de(ruta.stem), f"{gid} no tiene respuesta en grader_tests"


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
