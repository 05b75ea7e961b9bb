"""Find the course's exercises, quizzes and lessons by convention, and check them (trusted side only).

Conventions (``README.md``, «Autores»):

* an exercise is a folder ``grader_tests/ejercicios/<function>/`` holding
  ``casos.py`` (inputs per test cell; the only file the student's kernel may
  see), ``referencia.py`` (a function named like the folder),
  ``propiedades.py`` (``RESULTADO``, ``TOLERANCIA``, ``PROPIEDADES``: one
  ``Propiedad`` per cell of ``casos.CELDAS``; optionally ``TRABAJO``, the pieces
  that show work done, and ``TRABAJO_NECESARIO``, those any work must include),
  ``errores.py`` (``ERRORES``: the known mistakes) and ``bateria/`` (student implementations, correct
  ``c*.py`` and wrong ``e*.py``, with ``# espera:`` / ``# error:`` headers);
* a quiz is ``grader_tests/cuestionarios/<notebook>.py`` (``PREGUNTAS``,
  keyed by the grade_id of each ``comprueba_respuesta_N`` cell);
* a lesson is ``source/<NN_nombre>/<nombre>.ipynb`` with its explorable
  ``explorable_*.py`` next to it; its exercise cell's grade_id is the
  function's name, its test cells are ``<function>_<property>``.

``ejercicio(funcion)`` loads and checks one exercise when it is first needed
(a folder that breaks a convention raises ``ErrorDeCurso`` with a Spanish
message naming the file to create or fix, like pluggy checking a plugin when
it is registered).  ``problemas(raiz)`` checks the whole course (lessons,
exercises, battery, quizzes) and returns every problem found: the tests and
``make comprobar`` use it.
"""
from __future__ import annotations

import functools
import importlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Callable

from ..en_el_kernel import casos as casos_mod
from .diagnostico import CATEGORIAS, ErrorConocido
from .propiedades import Parte, Pieza, Propiedad

PAQUETE = Path(__file__).resolve().parent.parent          # grader_tests/ (this layer is juez/)
CARPETA_EJERCICIOS = PAQUETE / "ejercicios"
CARPETA_CUESTIONARIOS = PAQUETE / "cuestionarios"
ARCHIVOS_DEL_EJERCICIO = ("casos.py", "referencia.py", "propiedades.py", "errores.py")
ESPERAS = ("completo", "parcial", "cero")
RESPUESTA = re.compile(r"^respuesta_\d+$")


class ErrorDeCurso(ValueError):
    """A lesson, exercise or quiz breaks a convention; the Spanish message names the file."""


def _rel(ruta: Path) -> str:
    """``ruta`` relative to the course root, for messages (``grader_tests/ejercicios/f/casos.py``)."""
    try:
        return str(ruta.relative_to(PAQUETE.parent))
    except ValueError:
        return str(ruta)


# ------------------------------------------------------------------ exercises

