"""What each hidden test cell runs: the input cases of every graded cell, found by convention.

Public by design (kernel-safe): the inputs are not secret, the expected
values are.  Every exercise lives in its own folder,
``grader_tests/ejercicios/<function>/``, whose ``casos.py`` is the only file
of that folder the student's kernel may see (with an empty ``__init__.py``;
``en_el_kernel.modulos_publicos``).  It declares:

``ARGUMENTOS``
    the names of the function's parameters, in order (``("X", "Wq", …)``);
``argumentos(caso) -> tuple``
    the inputs of one case, built from a dict of ints (the same in the
    student's kernel, where ``cliente`` calls the function, and in the
    trusted judge, which computes the reference);
``CELDAS``
    one ``Celda`` per graded test cell: its property and its cases; the
    cell's grade_id is ``<function>_<property>`` (``multi_head_mapas``);
``describir(caso) -> str`` (optional)
    how a case is named in the verdict (default: ``"T = 5, d_model = 12"``).

A robustness or generality cell may end with *control* cases (``Celda(...,
control=...)``): equal to a main case of the value cells, run like the
others and never scored.  They tell the judge whether a known value mistake
seen on unusual inputs is also made on ordinary ones (and is charged in the
value cells) or appears only there (see ``propiedades``).

A cell may also end with a *sample* (``Celda(..., muestra=...)``): more
unscored calls, after the controls, that no verdict line names and that
decide nothing by themselves; only the exercise's pieces of work that compare
sizes read them (``Llamada.otras`` in the judge: PE's ladder must follow one
law of d_model over a fixed set of sizes).

Quiz cells ``comprueba_respuesta_N`` read the variable ``respuesta_N``.
Nothing here names an exercise: adding one is adding its folder.
"""
from __future__ import annotations

import functools
import importlib
import keyword
import os
from dataclasses import dataclass, field

# this layer lives in grader_tests/en_el_kernel/; the exercises in grader_tests/ejercicios/
PAQUETE_RAIZ = __package__.rpartition(".")[0]
CARPETA_EJERCICIOS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ejercicios")
# the only files of an exercise folder the student's kernel may see (en_el_kernel.modulos_publicos)
ARCHIVOS_PUBLICOS_DEL_EJERCICIO = ("__init__.py", "casos.py")
PREFIJO_QUIZ = "comprueba_"


@dataclass(frozen=True)
class Celda:
    """One graded test cell of an exercise, as its ``casos.py`` declares it.

    Attributes:
        propiedad: what the cell checks; its grade_id is ``<function>_<propiedad>``.
        casos: the input descriptions (dicts of ints) the function is called on.
        control: optional unscored control case(s): one dict or a tuple of dicts.
        muestra: optional unscored sample calls (a tuple of dicts), run after
            the controls and read only by the exercise's pieces of work.
    """

    propiedad: str
    casos: tuple
    control: object = None
    muestra: tuple = ()

    @property
    def controles(self) -> tuple:
        if self.control is None:
            return ()
        return (self.control,) if isinstance(self.control, dict) else tuple(self.control)


@dataclass(frozen=True)
class Especificacion:
    """One graded test cell, as the engine runs it.

    Attributes:
        grade_id: the nbgrader grade_id of the test cell.
        objetivo: the name looked up in the student's namespace (a function
            such as ``multi_head`` or a variable such as ``respuesta_3``).
        casos: for functions, the input descriptions (dicts of ints) it is
            called on: the scored ones, then the controls, then the sample;
            empty for quiz variables.
        n_controles: how many unscored controls follow the scored cases.
        propiedad: the property the cell checks (``"mapas"``); None for quiz cells.
        n_muestra: how many unscored sample calls end ``casos`` (after the controls).
    """

    grade_id: str
    objetivo: str
    casos: tuple = field(default_factory=tuple)
    n_controles: int = 0
    propiedad: str | None = None
    n_muestra: int = 0

    @property
    def es_funcion(self) -> bool:
        return bool(self.casos)

    @property
    def casos_puntuados(self) -> tuple:
        """The cases that count towards the cell's points."""
        return self.casos[:len(self.casos) - self.n_controles - self.n_muestra]

    @property
    def casos_control(self) -> tuple:
        """The unscored control cases (equal to main cases of the value cells)."""
        fin = len(self.casos) - self.n_muestra
        return self.casos[fin - self.n_controles:fin]

    @property
    def casos_muestra(self) -> tuple:
        """The unscored sample calls (``Celda.muestra``), last."""
        return self.casos[len(self.casos) - self.n_muestra:] if self.n_muestra else ()


