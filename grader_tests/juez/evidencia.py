"""Bounds on the evidence a student's kernel publishes, checked before anything is rebuilt from it.

The evidence (``cliente.corregir``) is JSON the student's process wrote: any
shape, any size, any claim.  ``comprobar`` walks it once, iteratively, with
fixed limits on nodes, depth, string lengths and total size, and checks every
value description the way ``serializacion.deserializar`` will read it: only
numeric dtypes of at most 16 bytes, at most ``MAX_DIMENSIONES`` axes, at most
``serializacion.MAX_ELEMENTOS`` elements and a base64 body exactly as long as
its shape and dtype say.  So a 200-byte claim ("a NumPy scalar of dtype
V1500000000", "an array of shape 10^9 × 10^9") is refused before a single
byte is allocated for it, and the TA's process stays small
(``scripts/mediciones/bench_evidencia.py``).  A violation scores the cell 0 with a
Spanish "evidencia inválida" (``nbgrader_juez``).
"""
from __future__ import annotations

import math

import numpy as np

from ..en_el_kernel.serializacion import MAX_ELEMENTOS

# JSON nodes of one cell's evidence (dicts, lists, strings, numbers).  An honest list of lists costs about
# three per number; PE's robustness cell with its controls and the law sizes (casos.MUESTRA_DE_LA_LEY), returned
# as lists, reaches ~23 000 (e15_lista), so the bound leaves twice that.
MAX_NODOS = 50_000
MAX_PROFUNDIDAD = 16
MAX_TEXTO = 8 * 1024 ** 2        # characters of one string (an array's base64 included)
MAX_TOTAL = 32 * 1024 ** 2       # characters of all strings together
MAX_DIMENSIONES = 8
MAX_EJE = 10_000_000
TAMAÑO_DTYPE = 16


class EvidenciaInvalida(ValueError):
    """The evidence breaks a bound; the message says which (Spanish)."""


def dtype_seguro(texto: object) -> np.dtype:
    """The numeric dtype ``texto`` names, or ``EvidenciaInvalida`` (void, object, structured, huge)."""
    if not isinstance(texto, str) or len(texto) > 16:
        raise EvidenciaInvalida("dtype no válido")
    try:
        dtype = np.dtype(texto)
    except (TypeError, ValueError) as exc:
        raise EvidenciaInvalida(f"dtype desconocido {texto[:16]!r}") from exc
    if dtype.kind not in "biufc" or dtype.itemsize > TAMAÑO_DTYPE or dtype.fields or dtype.subdtype:
        raise EvidenciaInvalida(f"dtype no admitido {texto[:16]!r}")
    return dtype


def _comprobar_valor(nodo: dict) -> None:
    tipo = nodo.get("tipo")
    if tipo == "escalar_numpy":
        dtype_seguro(nodo.get("dtype"))
    elif tipo == "ndarray":
        dtype = dtype_seguro(nodo.get("dtype"))
        forma = nodo.get("shape")
        if not isinstance(forma, list) or len(forma) > MAX_DIMENSIONES or not all(
                type(n) is int and 0 <= n <= MAX_EJE for n in forma):
            raise EvidenciaInvalida("forma de array no válida")
        elementos = math.prod(forma)
        if elementos > MAX_ELEMENTOS:
            raise EvidenciaInvalida(f"array de {elementos} elementos (máximo {MAX_ELEMENTOS})")
        datos = nodo.get("datos")
        esperado = 4 * math.ceil(elementos * dtype.itemsize / 3)
        if not isinstance(datos, str) or len(datos) != esperado:
            raise EvidenciaInvalida("los datos del array no corresponden a su forma y dtype")
    elif tipo in ("ndarray_grande", "ndarray_objeto"):
        forma = nodo.get("shape")
        if not isinstance(forma, list) or len(forma) > MAX_DIMENSIONES:
            raise EvidenciaInvalida("forma de array no válida")


def comprobar(evidencia: object) -> None:
    """Raise ``EvidenciaInvalida`` if ``evidencia`` breaks a bound (see module doc); linear, iterative."""
    nodos = total = 0
    pendientes = [(evidencia, 0)]
    while pendientes:
        nodo, profundidad = pendientes.pop()
        nodos += 1
        if nodos > MAX_NODOS:
            raise EvidenciaInvalida(f"demasiados elementos (más de {MAX_NODOS})")
        if profundidad > MAX_PROFUNDIDAD:
            raise EvidenciaInvalida(f"anidada a más de {MAX_PROFUNDIDAD} niveles")
        if isinstance(nodo, str):
            if len(nodo) > MAX_TEXTO:
                raise EvidenciaInvalida(f"un texto de {len(nodo)} caracteres (máximo {MAX_TEXTO})")
            total += len(nodo)
        elif isinstance(nodo, dict):
            if "tipo" in nodo and isinstance(nodo.get("tipo"), str):
                _comprobar_valor(nodo)
            if nodos + len(pendientes) + len(nodo) > MAX_NODOS:
                raise EvidenciaInvalida(f"demasiados elementos (más de {MAX_NODOS})")
            for clave, valor in nodo.items():
                if not isinstance(clave, str) or len(clave) > 200:
                    raise EvidenciaInvalida("clave no válida")
                total += len(clave)
                pendientes.append((valor, profundidad + 1))
        elif isinstance(nodo, list):
            if nodos + len(pendientes) + len(nodo) > MAX_NODOS:
                raise EvidenciaInvalida(f"demasiados elementos (más de {MAX_NODOS})")
            pendientes.extend((valor, profundidad + 1) for valor in nodo)
        elif not (nodo is None or isinstance(nodo, (bool, int, float))):
            raise EvidenciaInvalida(f"valor de tipo {type(nodo).__name__}")
        elif isinstance(nodo, int) and not isinstance(nodo, bool) and abs(nodo) > 10 ** 18:
            raise EvidenciaInvalida("entero fuera de rango")
        if total > MAX_TOTAL:
            raise EvidenciaInvalida(f"más de {MAX_TOTAL // 1024 ** 2} MiB de texto")