@dataclass
class Ejercicio:
    """One graded exercise, loaded from its folder.

    Attributes:
        funcion: the function the student writes (the folder's name).
        carpeta: ``grader_tests/ejercicios/<funcion>/``.
        casos: its ``casos.py`` module (kernel-safe).
        referencia: the reference implementation.
        partes: what it returns (``propiedades.RESULTADO``).
        tolerancia: ``np.allclose`` keywords of its value checks.
        propiedades: ``{grade_id: Propiedad}``, in the order of ``casos.CELDAS``.
        errores: the catalogue of known mistakes, in order.
        trabajo: the pieces of its computation that show work done
            (``propiedades.TRABAJO``, optional; ``grader_tests.juez.propiedades.Pieza``).
        trabajo_en_cada_control: every control call must show work, not just one
            (``propiedades.TRABAJO_EN_CADA_CONTROL``, optional, default False).
        trabajo_en_la_muestra: what the cell's sample calls must show besides
            (``propiedades.TRABAJO_EN_LA_MUESTRA``, optional: a ``Pieza`` whose
            ``comprobar`` takes the list of sample calls; PE: some work, on the
            first columns, at sizes no lesson publishes).
        trabajo_necesario: pieces every call that does work must also get right
            (``propiedades.TRABAJO_NECESARIO``, optional: multi_head's output computed with its maps).
    """

    funcion: str
    carpeta: Path
    casos: ModuleType
    referencia: Callable
    partes: tuple[Parte, ...]
    tolerancia: dict
    propiedades: dict[str, Propiedad]
    errores: tuple[ErrorConocido, ...]
    especificaciones: dict = field(default_factory=dict)
    trabajo: tuple = ()
    trabajo_en_cada_control: bool = False
    trabajo_en_la_muestra: Pieza | None = None
    trabajo_necesario: tuple = ()

    def argumentos(self, caso: dict) -> tuple:
        return self.casos.argumentos(caso)

    @property
    def nombres_de_argumentos(self) -> tuple[str, ...]:
        return tuple(getattr(self.casos, "ARGUMENTOS", ()))

    @property
    def puntos(self) -> float:
        """Points of all its test cells together."""
        return float(sum(p.puntos for p in self.propiedades.values()))

    def error(self, id_: str) -> ErrorConocido:
        """The known mistake with that id (KeyError if the catalogue has none)."""
        for error in self.errores:
            if error.id == id_:
                return error
        raise KeyError(id_)

    def bateria(self) -> list["ArchivoDeBateria"]:
        """Its battery files, sorted (``bateria/*.py``), headers read."""
        return [leer_bateria(r) for r in sorted((self.carpeta / "bateria").glob("*.py"))]


def nombres_de_ejercicios() -> tuple[str, ...]:
    """The exercise folders (``casos.nombres_de_ejercicios``)."""
    return casos_mod.nombres_de_ejercicios()


def _importar(funcion: str, modulo: str) -> ModuleType:
    ruta = CARPETA_EJERCICIOS / funcion / f"{modulo}.py"
    if not ruta.is_file():
        raise ErrorDeCurso(f"falta {_rel(ruta)}: cada ejercicio tiene {', '.join(ARCHIVOS_DEL_EJERCICIO)} "
                           "(make leccion crea la carpeta completa)")
    try:
        return importlib.import_module(f"{casos_mod.PAQUETE_RAIZ}.ejercicios.{funcion}.{modulo}")
    except ErrorDeCurso:
        raise
    except Exception as exc:
        raise ErrorDeCurso(f"{_rel(ruta)} no se puede importar: {type(exc).__name__}: {exc}") from exc


