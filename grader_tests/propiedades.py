"""Judges of the graded properties of ``multi_head`` and ``positional_encoding``.

Trusted side only.  Each property is judged on every input case of its cell
(``casos``); the cell earns the fraction of cases that pass.  A failing case
says what was expected, what came back (small and rounded) and, when the
result matches a known mistake, which one (``diagnostico``).

What each property measures (so one mistake is charged where it belongs and
not again everywhere else):

* ``contrato``: the form only: a pair (salida, A) of NumPy arrays (a list
  pair is accepted, it unpacks the same), shapes (T, d_model) and (h, T, T),
  dtype float64; for PE an ndarray float64 (T, d_model).  Values are not
  looked at.
* ``mapas`` / ``salida`` / ``valores``: the values, within the stated
  tolerance, on the main cases.  The form is not charged again here: a list
  of maps or a float32 array with the right values passes (the contract
  already charges it); an array with the wrong shape cannot be compared and
  fails.
* ``no_modifica``: the arguments are left untouched (needs a call that
  finishes).
* ``robustez``: numerical robustness only: with scores of several hundred
  (multi_head) or positions up to 1000 (PE) the result must be finite and as
  exact as at small scale.  nan/inf, a loss of precision or an unrecognised
  wrong result fail.
* ``generalidad``: the same function on other shapes (h = 1, h = d_model,
  T = 1, odd d_k, h = 5; PE with T = 1, d_model = 2).  A hard-coded ``h`` or
  ``T`` (category ``"generalidad"``), an exception on those shapes, or an
  unrecognised wrong result fail.

Known value mistakes in robustness and generality (the control rule).  A
wrong result that matches a known *value* mistake (category ``"valores"`` in
``diagnostico``) is not charged again in these two cells, but only when that
mistake is really charged elsewhere.  Both cells end with an unscored
*control* case equal to the first main case of the value cells (``casos``:
``n_controles``).  A scored case is excused only if the SAME known mistake
(same ``nombre``) is also recognised on the control case, i.e. the function
makes it on ordinary inputs too and the value cells already charge it; the
case then passes with a note.  A mistake that shows only on the unusual
shapes (an ``if h == 1:`` branch without ``@ Wo``, a √d_model scale only when
h = 5) is a separate bug: the control is correct, so the case fails and the
mistake is named.  The control itself never adds or removes points.

An exception inside the student's function fails every case it prevents,
naming the exception (and the likely cause when known).  Unrecognised
mistakes may lose robustness/generality as well: the grader cannot tell that
it is the same mistake.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import diagnostico, referencia
from .casos import ARGUMENTOS, ESPECIFICACIONES
from .serializacion import ArraySubclase, Otro, deserializar

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
        partes = [f"{k} = {v}" for k, v in self.caso.items() if k not in ("semilla", "escala")]
        if self.caso.get("escala", 1) != 1:
            partes.append(f"X multiplicada por {self.caso['escala']}")
        return ", ".join(partes)


def _resumen(x: object, filas: int = 2, columnas: int = 6) -> str:
    """A small, rounded picture of a value for a message."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind not in "biufc":
            return f"array de dtype {x.dtype}"
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


def _excepcion_texto(llamada: Llamada) -> str:
    exc = llamada.excepcion or {}
    texto = f"tu función lanzó {exc.get('clase', 'una excepción')}: {exc.get('mensaje', '')}".rstrip(": ")
    if exc.get("linea"):
        texto += f" (en la línea `{str(exc['linea']).strip()}`)"
    return texto


