"""``make leccion NOMBRE=03_algo FUNCION=f``: a new lesson with its graded exercise, ready to edit.

Creates, from ``plantillas/leccion/`` (a small working lesson: the scaled
scores Q Kᵀ / √d_k, one known mistake, one quiz question):

* ``source/<NOMBRE>/<nombre>.ipynb``: the lesson with the course's conventions
  (solution cell, test cells with the hidden block first, a quiz question
  checked at once, Spanish stubs), its explorable ``explorable_<nombre>.py``
  (three layers and the static fallback), its visible tests
  ``pruebas_<FUNCION>.py`` (one function per test cell), the assignment's
  ``nbgrader_config.py``, and ``pruebas_visibles.py`` and ``cuestionario.json``
  (``scripts/autores/publicar_comprobaciones.py``);
* ``grader_tests/ejercicios/<FUNCION>/``: ``casos.py``, ``referencia.py``,
  ``propiedades.py``, ``errores.py`` (one known mistake) and ``bateria/``
  (two correct implementations, the one with the grader's public names, and
  the known mistake);
* ``grader_tests/cuestionarios/<nombre>.py``: the quiz answer;
* ``tests/test_explorable_<nombre>.py``: the explorable's tests;
* a row of the README's lesson table;

then runs ``nbgrader generate_assignment`` so ``release/`` stays in sync.
The new lesson passes ``make test`` and ``make comprobar`` as it is (the
latter warns that it is still the template).  Nothing else is edited: every
test, the battery, the samples and the TA table find it by convention.

    python scripts/autores/leccion.py 03_algo f [--titulo "Un título"] [--sin-release]
"""
from __future__ import annotations

import argparse
import keyword
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

RAIZ = Path(__file__).resolve().parents[2]
PLANTILLA = RAIZ / "plantillas" / "leccion"
NOMBRE_VALIDO = re.compile(r"^(?P<numero>\d{2})_(?P<nombre>[a-z][a-z0-9_]*)$")
FUNCION_VALIDA = re.compile(r"^[a-z][a-z0-9_]*$")
MARCA_DE_PLANTILLA = "Esta lección es la plantilla de `make leccion`."


class ErrorDeLeccion(ValueError):
    """The lesson cannot be created; the Spanish message says why."""


def fichas(raiz: Path, tarea: str, funcion: str, titulo: str | None = None) -> dict[str, str]:
    """The values of the template's tokens (``@@NOMBRE@@``…), after checking the names.

    Raises:
        ErrorDeLeccion: a name does not follow the conventions or is already taken.
    """
    m = NOMBRE_VALIDO.match(tarea)
    if not m:
        raise ErrorDeLeccion(f"NOMBRE={tarea!r} no vale: dos cifras, un guion bajo y un nombre en minúsculas "
                             "sin espacios ni tildes, como 03_puntuaciones")
    if not FUNCION_VALIDA.match(funcion) or keyword.iskeyword(funcion):
        raise ErrorDeLeccion(f"FUNCION={funcion!r} no vale: el nombre de una función de Python en minúsculas, "
                             "como puntuaciones_escaladas")
    nombre = m["nombre"]
    ocupados = [
        (raiz / "source" / tarea, "ya existe la lección"),
        (raiz / "grader_tests" / "ejercicios" / funcion, "ya existe el ejercicio"),
        (raiz / "grader_tests" / "cuestionarios" / f"{nombre}.py", "ya existe el cuestionario"),
        (raiz / "tests" / f"test_explorable_{nombre}.py", "ya existen las pruebas del explorable"),
    ]
    for ruta, motivo in ocupados:
        if ruta.exists():
            raise ErrorDeLeccion(f"{motivo} {ruta.relative_to(raiz)}: elige otro nombre")
    repetidos = [p for p in (raiz / "source").glob(f"*/{nombre}.ipynb")]
    if repetidos:
        raise ErrorDeLeccion(f"ya hay un cuaderno {nombre}.ipynb ({repetidos[0].relative_to(raiz)}): "
                             "los cuestionarios se encuentran por el nombre del cuaderno")
    return {"@@TAREA@@": tarea, "@@NOMBRE@@": nombre, "@@FUNCION@@": funcion,
            "@@NUMERO@@": str(int(m["numero"])),
            "@@TITULO@@": titulo or nombre.replace("_", " ").capitalize()}


def _rellenar(texto: str, valores: dict[str, str]) -> str:
    for ficha, valor in valores.items():
        texto = texto.replace(ficha, valor)
    restos = sorted(set(re.findall(r"@@[A-Z]+@@", texto)))
    if restos:
        raise ErrorDeLeccion(f"la plantilla tiene fichas sin valor: {restos}")
    return texto


def _copiar(origen: Path, destino: Path, valores: dict[str, str]) -> Path:
    destino.parent.mkdir(parents=True, exist_ok=True)
    destino.write_text(_rellenar(origen.read_text(encoding="utf-8"), valores), encoding="utf-8")
    return destino


def _fila_del_readme(raiz: Path, valores: dict[str, str]) -> str | None:
    """Add the lesson to the README's lesson table (after its last row); the row, or None."""
    readme = raiz / "README.md"
    if not readme.exists():
        return None
    lineas = readme.read_text(encoding="utf-8").split("\n")
    filas = [i for i, l in enumerate(lineas) if re.match(r"^\| `\d{2}_[a-z0-9_]+` \|", l)]
    if not filas:
        return None
    fila = (f"| `{valores['@@TAREA@@']}` | `{valores['@@NOMBRE@@']}.ipynb` | puntuaciones Q Kᵀ con y sin "
            f"la escala 1/√d_k | `{valores['@@FUNCION@@']}` |")
    lineas.insert(filas[-1] + 1, fila)
    readme.write_text("\n".join(lineas), encoding="utf-8")
    return fila