@functools.lru_cache(maxsize=None)
def ejercicio(funcion: str) -> Ejercicio:
    """The exercise ``funcion``, loaded from its folder and checked.

    Raises:
        ErrorDeCurso: the folder is missing a file or breaks a convention
            (the message names the file).
    """
    carpeta = CARPETA_EJERCICIOS / funcion
    if not (carpeta / "casos.py").is_file():
        raise ErrorDeCurso(f"no hay grader para `{funcion}`: falta {_rel(carpeta / 'casos.py')} "
                           f"(créalo con: make leccion NOMBRE=NN_nombre FUNCION={funcion})")
    casos = _importar(funcion, "casos")
    ruta_casos = _rel(carpeta / "casos.py")
    if not callable(getattr(casos, "argumentos", None)):
        raise ErrorDeCurso(f"{ruta_casos}: falta la función argumentos(caso) que construye las entradas")
    celdas = getattr(casos, "CELDAS", None)
    if not celdas or not all(isinstance(c, casos_mod.Celda) for c in celdas):
        raise ErrorDeCurso(f"{ruta_casos}: CELDAS debe ser una tupla de Celda(propiedad, casos), una por "
                           "celda de prueba del ejercicio")
    for celda in celdas:
        if not celda.casos:
            raise ErrorDeCurso(f"{ruta_casos}: la celda {funcion}_{celda.propiedad} no tiene casos")
    if len({c.propiedad for c in celdas}) != len(celdas):
        raise ErrorDeCurso(f"{ruta_casos}: hay dos celdas con la misma propiedad")
    if not isinstance(getattr(casos, "ARGUMENTOS", None), tuple):
        raise ErrorDeCurso(f"{ruta_casos}: falta ARGUMENTOS, los nombres de los parámetros de {funcion} en orden")

    modulo_ref = _importar(funcion, "referencia")
    referencia = getattr(modulo_ref, funcion, None)
    if not callable(referencia):
        raise ErrorDeCurso(f"{_rel(carpeta / 'referencia.py')}: falta la función de referencia `{funcion}`")

    modulo_prop = _importar(funcion, "propiedades")
    ruta_prop = _rel(carpeta / "propiedades.py")
    partes = getattr(modulo_prop, "RESULTADO", None)
    if not partes or not all(isinstance(p, Parte) for p in partes):
        raise ErrorDeCurso(f"{ruta_prop}: falta RESULTADO = resultado((nombre, forma), ...), lo que devuelve {funcion}")
    tolerancia = getattr(modulo_prop, "TOLERANCIA", None)
    if not isinstance(tolerancia, dict) or set(tolerancia) != {"rtol", "atol"}:
        raise ErrorDeCurso(f"{ruta_prop}: falta TOLERANCIA = {{'rtol': ..., 'atol': ...}}")
    declaradas = getattr(modulo_prop, "PROPIEDADES", None)
    if not isinstance(declaradas, dict):
        raise ErrorDeCurso(f"{ruta_prop}: falta PROPIEDADES, un diccionario propiedad -> Propiedad")
    nombres_celdas = [c.propiedad for c in celdas]
    sin_propiedad = [p for p in nombres_celdas if p not in declaradas]
    if sin_propiedad:
        raise ErrorDeCurso(f"{ruta_prop}: las celdas {', '.join(funcion + '_' + p for p in sin_propiedad)} "
                           "no tienen propiedad (añádelas a PROPIEDADES con sus puntos)")
    sin_celda = [p for p in declaradas if p not in nombres_celdas]
    if sin_celda:
        raise ErrorDeCurso(f"{ruta_casos}: las propiedades {', '.join(sin_celda)} de {ruta_prop} no tienen "
                           "celda (añade su Celda con sus casos a CELDAS)")
    for nombre, propiedad in declaradas.items():
        if not isinstance(propiedad, Propiedad) or not propiedad.puntos > 0:
            raise ErrorDeCurso(f"{ruta_prop}: PROPIEDADES[{nombre!r}] debe ser una Propiedad con puntos > 0")
        if propiedad.parte is not None and propiedad.parte not in [p.nombre for p in partes]:
            raise ErrorDeCurso(f"{ruta_prop}: PROPIEDADES[{nombre!r}] mira la parte {propiedad.parte!r}, "
                               "que RESULTADO no tiene")
    propiedades = {f"{funcion}_{p}": declaradas[p] for p in nombres_celdas}
    trabajo = getattr(modulo_prop, "TRABAJO", ())
    if not isinstance(trabajo, (tuple, list)) or not all(isinstance(p, Pieza) for p in trabajo):
        raise ErrorDeCurso(f"{ruta_prop}: TRABAJO debe ser una tupla de pieza(descripcion, comprobar) "
                           "(grader_tests.juez.propiedades.pieza)")
    necesario = getattr(modulo_prop, "TRABAJO_NECESARIO", ())
    if not isinstance(necesario, (tuple, list)) or not all(isinstance(p, Pieza) for p in necesario):
        raise ErrorDeCurso(f"{ruta_prop}: TRABAJO_NECESARIO debe ser una tupla de pieza(descripcion, comprobar) "
                           "(grader_tests.juez.propiedades.pieza)")
    en_cada_control = getattr(modulo_prop, "TRABAJO_EN_CADA_CONTROL", False)
    if not isinstance(en_cada_control, bool):
        raise ErrorDeCurso(f"{ruta_prop}: TRABAJO_EN_CADA_CONTROL debe ser True o False")
    en_la_muestra = getattr(modulo_prop, "TRABAJO_EN_LA_MUESTRA", None)
    if en_la_muestra is not None and not isinstance(en_la_muestra, Pieza):
        raise ErrorDeCurso(f"{ruta_prop}: TRABAJO_EN_LA_MUESTRA debe ser una pieza(descripcion, comprobar) "
                           "cuyo comprobar recibe las llamadas de la muestra")

    modulo_err = _importar(funcion, "errores")
    ruta_err = _rel(carpeta / "errores.py")
    errores = getattr(modulo_err, "ERRORES", None)
    if errores is None or not all(isinstance(e, ErrorConocido) for e in errores):
        raise ErrorDeCurso(f"{ruta_err}: falta ERRORES, la lista de ErrorConocido del ejercicio")
    vistos: set[str] = set()
    for error in errores:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", error.id) or error.id in vistos:
            raise ErrorDeCurso(f"{ruta_err}: el id {error.id!r} debe ser único y un identificador (letras, cifras y _)")
        vistos.add(error.id)
        if error.categoria not in CATEGORIAS:
            raise ErrorDeCurso(f"{ruta_err}: {error.id} tiene la categoría {error.categoria!r}; "
                               f"usa una de {', '.join(CATEGORIAS)}")
        if not error.nombre or not error.seccion:
            raise ErrorDeCurso(f"{ruta_err}: {error.id} necesita nombre y seccion (la sección de la lección "
                               "que conviene repasar)")
        if bool(error.implementaciones) == (error.detector is not None):
            raise ErrorDeCurso(f"{ruta_err}: {error.id} necesita una implementación errónea o un detector "
                               "(uno de los dos)")
        if error.implementaciones and not error.explicacion:
            raise ErrorDeCurso(f"{ruta_err}: {error.id} necesita su explicación en español")
    return Ejercicio(funcion, carpeta, casos, referencia, tuple(partes), dict(tolerancia), propiedades,
                     tuple(errores), casos_mod.celdas_de(funcion), tuple(trabajo), en_cada_control,
                     en_la_muestra, tuple(necesario))


