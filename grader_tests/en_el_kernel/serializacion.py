"""Turn whatever a student's function returned into JSON and back.

Runs on both sides: inside the student's kernel (``serializar``) and in the
trusted grader (``deserializar``).  Arrays travel as base64 of their raw bytes
so NaN, inf, dtype and shape survive exactly.  Nothing here evaluates code.

Subclasses of ``np.ndarray`` defined by NumPy itself (``np.matrix``,
``np.memmap``, ``np.ma.MaskedArray``…; ``type(x).__module__`` starts with
``"numpy"``) with a numeric dtype travel as arrays too, with the name of the
subclass.  They come back as ``ArraySubclase``: a plain array of the same
values that remembers the subclass, so the contract check can say "should be
an np.ndarray and is np.matrix" while the value checks compare the values.
Any other subclass or object (a custom ``__array__`` or ``__eq__``) is only
described (``Otro``), never trusted.
"""
from __future__ import annotations

import base64
import math

import numpy as np
import numpy.ma  # noqa: F401  (so MaskedArray is among NumPy's own subclasses below)

MAX_ELEMENTOS = 200_000   # larger arrays are described, not copied
MAX_PROFUNDIDAD = 4
MAX_LONGITUD = 64         # items of a list/tuple/set kept


class ArraySubclase(np.ndarray):
    """Trusted-side stand-in for a NumPy ndarray subclass (e.g. ``np.matrix``).

    Holds the values as a plain array (``np.asarray`` of it is an ordinary
    ``ndarray``); ``subclase`` is the original class name.
    """

    subclase: str = "?"

    def __array_finalize__(self, obj):
        self.subclase = getattr(obj, "subclase", "?")

    @property
    def nombre_subclase(self) -> str:
        return f"np.{self.subclase}"

    def como_ndarray(self) -> np.ndarray:
        return self.view(np.ndarray)


def _subclase_de_numpy(valor: object) -> bool:
    """A genuine ndarray subclass defined by NumPy itself (not by the student)."""
    clase = type(valor)
    return (clase is not np.ndarray and isinstance(valor, np.ndarray)
            and isinstance(getattr(clase, "__module__", None), str)
            and (clase.__module__ == "numpy" or clase.__module__.startswith("numpy."))
            and clase in _SUBCLASES_NUMPY)


def _subclases(clase) -> set:
    vistas = set()
    pendientes = [clase]
    while pendientes:
        for hija in type.__subclasses__(pendientes.pop()):
            if hija not in vistas:
                vistas.add(hija)
                pendientes.append(hija)
    return vistas


# NumPy's own subclasses, fixed when this module is imported (before any
# student code runs): a student class that claims ``__module__ = "numpy"``
# later is not among them.
_SUBCLASES_NUMPY = frozenset(c for c in _subclases(np.ndarray)
                             if str(getattr(c, "__module__", "")).split(".")[0] == "numpy")


class Otro:
    """Stand-in for a value that cannot travel (an unknown object)."""

    def __init__(self, clase: str, texto: str):
        self.clase = clase
        self.texto = texto

    def __repr__(self) -> str:
        return f"<{self.clase}: {self.texto}>"


def _repr_corto(valor: object, limite: int = 200) -> str:
    try:
        texto = repr(valor)
    except Exception as exc:  # a hostile __repr__
        texto = f"<repr falló: {type(exc).__name__}>"
    return texto if len(texto) <= limite else texto[: limite - 3] + "..."


