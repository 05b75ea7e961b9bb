"""Judges of the graded properties of ``multi_head`` and ``positional_encoding``.

Trusted side only.  Each property is judged on every input case of its cell
(``casos``); the cell earns the fraction of cases that pass.  A failing case
says what was expected, what came back (small and rounded) and, when the
result matches a known mistake, which one (``diagnostico``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import diagnostico, referencia
from .casos import ARGUMENTOS
from .serializacion import Otro, deserializar

# Tolerances stated in the lessons' contracts.
TOLERANCIA_MULTI_HEAD = {"rtol": 1e-4, "atol": 1e-6}   # float32 arithmetic inside passes
TOLERANCIA_PE = {"rtol": 1e-6, "atol": 1e-6}

NOMBRES_ARGUMENTOS = {"multi_head": ("X", "Wq", "Wk", "Wv", "Wo", "h"),
                      "positional_encoding": ("T", "d_model")}


@dataclass
class Llamada:
    """One call of the student's function, as the kernel reported it."""

    caso: dict
    argumentos: tuple
    resultado: object = None
    excepcion: dict | None = None
    stdout: str = ""
    stderr: str = ""
    avisos: list = field(default_factory=list)
    modificados: dict = field(default_factory=dict)

    @classmethod
    def desde_evidencia(cls, objetivo: str, caso: dict, registro: dict) -> "Llamada":
        llamada = cls(caso=caso, argumentos=ARGUMENTOS[objetivo](caso))
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

    def describir_caso(self) -> str:
        return ", ".join(f"{k} = {v}" for k, v in self.caso.items() if k not in ("semilla", "escala"))