def ejercicios() -> dict[str, Ejercicio]:
    """Every exercise, loaded and checked (``ErrorDeCurso`` at the first broken one)."""
    return {f: ejercicio(f) for f in nombres_de_ejercicios()}


def propiedad(grade_id: str) -> Propiedad:
    """The property of a test cell (KeyError if no exercise has that cell)."""
    funcion = casos_mod.ejercicio_de(grade_id)
    if funcion is None:
        raise KeyError(grade_id)
    return ejercicio(funcion).propiedades[grade_id]


# -------------------------------------------------------------------- battery

@dataclass(frozen=True)
class ArchivoDeBateria:
    """One battery file: what a student typed in the exercise cell, and what it must score.

    Header lines (``#`` at the top)::

        # espera: completo | parcial | cero
        # error: <id>[, <id>…]          the known mistakes it makes (wrong files)
        # diagnostico: <text>           text that must appear in the feedback (optional)
        # puntos: <total>               exact total of the exercise's cells (optional)
        # celdas: <propiedad>=<puntos>, …   exact points of those cells; the rest, full (optional)
        # visible: solo_al_calificar      a trick only the grade can see (it hard-codes the published
                                          sizes; the work-done rule also reads an unpublished one): the
                                          visible tests still fail it, but not in every cell the grade does
    """

    ruta: Path
    espera: str
    errores: tuple[str, ...] = ()
    diagnostico: str | None = None
    puntos: float | None = None
    celdas: dict = field(default_factory=dict)
    solo_al_calificar: bool = False

    @property
    def nombre(self) -> str:
        return self.ruta.stem

    @property
    def codigo(self) -> str:
        return self.ruta.read_text(encoding="utf-8")


