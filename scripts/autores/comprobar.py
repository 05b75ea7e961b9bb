"""``make comprobar``: the author's check of the whole course before committing, in Spanish.

Checks, and prints what is wrong and where (exit status 1 if anything is):

1. lessons, exercises, cells and quizzes fit together (``grader_tests.descubrimiento``:
   a lesson without a grader, a test cell without cases, a known mistake without
   a battery file, a quiz answer cell without its answer…);
2. source notebooks saved without outputs and with every convention the release
   test checks (``scripts/autores/convenciones.py``); every assignment's
   ``nbgrader_config.py`` is the course's student copy, and its
   ``pruebas_visibles.py`` and ``cuestionario.json`` are what
   ``scripts/autores/publicar_comprobaciones.py`` writes (``make release``);
3. ``release/`` in sync with ``source/`` (what ``nbgrader generate_assignment``
   makes, file by file; ``--regenerar`` regenerates the lessons out of sync);
4. each source notebook runs top to bottom, and its hidden tests give its
   solution full marks (and the exercise's reference too);
5. every battery file of every exercise keeps its header in the hidden tests
   (so every known mistake of the catalogue is caught and named), and the
   visible tests agree: they fail for every implementation that loses points
   outside the cells checked only at grading time, and pass every one with
   full marks (the battery is run in each lesson's kernel);
6. no passage copied from the seeds (``../shared/tools/originality.py``, when there) and no
   lesson that closely paraphrases them (``../shared/tools/paraphrase.py``: at most 3 % of a
   lesson's sentences within 0.40 of a seed sentence);
7. the README's lesson table lists every lesson.

Warnings (do not fail): a lesson that is still ``make leccion``'s template.

    python scripts/autores/comprobar.py [--leccion 03_algo ...] [--regenerar] [--rapido]

``--rapido`` skips what needs a kernel or nbgrader (4, 5's visible tests and 3).
"""
from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]
# Run as a script (make grade, make comprobar...), Python puts this folder first on sys.path: the course
# root takes its place, so these modules have one name only (scripts.autores.<módulo>).
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(RAIZ)
if str(RAIZ) not in sys.path:
    sys.path.insert(0, str(RAIZ))

from scripts.autores import convenciones  # noqa: E402

ORIGINALIDAD = RAIZ.parent / "shared" / "tools" / "originality.py"
PARAFRASIS = RAIZ.parent / "shared" / "tools" / "paraphrase.py"
MARCA = "@@COMPROBAR@@"
OCULTO = re.compile(r"### BEGIN HIDDEN TESTS\n.*?### END HIDDEN TESTS\n?", re.S)
PUNTOS = re.compile(r"Puntos: ([0-9.]+) de ([0-9.]+)")


@dataclass
class Apartado:
    """One line of the report: what was checked, and the problems found (none: ✔)."""

    titulo: str
    problemas: list[str] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)
    detalle: str = ""

    def texto(self) -> str:
        marca = "✘" if self.problemas else ("!" if self.avisos else "✔")
        lineas = [f"{marca} {self.titulo}" + (f": {self.detalle}" if self.detalle and not self.problemas else "")]
        lineas += [f"    {p}".replace("\n", "\n    ") for p in self.problemas]
        lineas += [f"    aviso: {a}" for a in self.avisos]
        return "\n".join(lineas)


def _rel(ruta: Path, raiz: Path) -> str:
    try:
        return str(Path(ruta).relative_to(raiz))
    except ValueError:
        return str(ruta)


def _entorno(raiz: Path) -> dict:
    entorno = dict(os.environ)
    entorno["PATH"] = str(Path(sys.executable).parent) + os.pathsep + entorno.get("PATH", "")
    entorno["PYTHONPATH"] = os.pathsep.join([str(raiz)] + [p for p in [entorno.get("PYTHONPATH")] if p])
    entorno.pop("NBGRADER_EXECUTION", None)
    return entorno


# ------------------------------------------------------------ 1 and 2: static

def comprobar_descubrimiento(raiz: Path) -> Apartado:
    from grader_tests import descubrimiento
    lecciones = descubrimiento.lecciones(raiz)
    apartado = Apartado("Lecciones, ejercicios, celdas y cuestionarios encajan",
                        problemas=descubrimiento.problemas(raiz))
    apartado.detalle = (f"{len(lecciones)} lecciones, ejercicios "
                        f"{', '.join(descubrimiento.nombres_de_ejercicios()) or 'ninguno'}")
    return apartado


