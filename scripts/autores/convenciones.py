"""The course's notebook conventions, as checks that return Spanish problems (docs/autores.md, «Autores»).

Pure checks on the notebooks' JSON (no kernel, no nbgrader run), shared by
``tests/test_release.py`` and ``make comprobar`` (``scripts/autores/comprobar.py``):

* source notebooks are saved without outputs;
* every graded test cell opens with a docstring, then the hidden block
  (``__import__("grader_tests").corregir("<grade_id>", globals())``, one
  expression binding no name), then the visible tests, which only bind
  names that start with ``_``;
* the solution cell of an exercise keeps its ``def`` line and docstring
  outside ``### BEGIN SOLUTION``; a quiz answer cell keeps its comment
  (how to answer) outside;
* released notebooks carry no solution, no hidden test and the Spanish stub;
* together with ``grader_tests.descubrimiento.problemas``: every cell has
  its cases, property, points and quiz answer.
"""
from __future__ import annotations

import ast
import json
from pathlib import Path

# the whole hidden region of a test cell (docs/autores.md, «Autores»)
BLOQUE_OCULTO = ('### BEGIN HIDDEN TESTS\n__import__("grader_tests").corregir("{gid}", globals())\n'
                 '### END HIDDEN TESTS\n')
STUB = "# ESCRIBE TU CÓDIGO AQUÍ"
PROHIBIDO_EN_RELEASE = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "corregir(", "grader_tests")


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


def _leer(ruta: Path) -> dict:
    return json.loads(Path(ruta).read_text(encoding="utf-8"))


def _fuente(celda: dict) -> str:
    fuente = celda.get("source", "")
    return "".join(fuente) if isinstance(fuente, list) else fuente


def problemas_de_salidas(ruta: Path, nombre: str | None = None) -> list[str]:
    """Code cells of a source notebook saved with outputs or an execution count."""
    nombre = nombre or str(ruta)
    sucias = [i for i, c in enumerate(_leer(ruta).get("cells", []))
              if c.get("cell_type") == "code" and (c.get("outputs") or c.get("execution_count") is not None)]
    if sucias:
        return [f"{nombre}: {len(sucias)} celdas guardadas con salidas (la primera, la {sucias[0] + 1}): "
                "bórralas (Editar ▸ Borrar todas las salidas, o jupyter nbconvert --clear-output "
                "--inplace) y guarda"]
    return []


def problemas_de_celdas(ruta: Path, nombre: str | None = None) -> list[str]:
    """The conventions of a source notebook's nbgrader cells (see the module docstring)."""
    nombre = nombre or str(ruta)
    problemas = []
    for numero, celda in enumerate(_leer(ruta).get("cells", []), start=1):
        meta = celda.get("metadata", {}).get("nbgrader", {})
        gid = meta.get("grade_id")
        if not gid or celda.get("cell_type") != "code":
            continue
        fuente = _fuente(celda)
        donde = f"{nombre}, celda {numero} ({gid})"
        if meta.get("solution"):
            if "### BEGIN SOLUTION" not in fuente:
                problemas.append(f"{donde}: la celda de respuesta no marca su solución con ### BEGIN SOLUTION")
            elif gid.startswith("respuesta_"):
                if not fuente.lstrip().startswith("#"):
                    problemas.append(f"{donde}: la celda de respuesta empieza con un comentario que dice "
                                     f"cómo contestar ({gid} = ...), fuera de la solución")
            else:
                antes = fuente.split("### BEGIN SOLUTION")[0]
                if f"def {gid}(" not in antes or ('"""' not in antes and "'''" not in antes):
                    problemas.append(f"{donde}: la línea `def {gid}(...)` y su docstring van fuera de "
                                     "### BEGIN SOLUTION (el alumno las recibe)")
            continue
        if not meta.get("grade"):
            continue
        if not fuente.lstrip().startswith('"""'):
            problemas.append(f"{donde}: la celda de prueba empieza con un docstring que dice qué comprueba")
            continue
        despues = fuente.split('"""', 2)[2].lstrip("\n")
        oculto = BLOQUE_OCULTO.format(gid=gid)
        if not despues.startswith(oculto):
            problemas.append(f"{donde}: justo después del docstring va el bloque oculto\n"
                             + "".join("      " + l + "\n" for l in oculto.splitlines())
                             + "    (antes de las pruebas visibles: una aserción visible que falle nunca "
                             "impide calificar)")
            continue
        try:
            visibles = nombres_ligados(ast.parse(despues[len(oculto):]), todos=True)
        except SyntaxError as exc:
            problemas.append(f"{donde}: las pruebas visibles no son Python válido ({exc.msg}, línea {exc.lineno})")
            continue
        malos = sorted(n for n in visibles if not n.startswith("_"))
        if malos:
            problemas.append(f"{donde}: las pruebas visibles sólo crean nombres que empiezan por _ "
                             f"(no pisan los del alumno): {', '.join(malos)}")
    return problemas


def problemas_de_release(ruta: Path, nombre: str | None = None) -> list[str]:
    """A released notebook: no solutions, no hidden tests, the Spanish stub where a solution was."""
    nombre = nombre or str(ruta)
    texto = Path(ruta).read_text(encoding="utf-8")
    problemas = [f"{nombre}: contiene «{p}» (¿una solución o una prueba oculta sin marcar?)"
                 for p in PROHIBIDO_EN_RELEASE if p in texto]
    if "ESCRIBE TU CÓDIGO AQUÍ" not in texto:
        problemas.append(f"{nombre}: ninguna celda de respuesta con «{STUB}»")
    return problemas