def leer_bateria(ruta: Path) -> ArchivoDeBateria:
    """Read a battery file's header.

    Raises:
        ErrorDeCurso: no valid ``# espera:`` line, or a malformed header line.
    """
    cabecera: dict[str, str] = {}
    for linea in ruta.read_text(encoding="utf-8").splitlines():
        if not linea.startswith("#"):
            break
        clave, _, valor = linea[1:].partition(":")
        if clave.strip() in ("espera", "error", "diagnostico", "puntos", "celdas", "visible") and valor.strip():
            cabecera[clave.strip()] = valor.strip()
    if cabecera.get("espera") not in ESPERAS:
        raise ErrorDeCurso(f"{_rel(ruta)}: falta la cabecera '# espera: completo|parcial|cero'")
    try:
        puntos = float(cabecera["puntos"]) if "puntos" in cabecera else None
        celdas = {}
        for trozo in filter(None, (t.strip() for t in cabecera.get("celdas", "").split(","))):
            nombre, _, valor = trozo.partition("=")
            celdas[nombre.strip()] = float(valor)
    except ValueError as exc:
        raise ErrorDeCurso(f"{_rel(ruta)}: cabecera '# puntos:' o '# celdas:' mal escrita ({exc})") from exc
    errores = tuple(filter(None, (e.strip() for e in cabecera.get("error", "").split(","))))
    if cabecera.get("visible", "solo_al_calificar") != "solo_al_calificar":
        raise ErrorDeCurso(f"{_rel(ruta)}: la cabecera '# visible:' sólo admite 'solo_al_calificar'")
    return ArchivoDeBateria(ruta, cabecera["espera"], errores, cabecera.get("diagnostico"), puntos, celdas,
                            "visible" in cabecera)


def problemas_de_bateria(ej: Ejercicio) -> list[str]:
    """What the exercise's battery lacks or gets wrong (without running it), in Spanish."""
    carpeta = ej.carpeta / "bateria"
    problemas: list[str] = []
    try:
        archivos = ej.bateria()
    except ErrorDeCurso as exc:
        return [str(exc)]
    if not archivos:
        return [f"{_rel(carpeta)}/ está vacía: crea al menos una implementación correcta "
                f"({_rel(carpeta)}/c01_<estilo>.py con '# espera: completo')"]
    if not any(a.espera == "completo" for a in archivos):
        problemas.append(f"{_rel(carpeta)}/: ninguna implementación correcta ('# espera: completo')")
    ids = {e.id for e in ej.errores}
    cubiertos: set[str] = set()
    for archivo in archivos:
        desconocidos = [e for e in archivo.errores if e not in ids]
        if desconocidos:
            problemas.append(f"{_rel(archivo.ruta)}: '# error: {', '.join(desconocidos)}' no está en "
                             f"{_rel(ej.carpeta / 'errores.py')}")
        if archivo.espera == "completo" and archivo.errores:
            problemas.append(f"{_rel(archivo.ruta)}: una implementación correcta no lleva '# error:'")
        if archivo.espera != "completo" and not archivo.errores and not archivo.diagnostico:
            problemas.append(f"{_rel(archivo.ruta)}: una implementación errónea dice qué error comete "
                             "('# error: <id>' de errores.py)")
        malas = [c for c in archivo.celdas if f"{ej.funcion}_{c}" not in ej.propiedades]
        if malas:
            problemas.append(f"{_rel(archivo.ruta)}: '# celdas:' nombra propiedades que no existen: {malas}")
        cubiertos.update(archivo.errores)
    for error in ej.errores:
        if error.id not in cubiertos:
            problemas.append(f"el error conocido «{error.nombre}» ({error.id}) no tiene implementación en la "
                             f"batería: crea {_rel(carpeta)}/eNN_{error.id}.py con '# espera: parcial' (o "
                             f"cero) y '# error: {error.id}'")
    if not any(a.nombre.endswith("_nombres_del_corrector") for a in archivos):
        problemas.append(f"falta {_rel(carpeta)}/cNN_nombres_del_corrector.py: una solución correcta con "
                         "ayudantes que se llaman como los nombres públicos de grader_tests "
                         "(make leccion la genera; ver nombres_que_ve_el_kernel)")
    return problemas


# ---------------------------------------------------------------------- quizzes