def crear(raiz: Path, tarea: str, funcion: str, titulo: str | None = None, release: bool = True) -> list[Path]:
    """Create the lesson ``tarea`` with the exercise ``funcion`` in the course at ``raiz``; the files made.

    Raises:
        ErrorDeLeccion: a name is invalid or taken (nothing is written then),
            or ``nbgrader generate_assignment`` failed.
    """
    raiz = Path(raiz)
    v = fichas(raiz, tarea, funcion, titulo)
    nombre = v["@@NOMBRE@@"]
    leccion = raiz / "source" / tarea
    ejercicio = raiz / "grader_tests" / "ejercicios" / funcion
    hechos: list[Path] = []
    cuaderno = nbformat.reads(_rellenar((PLANTILLA / "leccion.ipynb").read_text(encoding="utf-8"), v),
                              as_version=4)
    leccion.mkdir(parents=True)
    nbformat.write(cuaderno, leccion / f"{nombre}.ipynb")
    hechos.append(leccion / f"{nombre}.ipynb")
    hechos.append(_copiar(PLANTILLA / "explorable.py", leccion / f"explorable_{nombre}.py", v))
    hechos.append(_copiar(PLANTILLA / "pruebas.py", leccion / f"pruebas_{funcion}.py", v))
    shutil.copyfile(PLANTILLA / "nbgrader_config.py", leccion / "nbgrader_config.py")
    hechos.append(leccion / "nbgrader_config.py")
    for origen in sorted((PLANTILLA / "grader").rglob("*.py")):
        hechos.append(_copiar(origen, ejercicio / origen.relative_to(PLANTILLA / "grader"), v))
    hechos.append(_copiar(PLANTILLA / "cuestionario.py", raiz / "grader_tests" / "cuestionarios" / f"{nombre}.py", v))
    hechos.append(_copiar(PLANTILLA / "test_explorable.py", raiz / "tests" / f"test_explorable_{nombre}.py", v))
    # the battery's solution with the grader's public names, computed from the course as it is now
    nombres = next(ejercicio.glob("bateria/c*_nombres_del_corrector.py"))
    subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                    "from scripts.autores.nombres_del_corrector import reescribir; "
                    "from pathlib import Path; reescribir(Path(sys.argv[2]), sys.argv[3])",
                    str(raiz), str(nombres), funcion], cwd=raiz, check=True)
    # what the visible checks need in the lesson folder: the common module (the Spanish failure, the
    # quiz's reading and instant check) and the quiz's answers (what make release writes), in a
    # process of the course at ``raiz`` (this one may hold another course's grader_tests)
    subprocess.run([sys.executable, str(raiz / "scripts" / "autores" / "publicar_comprobaciones.py")], cwd=raiz, check=True,
                   capture_output=True)
    hechos += [leccion / "pruebas_visibles.py", leccion / "cuestionario.json"]
    fila = _fila_del_readme(raiz, v)
    if fila:
        hechos.append(raiz / "README.md")
    if release:
        binarios = str(Path(sys.executable).parent)       # nbgrader runs alembic from PATH
        entorno = {**os.environ, "PATH": binarios + os.pathsep + os.environ.get("PATH", "")}
        # --no-db: a draft lesson stays out of the course's gradebook (and of the grades exported to
        # the LMS) until the author releases it with make release / make grade
        proceso = subprocess.run([str(Path(binarios) / "nbgrader"), "generate_assignment", tarea, "--force",
                                  "--no-db"],
                                 cwd=raiz, capture_output=True, text=True, env=entorno)
        if proceso.returncode != 0:
            raise ErrorDeLeccion(f"la lección está en source/{tarea}/, pero nbgrader generate_assignment "
                                 "falló (corrígelo y ejecuta make release):\n" + proceso.stdout[-2000:]
                                 + proceso.stderr[-2000:])
        hechos += sorted((raiz / "release" / tarea).iterdir())
    return hechos


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Crea una lección nueva con su ejercicio calificado a partir de plantillas/leccion/.")
    parser.add_argument("nombre", help="carpeta de la tarea: dos cifras y un nombre, p. ej. 03_puntuaciones")
    parser.add_argument("funcion", help="la función que escribe el alumno, p. ej. puntuaciones_escaladas")
    parser.add_argument("--titulo", help="título de la lección (por defecto, el nombre)")
    parser.add_argument("--sin-release", action="store_true", help="no ejecutar nbgrader generate_assignment")
    parser.add_argument("--raiz", type=Path, default=RAIZ, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        hechos = crear(args.raiz, args.nombre, args.funcion, args.titulo, release=not args.sin_release)
    except ErrorDeLeccion as exc:
        print(f"make leccion: {exc}", file=sys.stderr)
        return 2
    print(f"Lección {args.nombre} creada con el ejercicio `{args.funcion}`:")
    for ruta in hechos:
        print(f"  {ruta.relative_to(args.raiz)}")
    print("\nEs una lección de ejemplo que ya pasa las pruebas. Ahora:\n"
          f"  1. escribe la lección en source/{args.nombre}/ (make lab) y su explorable;\n"
          f"  2. cambia el ejercicio en grader_tests/ejercicios/{args.funcion}/ (casos, referencia, propiedades,\n"
          "     errores conocidos y su batería) y la pregunta en grader_tests/cuestionarios/;\n"
          "  3. revisa la fila de la tabla de lecciones del README;\n"
          "  4. make release, make comprobar y make test.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