def serializar(valor: object, profundidad: int = 0) -> dict:
    """Describe ``valor`` as a JSON-safe dict (see ``deserializar``)."""
    if profundidad > MAX_PROFUNDIDAD:
        return {"tipo": "otro", "clase": type(valor).__name__, "texto": "anidado demasiado"}
    if valor is None:
        return {"tipo": "none"}
    # exact type checks: subclasses with tricky __eq__ are described, not trusted
    if type(valor) is bool or type(valor) is np.bool_:
        return {"tipo": "bool", "valor": bool(valor)}
    if type(valor) is int:
        return {"tipo": "int", "valor": str(valor)}
    if type(valor) is float:
        return {"tipo": "float", "valor": repr(valor)}
    if type(valor) is str:
        return {"tipo": "str", "valor": valor[:1000]}
    if isinstance(valor, np.generic) and type(valor).__module__ == "numpy":
        return {"tipo": "escalar_numpy", "dtype": str(valor.dtype),
                "valor": serializar(valor.item(), profundidad + 1)}
    if type(valor) is np.ndarray:
        if valor.dtype.kind not in "biufc" or valor.size > MAX_ELEMENTOS:
            return {"tipo": "ndarray_grande" if valor.size > MAX_ELEMENTOS else "ndarray_objeto",
                    "dtype": str(valor.dtype), "shape": list(valor.shape)}
        contiguo = np.ascontiguousarray(valor)
        return {"tipo": "ndarray", "dtype": contiguo.dtype.str, "shape": list(contiguo.shape),
                "datos": base64.b64encode(contiguo.tobytes()).decode("ascii")}
    if _subclase_de_numpy(valor):
        base = np.ndarray.view(valor, np.ndarray)   # no __array__, no subclass methods
        descripcion = serializar(base, profundidad)
        if descripcion["tipo"] == "ndarray":
            descripcion["subclase"] = type(valor).__name__[:40]
        return descripcion
    if type(valor) is not tuple and isinstance(valor, tuple):
        # a namedtuple (or another tuple subclass) is a tuple: its items read through tuple's own C methods,
        # so an overridden __iter__ or __getitem__ cannot change what is described
        descripcion = serializar(tuple(tuple.__getitem__(valor, i) for i in range(tuple.__len__(valor))),
                                 profundidad)
        descripcion["subclase"] = type(valor).__name__[:40]
        return descripcion
    if type(valor) in (list, tuple, set, frozenset):
        elementos = list(valor)
        if type(valor) in (set, frozenset):
            try:
                elementos = sorted(elementos, key=repr)
            except Exception:
                pass
        return {"tipo": type(valor).__name__, "longitud": len(elementos),
                "elementos": [serializar(x, profundidad + 1) for x in elementos[:MAX_LONGITUD]]}
    return {"tipo": "otro", "clase": type(valor).__name__, "texto": _repr_corto(valor)}


def _dtype_numerico(texto) -> np.dtype:
    """A numeric dtype of at most 16 bytes (never void, object or structured: no huge allocation)."""
    dtype = np.dtype(str(texto)[:16])
    if dtype.kind not in "biufc" or dtype.itemsize > 16 or dtype.fields or dtype.subdtype:
        raise ValueError(f"dtype no admitido: {str(texto)[:16]}")
    return dtype


def deserializar(datos: dict) -> object:
    """Rebuild the value described by ``serializar`` (trusted side).

    Raises:
        ValueError: ``datos`` is not a description that ``serializar`` makes.
    """
    if not isinstance(datos, dict) or "tipo" not in datos:
        raise ValueError("descripción de valor no válida")
    tipo = datos["tipo"]
    if tipo == "none":
        return None
    if tipo == "bool":
        return bool(datos["valor"])
    if tipo == "int":
        return int(datos["valor"])
    if tipo == "float":
        return float(datos["valor"])
    if tipo == "str":
        return str(datos["valor"])
    if tipo == "escalar_numpy":
        return _dtype_numerico(datos["dtype"]).type(deserializar(datos["valor"]))
    if tipo == "ndarray":
        forma = tuple(int(n) for n in datos["shape"])
        dtype = _dtype_numerico(datos["dtype"])
        if len(forma) > 8 or any(n < 0 for n in forma) or math.prod(forma) > MAX_ELEMENTOS:
            raise ValueError("array con forma no válida")
        if len(datos["datos"]) != 4 * math.ceil(dtype.itemsize * math.prod(forma) / 3):
            raise ValueError("array con tamaño inconsistente")
        crudo = base64.b64decode(datos["datos"])
        if dtype.itemsize * math.prod(forma) != len(crudo):
            raise ValueError("array con tamaño inconsistente")
        array = np.frombuffer(crudo, dtype=dtype).reshape(forma).copy()
        if "subclase" in datos:
            array = array.view(ArraySubclase)
            array.subclase = str(datos["subclase"])[:40]
        return array
    if tipo in ("ndarray_grande", "ndarray_objeto"):
        return Otro(f"ndarray {datos['dtype']} {tuple(datos['shape'])}",
                    "demasiado grande para copiarlo" if tipo == "ndarray_grande" else "dtype object")
    if tipo in ("list", "tuple", "set", "frozenset"):
        elementos = [deserializar(x) for x in datos["elementos"]]
        if int(datos.get("longitud", len(elementos))) > len(elementos):
            elementos.append(Otro("...", f"{datos['longitud'] - len(elementos)} elementos más"))
        if tipo == "list":
            return elementos
        if tipo == "tuple":
            return tuple(elementos)
        try:
            return frozenset(elementos) if tipo == "frozenset" else set(elementos)
        except TypeError:
            return elementos
    if tipo == "otro":
        return Otro(str(datos.get("clase", "?")), str(datos.get("texto", "")))
    raise ValueError(f"tipo de valor desconocido: {tipo!r}")