def _resumen(x: object, filas: int = 2, columnas: int = 6) -> str:
    """A small, rounded picture of a value for a message."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind not in "biufc":
            return f"array de dtype {x.dtype}"
        y = x
        while y.ndim > 2:
            y = y[0]
        y = np.atleast_2d(y)[:filas, :columnas]
        with np.printoptions(precision=3, suppress=True, linewidth=120):
            cuerpo = np.array2string(np.asarray(y, dtype=np.float64) if x.dtype.kind != "c" else y)
        return f"array {x.dtype} de forma {x.shape}, empieza por {cuerpo}"
    if isinstance(x, (list, tuple)):
        return f"{type(x).__name__} de longitud {len(x)}"
    return repr(x)[:120]


def _es_array_real(x: object) -> bool:
    return type(x) is np.ndarray and x.dtype.kind in "biuf"


def _excepcion_texto(llamada: Llamada) -> str:
    exc = llamada.excepcion or {}
    texto = f"tu función lanzó {exc.get('clase', 'una excepción')}: {exc.get('mensaje', '')}".rstrip(": ")
    if exc.get("linea"):
        texto += f" (en la línea `{exc['linea'].strip()}`)"
    return texto


# ---------------------------------------------------------------- multi_head

def _partes_multi_head(llamada: Llamada) -> tuple[object, object, list[str]]:
    """Split the result into (salida, A); explain what is wrong with its form."""
    r = llamada.resultado
    if llamada.excepcion is not None:
        return None, None, [_excepcion_texto(llamada)]
    if not isinstance(r, (tuple, list)) or len(r) != 2:
        return None, None, [f"se esperaba la pareja (salida, A) y ha llegado {_resumen(r)}"]
    return r[0], r[1], []


def _contrato_multi_head(llamada: Llamada) -> list[str]:
    T, d_model, h = (llamada.caso[k] for k in ("T", "d_model", "h"))
    salida, A, problemas = _partes_multi_head(llamada)
    if problemas:
        return problemas
    if not isinstance(llamada.resultado, tuple):
        problemas.append("se esperaba una tupla `return salida, A` y ha llegado una lista")
    for nombre, valor, forma in (("salida", salida, (T, d_model)), ("A", A, (h, T, T))):
        if type(valor) is not np.ndarray:
            problemas.append(f"`{nombre}` debería ser un array de NumPy y es {_resumen(valor)}")
        elif valor.shape != forma:
            problemas.append(f"`{nombre}` debería tener forma {forma} y tiene {valor.shape}")
        elif valor.dtype != np.float64:
            problemas.append(f"`{nombre}` debería ser float64 y es {valor.dtype}")
    return problemas


def _comparar(nombre: str, valor: object, esperado: np.ndarray, tol: dict) -> list[str]:
    if not _es_array_real(valor):
        return [f"`{nombre}` debería ser un array de números y es {_resumen(valor)}"]
    if valor.shape != esperado.shape:
        return [f"`{nombre}` debería tener forma {esperado.shape} y tiene {valor.shape}"]
    if not np.all(np.isfinite(valor)):
        malos = int(np.size(valor) - np.count_nonzero(np.isfinite(valor)))
        return [f"`{nombre}` contiene {malos} valores nan o inf"]
    if np.allclose(valor, esperado, **tol):
        return []
    error = float(np.max(np.abs(valor.astype(np.float64) - esperado)))
    return [f"`{nombre}` no coincide con la referencia (mayor diferencia {error:.3g})",
            f"  esperado: {_resumen(esperado)}",
            f"  obtenido: {_resumen(valor)}"]


def _valores_multi_head(llamada: Llamada, que: str) -> list[str]:
    salida, A, problemas = _partes_multi_head(llamada)
    if problemas:
        return problemas
    salida_ref, A_ref = referencia.multi_head(*llamada.argumentos)
    problemas = []
    if que in ("mapas", "ambos"):
        problemas += _comparar("A", A, A_ref, TOLERANCIA_MULTI_HEAD)
    if que in ("salida", "ambos"):
        problemas += _comparar("salida", salida, salida_ref, TOLERANCIA_MULTI_HEAD)
    return problemas


def _no_modifica(llamada: Llamada) -> list[str]:
    if llamada.excepcion is not None:
        return [_excepcion_texto(llamada) + "; sin una llamada completa no se puede comprobar"]
    nombres = NOMBRES_ARGUMENTOS["multi_head"]
    tocados = [nombres[int(p)] for p in sorted(llamada.modificados, key=int) if int(p) < len(nombres)]
    if tocados:
        return ["tu función escribe en " + ", ".join(f"`{n}`" for n in tocados) +
                ": trabaja sobre copias (o sobre arrays nuevos) y deja intactos los que recibes"]
    return []


# -------------------------------------------------------- positional_encoding

def _contrato_pe(llamada: Llamada) -> list[str]:
    if llamada.excepcion is not None:
        return [_excepcion_texto(llamada)]
    T, d_model = llamada.argumentos
    PE = llamada.resultado
    if type(PE) is not np.ndarray:
        return [f"se esperaba un array de NumPy y ha llegado {_resumen(PE)}"]
    problemas = []
    if PE.shape != (T, d_model):
        problemas.append(f"se esperaba la forma (T, d_model) = {(T, d_model)} y tiene {PE.shape}")
    if PE.dtype != np.float64:
        problemas.append(f"se esperaba dtype float64 y es {PE.dtype}")
    return problemas


def _valores_pe(llamada: Llamada) -> list[str]:
    if llamada.excepcion is not None:
        return [_excepcion_texto(llamada)]
    return _comparar("PE", llamada.resultado, referencia.positional_encoding(*llamada.argumentos),
                     TOLERANCIA_PE)


# ------------------------------------------------------------------ registry

@dataclass(frozen=True)
class Propiedad:
    """A graded property: its default points and the check of one call."""

    puntos: float
    comprobar: object          # Llamada -> list[str] (empty when it passes)
    descripcion: str


PROPIEDADES: dict[str, Propiedad] = {
    "multi_head_contrato": Propiedad(1, _contrato_multi_head, "forma y tipo de lo que devuelve"),
    "multi_head_mapas": Propiedad(3, lambda ll: _valores_multi_head(ll, "mapas"), "los mapas de atención A"),
    "multi_head_salida": Propiedad(3, lambda ll: _valores_multi_head(ll, "salida"), "la salida final"),
    "multi_head_no_modifica": Propiedad(1, _no_modifica, "no escribir en los argumentos"),
    "multi_head_robustez": Propiedad(1, lambda ll: _valores_multi_head(ll, "ambos"),
                                     "puntuaciones de varios cientos sin nan ni inf"),
    "multi_head_generalidad": Propiedad(1, lambda ll: _valores_multi_head(ll, "ambos"),
                                        "h = 1, h = d_model, T = 1 y otras formas"),
    "positional_encoding_contrato": Propiedad(1, _contrato_pe, "forma y dtype"),
    "positional_encoding_valores": Propiedad(3, _valores_pe, "los valores de PE"),
    "positional_encoding_robustez": Propiedad(1, _valores_pe, "muchas posiciones sin perder precisión"),
    "positional_encoding_generalidad": Propiedad(1, _valores_pe, "T = 1, d_model = 2 y otras formas"),
}


def juzgar_llamadas(grade_id: str, objetivo: str, llamadas: list[Llamada], maximo: float):
    """Score a property over its calls: the fraction of cases that pass.

    Returns ``(puntos, lineas)``.
    """
    propiedad = PROPIEDADES[grade_id]
    lineas: list[str] = []
    aprobados = 0
    diagnosticos_vistos: set[str] = set()
    primeros_vistos: set[str] = set()
    for numero, llamada in enumerate(llamadas, start=1):
        try:
            problemas = propiedad.comprobar(llamada)
        except Exception as exc:  # a malformed result must not crash the grader
            problemas = [f"no se pudo examinar lo que devolvió tu función ({type(exc).__name__})"]
        if not problemas:
            aprobados += 1
            continue
        cabecera = f"Caso {numero} ({llamada.describir_caso()}): "
        if problemas[0] in primeros_vistos:
            lineas.append(cabecera + "el mismo problema.")
        else:
            primeros_vistos.add(problemas[0])
            lineas.append(cabecera + problemas[0])
            lineas += problemas[1:]
        for texto in diagnostico.diagnosticar(objetivo, llamada):
            if texto not in diagnosticos_vistos:
                diagnosticos_vistos.add(texto)
                lineas.append("  Diagnóstico probable: " + texto)
    avisos = sorted({a for ll in llamadas for a in ll.avisos} | {"stderr: " + ll.stderr.strip()[:200] for ll in llamadas if ll.stderr.strip()})
    if avisos:
        lineas.append("Tu función escribió avisos (no restan puntos): " + "; ".join(avisos[:3]))
    total = len(llamadas)
    if aprobados == total:
        lineas.insert(0, f"Comprobado en {total} caso{'s' if total > 1 else ''}: {propiedad.descripcion}, correcto.")
    else:
        descripcion = propiedad.descripcion[0].upper() + propiedad.descripcion[1:]
        lineas.insert(0, f"{descripcion}: {aprobados} de {total} casos correctos.")
    return maximo * aprobados / total, lineas
