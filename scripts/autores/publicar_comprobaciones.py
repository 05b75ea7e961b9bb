"""Put into every lesson folder what its visible checks need (``make release`` runs it first).

For each lesson ``source/<tarea>/`` (``grader_tests.juez.descubrimiento.lecciones``):

* ``pruebas_visibles.py``: a copy of ``grader_tests/en_el_kernel/pruebas_visibles.py``
  (the Spanish failure of the visible tests, the quiz's reading and its
  instant check), byte for byte;
* ``cuestionario.json``: the lesson's quiz (answers and explanations) as
  ``grader_tests/cuestionarios/<cuaderno>.py`` declares it, the one source of
  truth (``grader_tests.juez.quiz.exportar``).  A lesson without a quiz gets none.
* ``respaldo_explorable.py``: a copy of ``plantillas/leccion/respaldo_explorable.py``
  (the explorables' static fallback and ``mas_tarde``), for a lesson with an explorable.
* ``diagnosticos.json``: for each graded function of the lesson, the Spanish
  diagnoses of the known mistakes its visible checker names
  (``pruebas_<función>.py``: the ids of ``ERRORES_CONOCIDOS`` and
  ``ERRORES_NOMBRADOS``), as the hidden tests word them
  (``grader_tests/ejercicios/<función>/errores.py``: the ``explicacion`` of
  ``ERRORES`` by id, or the detectors' texts of ``EXPLICACIONES_DE_DETECTORES``),
  so that the visible test names the mistake with the same words
  (``pruebas_visibles.diagnostico``).  Only those: the rest of the catalogue
  stays on the trusted side.  A lesson whose checkers name none gets none.

``nbgrader generate_assignment`` then publishes them with the notebook, and
at grading time ``nbgrader autograde`` puts the course's copies back over a
student's.  ``desfasados(raiz)`` lists what is missing or out of date
(``make comprobar`` and ``tests/test_release.py`` use it).

    python scripts/autores/publicar_comprobaciones.py [--comprobar]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]
# Run as a script (make release), Python puts this folder first on sys.path: the course root instead.
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(RAIZ)
if str(RAIZ) not in sys.path:
    sys.path.insert(0, str(RAIZ))

MODULO = "pruebas_visibles.py"
ORIGEN_MODULO = f"grader_tests/en_el_kernel/{MODULO}"
# the explorables' shared module: one original, a copy in every lesson that has an explorable
RESPALDO = "respaldo_explorable.py"
ORIGEN_RESPALDO = f"plantillas/leccion/{RESPALDO}"
CUESTIONARIO = "cuestionario.json"
DIAGNOSTICOS = "diagnosticos.json"


def nombrados_por_el_comprobador(ruta: Path) -> list[str]:
    """The ids of known mistakes a visible checker names (read from its source, not imported).

    ``ERRORES_CONOCIDOS = (("id", tabla), …)`` and ``ERRORES_NOMBRADOS = ("id", …)`` at the
    module's top level; a missing file or name gives none.
    """
    import ast

    if not ruta.is_file():
        return []
    ids: list[str] = []
    for nodo in ast.parse(ruta.read_text(encoding="utf-8")).body:
        if not isinstance(nodo, ast.Assign) or not isinstance(nodo.value, (ast.Tuple, ast.List)):
            continue
        nombres = {t.id for t in nodo.targets if isinstance(t, ast.Name)}
        for elemento in nodo.value.elts:
            if "ERRORES_CONOCIDOS" in nombres and isinstance(elemento, (ast.Tuple, ast.List)) and elemento.elts:
                elemento = elemento.elts[0]
            elif "ERRORES_NOMBRADOS" not in nombres:
                continue
            if isinstance(elemento, ast.Constant) and isinstance(elemento.value, str):
                ids.append(elemento.value)
    return ids


def diagnosticos(funciones: list[str], carpeta: Path) -> dict[str, dict[str, str]]:
    """``{función: {id: explicación}}``: the Spanish diagnoses of the known mistakes that the visible
    checkers of lesson folder ``carpeta`` name (``nombrados_por_el_comprobador``), for ``funciones``.

    An exercise folder that does not load (``ErrorDeCurso``) is left out here: ``make comprobar``
    names its problem (this function must not stop that check on the first broken folder).
    """
    import importlib

    from grader_tests.juez import descubrimiento

    salida: dict[str, dict[str, str]] = {}
    for funcion in funciones:
        if funcion not in descubrimiento.nombres_de_ejercicios():
            continue
        try:
            ejercicio = descubrimiento.ejercicio(funcion)
            modulo = importlib.import_module(f"grader_tests.ejercicios.{funcion}.errores")
        except descubrimiento.ErrorDeCurso:
            continue
        catalogo = {e.id: e.explicacion for e in ejercicio.errores if e.explicacion}
        catalogo.update(getattr(modulo, "EXPLICACIONES_DE_DETECTORES", {}))
        nombrados = nombrados_por_el_comprobador(Path(carpeta) / f"pruebas_{funcion}.py")
        textos = {e: catalogo[e] for e in nombrados if e in catalogo}
        if textos:
            salida[funcion] = dict(sorted(textos.items()))
    return salida


def _json(datos: dict) -> bytes:
    return (json.dumps(datos, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def contenidos(raiz: Path = RAIZ) -> dict[Path, tuple[bytes, str]]:
    """``{path in a lesson folder: (the bytes it must hold, its origin)}`` for every lesson of ``raiz``."""
    from grader_tests.juez import descubrimiento, quiz

    modulo = (raiz / ORIGEN_MODULO).read_bytes()
    respaldo = (raiz / ORIGEN_RESPALDO).read_bytes()
    salida: dict[Path, tuple[bytes, str]] = {}
    for leccion in descubrimiento.lecciones(raiz):
        salida[leccion.carpeta / MODULO] = (modulo, ORIGEN_MODULO)
        if leccion.explorables:
            salida[leccion.carpeta / RESPALDO] = (respaldo, ORIGEN_RESPALDO)
        preguntas = descubrimiento.cuestionario(leccion.cuaderno.stem)
        if preguntas:
            origen = f"grader_tests/cuestionarios/{leccion.cuaderno.stem}.py"
            datos = {"_origen": f"{origen} (lo escribe make release: no lo edites aquí)"}
            datos.update(quiz.exportar(preguntas))
            salida[leccion.carpeta / CUESTIONARIO] = (_json(datos), origen)
        textos = diagnosticos(leccion.funciones, leccion.carpeta)
        if textos:
            origen = "grader_tests/ejercicios/<función>/errores.py"
            datos = {"_origen": f"{origen} (lo escribe make release: no lo edites aquí)"}
            datos.update(textos)
            salida[leccion.carpeta / DIAGNOSTICOS] = (_json(datos), origen)
    return salida


def desfasados(raiz: Path = RAIZ) -> list[str]:
    """Spanish problems: each file of ``contenidos`` missing or different (empty: all in sync)."""
    problemas = []
    for ruta, (datos, origen) in contenidos(raiz).items():
        rel = ruta.relative_to(raiz)
        if not ruta.exists():
            problemas.append(f"falta {rel}: ejecuta make release")
        elif ruta.read_bytes() != datos:
            problemas.append(f"{rel} no es lo que sale de {origen}: ejecuta make release "
                             "(y edita el original, no la copia)")
    return problemas


def publicar(raiz: Path = RAIZ) -> list[Path]:
    """Write every file of ``contenidos`` that is missing or different; the paths written."""
    escritos = []
    for ruta, (datos, _) in contenidos(raiz).items():
        if not ruta.exists() or ruta.read_bytes() != datos:
            ruta.write_bytes(datos)
            escritos.append(ruta)
    return escritos


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Copia en cada lección pruebas_visibles.py, respaldo_explorable.py, su cuestionario.json "
                    "y su diagnosticos.json.")
    parser.add_argument("--comprobar", action="store_true", help="sólo dice qué falta o está desfasado")
    args = parser.parse_args(argv)
    if args.comprobar:
        problemas = desfasados()
        for problema in problemas:
            print(problema)
        return 1 if problemas else 0
    for ruta in publicar():
        print(f"escrito {ruta.relative_to(RAIZ)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