def cuestionario(cuaderno: str | None) -> dict:
    """``{grade_id: Pregunta}`` of a notebook's quiz (``grader_tests/cuestionarios/<cuaderno>.py``).

    A notebook without a quiz module has no questions (``{}``).
    """
    if not cuaderno or not cuaderno.isidentifier() or not (CARPETA_CUESTIONARIOS / f"{cuaderno}.py").is_file():
        return {}
    modulo = importlib.import_module(f"{casos_mod.PAQUETE_RAIZ}.cuestionarios.{cuaderno}")
    return dict(getattr(modulo, "PREGUNTAS", {}))


# ---------------------------------------------------------------------- lessons

@dataclass
class Leccion:
    """A lesson folder of ``source/`` and what its notebook's nbgrader cells say."""

    carpeta: Path
    cuaderno: Path
    soluciones: list[str]          # grade_ids of the answer cells (functions and respuesta_N)
    pruebas: dict[str, float]      # grade_id -> points of the test cells

    @property
    def tarea(self) -> str:
        return self.carpeta.name

    @property
    def funciones(self) -> list[str]:
        """The graded functions: answer cells that are not quiz answers."""
        return [g for g in self.soluciones if not RESPUESTA.match(g)]

    @property
    def explorables(self) -> list[Path]:
        return sorted(self.carpeta.glob("explorable_*.py"))