def comprobar_cuadernos(raiz: Path) -> Apartado:
    apartado = Apartado("Cuadernos de source/ sin salidas y con las convenciones de las celdas")
    for ruta in sorted((raiz / "source").glob("*/*.ipynb")):
        nombre = _rel(ruta, raiz)
        apartado.problemas += convenciones.problemas_de_salidas(ruta, nombre)
        apartado.problemas += convenciones.problemas_de_celdas(ruta, nombre)
        try:
            if "Esta lección es la plantilla de `make leccion`." in ruta.read_text(encoding="utf-8"):
                apartado.avisos.append(f"{nombre} sigue siendo la plantilla de make leccion: escribe tu lección")
        except OSError:
            pass
    for ruta in sorted((raiz / "release").glob("*/*.ipynb")):
        apartado.problemas += convenciones.problemas_de_release(ruta, _rel(ruta, raiz))
    copia = raiz / "plantillas" / "leccion" / "nbgrader_config.py"
    for carpeta in sorted(p.parent for p in (raiz / "source").glob("*/*.ipynb")):
        config = carpeta / "nbgrader_config.py"
        if not config.exists():
            apartado.problemas.append(f"falta {_rel(config, raiz)}: cópialo de {_rel(copia, raiz)} (los límites de "
                                      "la corrección para Validate)")
        elif copia.exists() and config.read_bytes() != copia.read_bytes():
            apartado.problemas.append(f"{_rel(config, raiz)} no es la copia del alumno del curso "
                                      f"({_rel(copia, raiz)})")
    if (raiz / "scripts" / "autores" / "publicar_comprobaciones.py").exists():
        from scripts.autores import publicar_comprobaciones
        apartado.problemas += publicar_comprobaciones.desfasados(raiz)
    return apartado


def comprobar_readme(raiz: Path) -> Apartado:
    from grader_tests import descubrimiento
    apartado = Apartado("La tabla de lecciones del README las nombra todas")
    readme = raiz / "README.md"
    texto = readme.read_text(encoding="utf-8") if readme.exists() else ""
    filas = {m[0]: m[1] for m in re.findall(r"^\| `(\d{2}_[a-z0-9_]+)` \|(.*)$", texto, re.M)}
    for leccion in descubrimiento.lecciones(raiz):
        fila = filas.get(leccion.tarea)
        if fila is None:
            apartado.problemas.append(f"README.md: falta la fila de `{leccion.tarea}` en la tabla de lecciones "
                                      f"(| `{leccion.tarea}` | `{leccion.cuaderno.name}` | explorable | ejercicio |)")
            continue
        for esperado in [leccion.cuaderno.name] + leccion.funciones:
            if f"`{esperado}`" not in fila:
                apartado.problemas.append(f"README.md: la fila de `{leccion.tarea}` no nombra `{esperado}`")
    for tarea in sorted(set(filas) - {l.tarea for l in descubrimiento.lecciones(raiz)}):
        apartado.problemas.append(f"README.md: la tabla nombra `{tarea}`, que no está en source/")
    return apartado


def comprobar_originalidad(raiz: Path) -> Apartado:
    if not ORIGINALIDAD.exists():
        return Apartado("Originalidad frente a las semillas", avisos=[f"no está {ORIGINALIDAD}: no se comprueba"])
    salida = subprocess.run([sys.executable, str(ORIGINALIDAD), "."], cwd=raiz, capture_output=True, text=True,
                            timeout=600)
    apartado = Apartado("Originalidad frente a las semillas (../shared/tools/originality.py)",
                        detalle="ningún pasaje copiado")
    if salida.returncode != 0:
        apartado.problemas = [l for l in salida.stdout.splitlines() if l.strip()][:40] or [salida.stderr[-500:]]
    return apartado


def comprobar_parafrasis(raiz: Path) -> Apartado:
    """Each lesson's prose in its own words: ``paraphrase.py`` exits 0 (<= 3 % at 0.40)."""
    if not PARAFRASIS.exists():
        return Apartado("Paráfrasis de las semillas", avisos=[f"no está {PARAFRASIS}: no se comprueba"])
    salida = subprocess.run([sys.executable, str(PARAFRASIS), "--show", "5"], cwd=raiz, capture_output=True,
                            text=True, timeout=600)
    apartado = Apartado("Paráfrasis de las semillas (../shared/tools/paraphrase.py)",
                        detalle="cada lección con un 3 % o menos de frases cercanas a una semilla")
    if salida.returncode != 0:
        apartado.problemas = [l for l in salida.stdout.splitlines() if l.strip()][:40] or [salida.stderr[-500:]]
    return apartado


