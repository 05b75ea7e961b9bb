"""Name the likely mistake behind a wrong result (trusted side only).

Generic engine: every exercise keeps its catalogue of known mistakes in
``grader_tests/ejercicios/<function>/errores.py`` (``ERRORES``, a list of
``ErrorConocido``).  A known mistake is either one or more small faulty
implementations with the exercise's signature (each makes the mistake on
purpose) or a detector that looks at the call directly (an exception, nan at
large scores, a hard-coded argument).  A wrong result is compared with what
each faulty implementation returns on the same inputs, part by part of the
exercise's result; the mistakes that match are named, in Spanish, with a
hint on how to check it.

Comparisons are made on vectors, never on summaries: ``P·Pᵀ`` is identical for
the interleaved and the ``[sin | cos]`` layouts of PE, the columns are not.

Each mistake has a ``categoria``:

* ``"valores"``: wrong values, layout or form; charged in the cells that check
  values or the contract;
* ``"robustez"``: only shows with large inputs;
* ``"generalidad"``: an argument ignored (a hard-coded ``h`` or ``T``);
* ``"argumentos"``: the function writes into its arguments;
* ``"excepcion"``: the function raised.

``propiedades`` uses the category so that robustness and generality cells do
not charge a second time a ``"valores"`` mistake already charged elsewhere
(only when the same mistake is also recognised on the cell's control case).

Also here, for any exercise whose result is arrays: detectors of the form
mistakes every such exercise shares (``devuelve_float32``,
``devuelve_lista``, ``devuelve_subclase``, ``escribe_en_argumentos``,
``resultado_constante``); a
catalogue lists them with its own advice and lesson section.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..en_el_kernel.serializacion import ArraySubclase, Otro
from .veredicto import Diagnostico

TOLERANCIA = {"rtol": 1e-4, "atol": 1e-6}
CATEGORIAS = ("valores", "robustez", "generalidad", "argumentos", "excepcion")


@dataclass(frozen=True)
class ErrorConocido:
    """A known mistake of one exercise.

    Attributes:
        id: stable identifier (``"escala_d_model"``): battery headers
            (``# error: escala_d_model``), logs and class reports use it.
        nombre: short Spanish name (``"escala √d_model"``), shown when a case
            is excused because the same mistake is charged elsewhere.
        explicacion: Spanish diagnosis shown to the student (for a detector,
            the detector returns its own text).
        seccion: the lesson section to revisit, as its heading reads
            (``"3. Las ecuaciones"``).
        categoria: one of ``CATEGORIAS`` (see the module docstring).
        implementacion: a faulty implementation with the exercise's signature,
            or a tuple of them (variants of the same mistake), or None.
        detector: ``(llamada, parte) -> str | None`` for mistakes that an
            implementation cannot describe (returns the explanation).
        solo_en: a ``Propiedad.tipo``: the mistake is only looked for in the
            cells of that kind (``"argumentos"``), None for every cell.
    """

    id: str
    nombre: str
    explicacion: str = ""
    seccion: str = ""
    categoria: str = "valores"
    implementacion: object = None
    detector: Callable | None = None
    solo_en: str | None = None

    @property
    def excusable(self) -> bool:
        """True when robustness/generality cells should not charge it again."""
        return self.categoria == "valores"

    @property
    def implementaciones(self) -> tuple:
        """Its faulty implementations (empty for a detector)."""
        if self.implementacion is None:
            return ()
        return tuple(self.implementacion) if isinstance(self.implementacion, (tuple, list)) \
            else (self.implementacion,)


# ------------------------------------------------------------------ helpers

def como_array(x: object):
    """``x`` as a real ndarray (lists of arrays/numbers are stacked), or None.

    A complex array whose imaginary parts are all 0 (within ``TOLERANCIA['atol']``)
    counts with its real parts.  A NumPy subclass such as ``np.matrix`` (``ArraySubclase``) counts with its
    values: its form is the contract's business.
    """
    if isinstance(x, ArraySubclase):
        x = x.como_ndarray()
    if type(x) is np.ndarray and x.dtype.kind == "c":
        # complex numbers with no imaginary part (np.exp(1j·θ) then .real forgotten, an astype(complex)):
        # their values are real numbers; the contract charges the dtype (issue 22, grader tester: 0 of 10)
        with np.errstate(all="ignore"):
            sin_imaginaria = bool(np.all(np.abs(x.imag) <= TOLERANCIA["atol"]))
        return np.ascontiguousarray(x.real) if sin_imaginaria else None
    if type(x) is np.ndarray:
        return x if x.dtype.kind in "biuf" else None
    if isinstance(x, (list, tuple)):
        if any(isinstance(e, Otro) for e in x):
            return None
        try:
            y = np.array(x)
        except Exception:
            return None
        return y if y.dtype.kind in "biuf" else None
    return None


def iguales(obtenido: object, esperado: object, rtol: float = TOLERANCIA["rtol"],
            atol: float = TOLERANCIA["atol"]) -> bool:
    """Same shape and values within the tolerance (nan matches nan)."""
    a, b = como_array(obtenido), como_array(esperado)
    if a is None or b is None or a.shape != b.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.allclose(a.astype(np.float64), b.astype(np.float64), equal_nan=True,
                                rtol=rtol, atol=atol))


# a mistake explains a difference only if it differs from the reference by more
# than rounding (e.g. interleaved and contiguous heads coincide when h = 1)
_ESTRICTA = {"rtol": 1e-7, "atol": 1e-9}


def partes(llamada, resultado: object, parte: str | None = None) -> list:
    """The parts of a result a cell looks at (all of them with ``parte=None``).

    One-part exercises: ``[resultado]``.  A tuple result of the wrong length
    (or not a tuple): ``[None]``.
    """
    nombres = [p.nombre for p in llamada.ejercicio.partes]
    if len(nombres) == 1:
        return [resultado]
    if not isinstance(resultado, (tuple, list)) or len(resultado) != len(nombres):
        return [None]
    if parte is not None and parte in nombres:
        return [resultado[nombres.index(parte)]]
    return list(resultado)


def coincide(llamada, esperado: object, parte: str | None = None, obtenido: object = None) -> bool:
    """The student's result equals ``esperado`` on the parts the cell checks, and ``esperado``
    differs from the reference there (else it explains nothing)."""
    obtenido = llamada.resultado if obtenido is None else obtenido
    o, e, r = (partes(llamada, x, parte) for x in (obtenido, esperado, llamada.referencia()))
    if any(x is None for x in e + o) or len(o) != len(e):
        return False
    return (all(iguales(a, b) for a, b in zip(o, e))
            and not all(iguales(b, c, **_ESTRICTA) for b, c in zip(e, r)))


def valores_correctos(llamada) -> bool:
    """Every part of the result equals the reference's within the default tolerance."""
    o, r = partes(llamada, llamada.resultado), partes(llamada, llamada.referencia())
    return (not any(x is None for x in o) and len(o) == len(r)
            and all(iguales(a, b) for a, b in zip(o, r)))


def _nombres(lista: list[str]) -> str:
    return " y ".join(f"`{n}`" for n in lista)


# ------------------------------------------- detectors any array exercise shares

def devuelve_float32(consejo: str) -> Callable:
    """Detector: some returned array is float32 and every value is right (``consejo``: how to fix it)."""
    def detector(llamada, parte):
        nombres = [p.nombre for p in llamada.ejercicio.partes]
        valores = partes(llamada, llamada.resultado)
        malos = [n for n, v in zip(nombres, valores) if type(v) is np.ndarray and v.dtype == np.float32]
        if malos and valores_correctos(llamada):
            return (f"devuelves {_nombres(malos)} en float32: los valores son correctos, pero el contrato "
                    f"pide float64; {consejo}")
        return None
    return detector


def devuelve_otra_precision(consejo: str) -> Callable:
    """Detector: some returned array has a floating dtype other than float64 and float32
    (float16, longdouble) and every value is right; or float16 with the reference's values rounded to it
    (about three figures: they do not score, judged at float64's precision)."""
    def detector(llamada, parte):
        nombres = [p.nombre for p in llamada.ejercicio.partes]
        valores = partes(llamada, llamada.resultado)
        malos = [(n, v.dtype) for n, v in zip(nombres, valores) if type(v) is np.ndarray
                 and v.dtype.kind == "f" and v.dtype not in (np.float64, np.float32)]
        if malos and valores_correctos(llamada):
            que = " y ".join(f"`{n}` en {d}" for n, d in malos)
            return (f"devuelves {que}: los valores son correctos, pero el contrato pide float64; {consejo}")
        cortos = [n for n, d in malos if d.itemsize < 4]
        referencias = partes(llamada, llamada.referencia())
        if cortos and len(valores) == len(referencias) and all(
                v is not None and iguales(v, r, rtol=2e-3, atol=2e-3) for v, r in zip(valores, referencias)):
            # float16 keeps about three figures: the values are the reference rounded, judged at float64's
            # precision like everyone's (the visible tests say the same: causa_de_poca_precision)
            return (f"devuelves {_nombres(cortos)} en float16, que guarda unas tres cifras: tus valores son los "
                    "de la referencia redondeados, y se comparan con la precisión de float64, así que no "
                    "puntúan. Calcula y devuelve en float64 (sin dtype=np.float16).")
        return None
    return detector


def sin_ejes_de_tamano_1(llamada, parte):
    """Detector: a returned array lost its size-1 axes (np.squeeze, an index [0]) and is otherwise right."""
    nombres = [p.nombre for p in llamada.ejercicio.partes]
    valores = partes(llamada, llamada.resultado)
    referencias = partes(llamada, llamada.referencia())
    if any(v is None for v in valores) or len(valores) != len(referencias):
        return None
    malos = []
    for nombre, valor, esperado in zip(nombres, valores, referencias):
        a, e = como_array(valor), np.asarray(esperado)
        if a is None:
            return None
        if a.shape != e.shape and 1 in e.shape and iguales(a, np.squeeze(e)):
            malos.append(nombre)
        elif not iguales(a, e):
            return None
    if malos:
        return (f"{_nombres(malos)} pierde sus ejes de tamaño 1 (¿np.squeeze o un índice [0]?): con T = 1 "
                "o h = 1 la forma del contrato los conserva; no uses np.squeeze.")
    return None


def con_ejes_de_tamano_1_de_mas(llamada, parte):
    """Detector: a returned array has leading size-1 axes beyond the contract's and is otherwise right.

    (1, T, d_model) where (T, d_model) is due: a batch axis of one (lesson 1's
    §11, a PyTorch tutorial), ``x[None]``, ``np.expand_dims``.  The value cells
    read it without them; only the contract charges the form.
    """
    nombres = [p.nombre for p in llamada.ejercicio.partes]
    valores = partes(llamada, llamada.resultado)
    referencias = partes(llamada, llamada.referencia())
    if any(v is None for v in valores) or len(valores) != len(referencias):
        return None
    malos = []
    for nombre, valor, esperado in zip(nombres, valores, referencias):
        a, e = como_array(valor), np.asarray(esperado)
        if a is None:
            return None
        sobran = a.ndim - e.ndim
        if sobran > 0 and all(n == 1 for n in a.shape[:sobran]) and iguales(a.reshape(a.shape[sobran:]), e):
            malos.append(nombre)
        elif not iguales(a, e):
            return None
    if malos:
        return (f"{_nombres(malos)} {'llevan' if len(malos) > 1 else 'lleva'} delante un eje de tamaño 1 que el "
                "contrato no tiene (¿un eje de lote, x[None] o np.expand_dims?): el contrato no lleva eje de "
                "lote. Los valores están bien y se leen sin ese eje: sólo lo descuenta la celda del contrato.")
    return None


def devuelve_lista(consejo: str) -> Callable:
    """Detector: some returned array comes as a list (of arrays or numbers) with the right values.

    Long lists arrive cut (their tail is an ``Otro``): the rows that arrived
    are compared with the reference's first rows.
    """
    def detector(llamada, parte):
        nombres = [p.nombre for p in llamada.ejercicio.partes]
        valores = partes(llamada, llamada.resultado)
        referencias = partes(llamada, llamada.referencia())
        if any(v is None for v in valores) or len(valores) != len(referencias):
            return None
        listas = []
        for nombre, valor, esperado in zip(nombres, valores, referencias):
            if isinstance(valor, (list, tuple)):
                filas = [f for f in valor if not isinstance(f, Otro)]
                if not filas or not iguales(filas, np.asarray(esperado)[:len(filas)]):
                    return None
                listas.append(nombre)
            elif not iguales(valor, esperado):
                return None
        if listas:
            return (f"devuelves {_nombres(listas)} como lista en lugar de un array de NumPy: los valores "
                    f"están bien; {consejo}")
        return None
    return detector


def devuelve_complejos(llamada, parte):
    """Detector: some returned array is complex, with every imaginary part 0 and the real parts right."""
    nombres = [p.nombre for p in llamada.ejercicio.partes]
    valores = partes(llamada, llamada.resultado)
    referencias = partes(llamada, llamada.referencia())
    if len(valores) != len(referencias):
        return None
    malos = [n for n, v in zip(nombres, valores) if type(v) is np.ndarray and v.dtype.kind == "c"]
    if not malos or not all(iguales(v, r) for v, r in zip(valores, referencias)):
        return None
    return (f"devuelves {_nombres(malos)} con números complejos ({valores[nombres.index(malos[0])].dtype}) cuya "
            "parte imaginaria es 0: los valores (la parte real) están bien, pero el contrato pide float64. "
            "Quédate con la parte real, np.real(...), o calcula con funciones reales.")


def devuelve_subclase(consejo: str) -> Callable:
    """Detector: some returned array is a NumPy subclass (``np.matrix``…) with the right values."""
    def detector(llamada, parte):
        nombres = [p.nombre for p in llamada.ejercicio.partes]
        valores = partes(llamada, llamada.resultado)
        malos = [(n, v.nombre_subclase) for n, v in zip(nombres, valores) if isinstance(v, ArraySubclase)]
        if malos and valores_correctos(llamada):
            descripcion = " y ".join(f"`{n}` como {clase}" for n, clase in malos)
            return (f"devuelves {descripcion}: los valores son correctos, pero el contrato pide un "
                    f"np.ndarray; {consejo}")
        return None
    return detector


def resultado_constante(llamada, parte):
    """Detector: every returned array is constant (zeros, ones, uniform maps) where the reference is not.

    A stub that computes nothing yet; its Spanish text says so, and points
    are only earned for work done (``propiedades``, module docstring).
    """
    valores = partes(llamada, llamada.resultado)
    referencias = partes(llamada, llamada.referencia())
    arrays = [como_array(v) for v in valores]
    if not arrays or any(a is None or a.size == 0 or a.dtype.kind not in "biuf" for a in arrays):
        return None
    if len(referencias) != len(arrays) or any(r is None for r in referencias):
        return None
    with np.errstate(all="ignore"):
        constantes = all(np.all(np.isfinite(a)) and np.ptp(a.astype(np.float64)) == 0 for a in arrays)
        variables = any(np.ptp(np.asarray(r, dtype=np.float64)) > 1e-3 for r in referencias)
    if constantes and variables:
        return ("todo lo que devuelves es constante (ceros, unos o mapas uniformes): tu función aún no "
                "calcula nada de lo que pide el ejercicio. Sin trabajo hecho, sólo puede puntuar el "
                "contrato (la forma y el tipo).")
    return None


def escribe_en_argumentos(llamada, parte):
    """Detector (``solo_en="argumentos"``): the call wrote into the arrays it received."""
    if llamada.excepcion is not None or not llamada.modificados:
        return None
    lista = ", ".join(f"`{n}`" for n in llamada.nombres_modificados())
    return (f"tu función escribe en {lista}. Operaciones como `M /= ...`, `M -= ...` o `M[...] = ...` "
            "modifican el array de quien llama; escribe `M = M / ...` (un array nuevo) o trabaja sobre "
            "una copia (`M = M.copy()`).")


# --------------------------------------------------------------- recognition

def reconocer(llamada, propiedad=None) -> list[Diagnostico]:
    """The known mistakes of the call's exercise that explain it, with their Spanish diagnosis.

    Args:
        llamada: a ``propiedades.Llamada`` (its ``ejercicio`` holds the catalogue).
        propiedad: the cell's ``propiedades.Propiedad`` (its ``parte`` and
            ``tipo``), or None to look at the whole result.
    """
    parte = getattr(propiedad, "parte", None)
    tipo = getattr(propiedad, "tipo", None)
    encontrados: list[Diagnostico] = []
    for error in llamada.ejercicio.errores:
        if error.solo_en is not None and error.solo_en != tipo:
            continue
        try:
            with np.errstate(all="ignore"):
                if error.detector is not None:
                    if (error.categoria == "excepcion") != (llamada.excepcion is not None):
                        continue
                    texto = error.detector(llamada, parte)
                    if texto:
                        encontrados.append(Diagnostico(error, texto))
                    continue
                if llamada.excepcion is not None:
                    continue
                for implementacion in error.implementaciones:
                    if coincide(llamada, implementacion(*llamada.argumentos), parte):
                        encontrados.append(Diagnostico(error, error.explicacion))
                        break
        except Exception:  # a mistake that cannot run on these inputs explains nothing
            continue
    return encontrados


def diagnosticar(llamada, propiedad=None) -> list[str]:
    """Spanish diagnoses of the known mistakes that explain the call (no repeats)."""
    textos: list[str] = []
    for d in reconocer(llamada, propiedad):
        if d.texto not in textos:
            textos.append(d.texto)
    return textos
