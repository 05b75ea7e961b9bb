"""The graded properties: how one cell judges the calls of the student's function (trusted side only).

Generic engine: no exercise is named here.  Each exercise's
``propiedades.py`` (``grader_tests/ejercicios/<function>/``) declares its
result (``RESULTADO``: the arrays it returns and their shapes), its tolerance
(``TOLERANCIA``) and one ``Propiedad`` per test cell, built with the
factories below (``contrato``, ``valores``, ``no_modifica``).  A property is
judged on every input case of its cell (``casos``); the cell earns the
fraction of scored cases that pass.  A failing case says what was expected,
what came back (small and rounded) and, when the result matches a known
mistake of the exercise's catalogue, which one (``diagnostico``).

What each kind of property measures (so one mistake is charged where it
belongs and not again everywhere else):

* ``contrato``: the form only: the tuple of arrays the exercise returns (a
  list is accepted, it unpacks the same), each an ``np.ndarray`` (not a
  subclass such as ``np.matrix``) of the stated shape and dtype float64.
  Values are not looked at.
* ``valores``: the values of one part of the result (or all of them), within
  the exercise's tolerance.  The form is not charged again here: a list of
  maps or a float32 array with the right values passes (the contract already
  charges it), and so does a tuple in another order, ``(A, salida)``, read
  in the contract's order when the shapes say so unambiguously
  (``en_el_orden_del_contrato``), and so is an array with the contract's
  axes in another order when only one order fits (a table (d_model, T) with
  T ≠ d_model, ``comparar``), or when several fit and one of them gives the
  reference's values (maps (T, h, T)); an array with any other wrong shape
  cannot be compared and fails.
  Robustness and generality cells are value cells on unusual inputs
  (``no_repite``).
* ``no_modifica``: the arguments are left untouched (needs a call that
  finishes).

One mistake is charged once: the control rule of robustness and generality.
Robustness and generality cells (``no_repite``) end with unscored *control*
cases, equal to the main cases of the value cells (``casos``).  The rule is
the same for every such cell and does not depend on recognising the mistake:

* every control case right (values, shapes, no exception): the function is
  right on ordinary inputs, so whatever fails on the unusual ones is a
  separate bug (an ``if h == 1:`` branch without ``@ Wo``, a softmax without
  max-subtraction) and the cell judges the full values;
* some control case wrong: the value or contract cells already charge it.
  The cell then judges only what is its own: no exception, arrays of
  numbers, every value finite (no nan or inf), and each array with the
  contract's shape, or with its axes (or the arrays of a tuple) in the same
  other order as on the controls (a transposed table, A as (T, h, T),
  ``(A, salida)``), or with an axis one longer or shorter the same way as on
  the controls (a table of T + 1 or T − 1 rows: form mistakes charged by the
  contract).  If on the controls some part is not an array with the
  contract's axes in any order, each within one of its length (a table that
  ignores ``T``, ``None``), the result is not usable and the full values are
  judged here too.  A case whose values are wrong but that
  gets those right passes with a note («aquí no resta»), naming the mistake
  when it is a known one.

Points only for work done (issue 19.7).  Robustness, generality and
no-modification points pay a function that computes something right; a
constant or zero stub earns at most the contract, and so does a trick that
fills the contract's form with what needs no computing (fixed maps with
their own output, the frequency-1 pair of PE).  A call *does work*
(``trabajo_hecho``) when some array it returns equals a part of the
reference (in any axis order, anywhere in the tuple, as long as that part of
the reference is not constant), or when it gets right one of the pieces its
exercise declares (``TRABAJO`` in its ``propiedades.py``: one head's map,
maps that come from Q and K, a coordinate of PE whose frequency depends on
d_model…; each piece must be out of reach of a function that ignores the
exercise's inputs), and, besides, every piece its exercise requires of any
work (``TRABAJO_NECESARIO``: multi_head's output computed with the maps it
returns, so that maps next to a zero output are no work; issue 19, ninth
attack).  So:

* a robustness or generality cell whose controls fail and where no control
  call does work scores 0 in every case («sin trabajo correcto»), with the
  known mistakes recognised.  An exercise whose pieces a constant could hit
  on some inputs declares ``TRABAJO_EN_CADA_CONTROL = True``: then every
  control call must do work (PE: a fixed frequency 1/10 is a column of the
  reference when d_model is a multiple of 4, never for all of 16, 6 and 64);
* in such an exercise a value cell pays nothing when its values are right
  in some case and some other call does no work: a table written for the
  published sizes, wrong with the one its cell keeps unpublished (PE);
* a no-modification case passes only if the arguments are untouched *and*
  the call does work;
* an exercise may also declare ``TRABAJO_EN_LA_MUESTRA``, a piece checked on
  the cell's sample calls together: when it fails, no value, robustness or
  generality case of that cell scores, whatever else is right (PE: a table of
  constants written for every published size computes nothing at the sizes no
  lesson publishes).  The verdict never names those sizes.

The visible tests of the lessons apply the same rules with their visible
case (README, «Validate dice lo mismo que la nota»).  The controls never add
or remove points by themselves.

An exception inside the student's function fails every case it prevents,
naming the exception (and the likely cause when known).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import itertools

import numpy as np

from . import diagnostico
from ..en_el_kernel.casos import describir_caso
from ..en_el_kernel.serializacion import ArraySubclase, Otro, deserializar
from .veredicto import Diagnostico, ResultadoCaso, Veredicto


# ------------------------------------------------------------ the result

@dataclass(frozen=True)
class Parte:
    """One array of what the exercise returns.

    Attributes:
        nombre: how the lesson calls it (``"salida"``, ``"A"``, ``"PE"``).
        forma: its shape, as names of the case's keys or ints (``("h", "T", "T")``).
    """

    nombre: str
    forma: tuple

    def forma_en(self, caso: dict) -> tuple[int, ...]:
        """The numeric shape for one case (``(3, 5, 5)``)."""
        return tuple(int(caso[n]) if isinstance(n, str) else int(n) for n in self.forma)

    @property
    def forma_simbolica(self) -> str:
        """The shape as the lesson writes it: ``"(h, T, T)"``."""
        return "(" + ", ".join(str(n) for n in self.forma) + ")"


def resultado(*partes: tuple) -> tuple[Parte, ...]:
    """``RESULTADO`` of an exercise: one ``(nombre, forma)`` per returned array, in order.

    One part: the function returns that array.  Several: it returns the tuple
    of them (``resultado(("salida", ("T", "d_model")), ("A", ("h", "T", "T")))``).
    """
    return tuple(Parte(nombre, tuple(forma)) for nombre, forma in partes)


# ------------------------------------------------------------------ a call

@dataclass
class Llamada:
    """One call of the student's function, as the kernel reported it.

    ``ejercicio`` is the trusted ``descubrimiento.Ejercicio`` it belongs to
    (its result's parts, tolerance, reference and known mistakes).
    """

    caso: dict
    argumentos: tuple
    ejercicio: object = None
    resultado: object = None
    excepcion: dict | None = None
    stdout: str = ""
    stderr: str = ""
    avisos: list = field(default_factory=list)
    modificados: dict = field(default_factory=dict)
    _referencia: object = field(default=None, repr=False)
    # the cell's sample calls (``Celda.muestra``), for the pieces of work that compare sizes (PE's ladder:
    # its ratio must follow one law of d_model over the sample's sizes); empty: judged alone
    otras: tuple = field(default=(), repr=False)
    # what a piece of work read from this call once (a ladder's ratio), kept for the other calls that read it
    memoria: dict = field(default_factory=dict, repr=False)
    # set by a robustness or generality cell whose control calls fail: the function is already wrong on
    # ordinary inputs, so a detector of a mistake that only shows with unusual inputs explains nothing here
    controles_fallan: bool = field(default=False, repr=False)

    @classmethod
    def desde_evidencia(cls, ejercicio, caso: dict, registro: dict) -> "Llamada":
        llamada = cls(caso=caso, argumentos=ejercicio.argumentos(caso), ejercicio=ejercicio)
        if "excepcion" in registro:
            llamada.excepcion = dict(registro["excepcion"])
        else:
            try:
                llamada.resultado = deserializar(registro.get("resultado"))
            except (ValueError, KeyError, TypeError) as exc:
                llamada.resultado = Otro("ilegible", str(exc))
        llamada.stdout = str(registro.get("stdout", ""))
        llamada.stderr = str(registro.get("stderr", ""))
        llamada.avisos = list(registro.get("avisos", []))
        llamada.modificados = dict(registro.get("modificados", {}))
        return llamada

    @property
    def objetivo(self) -> str:
        return self.ejercicio.funcion

    def referencia(self):
        """The reference result on these inputs (computed once)."""
        if self._referencia is None:
            with np.errstate(all="ignore"):
                self._referencia = self.ejercicio.referencia(*self.argumentos)
        return self._referencia

    def describir_caso(self) -> str:
        return describir_caso(self.objetivo, self.caso)

    def nombres_modificados(self) -> list[str]:
        """The names of the arguments the call wrote into, sorted (``["Wq", "X"]``)."""
        nombres = self.ejercicio.nombres_de_argumentos
        tocados = []
        for posicion in self.modificados:
            try:
                tocados.append(nombres[int(posicion)])
            except (ValueError, IndexError):
                tocados.append(f"el argumento {str(posicion)[:20]}")
        return sorted(set(tocados), key=str)


# ---------------------------------------------------------------- messages

def resumen(x: object, filas: int = 2, columnas: int = 6, desde: tuple | None = None,
            decimales: int = 3) -> str:
    """A small, rounded picture of a value for a message.

    ``desde``: an index of ``x``; the picture then shows the rows and columns
    around it (where two arrays differ) instead of the first ones.
    """
    if isinstance(x, np.ndarray):
        if x.dtype.kind not in "biufc":
            return f"array de dtype {x.dtype}"
        if desde is not None and len(desde) == x.ndim and x.ndim >= 1:
            y = x[tuple(desde[:-2])] if x.ndim > 2 else x
            y = np.atleast_2d(y)
            f0 = int(desde[-2]) if x.ndim >= 2 else 0
            c0 = max(0, min(int(desde[-1]) - columnas // 2, y.shape[1] - columnas))
            trozo = y[f0:f0 + filas, c0:c0 + columnas]
            with np.printoptions(precision=decimales, suppress=True, linewidth=400):
                cuerpo = " ".join(np.array2string(np.asarray(trozo, dtype=np.float64)).split())
            prefijo = "".join(f"[{int(i)}]" for i in desde[:-2])
            prefijo = prefijo + ", " if prefijo else ""
            return (f"{prefijo}filas {f0}-{f0 + trozo.shape[0] - 1}, columnas {c0}-{c0 + trozo.shape[1] - 1}: "
                    f"{cuerpo}")
        y = x
        while y.ndim > 2:
            y = y[0]
        y = np.atleast_2d(y)[:filas, :columnas]
        with np.printoptions(precision=3, suppress=True, linewidth=400):
            cuerpo = np.array2string(np.asarray(y, dtype=np.float64) if x.dtype.kind != "c" else y)
        cuerpo = " ".join(cuerpo.split())
        return f"array {x.dtype} de forma {x.shape}, empieza por {cuerpo}"
    if isinstance(x, (list, tuple)):
        return f"{type(x).__name__} de longitud {len(x)}"
    return repr(x)[:120]


def excepcion_texto(llamada: Llamada) -> str:
    """``"tu función lanzó ZeroDivisionError: … (en la línea `…`)"``."""
    exc = llamada.excepcion or {}
    texto = f"tu función lanzó {exc.get('clase', 'una excepción')}: {exc.get('mensaje', '')}".rstrip(": ")
    if exc.get("linea"):
        texto += f" (en la línea `{str(exc['linea']).strip()}`)"
    return texto


def comparar(nombre: str, valor: object, esperado: np.ndarray, tol: dict) -> list[str]:
    """Problems of ``valor`` against the reference (empty when it matches).

    A long list arrives cut (its tail is an ``Otro``): the rows that arrived
    are compared with the reference's first rows (the contract charges the list).
    """
    if isinstance(valor, list) and len(valor) > 1 and isinstance(valor[-1], Otro) \
            and not any(isinstance(x, Otro) for x in valor[:-1]):
        filas = diagnostico.como_array(valor[:-1])
        if filas is not None and filas.ndim == esperado.ndim and filas.shape[0] < esperado.shape[0]:
            return comparar(nombre, filas, esperado[:filas.shape[0]], tol)
    array = diagnostico.como_array(valor)
    if array is None:
        return [f"`{nombre}` debería ser un array de números y es {resumen(valor)}"]
    ordenado = en_cualquier_orden(array, esperado.shape) if array.shape != esperado.shape else []
    if len(ordenado) == 1:
        # the contract's axes in another order, and only one order fits (a table (d_model, T) with
        # T ≠ d_model): read in the contract's order, as a swapped tuple is; the contract charges the form
        # (issue 22: a transposed PE lost the contract and the values, 2 of 6)
        problemas = comparar(nombre, ordenado[0], esperado, tol)
        if problemas:
            como = ("sin sus ejes de tamaño 1 de más" if array.ndim > esperado.ndim
                    else "con los ejes en el orden del contrato")
            problemas.insert(1, f"  (`{nombre}` llegó con forma {array.shape}: se lee {como}, "
                                f"{esperado.shape}; la forma la descuenta la celda del contrato)")
        return problemas
    if len(ordenado) > 1:
        # more than one order fits (maps (T, h, T) or (T, T, h)): the one whose values are the reference's, if
        # any, is read in the contract's order; the contract charges the form (issue 22, grader tester: maps
        # stacked on another axis lost the contract and the maps, 6 of 10, a transposed output only the contract)
        with np.errstate(all="ignore"):
            if any(np.all(np.isfinite(o)) and np.allclose(o.astype(np.float64), esperado, **tol) for o in ordenado):
                return []
    if array.shape != esperado.shape:
        return [f"`{nombre}` debería tener forma {esperado.shape} y tiene {array.shape}",
                f"  esperado: {resumen(esperado)}",
                f"  obtenido: {resumen(array)}"]
    if not np.all(np.isfinite(array)):
        malos = int(array.size - np.count_nonzero(np.isfinite(array)))
        return [f"`{nombre}` contiene {malos} valores nan o inf de {array.size}",
                f"  esperado: {resumen(esperado)}",
                f"  obtenido: {resumen(array)}"]
    with np.errstate(all="ignore"):
        if np.allclose(array.astype(np.float64), esperado, **tol):
            return []
        diferencias = np.abs(array.astype(np.float64) - esperado)
        donde = np.unravel_index(int(np.argmax(diferencias)), diferencias.shape)
        error = float(diferencias[donde])
    indice = ", ".join(str(int(i)) for i in donde)
    # enough decimals for the difference to show in the pictures
    decimales = int(min(8, max(3, np.ceil(-np.log10(error)) + 1))) if error > 0 else 3
    return [f"`{nombre}` no coincide con la referencia: la mayor diferencia ({error:.3g}) está en "
            f"{nombre}[{indice}], donde se esperaba {float(esperado[donde]):.6g} y hay "
            f"{float(array[donde]):.6g}",
            f"  esperado: {resumen(esperado, desde=donde, decimales=decimales)}",
            f"  obtenido: {resumen(array, desde=donde, decimales=decimales)}"]


def partes_de(llamada: Llamada) -> tuple[list, list[str]]:
    """The returned arrays, one per part of ``RESULTADO``, or the problem that prevents reading them."""
    if llamada.excepcion is not None:
        return [], [excepcion_texto(llamada)]
    partes = llamada.ejercicio.partes
    r = llamada.resultado
    if len(partes) == 1:
        return [r], []
    if not isinstance(r, (tuple, list)) or len(r) != len(partes):
        nombre = "la pareja" if len(partes) == 2 else "la tupla"
        return [], [f"se esperaba {nombre} ({', '.join(p.nombre for p in partes)}) y ha llegado {resumen(r)}"]
    return list(r), []


# ------------------------------------------------------------ the checks

def _comprobar_contrato(llamada: Llamada) -> list[str]:
    valores, problemas = partes_de(llamada)
    if problemas:
        return problemas
    for parte, valor in zip(llamada.ejercicio.partes, valores):
        forma = parte.forma_en(llamada.caso)
        if isinstance(valor, ArraySubclase):
            problemas.append(f"`{parte.nombre}` debería ser un np.ndarray y es {valor.nombre_subclase}")
        elif type(valor) is not np.ndarray:
            problemas.append(f"`{parte.nombre}` debería ser un array de NumPy {parte.forma_simbolica} = "
                             f"{forma} y es {resumen(valor)}")
        elif valor.shape != forma:
            problemas.append(f"`{parte.nombre}` debería tener forma {parte.forma_simbolica} = {forma} "
                             f"y tiene {valor.shape}")
        elif valor.dtype != np.float64:
            problemas.append(f"`{parte.nombre}` debería ser float64 y es {valor.dtype}")
    return problemas


def en_el_orden_del_contrato(llamada: Llamada, valores: list) -> list:
    """The returned arrays in the contract's order.

    A tuple whose arrays come in another order (``(A, salida)`` instead of
    ``(salida, A)``) is read in the contract's order when their shapes say so
    unambiguously (exactly one order gives every part its shape): the
    contract charges the order, and only it («Un error se descuenta una vez»;
    issue 19, tenth attack: a swapped pair lost the contract, the maps and the
    output, 7 of 10).  Otherwise ``valores`` as they came.
    """
    partes = llamada.ejercicio.partes
    if len(partes) < 2 or len(valores) != len(partes):
        return valores
    formas = [parte.forma_en(llamada.caso) for parte in partes]
    arrays = [diagnostico.como_array(v) for v in valores]

    def encaja(orden) -> bool:
        return all(arrays[k] is not None and arrays[k].shape == forma for k, forma in zip(orden, formas))

    identidad = tuple(range(len(partes)))
    if encaja(identidad):
        return valores
    ordenes = [o for o in itertools.permutations(identidad) if o != identidad and encaja(o)]
    return [valores[k] for k in ordenes[0]] if len(ordenes) == 1 else valores


def _comprobador_de_valores(parte: str | None):
    def comprobar(llamada: Llamada) -> list[str]:
        valores, problemas = partes_de(llamada)
        if problemas:
            return problemas
        valores = en_el_orden_del_contrato(llamada, valores)
        referencia = llamada.referencia()
        esperados = [referencia] if len(llamada.ejercicio.partes) == 1 else list(referencia)
        for p, valor, esperado in zip(llamada.ejercicio.partes, valores, esperados):
            if parte is None or p.nombre == parte:
                problemas += comparar(p.nombre, valor, esperado, llamada.ejercicio.tolerancia)
        return problemas
    return comprobar


def _comprobar_no_modifica(llamada: Llamada) -> list[str]:
    if llamada.excepcion is not None:
        return [excepcion_texto(llamada) + "; sin una llamada completa no se puede comprobar"]
    if llamada.resultado is None:
        # an empty stub ("return None", "pass") leaves the arguments alone without doing anything
        return ["tu función no devuelve nada (None): sin un resultado no cuenta como llamada completa"]
    tocados = llamada.nombres_modificados()
    if tocados:
        lista = ", ".join(f"`{n}`" for n in tocados)
        return [f"tu función escribe en {lista}: tras la llamada, el array que se le pasó ha cambiado"]
    if not trabajo_hecho(llamada):
        return [f"con estas entradas tu función {que_falta(llamada)}. Dejar intactos los argumentos sólo "
                "puntúa cuando la función hace su trabajo"]
    return []


# ------------------------------------------------------------ work done

# A line (or a whole part) of the reference whose values vary less than this shows nothing
# computed: a constant, a row of zeros and ones, a uniform map.
VARIACION_MINIMA = 1e-3


@dataclass(frozen=True)
class Pieza:
    """A piece of an exercise's computation that, right by itself, shows work done.

    Attributes:
        descripcion: Spanish, as it reads after «ni» in a message
            (``"un mapa de atención de una cabeza"``).
        comprobar: ``(Llamada) -> bool``: the call gets this piece right.  It
            may assume the call returned (no exception); an exception inside
            counts as False.
        detalle: optional ``(Llamada) -> str | None``: what this call misses,
            in Spanish after «le falta», more precise than ``descripcion``
            (multi_head: which weight matrices it leaves out); None, or an
            exception inside, falls back to ``descripcion``.
    """

    descripcion: str
    comprobar: Callable
    detalle: Callable | None = None

    def descripcion_para(self, llamada) -> str:
        """``detalle(llamada)`` when it says something, else ``descripcion`` (never raises)."""
        if self.detalle is not None:
            try:
                with np.errstate(all="ignore"):
                    texto = self.detalle(llamada)
            except Exception:  # a malformed result gets the general description
                texto = None
            if texto:
                return str(texto)
        return self.descripcion


def pieza(descripcion: str, comprobar: Callable, detalle: Callable | None = None) -> Pieza:
    """An entry of an exercise's ``TRABAJO`` or ``TRABAJO_NECESARIO`` (see the module docstring)."""
    return Pieza(descripcion, comprobar, detalle)


def arrays_devueltos(llamada: Llamada) -> list[np.ndarray]:
    """The arrays of numbers the call returned, in order (a list of rows counts as one array).

    A one-part exercise: ``[resultado]``; several parts: each element of the
    returned tuple (or list) that is an array, without leading size-1 axes
    beyond the contract's (``sin_ejes_de_lote``).  Nothing for an exception.
    """
    if llamada.excepcion is not None:
        return []
    r = llamada.resultado
    partes = llamada.ejercicio.partes
    candidatos = list(r) if len(partes) > 1 and isinstance(r, (tuple, list)) else [r]
    arrays = [diagnostico.como_array(x) for x in candidatos]
    # leading size-1 axes beyond the contract's (a batch axis of one) are dropped, as the value cells do
    ejes = max(len(p.forma_en(llamada.caso)) for p in partes)
    arrays = [sin_ejes_de_lote(a, (0,) * ejes) for a in arrays if a is not None]
    return [a.astype(np.float64) if a.dtype.kind != "f" else a for a in arrays]


def sin_ejes_de_lote(array: np.ndarray, forma: tuple) -> np.ndarray:
    """``array`` without the leading size-1 axes it has beyond ``forma``'s (a batch axis of one, ``[None]``).

    A result of shape (1, T, d_model) where (T, d_model) is due (a batch axis,
    as in lesson 1's §11 or a PyTorch tutorial) is read as (T, d_model): the
    contract charges the form, the values are judged as they are (issue 22,
    grader tester: it scored 0 and «no calcula bien nada»).  Any other array
    is returned as it came.
    """
    sobran = array.ndim - len(forma)
    if sobran > 0 and all(n == 1 for n in array.shape[:sobran]):
        return array.reshape(array.shape[sobran:])
    return array


def en_cualquier_orden(array: np.ndarray, forma: tuple) -> list[np.ndarray]:
    """``array`` transposed in every axis order that gives ``forma`` (empty: none does).

    Leading size-1 axes beyond ``forma``'s are dropped first (``sin_ejes_de_lote``).
    """
    array = sin_ejes_de_lote(array, forma)
    if array.ndim != len(forma):
        return []
    return [np.transpose(array, orden) for orden in itertools.permutations(range(array.ndim))
            if tuple(array.shape[k] for k in orden) == tuple(forma)]


def alguna_linea_igual(lineas: np.ndarray, referencias: np.ndarray, tol: dict) -> bool:
    """Some row of ``lineas`` (n, L) equals some row of ``referencias`` (m, L) that varies.

    Rows of the reference that vary less than ``VARIACION_MINIMA`` are left
    out (a constant line shows nothing computed).  ``tol``: ``np.allclose`` keywords.
    """
    return lineas_iguales(lineas, referencias, tol)[0] > 0


def lineas_iguales(lineas: np.ndarray, referencias: np.ndarray, tol: dict) -> tuple[int, int]:
    """``(iguales, total)``: how many of the rows of ``referencias`` that vary some row of ``lineas`` equals.

    ``total`` counts the rows of the reference that vary more than
    ``VARIACION_MINIMA``; ``iguales``, those among them that appear, wherever,
    in ``lineas``.  ``tol``: ``np.allclose`` keywords.
    """
    lineas, referencias = np.asarray(lineas, dtype=np.float64), np.asarray(referencias, dtype=np.float64)
    if lineas.ndim != 2 or referencias.ndim != 2 or lineas.shape[1] != referencias.shape[1]:
        return 0, 0
    referencias = referencias[np.ptp(referencias, axis=1) > VARIACION_MINIMA]
    if not len(lineas) or not len(referencias):
        return 0, len(referencias)
    with np.errstate(all="ignore"):
        cerca = np.abs(lineas[:, None, :] - referencias[None, :, :]) <= (
            tol["atol"] + tol["rtol"] * np.abs(referencias[None, :, :]))
    return int(np.sum(np.any(np.all(cerca, axis=-1), axis=0))), len(referencias)


def algun_array_correcto(llamada: Llamada) -> bool:
    """Some returned array equals a part of the reference that is not constant.

    In any axis order and at any place of the returned tuple: a transposed
    table or ``(A, salida)`` still computed their values (the contract
    charges the form).
    """
    referencia = llamada.referencia()
    esperados = [referencia] if len(llamada.ejercicio.partes) == 1 else list(referencia)
    esperados = [np.asarray(e, dtype=np.float64) for e in esperados]
    esperados = [e for e in esperados if e.size and np.ptp(e) > VARIACION_MINIMA]
    for array in arrays_devueltos(llamada):
        for esperado in esperados:
            for candidato in en_cualquier_orden(array, esperado.shape):
                with np.errstate(all="ignore"):
                    if np.allclose(candidato, esperado, **llamada.ejercicio.tolerancia):
                        return True
    return False


def _cumple(comprobar: Callable, llamada: Llamada) -> bool:
    """``comprobar(llamada)``, False when it raises (a malformed result proves nothing)."""
    try:
        with np.errstate(all="ignore"):
            return bool(comprobar(llamada))
    except Exception:  # a malformed result proves nothing
        return False


def _algo_correcto(llamada: Llamada) -> bool:
    """A whole array right, or one of the pieces of ``TRABAJO``."""
    comprobaciones = [algun_array_correcto] + [p.comprobar for p in getattr(llamada.ejercicio, "trabajo", ())]
    return any(_cumple(comprobar, llamada) for comprobar in comprobaciones)


def _faltan(llamada: Llamada) -> list:
    """The pieces of ``TRABAJO_NECESARIO`` the call does not get right."""
    return [p for p in getattr(llamada.ejercicio, "trabajo_necesario", ()) if not _cumple(p.comprobar, llamada)]


def trabajo_hecho(llamada: Llamada) -> bool:
    """The call computes something right: a whole array, or a piece its exercise declares (``TRABAJO``),
    and every piece its exercise requires of any work (``TRABAJO_NECESARIO``: multi_head's output computed
    with its maps, so that maps alone next to a zero output are no work).

    Never raises: a malformed result does no work.
    """
    if llamada.excepcion is not None or llamada.resultado is None:
        return False
    return _algo_correcto(llamada) and not _faltan(llamada)


def _nada_de(ejercicio) -> str:
    """«ningún array de lo que devuelve ni un mapa de atención de una cabeza…» for ``ejercicio``."""
    piezas = [p.descripcion for p in getattr(ejercicio, "trabajo", ())]
    return "ningún array de lo que devuelve coincide con la referencia" + "".join(
        f", ni {p}" for p in piezas[:-1]) + (f" ni {piezas[-1]}" if piezas else "")


def que_falta(llamada: Llamada) -> str:
    """What the call lacks to count as work, in Spanish, after «tu función …».

    «no calcula bien nada (ningún array … ni …)», or, when something is right
    but a required piece is missing, «calcula algo (…), pero le falta …».
    """
    if llamada.excepcion is None and llamada.resultado is not None and _algo_correcto(llamada):
        faltan = _faltan(llamada)
        if faltan:
            return ("calcula algo, pero le falta " + " y ".join(p.descripcion_para(llamada) for p in faltan)
                    + ", y sin eso no hay trabajo hecho")
    return f"no calcula bien nada ({_nada_de(llamada.ejercicio)})"


def texto_sin_trabajo(ejercicio, controles: list | tuple = ()) -> str:
    """The Spanish reason why a robustness or generality cell of ``ejercicio`` pays nothing.

    ``controles``: the cell's control calls; when one of them computes
    something but lacks a required piece (``TRABAJO_NECESARIO``), the reason
    says which.
    """
    sin_lo_necesario = [ll for ll in controles if not trabajo_hecho(ll) and _algo_correcto(ll)]
    if sin_lo_necesario:
        return (f"con las entradas de las celdas de valores (los casos de control) tu función "
                f"{que_falta(sin_lo_necesario[0])}. Sin trabajo correcto, esta celda no puntúa")
    if getattr(ejercicio, "trabajo_en_cada_control", False):
        return ("tu función no calcula bien nada de lo que comprueban las celdas de valores en alguna de sus "
                f"entradas (los casos de control): {_nada_de(ejercicio)}. Sin trabajo correcto, esta celda no "
                "puntúa: tiene que verse con cada tamaño de los casos de control")
    return ("tu función no calcula bien nada de lo que comprueban las celdas de valores: con sus mismas "
            f"entradas (los casos de control), {_nada_de(ejercicio)}. Sin trabajo correcto, esta celda "
            "no puntúa")


def texto_sin_trabajo_en_la_muestra(ejercicio) -> str:
    """The Spanish reason why a cell pays nothing: its sample shows no work (``trabajo_en_la_muestra``); names no size."""
    return (f"con otros tamaños, que no se publican, tu función no calcula bien nada: "
            f"{ejercicio.trabajo_en_la_muestra.descripcion}. Sólo puntúa el trabajo hecho: una tabla que acierta "
            "con unos tamaños y no calcula nada con otros no sale de la fórmula, así que esta celda no puntúa en "
            "ninguno de sus casos")


def _muestra_sin_trabajo(propiedad: Propiedad, muestra: list) -> bool:
    """The exercise's ``trabajo_en_la_muestra`` fails on the cell's sample (value-type cells only; never raises)."""
    pieza_ = getattr(muestra[0].ejercicio, "trabajo_en_la_muestra", None) if muestra else None
    if pieza_ is None or propiedad.tipo != "valores":
        return False
    try:
        with np.errstate(all="ignore"):
            return not pieza_.comprobar(muestra)
    except Exception:  # a malformed result proves nothing
        return True


def texto_sin_trabajo_en_valores(ejercicio, llamadas: list) -> str:
    """The Spanish reason why a value cell pays nothing: some of its calls does no work (``trabajo_en_cada_control``).

    ``llamadas``: the cell's scored calls; the reason names the cases without work.
    """
    sin_trabajo = [ll for ll in llamadas if not trabajo_hecho(ll)]
    lanzan = [ll for ll in sin_trabajo if ll.excepcion is not None]
    calculan_mal = [ll for ll in sin_trabajo if ll.excepcion is None]
    partes = []
    if lanzan:
        # a function that raises on some sizes (a grader tester: it was told «no calcula bien nada» there)
        partes.append("con " + " y con ".join(ll.describir_caso() for ll in lanzan) + " "
                      + excepcion_texto(lanzan[0]).removeprefix("tu función "))
    if calculan_mal:
        partes.append("con " + " y con ".join(ll.describir_caso() for ll in calculan_mal)
                      + f" no calcula bien nada: {_nada_de(ejercicio)}")
    return ("tu función acierta con algún tamaño, pero " + "; y ".join(partes) + ". Sólo puntúa el trabajo hecho: "
            "una tabla que acierta con unos tamaños y no calcula nada con otro no sale de la fórmula (d_model es "
            "cualquier número par y T cualquier entero positivo), así que esta celda no puntúa en ninguno de sus "
            "casos")


@dataclass(frozen=True)
class Propiedad:
    """A graded property: its points and the check of one call.

    Attributes:
        puntos: points of the cell (its nbgrader ``points`` in the notebook).
        comprobar: ``(Llamada) -> list[str]``, the problems (empty: passes).
        descripcion: Spanish name of what is checked (first line of the verdict).
        tipo: ``"contrato"``, ``"valores"`` or ``"argumentos"``: the kind of
            check (a known mistake may be looked for only in one kind).
        parte: for value checks, the part of the result the cell looks at
            (None: all of them), also used by the diagnosis.
        no_repite: robustness/generality cell: when the control cases (the
            value cells' main cases) already fail, only exceptions, nan/inf
            and shapes are judged here (control rule, module docstring), and
            nothing is earned if no control call does work.
        solo_al_calificar: what the cell checks beyond its visible test is
            only checked at grading time (the lesson says so): Validate need
            not fail for a mistake that only this cell charges.
    """

    puntos: float
    comprobar: Callable
    descripcion: str
    tipo: str = "valores"
    parte: str | None = None
    no_repite: bool = False
    solo_al_calificar: bool = False


def contrato(descripcion: str = "forma y tipo de lo que devuelve", puntos: float = 1) -> Propiedad:
    """The contract: the arrays of ``RESULTADO`` with their shapes, ``np.ndarray`` and float64."""
    return Propiedad(puntos, _comprobar_contrato, descripcion, tipo="contrato")


def valores(descripcion: str, puntos: float, parte: str | None = None, no_repite: bool = False,
            solo_al_calificar: bool = False) -> Propiedad:
    """The values of ``parte`` (None: every part) against the reference, within ``TOLERANCIA``."""
    return Propiedad(puntos, _comprobador_de_valores(parte), descripcion, tipo="valores", parte=parte,
                     no_repite=no_repite, solo_al_calificar=solo_al_calificar)


def no_modifica(descripcion: str = "no escribir en los argumentos", puntos: float = 1) -> Propiedad:
    """The arrays passed in are unchanged after the call (checked in the kernel, byte by byte), and the
    call does work (``trabajo_hecho``): an empty or constant stub writes nothing and earns nothing."""
    return Propiedad(puntos, _comprobar_no_modifica, descripcion, tipo="argumentos")


# ------------------------------------------------------------ the verdict

# NumPy's floating-point warnings, in Spanish (the English text would sit next to a ✔)
_AVISOS_DE_NUMPY = {
    "overflow encountered": "desbordamiento (un resultado demasiado grande: inf)",
    "invalid value encountered": "valor no válido (nan, p. ej. inf/inf o 0/0)",
    "divide by zero encountered": "división entre cero",
    "underflow encountered": "subdesbordamiento (un resultado demasiado pequeño: 0)",
}


def traducir_aviso(texto: str) -> str:
    """``"RuntimeWarning: overflow encountered in exp"`` → a Spanish line that keeps the operation."""
    for ingles, espanol in _AVISOS_DE_NUMPY.items():
        if ingles in texto:
            operacion = texto.split(ingles, 1)[1].strip()
            operacion = operacion[3:] if operacion.startswith("in ") else operacion
            return f"aviso de NumPy: {espanol}" + (f" en {operacion}" if operacion else "")
    return texto


def _avisos(llamadas: list[Llamada]) -> list[str]:
    vistos: list[str] = []
    for llamada in llamadas:
        textos = [traducir_aviso(str(a)[:200]) for a in (llamada.avisos or [])]
        if str(llamada.stderr).strip():
            textos.append("stderr: " + str(llamada.stderr).strip()[:200])
        for texto in textos:
            if texto not in vistos:
                vistos.append(texto)
    return vistos


def _reconocer(propiedad: Propiedad, llamada: Llamada) -> list[Diagnostico]:
    try:
        return diagnostico.reconocer(llamada, propiedad)
    except Exception:  # a malformed result must not crash the grader
        return []


# Cases whose every value was right in a value cell of the notebook being judged (the control
# rule assumes a function gives the same on the same inputs: a function that is right there and
# wrong on the same inputs among a robustness cell's controls is not excused).  Judging happens
# cell after cell in notebook order; ``grader_tests.extensiones_nbgrader.nbgrader_juez`` calls ``empezar_cuaderno``.
_ACERTADOS: set[tuple[str, str]] = set()

NOTA_NO_DETERMINISTA = ("Con las mismas entradas que en las celdas de valores, tu función devolvió aquí "
                        "otro resultado: esta celda juzga los valores completos.")


NOTA_SIN_FORMA = ("Con las entradas de las celdas de valores (los casos de control) tu función tampoco acierta, y lo "
                  "que devuelve allí no tiene la forma del contrato (ni con los ejes en otro orden): sin una forma "
                  "que sirva de punto de partida, esta celda juzga los valores completos.")


def empezar_cuaderno() -> None:
    """Forget the cases of the previous notebook (called before judging each notebook)."""
    _ACERTADOS.clear()


def _clave_del_caso(llamada: Llamada) -> tuple[str, str]:
    funcion = getattr(llamada.ejercicio, "funcion", "")
    return (str(funcion), repr(sorted((str(k), repr(v)) for k, v in dict(llamada.caso).items())))


def _acierta_del_todo(llamada: Llamada) -> bool:
    try:
        return not _comprobador_de_valores(None)(llamada)
    except Exception:  # a malformed result is a wrong result
        return False


def _fallan_los_controles(controles: list[Llamada]) -> bool:
    """Some control call raised or differs from the reference (shapes or values, any part)."""
    comprobar = _comprobador_de_valores(None)
    for llamada in controles:
        try:
            if comprobar(llamada):
                return True
        except Exception:  # a malformed result is a wrong result
            return True
    return False


def _formas_en_controles(controles: list[Llamada]):
    """How the result's arrays sit on the controls, or None when nothing of it is usable.

    Returns ``(orden, ejes)``: ``orden`` says which returned array holds each
    part of the contract (``(0, 1)``; ``(1, 0)`` when a pair comes swapped, as
    ``(A, salida)``), and ``ejes`` per part the ways of reading its shape that
    fit every control, each ``(orden_de_los_ejes, desfases)``: the axis order
    (``(0, 1, 2)`` when its shape was right, ``(1, 0, 2)`` for A as (T, h, T),
    a transposed table…) and, per axis, how far its length is from the
    contract's, 0 or ±1 the same on every control (a table of T + 1 or T − 1
    rows: ``range(T + 1)``, ``np.arange(1, T)``; a form mistake the contract
    charges).  None when on some control some part is not an array with the
    contract's axes in any order, each of its length or one more or less.
    """
    import itertools
    partes = controles[0].ejercicio.partes
    for orden in itertools.permutations(range(len(partes))):
        posibles: list[set] | None = None
        for llamada in controles:
            valores, problemas = partes_de(llamada)
            if problemas:
                return None
            fila = []
            for parte, posicion in zip(partes, orden):
                array = diagnostico.como_array(valores[posicion])
                forma = parte.forma_en(llamada.caso)
                if array is None or array.ndim != len(forma):
                    fila = None
                    break
                fila.append({(o, tuple(n - forma[k] for n, k in zip(array.shape, o)))
                             for o in itertools.permutations(range(len(forma)))
                             if all(abs(n - forma[k]) <= 1 for n, k in zip(array.shape, o))})
            if fila is None:
                posibles = None
                break
            posibles = fila if posibles is None else [a & b for a, b in zip(posibles, fila)]
        if posibles is not None and all(posibles):
            return orden, posibles
    return None


def _comprobar_lo_propio(llamada: Llamada, formas) -> list[str]:
    """What a robustness/generality case must still get right when the controls fail.

    No exception, arrays of numbers, every value finite, and each part with
    the contract's axes in the order (and place, and off by the same one) it
    had on the controls (see the module docstring).
    """
    if llamada.excepcion is not None:
        return [excepcion_texto(llamada)]
    valores, problemas = partes_de(llamada)
    if problemas:
        return problemas
    orden, ejes = formas
    for parte, posicion, permitidos in zip(llamada.ejercicio.partes, orden, ejes):
        valor = valores[posicion]
        array = diagnostico.como_array(valor)
        forma = parte.forma_en(llamada.caso)
        if array is None:
            problemas.append(f"`{parte.nombre}` debería ser un array de números y es {resumen(valor)}")
            continue
        if not any(array.shape == tuple(forma[k] + d for k, d in zip(o, desfases))
                   for o, desfases in permitidos if len(o) == array.ndim):
            problemas.append(f"`{parte.nombre}` debería tener forma {parte.forma_simbolica} = {forma} "
                             f"y tiene {array.shape}")
        if array.dtype.kind in "fc" and not np.all(np.isfinite(array)):
            malos = int(array.size - np.count_nonzero(np.isfinite(array)))
            problemas.append(f"`{parte.nombre}` contiene {malos} valores nan o inf de {array.size}")
    return problemas


def _casos(total: int) -> str:
    return f"{total} caso{'s' if total != 1 else ''}"


def _lineas(propiedad: Propiedad, resultados: list[ResultadoCaso], avisos: list[str]) -> list[str]:
    """What the student reads: one line per case that did not simply pass, diagnoses once each."""
    lineas: list[str] = []
    diagnosticos_vistos: set[str] = set()
    primeros_vistos: set[str] = set()
    excusas_vistas: set[str] = set()
    for r in resultados:
        if r.aprobado and not r.excusado:
            continue
        cabecera = f"Caso {r.numero} ({r.descripcion}): "
        if r.excusado:
            nombres = "; ".join(dict.fromkeys(d.error.nombre for d in r.diagnosticos))
            clave = nombres or "?"
            if clave in excusas_vistas:
                lineas.append(cabecera + "lo mismo; aquí no resta.")
            else:
                excusas_vistas.add(clave)
                error = f" ({nombres})" if nombres else ""
                lineas.append(cabecera + f"no coincide con la referencia{error}, pero tu función ya falla "
                              "con las entradas de las celdas de valores y allí se descuenta. Aquí sólo "
                              "se comprueba que no haya excepciones, nan ni inf y que las formas sean "
                              "las del contrato: aquí no resta.")
            continue
        if r.problemas[0] in primeros_vistos:
            lineas.append(cabecera + "el mismo problema.")
        else:
            primeros_vistos.add(r.problemas[0])
            lineas.append(cabecera + r.problemas[0])
            lineas += [p if p.startswith(" ") else "  " + p for p in r.problemas[1:]]
        if r.solo_aqui:
            lineas.append("  Con las entradas de las celdas de valores (los casos de control) tu función "
                          "acierta: este error sólo aparece aquí, así que se descuenta aquí.")
        for d in r.diagnosticos:
            if d.texto not in diagnosticos_vistos:
                diagnosticos_vistos.add(d.texto)
                lineas.append("  Diagnóstico probable: " + d.texto)
    if avisos:
        lineas.append("Tu función escribió avisos (no restan puntos): " + "; ".join(avisos[:3]))
    total = len(resultados)
    aprobados = sum(r.aprobado for r in resultados)
    descripcion = propiedad.descripcion[0].upper() + propiedad.descripcion[1:]
    if aprobados == total and any(r.excusado for r in resultados):
        lineas.insert(0, f"{descripcion}. Comprobado en {_casos(total)}, nada que restar en esta celda.")
    elif aprobados == total:
        lineas.insert(0, f"{descripcion}. Comprobado en {_casos(total)}, correcto.")
    else:
        correctos = "caso correcto" if total == 1 else "casos correctos"
        lineas.insert(0, f"{descripcion}: {aprobados} de {total} {correctos}.")
    return lineas


def _preferir_los_constantes(resultados: list[ResultadoCaso]) -> None:
    """Where a case matches several known mistakes, keep the ones seen in most cases of the cell.

    Two mistakes can coincide on one shape (with h = 2, taking the next
    head's block and reversing the heads give the same output); the one that
    also explains the other cases is the student's.
    """
    cuenta: dict[str, int] = {}
    for r in resultados:
        for id_ in {d.error.id for d in r.diagnosticos}:
            cuenta[id_] = cuenta.get(id_, 0) + 1
    for r in resultados:
        if len(r.diagnosticos) > 1:
            mejor = max(cuenta[d.error.id] for d in r.diagnosticos)
            r.diagnosticos = [d for d in r.diagnosticos if cuenta[d.error.id] == mejor]


def _juntas(llamadas: list[Llamada], muestra: list[Llamada]) -> None:
    """Tell each call the cell's sample calls (``Llamada.otras``): the law sizes PE's ladder is read on."""
    for llamada in llamadas:
        llamada.otras = tuple(o for o in muestra if o is not llamada)


def separar(espec, llamadas: list[Llamada]) -> tuple[list[Llamada], list[Llamada], list[Llamada]]:
    """``(puntuadas, controles, muestra)`` of a cell's calls, in ``espec``'s order, each told the sample.

    ``llamadas``: one per case of ``espec`` (scored, controls, sample); with
    another length (damaged evidence), every call is scored.
    """
    completas = len(llamadas) == len(espec.casos)
    n_muestra = getattr(espec, "n_muestra", 0) if completas else 0
    n_controles = espec.n_controles if completas else 0
    fin = len(llamadas) - n_muestra
    muestra = llamadas[fin:]
    controles = llamadas[fin - n_controles:fin]
    puntuadas = llamadas[:fin - n_controles]
    _juntas(puntuadas + controles + muestra, muestra)
    return puntuadas, controles, muestra


def juzgar_llamadas(espec, propiedad: Propiedad, llamadas: list[Llamada], maximo: float) -> Veredicto:
    """Score a property over its calls: the fraction of scored cases that pass.

    Args:
        espec: the cell's ``casos.Especificacion`` (after its scored cases,
            ``n_controles`` controls: not scored, they only decide which known
            value mistakes may be excused, see the module docstring; then
            ``n_muestra`` sample calls, read only by the exercise's pieces of
            work that compare sizes).
        propiedad: the cell's ``Propiedad``.
        llamadas: one ``Llamada`` per case of ``espec``, in its order.
        maximo: the cell's points.

    Returns a ``Veredicto`` with one ``ResultadoCaso`` per scored case.
    Robustness and generality cells apply the control rule and the work-done
    rule (module docstring).
    Never raises on a malformed result.
    """
    puntuadas, controles, muestra = separar(espec, llamadas)
    if propiedad.tipo == "valores" and not propiedad.no_repite:
        _ACERTADOS.update(_clave_del_caso(ll) for ll in puntuadas if _acierta_del_todo(ll))
    lo_propio = propiedad.no_repite and bool(controles) and _fallan_los_controles(controles)
    for llamada in puntuadas:
        llamada.controles_fallan = lo_propio
    cambiante = lo_propio and any(_clave_del_caso(ll) in _ACERTADOS and not _acierta_del_todo(ll)
                                  for ll in controles)
    # points only for work done: nothing right on the controls, nothing earned here
    en_cada_control = bool(controles) and getattr(controles[0].ejercicio, "trabajo_en_cada_control", False)
    sin_trabajo = lo_propio and not cambiante and not (all if en_cada_control else any)(
        trabajo_hecho(ll) for ll in controles)
    # a value cell of such an exercise pays nothing when some of its calls does no work: values right with
    # the published sizes and nothing computed with the unpublished one are a table written for the first
    sin_trabajo_en_valores = (
        propiedad.tipo == "valores" and not propiedad.no_repite and bool(puntuadas)
        and getattr(puntuadas[0].ejercicio, "trabajo_en_cada_control", False)
        and any(_acierta_del_todo(ll) for ll in puntuadas) and not all(trabajo_hecho(ll) for ll in puntuadas))
    muestra_sin_trabajo = _muestra_sin_trabajo(propiedad, muestra)
    ordenes = _formas_en_controles(controles) if lo_propio and not cambiante and not sin_trabajo else None
    # the controls fail and what they return has no shape of the contract to hold on to: full values here,
    # but the mistake is not «only here» (it fails on the controls too)
    sin_forma = lo_propio and not cambiante and not sin_trabajo and ordenes is None
    controles_bien = propiedad.no_repite and bool(controles) and not lo_propio
    lo_propio = lo_propio and ordenes is not None  # nothing usable on ordinary inputs: full values
    resultados: list[ResultadoCaso] = []
    for numero, llamada in enumerate(puntuadas, start=1):
        try:
            problemas = propiedad.comprobar(llamada)
        except Exception as exc:  # a malformed result must not crash the grader
            problemas = [f"no se pudo examinar lo que devolvió tu función ({type(exc).__name__})"]
        excepcion = (llamada.excepcion or {}).get("clase") if llamada.excepcion is not None else None
        r = ResultadoCaso(numero, llamada.describir_caso(), aprobado=not problemas,
                          problemas=list(problemas), excepcion=str(excepcion)[:80] if excepcion else None)
        resultados.append(r)
        if sin_trabajo:
            r.aprobado, r.problemas = False, [texto_sin_trabajo(llamada.ejercicio, controles)]
            r.diagnosticos = _reconocer(propiedad, llamada)
            continue
        if sin_trabajo_en_valores:
            r.aprobado = False
            r.problemas = [texto_sin_trabajo_en_valores(llamada.ejercicio, puntuadas)] + (
                list(problemas) if problemas else [])
            r.diagnosticos = _reconocer(propiedad, llamada) if problemas else []
            continue
        if not problemas:
            continue
        reconocidos = _reconocer(propiedad, llamada)
        if lo_propio:
            try:
                propios = _comprobar_lo_propio(llamada, ordenes)
            except Exception as exc:  # a malformed result must not crash the grader
                propios = [f"no se pudo examinar lo que devolvió tu función ({type(exc).__name__})"]
            if not propios:
                r.aprobado = r.excusado = True
                r.diagnosticos = reconocidos
                continue
            r.problemas = propios
        r.diagnosticos = reconocidos
        r.solo_aqui = controles_bien
    if muestra_sin_trabajo:
        # what would score here does not: nothing computed at the sizes no lesson publishes (the other rules'
        # failures keep their own reasons)
        for r in resultados:
            if r.aprobado:
                r.aprobado = r.excusado = r.solo_aqui = False
                r.problemas = [texto_sin_trabajo_en_la_muestra(puntuadas[0].ejercicio)]
    _preferir_los_constantes(resultados)
    total = len(resultados)
    puntos = maximo * sum(r.aprobado for r in resultados) / total if total else 0.0
    lineas = _lineas(propiedad, resultados, _avisos(puntuadas + controles))
    if cambiante:
        lineas.append(NOTA_NO_DETERMINISTA)
    elif sin_forma and not all(r.aprobado for r in resultados):
        lineas.append(NOTA_SIN_FORMA)
    return Veredicto(round(puntos, 4), maximo, lineas,
                     grade_id=espec.grade_id, propiedad=espec.propiedad, casos=resultados)