def nombres_de_ejercicios() -> tuple[str, ...]:
    """The exercises of the course: the folders of ``grader_tests/ejercicios/`` with a ``casos.py``.

    Sorted; a folder whose name is not a Python identifier is not an exercise
    (``descubrimiento`` reports it).
    """
    try:
        entradas = sorted(os.listdir(CARPETA_EJERCICIOS))
    except OSError:
        return ()
    return tuple(n for n in entradas
                 if n.isidentifier() and not keyword.iskeyword(n) and not n.startswith("_")
                 and os.path.isfile(os.path.join(CARPETA_EJERCICIOS, n, "casos.py")))


@functools.lru_cache(maxsize=None)
def modulo_de_casos(funcion: str):
    """The module ``grader_tests/ejercicios/<funcion>/casos.py`` (imported once).

    Raises:
        KeyError: there is no such exercise folder.
    """
    if funcion not in nombres_de_ejercicios():
        raise KeyError(f"no hay ningún ejercicio {funcion!r} (grader_tests/ejercicios/{funcion}/casos.py)")
    return importlib.import_module(f"{PAQUETE_RAIZ}.ejercicios.{funcion}.casos")


@functools.lru_cache(maxsize=None)
def celdas_de(funcion: str) -> dict[str, Especificacion]:
    """``{grade_id: Especificacion}`` of the graded test cells of one exercise, in its order."""
    celdas = {}
    for celda in modulo_de_casos(funcion).CELDAS:
        grade_id = f"{funcion}_{celda.propiedad}"
        celdas[grade_id] = Especificacion(grade_id, funcion,
                                          tuple(celda.casos) + celda.controles + tuple(celda.muestra),
                                          n_controles=len(celda.controles), propiedad=celda.propiedad,
                                          n_muestra=len(celda.muestra))
    return celdas


def especificaciones() -> dict[str, Especificacion]:
    """Every graded test cell of every exercise (quiz cells are not listed)."""
    todas: dict[str, Especificacion] = {}
    for funcion in nombres_de_ejercicios():
        todas.update(celdas_de(funcion))
    return todas


def ejercicio_de(grade_id: str) -> str | None:
    """The exercise a test cell's grade_id belongs to (longest ``<function>_`` prefix that has it)."""
    candidatos = sorted((f for f in nombres_de_ejercicios() if grade_id.startswith(f + "_")),
                        key=len, reverse=True)
    for funcion in candidatos:
        if grade_id in celdas_de(funcion):
            return funcion
    return None


def especificacion(grade_id: str) -> Especificacion:
    """The cell with ``grade_id``; quiz cells ``comprueba_respuesta_N`` read ``respuesta_N``.

    Raises:
        KeyError: no graded cell has that grade_id.
    """
    funcion = ejercicio_de(grade_id)
    if funcion is not None:
        return celdas_de(funcion)[grade_id]
    if grade_id.startswith(PREFIJO_QUIZ) and grade_id[len(PREFIJO_QUIZ):].startswith("respuesta_"):
        return Especificacion(grade_id, grade_id[len(PREFIJO_QUIZ):])
    raise KeyError(f"ninguna celda calificada se llama {grade_id!r}")


def argumentos(funcion: str, caso: dict) -> tuple:
    """The inputs of ``funcion`` for one case (its ``casos.argumentos``)."""
    return modulo_de_casos(funcion).argumentos(caso)


def nombres_de_argumentos(funcion: str) -> tuple[str, ...]:
    """The names of ``funcion``'s parameters, in order (its ``casos.ARGUMENTOS``)."""
    return tuple(getattr(modulo_de_casos(funcion), "ARGUMENTOS", ()))


def describir_caso(funcion: str, caso: dict) -> str:
    """How a case is named in a verdict: the exercise's ``describir`` or ``"k = v, …"`` without the seed."""
    describir = getattr(modulo_de_casos(funcion), "describir", None)
    if describir is not None:
        return str(describir(caso))
    return ", ".join(f"{k} = {v}" for k, v in caso.items() if k != "semilla")