# --------------------------------------------------------- 3: release in sync

def comprobar_release(raiz: Path, tareas: list[str], regenerar: bool) -> Apartado:
    apartado = Apartado("release/ al día con source/ (lo que hace nbgrader generate_assignment)")
    with tempfile.TemporaryDirectory(prefix="comprobar-release-") as tmp:
        copia = Path(tmp) / "curso"
        copia.mkdir()
        ignorar = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints")
        shutil.copy(raiz / "nbgrader_config.py", copia)
        for nombre in ("grader_tests", "lms"):
            if (raiz / nombre).is_dir():
                shutil.copytree(raiz / nombre, copia / nombre, ignore=ignorar)
        for tarea in tareas:
            shutil.copytree(raiz / "source" / tarea, copia / "source" / tarea, ignore=ignorar)
        desfasadas = []
        for tarea in tareas:
            proceso = subprocess.run(["nbgrader", "generate_assignment", tarea, "--force"], cwd=copia,
                                     env=_entorno(copia), capture_output=True, text=True)
            if proceso.returncode != 0:
                apartado.problemas.append(f"source/{tarea}: nbgrader generate_assignment falla:\n"
                                          + (proceso.stdout + proceso.stderr)[-1500:])
                continue
            nuevo, actual = copia / "release" / tarea, raiz / "release" / tarea
            diferencias = _diferencias(actual, nuevo)
            if diferencias:
                desfasadas.append(tarea)
                apartado.problemas.append(f"release/{tarea} no es lo que genera source/{tarea} "
                                          f"({', '.join(diferencias[:5])}): ejecuta make release")
    if regenerar and desfasadas:
        for tarea in desfasadas:
            subprocess.run(["nbgrader", "generate_assignment", tarea, "--force"], cwd=raiz, env=_entorno(raiz),
                           capture_output=True, text=True, check=True)
        apartado.problemas = [p for p in apartado.problemas if "no es lo que genera" not in p]
        apartado.avisos.append(f"regenerado release/ de {', '.join(desfasadas)}: revisa y confirma el cambio")
    return apartado


def _diferencias(actual: Path, nuevo: Path) -> list[str]:
    if not actual.is_dir():
        return ["no existe"]
    comparacion = filecmp.dircmp(actual, nuevo, ignore=["__pycache__", ".ipynb_checkpoints"])
    diferencias = [f"sobra {n}" for n in comparacion.left_only] + [f"falta {n}" for n in comparacion.right_only]
    for nombre in comparacion.common_files:
        if (actual / nombre).read_bytes() != (nuevo / nombre).read_bytes():
            diferencias.append(f"{nombre} distinto")
    return diferencias


# ------------------------------------------- 4 and 5: in a kernel, per lesson

def _celda_de_bateria(funcion: str, archivo, pruebas: dict[str, str]) -> str:
    """Code that defines a battery file's function and runs the exercise's visible tests on it."""
    return f'''import contextlib as __c, io as __io, json as __json
__resultado = {{"funcion": {funcion!r}, "archivo": {archivo.nombre!r}, "fallan": {{}}}}
try:
    with __c.redirect_stdout(__io.StringIO()), __c.redirect_stderr(__io.StringIO()):
        exec(compile({archivo.codigo!r}, {str(archivo.ruta)!r}, "exec"), globals())
except BaseException as __e:
    __resultado["no_se_define"] = f"{{type(__e).__name__}}: {{__e}}"[:300]
for __gid, __fuente in {pruebas!r}.items():
    try:
        with __c.redirect_stdout(__io.StringIO()), __c.redirect_stderr(__io.StringIO()):
            exec(compile(__fuente, __gid, "exec"), globals())
    except BaseException as __e:
        __resultado["fallan"][__gid] = f"{{type(__e).__name__}}: {{__e}}"[:300]
print({MARCA!r} + __json.dumps(__resultado))
'''


def _ejecutar(nb, carpeta: Path, raiz: Path) -> str | None:
    """Execute ``nb`` in a kernel whose working folder is ``carpeta``; the error that stopped it, if any."""
    from nbclient import NotebookClient
    cliente = NotebookClient(nb, timeout=180, kernel_name="python3", allow_errors=True,
                             resources={"metadata": {"path": str(carpeta)}})
    try:
        cliente.execute(env=_entorno(raiz), stderr=subprocess.DEVNULL)
    except Exception as exc:  # noqa: BLE001 - a kernel that dies is a problem to report
        return f"{type(exc).__name__}: {str(exc)[:300]}"
    return None