def _comparar(nombre: str, valor: object, esperado: np.ndarray, tol: dict) -> list[str]:
    """Problems of ``valor`` against the reference (empty when it matches)."""
    array = diagnostico.como_array(valor)
    if array is None:
        return [f"`{nombre}` debería ser un array de números y es {_resumen(valor)}"]
    if array.shape != esperado.shape:
        return [f"`{nombre}` debería tener forma {esperado.shape} y tiene {array.shape}",
                f"  esperado: {_resumen(esperado)}",
                f"  obtenido: {_resumen(array)}"]
    if not np.all(np.isfinite(array)):
        malos = int(array.size - np.count_nonzero(np.isfinite(array)))
        return [f"`{nombre}` contiene {malos} valores nan o inf de {array.size}",
                f"  esperado: {_resumen(esperado)}",
                f"  obtenido: {_resumen(array)}"]
    with np.errstate(all="ignore"):
        if np.allclose(array.astype(np.float64), esperado, **tol):
            return []
        error = float(np.max(np.abs(array.astype(np.float64) - esperado)))
    return [f"`{nombre}` no coincide con la referencia (mayor diferencia {error:.3g})",
            f"  esperado: {_resumen(esperado)}",
            f"  obtenido: {_resumen(array)}"]


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
    for nombre, valor, forma in (("salida", salida, (T, d_model)), ("A", A, (h, T, T))):
        if isinstance(valor, ArraySubclase):
            problemas.append(f"`{nombre}` debería ser un np.ndarray y es {valor.nombre_subclase}")
        elif type(valor) is not np.ndarray:
            problemas.append(f"`{nombre}` debería ser un array de NumPy {forma} y es {_resumen(valor)}")
        elif valor.shape != forma:
            problemas.append(f"`{nombre}` debería tener forma {forma} y tiene {valor.shape}")
        elif valor.dtype != np.float64:
            problemas.append(f"`{nombre}` debería ser float64 y es {valor.dtype}")
    return problemas


def _valores_multi_head(llamada: Llamada, que: str) -> list[str]:
    salida, A, problemas = _partes_multi_head(llamada)
    if problemas:
        return problemas
    salida_ref, A_ref = referencia.multi_head(*llamada.argumentos)
    if que in ("A", None):
        problemas += _comparar("A", A, A_ref, TOLERANCIA_MULTI_HEAD)
    if que in ("salida", None):
        problemas += _comparar("salida", salida, salida_ref, TOLERANCIA_MULTI_HEAD)
    return problemas


def _no_modifica(llamada: Llamada) -> list[str]:
    if llamada.excepcion is not None:
        return [_excepcion_texto(llamada) + "; sin una llamada completa no se puede comprobar"]
    nombres = NOMBRES_ARGUMENTOS["multi_head"]
    tocados = []
    for posicion in llamada.modificados:
        try:
            tocados.append(nombres[int(posicion)])
        except (ValueError, IndexError):
            tocados.append(f"el argumento {str(posicion)[:20]}")
    if tocados:
        lista = ", ".join(f"`{n}`" for n in sorted(set(tocados), key=str))
        return [f"tu función escribe en {lista}: tras la llamada, el array que se le pasó ha cambiado",
                f"  Diagnóstico probable: tu función escribe en {lista}. Operaciones como "
                "`M /= ...`, `M -= ...` o `M[...] = ...` modifican el array de quien llama; escribe "
                "`M = M / ...` (un array nuevo) o trabaja sobre una copia (`M = M.copy()`)."]
    return []


# -------------------------------------------------------- positional_encoding

def _contrato_pe(llamada: Llamada) -> list[str]:
    if llamada.excepcion is not None:
        return [_excepcion_texto(llamada)]
    T, d_model = llamada.argumentos
    PE = llamada.resultado
    if isinstance(PE, ArraySubclase):
        return [f"`PE` debería ser un np.ndarray y es {PE.nombre_subclase}"]
    if type(PE) is not np.ndarray:
        return [f"se esperaba un array de NumPy (T, d_model) = {(T, d_model)} y ha llegado {_resumen(PE)}"]
    problemas = []
    if PE.shape != (T, d_model):
        problemas.append(f"se esperaba la forma (T, d_model) = {(T, d_model)} y tiene {PE.shape}")
    if PE.dtype != np.float64:
        problemas.append(f"se esperaba dtype float64 y es {PE.dtype}")
    return problemas


