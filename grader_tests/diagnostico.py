"""Name the likely mistake behind a wrong result (trusted side only).

Every known mistake is either a small faulty implementation with the
exercise's signature (it makes that mistake on purpose) or a detector that
looks at the call directly (an exception, nan at large scores, a hard-coded
``h`` or ``T``).  A wrong result is compared with what each faulty
implementation returns on the same inputs; the ones that match are named, in
Spanish, with a hint on how to check it.

Comparisons are made on vectors, never on summaries: ``P·Pᵀ`` is identical for
the interleaved and the ``[sin | cos]`` layouts of PE, the columns are not.

Each mistake has a ``categoria``:

* ``"valores"``: wrong values, layout or form; charged in the cells that check
  values (``mapas``, ``salida``, ``valores``) or the contract;
* ``"robustez"``: only shows with large inputs (no max-subtraction);
* ``"generalidad"``: an argument ignored (hard-coded ``h`` or ``T``);
* ``"excepcion"``: the function raised.

``propiedades`` uses the category so that the robustness and generality cells
do not charge a second time a ``"valores"`` mistake already charged elsewhere
(only when the same mistake is also recognised on the cell's control case).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import referencia
from .serializacion import ArraySubclase, Otro

TOLERANCIA = {"rtol": 1e-4, "atol": 1e-6}


@dataclass(frozen=True)
class ErrorConocido:
    """A known mistake.

    Attributes:
        nombre: short name (tests and logs).
        explicacion: Spanish diagnosis shown to the student.
        implementacion: faulty implementation with the exercise's signature,
            or None when ``detector`` decides.
        detector: ``(llamada, componente) -> str | None`` for mistakes that a
            single implementation cannot describe (returns the explanation).
        categoria: see the module docstring.
    """

    nombre: str
    explicacion: str
    implementacion: object = None
    detector: object = None
    categoria: str = "valores"

    @property
    def excusable(self) -> bool:
        """True when robustness/generality cells should not charge it again."""
        return self.categoria == "valores"


# ------------------------------------------------------------------ helpers

def como_array(x: object):
    """``x`` as a real ndarray (lists of arrays/numbers are stacked), or None.

    A NumPy subclass such as ``np.matrix`` (``ArraySubclase``) counts with its
    values: its form is the contract's business.
    """
    if isinstance(x, ArraySubclase):
        x = x.como_ndarray()
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


def _componentes(resultado: object, componente: str | None) -> list:
    """The parts of a multi_head result a cell looks at (index 0 salida, 1 A)."""
    if not isinstance(resultado, (tuple, list)) or len(resultado) != 2:
        return [None]
    if componente == "salida":
        return [resultado[0]]
    if componente == "A":
        return [resultado[1]]
    return [resultado[0], resultado[1]]


def _coincide(objetivo: str, obtenido: object, esperado: object, referencia_: object,
              componente: str | None) -> bool:
    """The student's result equals the mistake's on the parts the cell checks,
    and the mistake differs from the reference there (else it explains nothing)."""
    if objetivo != "multi_head":
        return iguales(obtenido, esperado) and not iguales(esperado, referencia_, **_ESTRICTA)
    o, e, r = (_componentes(x, componente) for x in (obtenido, esperado, referencia_))
    if any(x is None for x in e + o) or len(o) != len(e):
        return False
    return (all(iguales(a, b) for a, b in zip(o, e))
            and not all(iguales(b, c, **_ESTRICTA) for b, c in zip(e, r)))


# --------------------------------------------------------------- multi_head

def _mh(X, Wq, Wk, Wv, Wo, h, *, escala="d_k", eje=-1, estable=True, division="bloques",
        fusion="bloques", wo=True, combinar="concatenar", consultas="Wq", claves="Wk",
        transpuesto=False, forma_A=(0, 1, 2)):
    """Multi-head attention with one or more deliberate mistakes (keywords)."""
    X = np.asarray(X, dtype=np.float64)
    T, d_model = X.shape
    d_k = d_model // h
    pesos = {"Wq": Wq, "Wk": Wk}
    Q, K, V = X @ pesos[consultas], X @ pesos[claves], X @ Wv

    def separar(M):
        if division == "intercalado":
            return np.stack([M[:, i::h] for i in range(h)])
        if division == "reshape":
            return M.reshape(h, T, d_k)
        return M.reshape(T, h, d_k).transpose(1, 0, 2)

    Qh, Kh, Vh = separar(Q), separar(K), separar(V)
    E = Kh @ Qh.transpose(0, 2, 1) if transpuesto else Qh @ Kh.transpose(0, 2, 1)
    E = E / {"d_k": np.sqrt(d_k), "d_model": np.sqrt(d_model), "ninguna": 1.0}[escala]
    if estable:
        E = E - E.max(axis=eje, keepdims=True)
    Z = np.exp(E)
    A = Z / Z.sum(axis=eje, keepdims=True)
    if combinar == "promedio":
        concat = A.mean(axis=0) @ V
    elif combinar == "suma":
        concat = A.sum(axis=0) @ V
    else:
        cabezas = A @ Vh                                            # (h, T, d_k)
        if combinar == "inverso":
            cabezas = cabezas[::-1]
        if fusion == "reshape":
            concat = cabezas.reshape(T, d_model)
        elif fusion == "intercalado":
            concat = np.empty((T, d_model))
            for i in range(h):
                concat[:, i::h] = cabezas[i]
        else:
            concat = cabezas.transpose(1, 0, 2).reshape(T, d_model)
    salida = concat @ Wo if wo else concat
    return salida, A.transpose(forma_A)


def _softmax_filas(E):
    """Row softmax, as the faulty implementations below write it."""
    P = np.exp(E - np.max(E, axis=-1, keepdims=True))
    return P / np.sum(P, axis=-1, keepdims=True)


def _mh_desplazado(X, Wq, Wk, Wv, Wo, h):
    """Head i takes columns i·d_k+1 … (i+1)·d_k (off by one), wrapping round at the end."""
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    salidas, mapas = [], []
    for i in range(h):
        columnas = (np.arange(i * d_k, (i + 1) * d_k) + 1) % d_model
        A_i = _softmax_filas(Q[:, columnas] @ K[:, columnas].T / np.sqrt(d_k))
        mapas.append(A_i)
        salidas.append(A_i @ V[:, columnas])
    return np.concatenate(salidas, axis=1) @ Wo, np.stack(mapas)


def _mh_desplazado_truncado(X, Wq, Wk, Wv, Wo, h):
    """Head i uses Q[:, i*d_k+1:(i+1)*d_k+1]: the last head gets one column fewer
    and the concatenation, preallocated with zeros, keeps column 0 at zero."""
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    concat = np.zeros((T, d_model))
    mapas = []
    for i in range(h):
        b = slice(i * d_k + 1, (i + 1) * d_k + 1)
        A_i = _softmax_filas(Q[:, b] @ K[:, b].T / np.sqrt(d_k))
        mapas.append(A_i)
        concat[:, b] = A_i @ V[:, b]
    return concat @ Wo, np.stack(mapas)


def _mh_softmax_global(X, Wq, Wk, Wv, Wo, h):
    """The softmax normalises each whole (T, T) map at once instead of each row."""
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    salidas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E))
        A_i = P / np.sum(P)
        mapas.append(A_i)
        salidas.append(A_i @ V[:, b])
    return np.concatenate(salidas, axis=1) @ Wo, np.stack(mapas)


def _subclase_mh(llamada, componente):
    r = llamada.resultado
    if not isinstance(r, (tuple, list)) or len(r) != 2:
        return None
    malos = [(n, v.nombre_subclase) for n, v in zip(("salida", "A"), r) if isinstance(v, ArraySubclase)]
    if malos and all(iguales(a, b) for a, b in zip(r, referencia.multi_head(*llamada.argumentos))):
        partes = " y ".join(f"`{n}` como {clase}" for n, clase in malos)
        return (f"devuelves {partes}: los valores son correctos, pero el contrato pide un np.ndarray; "
                "no uses np.matrix (ni np.asmatrix / np.mat): trabaja con arrays y el operador @, o "
                "convierte al final con np.asarray(...).")
    return None


def _variante(**opciones):
    def implementacion(X, Wq, Wk, Wv, Wo, h):
        return _mh(X, Wq, Wk, Wv, Wo, h, **opciones)
    return implementacion


def _intercambiados(X, Wq, Wk, Wv, Wo, h):
    salida, A = referencia.multi_head(X, Wq, Wk, Wv, Wo, h)
    return A, salida


def _h_ignorado(llamada, componente):
    X, Wq, Wk, Wv, Wo, h = llamada.argumentos
    d_model = X.shape[1]
    referencia_ = referencia.multi_head(*llamada.argumentos)
    for otro in (2, 1, 3, 4, 8, 6, 5, 10):
        if otro == h or d_model % otro:
            continue
        esperado = referencia.multi_head(X, Wq, Wk, Wv, Wo, otro)
        if _coincide("multi_head", llamada.resultado, esperado, referencia_, componente):
            return (f"tu función no usa el argumento `h`: el resultado es el de h = {otro} cabezas y "
                    f"se pidieron h = {h}. Calcula d_k = d_model // h con el h que recibes (no con un "
                    "número fijo) y repite el bucle h veces.")
    return None


def _puntuaciones_maximas(argumentos) -> float:
    X, Wq, Wk, Wv, Wo, h = argumentos
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k).transpose(1, 0, 2)
    K = (X @ Wk).reshape(T, h, d_k).transpose(1, 0, 2)
    return float(np.max(np.abs(Q @ K.transpose(0, 2, 1)))) / np.sqrt(d_k)


def _sin_maximo(llamada, componente):
    partes = [como_array(p) for p in _componentes(llamada.resultado, componente)]
    if any(p is None for p in partes) or all(np.all(np.isfinite(p)) for p in partes):
        return None
    if _puntuaciones_maximas(llamada.argumentos) < 300:
        return None
    return ("la softmax no resta el máximo de cada fila antes de np.exp: con puntuaciones de varios "
            "cientos np.exp desborda a inf y inf/inf da nan. Resta E.max(axis=-1, keepdims=True) a "
            "las puntuaciones antes de exponenciar (el resultado no cambia y no desborda).")


def _salida_float32(llamada, componente):
    r = llamada.resultado
    if not isinstance(r, (tuple, list)) or len(r) != 2:
        return None
    malos = [n for n, v in zip(("salida", "A"), r) if type(v) is np.ndarray and v.dtype == np.float32]
    if malos and all(iguales(a, b) for a, b in zip(r, referencia.multi_head(*llamada.argumentos))):
        return (f"devuelves {' y '.join('`' + n + '`' for n in malos)} en float32: los valores son "
                "correctos, pero el contrato pide float64; convierte al final con .astype(np.float64) "
                "(calcular en float32 por dentro está permitido).")
    return None


def _lista_mh(llamada, componente):
    r = llamada.resultado
    if not isinstance(r, (tuple, list)) or len(r) != 2:
        return None
    listas = [n for n, v in zip(("salida", "A"), r) if isinstance(v, (list, tuple))]
    if listas and all(iguales(a, b) for a, b in zip(r, referencia.multi_head(*llamada.argumentos))):
        return (f"devuelves {' y '.join('`' + n + '`' for n in listas)} como lista de arrays en lugar "
                "de un array de NumPy: los valores están bien; apila los mapas con np.stack(mapas) "
                "para obtener un array (h, T, T).")
    return None


def _excepcion_d_k(llamada, componente):
    exc = llamada.excepcion or {}
    mensaje = str(exc.get("mensaje", ""))
    claves = ("slice indices must be integers", "cannot be interpreted as an integer",
              "only integers, slices", "must be an integer", "integer argument expected")
    if exc.get("clase") in ("TypeError", "IndexError") and any(c in mensaje for c in claves):
        return ("d_k = d_model / h es un float (p. ej. 4.0) y un float no sirve como índice, como "
                "límite de un slice ni como forma de reshape: usa la división entera d_k = d_model // h.")
    return None


def _excepcion_formas(llamada, componente):
    exc = llamada.excepcion or {}
    mensaje = str(exc.get("mensaje", ""))
    if exc.get("clase") == "ValueError" and ("matmul" in mensaje or "shapes" in mensaje
                                               or "broadcast" in mensaje):
        return ("alguna operación recibe formas que no encajan: imprime el .shape de cada operando. "
                "Q_i, K_i y V_i deben ser (T, d_k); cada mapa (T, T); la concatenación de las h "
                "cabezas (T, d_model) antes de multiplicar por Wo.")
    return None


def _pe_excepcion(llamada, componente):
    exc = llamada.excepcion or {}
    mensaje = str(exc.get("mensaje", ""))
    if exc.get("clase") == "TypeError" and any(c in mensaje for c in (
            "only length-1 arrays", "only size-1 arrays", "only 0-dimensional arrays")):
        return ("usas math.sin / math.cos con un array: sólo aceptan un número; usa np.sin y np.cos, "
                "que trabajan elemento a elemento.")
    return None


ERRORES_MULTI_HEAD = [
    ErrorConocido("escala √d_model",
                  "divides las puntuaciones entre √d_model en lugar de entre √d_k (d_k = d_model // h): "
                  "con h > 1 tus mapas salen más planos de lo debido (con h = 1 coinciden).",
                  _variante(escala="d_model")),
    ErrorConocido("sin escala",
                  "no divides las puntuaciones Q_i K_iᵀ entre √d_k: tus mapas salen más picudos "
                  "(más cerca de 0 y de 1) de lo debido.",
                  _variante(escala="ninguna")),
    ErrorConocido("softmax por columnas",
                  "aplicas la softmax por columnas en lugar de por filas: cada fila de cada mapa debe "
                  "sumar 1. Compruébalo con A.sum(axis=-1) y usa axis=-1 en el máximo y en la suma.",
                  _variante(eje=-2)),
    ErrorConocido("softmax sobre todo el mapa",
                  "aplicas la softmax sobre todo el mapa (T, T) a la vez en lugar de fila por fila: "
                  "el mapa entero suma 1 y cada fila mucho menos. El máximo y la suma deben ir por "
                  "filas, con axis=-1 y keepdims=True; compruébalo con A.sum(axis=-1), que debe dar "
                  "todo unos.",
                  _mh_softmax_global),
    ErrorConocido("sin restar el máximo", "", detector=_sin_maximo, categoria="robustez"),
    ErrorConocido("cabezas intercaladas",
                  "tomas las columnas de cada cabeza intercaladas (Q[:, i::h]) en lugar de en bloques "
                  "contiguos: la cabeza i usa las columnas [i·d_k, (i+1)·d_k), es decir "
                  "Q[:, i*d_k:(i+1)*d_k].",
                  _variante(division="intercalado")),
    ErrorConocido("cabezas intercaladas (fusión)",
                  "tomas las columnas de cada cabeza intercaladas (Q[:, i::h]) en lugar de en bloques "
                  "contiguos: la cabeza i usa las columnas [i·d_k, (i+1)·d_k), es decir "
                  "Q[:, i*d_k:(i+1)*d_k].",
                  _variante(division="intercalado", fusion="intercalado")),
    ErrorConocido("división con reshape sin transponer",
                  "separas las cabezas con un reshape(h, T, d_k) directo: eso reparte las filas "
                  "(posiciones) entre cabezas. Haz reshape(T, h, d_k) y después transpose(1, 0, 2); "
                  "compruébalo: la cabeza 0 debe ser Q[:, :d_k].",
                  _variante(division="reshape", fusion="reshape")),
    ErrorConocido("división con reshape sin transponer (fusión)",
                  "separas las cabezas con un reshape(h, T, d_k) directo: eso reparte las filas "
                  "(posiciones) entre cabezas. Haz reshape(T, h, d_k) y después transpose(1, 0, 2); "
                  "compruébalo: la cabeza 0 debe ser Q[:, :d_k].",
                  _variante(division="reshape")),
    ErrorConocido("fusión sin transponer",
                  "vuelves a juntar las cabezas con reshape(T, d_model) sin transponer antes: de "
                  "(h, T, d_k) hay que pasar a (T, h, d_k) con transpose(1, 0, 2) y sólo entonces hacer "
                  "reshape(T, d_model). Compruébalo: concat[:, :d_k] debe ser la salida de la cabeza 0.",
                  _variante(fusion="reshape")),
    ErrorConocido("cabezas desplazadas una columna",
                  "los bloques de columnas de las cabezas están desplazados una columna: la cabeza i "
                  "usa las columnas i·d_k+1 … (i+1)·d_k en lugar de i·d_k … (i+1)·d_k - 1. El slice "
                  "correcto es Q[:, i*d_k:(i+1)*d_k] (empieza en i*d_k y el final no se incluye); "
                  "compruébalo: la cabeza 0 debe empezar en la columna 0.",
                  _mh_desplazado),
    ErrorConocido("cabezas desplazadas una columna (recortada)",
                  "los bloques de columnas de las cabezas están desplazados una columna: la cabeza i "
                  "usa las columnas i·d_k+1 … (i+1)·d_k en lugar de i·d_k … (i+1)·d_k - 1 (la última "
                  "se queda con una columna menos y la columna 0 no se usa). El slice correcto es "
                  "Q[:, i*d_k:(i+1)*d_k]; compruébalo: la cabeza 0 debe empezar en la columna 0.",
                  _mh_desplazado_truncado),
    ErrorConocido("sin W^O",
                  "devuelves la concatenación de las cabezas sin multiplicarla por Wo (la proyección "
                  "final W^O): salida = concat @ Wo.",
                  _variante(wo=False)),
    ErrorConocido("cabezas promediadas",
                  "promedias las cabezas en lugar de concatenarlas: cada cabeza aporta su propio bloque "
                  "de d_k columnas (con su V_i) a la concatenación (T, h·d_k), que luego se multiplica "
                  "por Wo.",
                  _variante(combinar="promedio")),
    ErrorConocido("cabezas sumadas",
                  "sumas las cabezas en lugar de concatenarlas: cada cabeza aporta su propio bloque "
                  "de d_k columnas (con su V_i) a la concatenación (T, h·d_k), que luego se multiplica "
                  "por Wo.",
                  _variante(combinar="suma")),
    ErrorConocido("orden inverso",
                  "concatenas las cabezas en orden inverso: la cabeza 0 va en las primeras d_k "
                  "columnas de la concatenación, la 1 en las siguientes, y así sucesivamente.",
                  _variante(combinar="inverso")),
    ErrorConocido("A (T, T, h)",
                  "A tiene los ejes en otro orden, (T, T, h) en lugar de (h, T, T): apila los mapas "
                  "con np.stack(mapas) (eje 0), no con axis=-1 ni con np.dstack.",
                  _variante(forma_A=(1, 2, 0))),
    ErrorConocido("A (T, h, T)",
                  "A tiene forma (T, h, T): el eje de las cabezas debe ir primero, (h, T, T); si "
                  "calculas con forma (T, h, T), transpón con A.transpose(1, 0, 2).",
                  _variante(forma_A=(1, 0, 2))),
    ErrorConocido("valores intercambiados",
                  "devuelves (A, salida) en lugar de (salida, A): el orden de lo que devuelves importa.",
                  _intercambiados),
    ErrorConocido("claves con Wq",
                  "calculas las claves con Wq (K = X @ Wq) en lugar de con Wk: así cada mapa sale de "
                  "Q Qᵀ, simétrico antes de la softmax. Usa K = X @ Wk.",
                  _variante(claves="Wq")),
    ErrorConocido("consultas con Wk",
                  "calculas las consultas con Wk (Q = X @ Wk) en lugar de con Wq: así cada mapa sale "
                  "de K Kᵀ, simétrico antes de la softmax. Usa Q = X @ Wq.",
                  _variante(consultas="Wk")),
    ErrorConocido("mapa transpuesto",
                  "calculas K_i Q_iᵀ en lugar de Q_i K_iᵀ: la fila t del mapa es la consulta t "
                  "comparada con todas las claves, E = Q_i @ K_i.T.",
                  _variante(transpuesto=True)),
    ErrorConocido("h ignorado", "", detector=_h_ignorado, categoria="generalidad"),
    ErrorConocido("salida float32", "", detector=_salida_float32),
    ErrorConocido("lista en vez de array", "", detector=_lista_mh),
    ErrorConocido("subclase de ndarray", "", detector=_subclase_mh),
    ErrorConocido("d_k float", "", detector=_excepcion_d_k, categoria="excepcion"),
    ErrorConocido("formas incompatibles", "", detector=_excepcion_formas, categoria="excepcion"),
]


# ------------------------------------------------------- positional_encoding

def _pe(T, d_model, *, base=10000.0, pos0=0, i0=0, exponente="pareja", operacion="dividir",
        funciones=("sin", "cos"), disposicion="intercalada", grados=False):
    """Sinusoidal PE with one deliberate mistake (keywords)."""
    pos = np.arange(pos0, pos0 + T, dtype=np.float64)[:, None]
    j = np.arange(d_model)
    if exponente == "pareja":
        e = 2 * (j // 2 + i0) / d_model
    elif exponente == "columna_2j":
        e = 2 * j / d_model
    elif exponente == "columna_j":
        e = j / d_model
    else:  # "entera": 2i // d_model
        e = (2 * (j // 2 + i0)) // d_model
    frecuencia = np.power(float(base), e.astype(np.float64))
    angulo = pos * frecuencia if operacion == "multiplicar" else pos / frecuencia
    if grados:
        angulo = np.deg2rad(angulo)
    f = {"sin": np.sin, "cos": np.cos}
    PE = np.where(j % 2 == 0, f[funciones[0]](angulo), f[funciones[1]](angulo))
    if disposicion == "concatenada":
        PE = np.concatenate([PE[:, 0::2], PE[:, 1::2]], axis=1)
    return PE


def _variante_pe(**opciones):
    def implementacion(T, d_model):
        return _pe(T, d_model, **opciones)
    return implementacion


def _pe_entero(T, d_model):
    return np.trunc(referencia.positional_encoding(T, d_model)).astype(np.int64)


def _pe_transpuesto(T, d_model):
    return referencia.positional_encoding(T, d_model).T


def _pe_float32_interno(T, d_model):
    pos = np.arange(T, dtype=np.float32)[:, None]
    omega = (np.float32(10000.0) ** (-np.arange(0, d_model, 2, dtype=np.float32) / np.float32(d_model)))
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE


def _pe_float32_angulos(llamada, componente):
    """Angles computed in float32 (not a float64 table cast to float32 at the end)."""
    T, d_model = llamada.argumentos
    referencia_ = referencia.positional_encoding(T, d_model)
    if not _coincide("positional_encoding", llamada.resultado, _pe_float32_interno(T, d_model),
                     referencia_, componente):
        return None
    # a result within the exercise's tolerance is not explained by imprecise
    # angles (e.g. a float64 table rounded to float32 at the end, or np.matrix)
    if iguales(llamada.resultado, referencia_, rtol=1e-6, atol=1e-6):
        return None
    return ("calculas los ángulos en float32: con posiciones grandes pierden precisión (error "
            "mayor que 1e-6). Calcula en float64.")


def _pe_subclase(llamada, componente):
    PE = llamada.resultado
    if isinstance(PE, ArraySubclase) and iguales(PE, referencia.positional_encoding(*llamada.argumentos)):
        return (f"devuelves un {PE.nombre_subclase}: los valores son correctos, pero el contrato pide un "
                "np.ndarray; no uses np.asmatrix / np.matrix, devuelve el array tal cual o conviértelo "
                "con np.asarray(PE).")
    return None


def _pe_base(llamada, componente):
    T, d_model = llamada.argumentos
    referencia_ = referencia.positional_encoding(T, d_model)
    for base in (1000, 100, 100000, 10, 1e6, 512, 10000 * np.pi):
        if _coincide("positional_encoding", llamada.resultado, _pe(T, d_model, base=base),
                     referencia_, componente):
            return (f"usas una base distinta de 10000 (tu resultado es el de base {base:g}): el ángulo "
                    "es pos / 10000^(2i/d_model).")
    return None


def _pe_T_ignorado(llamada, componente):
    T, d_model = llamada.argumentos
    PE = como_array(llamada.resultado)
    if PE is None or PE.ndim != 2 or PE.shape[0] == T:
        return None
    n, d = PE.shape
    if d == d_model and n <= 100_000 and iguales(PE, referencia.positional_encoding(n, d_model)):
        return (f"no usas el argumento T: devuelves siempre {n} filas (se pidieron T = {T}). "
                "La tabla debe tener exactamente T filas, una por posición 0, 1, …, T-1.")
    return None


def _pe_float32(llamada, componente):
    PE = llamada.resultado
    if type(PE) is np.ndarray and PE.dtype == np.float32 and \
            iguales(PE, referencia.positional_encoding(*llamada.argumentos)):
        return ("devuelves float32: los valores son correctos, pero el contrato pide float64; "
                "crea la tabla con np.zeros((T, d_model)) o convierte con .astype(np.float64).")
    return None


def _pe_lista(llamada, componente):
    PE = llamada.resultado
    if not isinstance(PE, (list, tuple)):
        return None
    filas = [f for f in PE if not isinstance(f, Otro)]   # long lists arrive truncated
    esperado = referencia.positional_encoding(*llamada.argumentos)[:len(filas)]
    if filas and iguales(filas, esperado):
        return ("devuelves una lista (¿.tolist() o listas de Python?) en lugar de un array de NumPy: "
                "los valores están bien; devuelve el array (T, d_model) directamente o con np.array(...).")
    return None


ERRORES_POSITIONAL_ENCODING = [
    ErrorConocido("[sin | cos] concatenado",
                  "pones todos los senos a la izquierda y todos los cosenos a la derecha ([sin | cos]); "
                  "el artículo los intercala: columna 2i el seno y columna 2i+1 el coseno del mismo "
                  "ángulo. Ojo: P·Pᵀ sale igual en las dos disposiciones; compara los vectores "
                  "(p. ej. PE[1, :4]).",
                  _variante_pe(disposicion="concatenada")),
    ErrorConocido("sin y cos intercambiados",
                  "intercambias seno y coseno: la columna 2i lleva el seno y la 2i+1 el coseno. "
                  "Compruébalo: la fila pos = 0 debe ser [0, 1, 0, 1, …].",
                  _variante_pe(funciones=("cos", "sin"))),
    ErrorConocido("exponente 2j/d con j la columna",
                  "usas el índice de columna j en el exponente (2j/d_model) en lugar del índice de "
                  "pareja i = j // 2: las columnas 2i y 2i+1 comparten la frecuencia 1/10000^(2i/d_model).",
                  _variante_pe(exponente="columna_2j")),
    ErrorConocido("exponente j/d en todas las columnas",
                  "usas j/d_model con j el índice de columna: la columna 2i+1 (coseno) debe usar el "
                  "mismo exponente 2i/d_model que la 2i (seno); tus cosenos tienen otra frecuencia.",
                  _variante_pe(exponente="columna_j")),
    ErrorConocido("posiciones desde 1",
                  "las posiciones empiezan en 1: deben ser 0, 1, …, T-1 (np.arange(T)); la fila 0 "
                  "debe ser [0, 1, 0, 1, …].",
                  _variante_pe(pos0=1)),
    ErrorConocido("pareja desde 1",
                  "el índice de pareja i empieza en 1: debe ir de 0 a d_model/2 - 1, de modo que las "
                  "columnas 0 y 1 sean sin(pos) y cos(pos) (frecuencia 1).",
                  _variante_pe(i0=1)),
    ErrorConocido("otra base", "", detector=_pe_base),
    ErrorConocido("multiplica en vez de dividir",
                  "multiplicas pos por 10000^(2i/d_model) en lugar de dividir: el ángulo es "
                  "pos / 10000^(2i/d_model) (las frecuencias bajan con i, no suben).",
                  _variante_pe(operacion="multiplicar")),
    ErrorConocido("división entera",
                  "calculas el exponente con división entera (2i // d_model vale 0): todas las columnas "
                  "salen con la misma frecuencia. Usa la división real 2 * i / d_model.",
                  _variante_pe(exponente="entera")),
    ErrorConocido("grados",
                  "conviertes el ángulo como si estuviera en grados (np.deg2rad, np.radians o ·π/180): "
                  "np.sin y np.cos trabajan en radianes; usa pos / 10000^(2i/d_model) tal cual.",
                  _variante_pe(grados=True)),
    ErrorConocido("dtype entero",
                  "tu tabla es de enteros: al guardar senos y cosenos en un array de enteros se truncan "
                  "a 0 (o ±1). Créala con np.zeros((T, d_model)), que es float64.",
                  _pe_entero),
    ErrorConocido("transpuesta",
                  "devuelves la tabla traspuesta, (d_model, T): las filas son las posiciones y las "
                  "columnas las dimensiones; la forma es (T, d_model).",
                  _pe_transpuesto),
    ErrorConocido("sólo senos",
                  "usas el seno en todas las columnas: las columnas impares (2i+1) llevan el coseno.",
                  _variante_pe(funciones=("sin", "sin"))),
    ErrorConocido("T ignorado", "", detector=_pe_T_ignorado, categoria="generalidad"),
    ErrorConocido("float32 por dentro", "", detector=_pe_float32_angulos, categoria="robustez"),
    ErrorConocido("salida float32", "", detector=_pe_float32),
    ErrorConocido("subclase de ndarray", "", detector=_pe_subclase),
    ErrorConocido("lista en vez de array", "", detector=_pe_lista),
    ErrorConocido("math.sin con arrays", "", detector=_pe_excepcion, categoria="excepcion"),
]

ERRORES = {"multi_head": ERRORES_MULTI_HEAD, "positional_encoding": ERRORES_POSITIONAL_ENCODING}


REFERENCIAS = {"multi_head": referencia.multi_head, "positional_encoding": referencia.positional_encoding}


def _referencia(objetivo: str, argumentos: tuple):
    """The reference result of exercise ``objetivo`` (KeyError for an unknown one)."""
    return REFERENCIAS[objetivo](*argumentos)


def reconocer(objetivo: str, llamada, componente: str | None = None) -> list[tuple[ErrorConocido, str]]:
    """The known mistakes that explain the call, with their Spanish diagnosis.

    Args:
        objetivo: ``"multi_head"`` or ``"positional_encoding"``.
        llamada: a ``propiedades.Llamada``.
        componente: for multi_head, the part the cell checks (``"A"``,
            ``"salida"`` or None for both).
    """
    encontrados: list[tuple[ErrorConocido, str]] = []
    referencia_ = None
    for error in ERRORES.get(objetivo, []):
        try:
            with np.errstate(all="ignore"):
                if error.detector is not None:
                    if (error.categoria == "excepcion") != (llamada.excepcion is not None):
                        continue
                    texto = error.detector(llamada, componente)
                    if texto:
                        encontrados.append((error, texto))
                    continue
                if llamada.excepcion is not None:
                    continue
                if referencia_ is None:
                    referencia_ = _referencia(objetivo, llamada.argumentos)
                esperado = error.implementacion(*llamada.argumentos)
                if _coincide(objetivo, llamada.resultado, esperado, referencia_, componente):
                    encontrados.append((error, error.explicacion))
        except Exception:  # a mistake that cannot run on these inputs explains nothing
            continue
    return encontrados


def diagnosticar(objetivo: str, llamada, componente: str | None = None) -> list[str]:
    """Spanish diagnoses of the known mistakes that explain the call (no repeats)."""
    textos: list[str] = []
    for _, texto in reconocer(objetivo, llamada, componente):
        if texto not in textos:
            textos.append(texto)
    return textos