def lecciones(raiz: Path) -> list[Leccion]:
    """The lessons of ``raiz/source``: one per folder with a notebook (sorted)."""
    resultado = []
    for carpeta in sorted(p for p in (Path(raiz) / "source").iterdir() if p.is_dir()):
        for cuaderno in sorted(carpeta.glob("*.ipynb")):
            soluciones, pruebas = [], {}
            try:
                nb = json.loads(cuaderno.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                nb = {"cells": []}
            for celda in nb.get("cells", []):
                meta = celda.get("metadata", {}).get("nbgrader", {})
                gid = meta.get("grade_id")
                if not gid:
                    continue
                if meta.get("solution") and celda.get("cell_type") == "code":
                    soluciones.append(gid)
                elif meta.get("grade") and not meta.get("solution") and celda.get("cell_type") == "code":
                    pruebas[gid] = float(meta.get("points") or 0)
            resultado.append(Leccion(carpeta, cuaderno, soluciones, pruebas))
    return resultado


def problemas(raiz: Path, bateria: bool = True) -> list[str]:
    """Every convention problem of the course at ``raiz`` (Spanish; empty: all is well).

    Lessons without a grader, test cells without cases or properties, cells
    whose points differ from their property's, exercises no lesson grades,
    known mistakes without a battery file, quiz answer cells without an
    answer, catalogue sections the lesson does not have.
    """
    raiz = Path(raiz)
    encontrados: list[str] = []
    usados: set[str] = set()
    for leccion in lecciones(raiz):
        rel = leccion.cuaderno.relative_to(raiz)
        if not leccion.funciones:
            encontrados.append(f"{rel}: ninguna celda de solución con el nombre de una función (grade_id = "
                               "nombre de la función): la lección no tiene ejercicio calificado")
        titulos = _titulos(leccion.cuaderno)
        for funcion in leccion.funciones:
            usados.add(funcion)
            try:
                ej = ejercicio(funcion)
            except ErrorDeCurso as exc:
                encontrados.append(f"{rel}: {exc}")
                continue
            for gid in ej.propiedades:
                if gid not in leccion.pruebas:
                    encontrados.append(f"{rel}: falta la celda de prueba {gid} (está en "
                                       f"{_rel(ej.carpeta / 'casos.py')})")
            for error in ej.errores:
                if not any(error.seccion == t or t.startswith(error.seccion) for t in titulos):
                    encontrados.append(f"{_rel(ej.carpeta / 'errores.py')}: {error.id} manda repasar la sección "
                                       f"«{error.seccion}», que {rel} no tiene (títulos: {', '.join(titulos)})")
            if bateria:
                encontrados += problemas_de_bateria(ej)
        preguntas = cuestionario(leccion.cuaderno.stem)
        ruta_quiz = f"grader_tests/cuestionarios/{leccion.cuaderno.stem}.py"
        for gid, puntos in leccion.pruebas.items():
            if gid.startswith(casos_mod.PREFIJO_QUIZ):
                variable = gid[len(casos_mod.PREFIJO_QUIZ):]
                if variable not in leccion.soluciones:
                    encontrados.append(f"{rel}: la celda {gid} no tiene su celda de respuesta {variable}")
                if gid not in preguntas:
                    encontrados.append(f"{rel}: la pregunta {gid} no tiene respuesta: añádela a {ruta_quiz}")
                continue
            funcion = casos_mod.ejercicio_de(gid)
            if funcion is None:
                encontrados.append(f"{rel}: la celda de prueba {gid} no tiene casos: añade su Celda a "
                                   f"grader_tests/ejercicios/<función>/casos.py (grade_id = <función>_<propiedad>)")
                continue
            try:
                esperado = ejercicio(funcion).propiedades[gid].puntos
            except (ErrorDeCurso, KeyError):
                continue
            if puntos != esperado:
                encontrados.append(f"{rel}: la celda {gid} vale {puntos:g} puntos y su propiedad "
                                   f"{esperado:g} (grader_tests/ejercicios/{funcion}/propiedades.py)")
        for gid in leccion.soluciones:
            if RESPUESTA.match(gid) and f"{casos_mod.PREFIJO_QUIZ}{gid}" not in leccion.pruebas:
                encontrados.append(f"{rel}: la respuesta {gid} no tiene celda de prueba "
                                   f"{casos_mod.PREFIJO_QUIZ}{gid}")
        for gid in preguntas:
            if gid not in leccion.pruebas:
                encontrados.append(f"{ruta_quiz}: {gid} no es una celda de prueba de {rel}")
    for funcion in nombres_de_ejercicios():
        if funcion not in usados:
            encontrados.append(f"grader_tests/ejercicios/{funcion}/: ninguna lección de source/ tiene una celda "
                               f"de solución `{funcion}`")
    for carpeta in sorted(p for p in CARPETA_EJERCICIOS.iterdir() if p.is_dir() and p.name != "__pycache__"):
        if carpeta.name not in nombres_de_ejercicios():
            encontrados.append(f"{_rel(carpeta)}: no es un ejercicio (falta casos.py o el nombre no es el de "
                               "una función de Python)")
    return encontrados


def _titulos(cuaderno: Path) -> list[str]:
    """The headings of a notebook's markdown cells, without the ``#``."""
    try:
        nb = json.loads(cuaderno.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    titulos = []
    for celda in nb.get("cells", []):
        if celda.get("cell_type") == "markdown":
            fuente = "".join(celda.get("source", ""))
            titulos += [l.lstrip("#").strip() for l in fuente.splitlines() if l.startswith("#")]
    return titulos


# -------------------------------------------------- names the kernel could see

def nombres_que_ve_el_kernel(funcion: str) -> set[str]:
    """Every public name a hidden cell could bring near the student's code, for ``funcion``'s cells.

    The package and its modules, the public names of the engine's kernel-safe
    modules and of the exercise's ``casos.py``.  A correct battery solution
    (``bateria/c*_nombres_del_corrector.py``) defines helpers with all of
    them: the hidden cells must neither shadow nor call them.
    """
    import inspect
    import pkgutil

    from ..en_el_kernel import MODULOS_PUBLICOS_DEL_MOTOR

    raiz = casos_mod.PAQUETE_RAIZ
    nombres = {raiz} | {m.name for m in pkgutil.iter_modules([str(PAQUETE), str(PAQUETE / "en_el_kernel")])}
    # every module the kernel sees (the package's face included), by its file
    modulos = [".".join([raiz, *a[:-3].split("/")]).removesuffix(".__init__") for a in MODULOS_PUBLICOS_DEL_MOTOR]
    modulos.append(f"{raiz}.ejercicios.{funcion}.casos")
    for nombre_modulo in modulos:
        modulo = importlib.import_module(nombre_modulo)
        nombres |= {n for n, v in vars(modulo).items() if not n.startswith("_") and n != "annotations"
                    and not inspect.ismodule(v)
                    and getattr(v, "__module__", modulo.__name__) == modulo.__name__}
    return nombres - set(nombres_de_ejercicios())