def _valores_pe(llamada: Llamada, que: str | None = None) -> list[str]:
    if llamada.excepcion is not None:
        return [_excepcion_texto(llamada)]
    return _comparar("PE", llamada.resultado, referencia.positional_encoding(*llamada.argumentos),
                     TOLERANCIA_PE)


# ------------------------------------------------------------------ registry

@dataclass(frozen=True)
class Propiedad:
    """A graded property: its default points and the check of one call.

    Attributes:
        puntos: default points of the cell.
        comprobar: ``(Llamada) -> list[str]``, the problems (empty: passes).
        descripcion: Spanish name of what is checked.
        componente: for multi_head, the part of the result the cell looks at
            (``"A"``, ``"salida"`` or None for both), used by the diagnosis.
        no_repite: a failing case explained by a known value mistake
            (charged in another cell) passes here with a note.
    """

    puntos: float
    comprobar: object
    descripcion: str
    componente: str | None = None
    no_repite: bool = False


PROPIEDADES: dict[str, Propiedad] = {
    "multi_head_contrato": Propiedad(1, _contrato_multi_head, "forma y tipo de lo que devuelve"),
    "multi_head_mapas": Propiedad(3, lambda ll: _valores_multi_head(ll, "A"),
                                  "los mapas de atención A", componente="A"),
    "multi_head_salida": Propiedad(3, lambda ll: _valores_multi_head(ll, "salida"),
                                   "la salida final", componente="salida"),
    "multi_head_no_modifica": Propiedad(1, _no_modifica, "no escribir en los argumentos"),
    "multi_head_robustez": Propiedad(1, lambda ll: _valores_multi_head(ll, None),
                                     "puntuaciones de varios cientos sin nan ni inf", no_repite=True),
    "multi_head_generalidad": Propiedad(1, lambda ll: _valores_multi_head(ll, None),
                                        "formas poco habituales (h = 1, h = d_model, T = 1)", no_repite=True),
    "positional_encoding_contrato": Propiedad(1, _contrato_pe, "forma y dtype"),
    "positional_encoding_valores": Propiedad(3, _valores_pe, "los valores de PE"),
    "positional_encoding_robustez": Propiedad(1, _valores_pe, "muchas posiciones sin perder precisión",
                                              no_repite=True),
    "positional_encoding_generalidad": Propiedad(1, _valores_pe, "formas poco habituales (T = 1, d_model = 2)",
                                                 no_repite=True),
}


def _avisos(llamadas: list[Llamada]) -> list[str]:
    vistos: list[str] = []
    for llamada in llamadas:
        textos = [str(a)[:200] for a in (llamada.avisos or [])]
        if str(llamada.stderr).strip():
            textos.append("stderr: " + str(llamada.stderr).strip()[:200])
        for texto in textos:
            if texto not in vistos:
                vistos.append(texto)
    return vistos


def _errores_en_controles(propiedad: Propiedad, objetivo: str, controles: list[Llamada]) -> set[str]:
    """Names of the known excusable mistakes recognised on the control calls.

    Recognised whether or not the control passes this cell's check: a form
    mistake (a list, float32, np.matrix) leaves the values right and is
    charged in the contract cell.
    """
    nombres: set[str] = set()
    for llamada in controles:
        if llamada.excepcion is not None:
            continue
        try:
            reconocidos = diagnostico.reconocer(objetivo, llamada, propiedad.componente)
        except Exception:
            continue
        nombres.update(error.nombre for error, _ in reconocidos if error.excusable)
    return nombres


def _casos(total: int) -> str:
    return f"{total} caso{'s' if total != 1 else ''}"