def comprobar_leccion(raiz: Path, tarea: str) -> list[Apartado]:
    """Run a lesson's source notebook top to bottom, then its exercises' battery against the visible tests.

    The kernel runs in a thread while this process judges the battery with the
    hidden tests (in-process): a slow battery file waits once for both.
    """
    import threading

    import nbformat

    from grader_tests import bateria, descubrimiento

    leccion = next(l for l in descubrimiento.lecciones(raiz) if l.tarea == tarea)
    ejecucion = Apartado(f"{leccion.tarea}: el cuaderno se ejecuta de principio a fin y sus pruebas ocultas "
                         "dan la nota completa a la solución")
    visibles = Apartado(f"{leccion.tarea}: la referencia y la batería en las pruebas ocultas, y la batería "
                        "en las visibles")
    nb = nbformat.read(leccion.cuaderno, as_version=4)
    n_originales = len(nb.cells)
    try:
        ejercicios = {f: descubrimiento.ejercicio(f) for f in leccion.funciones}
    except descubrimiento.ErrorDeCurso as exc:
        ejecucion.problemas.append(str(exc))
        ejercicios = {}
    for funcion, ej in ejercicios.items():
        pruebas = {c.metadata.nbgrader["grade_id"]: OCULTO.sub("", c.source) for c in nb.cells
                   if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") in ej.propiedades}
        for archivo in ej.bateria():
            nb.cells.append(nbformat.v4.new_code_cell(_celda_de_bateria(funcion, archivo, pruebas)))
    inicio = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="comprobar-leccion-") as tmp:
        carpeta = Path(tmp) / leccion.tarea
        shutil.copytree(leccion.carpeta, carpeta, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
        fallo: list = []
        hilo = threading.Thread(target=lambda: fallo.append(_ejecutar(nb, carpeta, raiz)))
        hilo.start()
        juicios = {(f, a.nombre): bateria.juzgar_archivo(ej, a) for f, ej in ejercicios.items() for a in ej.bateria()}
        hilo.join()
    if fallo and fallo[0]:
        ejecucion.problemas.append(f"{_rel(leccion.cuaderno, raiz)}: no se pudo ejecutar ({fallo[0]})")
    conseguidos = maximos = 0.0
    for numero, celda in enumerate(nb.cells[:n_originales], start=1):
        if celda.cell_type != "code":
            continue
        errores = [s for s in celda.get("outputs", []) if s.get("output_type") == "error"]
        gid = celda.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
        if errores:
            e = errores[0]
            ejecucion.problemas.append(f"{_rel(leccion.cuaderno, raiz)}, celda {numero}{f' ({gid})' if gid else ''}: "
                                       f"{e.get('ename')}: {str(e.get('evalue', ''))[:400]}")
        texto = "".join(s.get("text", "") for s in celda.get("outputs", []) if s.get("output_type") == "stream")
        for a, b in PUNTOS.findall(texto):
            conseguidos, maximos = conseguidos + float(a), maximos + float(b)
    ejecucion.detalle = f"{conseguidos:g} de {maximos:g} puntos"
    if not ejecucion.problemas and conseguidos < maximos:
        ejecucion.problemas.append(f"las pruebas ocultas dan {conseguidos:g} de {maximos:g} a la solución")
    resultados = {}
    for celda in nb.cells[n_originales:]:
        texto = "".join(s.get("text", "") for s in celda.get("outputs", []) if s.get("output_type") == "stream")
        for linea in texto.splitlines():
            if linea.startswith(MARCA):
                r = json.loads(linea[len(MARCA):])
                resultados[(r["funcion"], r["archivo"])] = r
    for funcion, ej in ejercicios.items():
        for archivo in ej.bateria():
            veredictos, fallos = juicios[(funcion, archivo.nombre)]
            visibles.problemas += [f"{_rel(archivo.ruta, raiz)}: {f}" for f in fallos]
            r = resultados.get((funcion, archivo.nombre))
            if r is None:
                visibles.problemas.append(f"{_rel(archivo.ruta, raiz)}: no se pudo pasar por las pruebas visibles")
                continue
            pierde = [g for g, v in veredictos.items() if v.puntos < v.maximo
                      and not ej.propiedades[g].solo_al_calificar]
            if "no_se_define" in r:
                visibles.problemas.append(f"{_rel(archivo.ruta, raiz)}: no define la función: {r['no_se_define']}")
            elif pierde and not r["fallan"]:
                visibles.problemas.append(
                    f"{_rel(archivo.ruta, raiz)}: pierde puntos en {', '.join(pierde)} y ninguna prueba visible "
                    "falla: Validate diría «Success». Añade un caso visible que lo atrape (docs/como_se_califica.md, «Validate dice "
                    "lo mismo que la nota»)")
            elif all(v.completo for v in veredictos.values()) and r["fallan"]:
                visibles.problemas.append(
                    f"{_rel(archivo.ruta, raiz)}: saca la nota completa y fallan pruebas visibles: "
                    + "; ".join(f"{g}: {m}" for g, m in r["fallan"].items())[:600])
    for funcion, ej in ejercicios.items():
        referencia = bateria.corregir(funcion, ej.referencia)
        perdidas = {g: v.puntos for g, v in referencia.items() if not v.completo}
        if perdidas:
            visibles.problemas.append(f"{_rel(ej.carpeta / 'referencia.py', raiz)}: la referencia no saca la nota "
                                      f"completa en {perdidas}")
    errores_conocidos = sum(len(ej.errores) for ej in ejercicios.values())
    n = len(juicios)
    visibles.detalle = (f"{n} {'implementación' if n == 1 else 'implementaciones'}, {errores_conocidos} "
                        f"{'error conocido' if errores_conocidos == 1 else 'errores conocidos'}, "
                        f"{time.monotonic() - inicio:.0f} s")
    return [ejecucion, visibles]


# ------------------------------------------------------------------- the CLI

def comprobar(raiz: Path, lecciones_pedidas: list[str] | None = None, regenerar: bool = False,
              rapido: bool = False, salida=print) -> list[Apartado]:
    """Run every check on the course at ``raiz``, printing each result as it is known."""
    from grader_tests import descubrimiento
    apartados = []

    def anotar(apartado: Apartado) -> None:
        apartados.append(apartado)
        salida(apartado.texto())

    anotar(comprobar_descubrimiento(raiz))
    anotar(comprobar_cuadernos(raiz))
    todas = descubrimiento.lecciones(raiz)
    desconocidas = sorted(set(lecciones_pedidas or []) - {l.tarea for l in todas})
    if desconocidas:
        anotar(Apartado("Lecciones pedidas", problemas=[f"no hay ninguna lección {t} en source/" for t in desconocidas]))
    elegidas = [l.tarea for l in todas if not lecciones_pedidas or l.tarea in lecciones_pedidas]
    if not rapido:
        # the release check and each lesson's kernel in parallel processes (2 cores)
        with ProcessPoolExecutor(max_workers=2) as grupo:
            release = grupo.submit(comprobar_release, raiz, elegidas, regenerar)
            por_leccion = [grupo.submit(comprobar_leccion, raiz, tarea) for tarea in elegidas]
            anotar(release.result())
            for futuro in por_leccion:
                for apartado in futuro.result():
                    anotar(apartado)
    anotar(comprobar_originalidad(raiz))
    anotar(comprobar_parafrasis(raiz))
    anotar(comprobar_readme(raiz))
    return apartados


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Comprueba el curso antes de confirmar un cambio (make comprobar).")
    parser.add_argument("--leccion", action="append", help="sólo esta lección para lo que necesita un núcleo "
                        "(se puede repetir)")
    parser.add_argument("--regenerar", action="store_true", help="regenera release/ de las lecciones desfasadas")
    parser.add_argument("--rapido", action="store_true", help="sin núcleos ni nbgrader (sólo lo estático)")
    parser.add_argument("--raiz", type=Path, default=RAIZ, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        sys.stdout.reconfigure(errors="replace")
    except (AttributeError, ValueError):
        pass
    print(f"Comprobación del curso en {args.raiz}\n", flush=True)
    apartados = comprobar(args.raiz, args.leccion, args.regenerar, args.rapido,
                          salida=lambda t: print(t, flush=True))
    problemas = sum(len(a.problemas) for a in apartados)
    avisos = sum(len(a.avisos) for a in apartados)
    print()
    if problemas:
        print(f"✘ {problemas} problema{'s' if problemas != 1 else ''}"
              + (f" y {avisos} aviso{'s' if avisos != 1 else ''}" if avisos else "")
              + ": corrígelos antes de confirmar.")
        return 1
    print("✔ Todo en orden" + (f" ({avisos} aviso{'s' if avisos != 1 else ''})." if avisos else "."))
    return 0


if __name__ == "__main__":
    sys.exit(main())