def juzgar_llamadas(grade_id: str, objetivo: str, llamadas: list[Llamada], maximo: float):
    """Score a property over its calls: the fraction of scored cases that pass.

    The last ``n_controles`` calls of the cell (``casos``) are controls: they
    are not scored, they only decide which known value mistakes may be
    excused (see the module docstring).  Returns ``(puntos, lineas)``.
    Never raises on a malformed result.
    """
    propiedad = PROPIEDADES[grade_id]
    espec = ESPECIFICACIONES.get(grade_id)
    n_controles = espec.n_controles if espec is not None and len(llamadas) == len(espec.casos) else 0
    controles = llamadas[len(llamadas) - n_controles:] if n_controles else []
    llamadas = llamadas[:len(llamadas) - n_controles]
    en_controles: set[str] | None = None      # computed on first need
    lineas: list[str] = []
    aprobados = 0
    diagnosticos_vistos: set[str] = set()
    primeros_vistos: set[str] = set()
    excusas_vistas: set[str] = set()
    excusados = 0
    for numero, llamada in enumerate(llamadas, start=1):
        try:
            problemas = propiedad.comprobar(llamada)
        except Exception as exc:  # a malformed result must not crash the grader
            problemas = [f"no se pudo examinar lo que devolvió tu función ({type(exc).__name__})"]
        if not problemas:
            aprobados += 1
            continue
        try:
            reconocidos = diagnostico.reconocer(objetivo, llamada, propiedad.componente)
        except Exception:
            reconocidos = []
        cabecera = f"Caso {numero} ({llamada.describir_caso()}): "
        excusable = (propiedad.no_repite and llamada.excepcion is None and bool(reconocidos)
                     and all(error.excusable for error, _ in reconocidos))
        if excusable and en_controles is None:
            en_controles = _errores_en_controles(propiedad, objetivo, controles)
        if excusable and any(error.nombre in en_controles for error, _ in reconocidos):
            aprobados += 1
            excusados += 1
            nombres = "; ".join(dict.fromkeys(error.nombre for error, _ in reconocidos
                                              if error.nombre in en_controles))
            if nombres in excusas_vistas:
                lineas.append(cabecera + "lo mismo; aquí no resta.")
            else:
                excusas_vistas.add(nombres)
                lineas.append(cabecera + "no coincide con la referencia, pero es el mismo error que "
                              f"se descuenta en las celdas de valores o de contrato ({nombres}), "
                              "que también aparece con las entradas de esas celdas; aquí no resta.")
            continue
        if problemas[0] in primeros_vistos:
            lineas.append(cabecera + "el mismo problema.")
        else:
            primeros_vistos.add(problemas[0])
            lineas.append(cabecera + problemas[0])
            lineas += [p if p.startswith(" ") else "  " + p for p in problemas[1:]]
        if excusable and controles:
            lineas.append("  Este error no aparece con las entradas de las celdas de valores (caso de "
                          "control), así que allí no se descuenta y se descuenta aquí.")
        for _, texto in reconocidos:
            if texto not in diagnosticos_vistos:
                diagnosticos_vistos.add(texto)
                lineas.append("  Diagnóstico probable: " + texto)
    avisos = _avisos(llamadas + controles)
    if avisos:
        lineas.append("Tu función escribió avisos (no restan puntos): " + "; ".join(avisos[:3]))
    total = len(llamadas)
    descripcion = propiedad.descripcion[0].upper() + propiedad.descripcion[1:]
    if aprobados == total and excusados:
        lineas.insert(0, f"{descripcion}. Comprobado en {_casos(total)}, nada que restar en esta celda.")
    elif aprobados == total:
        lineas.insert(0, f"{descripcion}. Comprobado en {_casos(total)}, correcto.")
    else:
        correctos = "caso correcto" if total == 1 else "casos correctos"
        lineas.insert(0, f"{descripcion}: {aprobados} de {total} {correctos}.")
    return (maximo * aprobados / total if total else 0.0), lineas
