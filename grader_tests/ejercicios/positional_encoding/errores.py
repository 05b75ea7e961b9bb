"""The known mistakes of ``positional_encoding``, with their Spanish diagnoses (trusted side only).

Each one is a faulty implementation or a detector; the judge names it when
the student's result matches (``grader_tests.juez.diagnostico``).  Every mistake
has a battery file ``bateria/e*.py`` that makes it (``# error: <id>``), and
``seccion`` is the heading of lesson 2 to revisit.
"""
from __future__ import annotations

import numpy as np

from grader_tests.juez.diagnostico import (ErrorConocido, coincide, como_array, devuelve_float32, devuelve_lista,
                                      devuelve_otra_precision, sin_ejes_de_tamano_1, con_ejes_de_tamano_1_de_mas, devuelve_complejos,
                                      devuelve_subclase, iguales, resultado_constante)

from .referencia import positional_encoding as referencia

FORMULA = "4. La fórmula, leída por sus índices"
NUMPY = "La escalera en NumPy"
EJERCICIO = "Ejercicio: `positional_encoding`"


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
    elif exponente == "doble":      # 2 * i with i already stepping over the even columns: 4i/d_model
        e = 4 * (j // 2 + i0) / d_model
    elif exponente == "linspace":   # np.linspace(0, 1, d_model // 2): the last pair reaches exponent 1
        e = np.linspace(0.0, 1.0, max(d_model // 2, 1))[j // 2]
    else:  # "entera": 2i // d_model
        e = (2 * (j // 2 + i0)) // d_model
    frecuencia = np.power(float(base), e.astype(np.float64))
    angulo = pos * frecuencia if operacion == "multiplicar" else pos / frecuencia
    if grados == "a_grados":       # the other direction: np.degrees, np.rad2deg or ·180/π
        angulo = np.rad2deg(angulo)
    elif grados:
        angulo = np.deg2rad(angulo)
    f = {"sin": np.sin, "cos": np.cos}
    PE = np.where(j % 2 == 0, f[funciones[0]](angulo), f[funciones[1]](angulo))
    if disposicion == "concatenada":
        PE = np.concatenate([PE[:, 0::2], PE[:, 1::2]], axis=1)
    return PE


def _variante(**opciones):
    def implementacion(T, d_model):
        return _pe(T, d_model, **opciones)
    return implementacion


def _precedencia(donde: str):
    """The exponent written without its parentheses: ``pos / 10000 ** 2 * i / d_model`` (``"exponente"``: the angle
    pos·i/(10000²·d_model), practically 0) or ``pos / 10000 ** (2 * i) / d_model`` (``"d_model"``: d_model divides
    the angle, not the exponent)."""
    def implementacion(T, d_model):
        pos = np.arange(T, dtype=np.float64)[:, None]
        i = np.arange(d_model // 2, dtype=np.float64)[None, :]
        angulo = pos / 10000 ** 2 * i / d_model if donde == "exponente" else pos / 10000 ** (2 * i) / d_model
        PE = np.zeros((T, d_model))
        PE[:, 0::2], PE[:, 1::2] = np.sin(angulo), np.cos(angulo)
        return PE
    return implementacion


def _entero(T, d_model):
    return np.trunc(referencia(T, d_model)).astype(np.int64)


def _transpuesto(T, d_model):
    return referencia(T, d_model).T


def _float32_interno(T, d_model):
    pos = np.arange(T, dtype=np.float32)[:, None]
    omega = (np.float32(10000.0) ** (-np.arange(0, d_model, 2, dtype=np.float32) / np.float32(d_model)))
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE


def _float32_angulos(llamada, parte):
    """Angles computed in float32 (not a float64 table cast to float32 at the end)."""
    T, d_model = llamada.argumentos
    if not coincide(llamada, _float32_interno(T, d_model), parte):
        return None
    # a result within the exercise's tolerance is not explained by imprecise
    # angles (e.g. a float64 table rounded to float32 at the end, or np.matrix)
    if iguales(llamada.resultado, llamada.referencia(), rtol=1e-6, atol=1e-6):
        return None
    # nor is one further from the reference than float32 rounding goes: a few ulps of each angle, growing with
    # pos·ω_i.  A ladder with a ratio of three figures (the explorable's float16 numbers) errs by 1e-5 with
    # T = 13 and d_model = 6, where float32 angles stay below 1e-6 (issue 19, ninth attack)
    PE = como_array(llamada.resultado)
    if PE is None or PE.shape != (T, d_model):
        return None
    angulos = np.arange(T, dtype=np.float64)[:, None] * np.repeat(10000.0 ** (-np.arange(0, d_model, 2) / d_model), 2)
    cota = 8 * np.finfo(np.float32).eps * (np.abs(angulos) + 1)
    with np.errstate(all="ignore"):
        if not np.all(np.abs(PE.astype(np.float64) - llamada.referencia()) <= cota):
            return None
    return ("calculas los ángulos en float32: con posiciones grandes pierden precisión (error "
            "mayor que 1e-6). Calcula en float64.")


# 100^(2i/d_model) = 10000^(i/d_model): the same table, two ways to write it
FALTA_EL_2 = ("tu tabla es la de base 100, que es lo mismo que usar el exponente i/d_model en lugar de "
              "2i/d_model (100^(2i/d_model) = 10000^(i/d_model)): ¿falta el 2 del exponente o cambiaste "
              "la base? El ángulo es pos / 10000^(2i/d_model).")

# What a detector says in some cases, by name, for the visible tests: make release publishes it with
# every explanation of ERRORES in the lesson's diagnosticos.json (scripts/autores/publicar_comprobaciones.py).
A_GRADOS = ("pasas el ángulo a grados (np.degrees, np.rad2deg o ·180/π): np.sin y np.cos trabajan en radianes, así "
            "que usa pos / 10000^(2i/d_model) tal cual, sin convertirlo.")
POS_E_I = ("cambias de sitio la posición y la pareja: calculas i / 10000^(2·pos/d_model) en lugar de "
           "pos / 10000^(2i/d_model). La posición pos va arriba, en el numerador, y la pareja i en el exponente.")
EXPLICACIONES_DE_DETECTORES = {"otra_base:base_100": FALTA_EL_2, "a_grados": A_GRADOS,
                               "pos_e_i_intercambiados": POS_E_I}


def _pos_e_i(T, d_model):
    pos = np.arange(T, dtype=np.float64)[:, None]
    i = np.arange(d_model // 2, dtype=np.float64)[None, :]
    angulo = i / 10000 ** (2 * pos / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2], PE[:, 1::2] = np.sin(angulo), np.cos(angulo)
    return PE


def _pos_e_i_intercambiados(llamada, parte):
    """Detector: pos and i swapped in the angle (a new student of issue 22).  Nothing of the table is right (the
    pair's frequency is the row's), so it is no work; a detector, only named."""
    T, d_model = llamada.argumentos
    return POS_E_I if coincide(llamada, _pos_e_i(T, d_model), parte) else None


def _a_grados(llamada, parte):
    """Detector: the angle converted to degrees (·180/π).  A detector, not an implementation: at 57.3 radians a
    position the first pairs alias and the ladder is not recognised, so it is no work (1/6), only named (the
    other direction, ·π/180, is the honest mistake ``grados``, which keeps its work; two grader testers)."""
    T, d_model = llamada.argumentos
    return A_GRADOS if coincide(llamada, _pe(T, d_model, grados="a_grados"), parte) else None


def _otra_base(llamada, parte):
    T, d_model = llamada.argumentos
    for base in (1000, 100, 100000, 10, 1e6, 512, 10000 * np.pi, np.e, 2):
        if coincide(llamada, _pe(T, d_model, base=base), parte):
            if base == 100:
                return FALTA_EL_2
            if base == np.e:
                return ("usas la base e (np.exp) en lugar de 10000 (tu resultado es el de base e ≈ 2.718): el "
                        "ángulo es pos / 10000^(2i/d_model).")
            return (f"usas una base distinta de 10000 (tu resultado es el de base {base:g}): el ángulo "
                    "es pos / 10000^(2i/d_model).")
    return None


def _posicion_entre_T(T, d_model):
    return _pe(T, d_model) if T == 0 else _angulos_a_tabla(np.arange(T)[:, None] / T, d_model)


def _angulos_a_tabla(pos, d_model):
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    PE = np.zeros((pos.shape[0], d_model))
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE


def _senos_por_columna(T, d_model):
    return np.sin(np.arange(T)[:, None] * 10000.0 ** (-np.arange(d_model) / d_model))


def _exponente_sin_2_desde_la_pareja_4(T, d_model):
    """From pair 4 on (only when d_model > 8), the exponent i/d_model instead of 2i/d_model."""
    i = np.arange(d_model // 2)
    e = np.where(i < 4, 2 * i, i) / d_model
    return _angulos_a_tabla_con(np.arange(T)[:, None] / 10000.0 ** e, d_model)


def _angulos_a_tabla_con(angulos, d_model):
    PE = np.zeros((angulos.shape[0], d_model))
    PE[:, 0::2] = np.sin(angulos)
    PE[:, 1::2] = np.cos(angulos)
    return PE


def _se_aleja_con_posiciones_grandes(llamada, parte):
    """Right on the first rows, wrong further down (a table that repeats, frequencies in float32)."""
    T, d_model = llamada.argumentos
    PE = como_array(llamada.resultado)
    if PE is None or PE.shape != (T, d_model) or T < 200 or not np.all(np.isfinite(PE)):
        return None
    ref = llamada.referencia()
    if not iguales(PE[:60], ref[:60], rtol=1e-6, atol=1e-6) or iguales(PE, ref, rtol=1e-6, atol=1e-6):
        return None
    malas = ~np.all(np.isclose(PE, ref, rtol=1e-6, atol=1e-6), axis=1)
    fila = int(np.argmax(malas))
    return (f"tu tabla acierta en las primeras posiciones y se aleja desde la fila {fila}: con posiciones "
            "grandes hace falta la misma fórmula y float64 en todo (ángulos y frecuencias); nada de "
            "tablas que se repiten ni de límites fijos de posiciones.")


def _T_ignorado(llamada, parte):
    T, d_model = llamada.argumentos
    PE = como_array(llamada.resultado)
    if PE is None or PE.ndim != 2 or PE.shape[0] == T:
        return None
    n, d = PE.shape
    if d == d_model and n <= 100_000 and n == T - 1:
        if iguales(PE, referencia(T, d_model)[1:]) or iguales(PE, referencia(n, d_model)):
            inicio = 1 if iguales(PE, referencia(T, d_model)[1:]) else 0
            return (f"devuelves una fila de menos ({n} en lugar de T = {T}): las posiciones van de "
                    f"{inicio} a {inicio + n - 1}. Deben ser las T posiciones 0, 1, …, T-1: "
                    "np.arange(T), no np.arange(1, T) ni range(T - 1).")
    if d == d_model and n <= 100_000 and n == T + 1 and iguales(PE, referencia(n, d_model)):
        return (f"devuelves una fila de más ({n} en lugar de T = {T}): las posiciones van de 0 a T. Deben ser "
                "las T posiciones 0, 1, …, T-1: np.arange(T) (o range(T)), no np.arange(T + 1) ni "
                "range(T + 1).")
    if d == d_model and n <= 100_000 and iguales(PE, referencia(n, d_model)):
        return (f"no usas el argumento T: devuelves {n} filas y se pidieron T = {T}. "
                "La tabla debe tener exactamente T filas, una por posición 0, 1, …, T-1.")
    return None


def _razon_redondeada(llamada, parte):
    """The lesson's ladder with almost the formula's ratio: frequencies copied with a few figures.

    The explorable's public numbers have about three (float16): a table built from them drifts further from
    the reference pair after pair, not position after position as float32 angles do (issue 19, ninth attack).
    """
    from .propiedades import _escalera_de

    T, d_model = (int(x) for x in llamada.argumentos)
    leida = _escalera_de(llamada)
    if leida is None or d_model < 4 or abs(leida[0] - 1) > 1e-9:
        return None
    exacta = 10000.0 ** (-2 / d_model)
    desvio = abs(np.log(leida[1]) / np.log(exacta) - 1)
    if not 1e-9 < desvio < 1e-2 or iguales(llamada.resultado, llamada.referencia(), rtol=1e-6, atol=1e-6):
        return None
    return (f"tu tabla es la escalera de la lección con casi la razón de la fórmula ({leida[1]:.6g} en lugar de "
            f"{exacta:.6g} con d_model = {d_model}): las frecuencias se apartan más cuanto más alta es la "
            "pareja. ¿Copiaste la razón o las frecuencias con pocas cifras (los números del explorable tienen "
            "unas tres)? Calcula cada frecuencia en float64: 1 / 10000^(2i/d_model).")


def _math_sin(llamada, parte):
    exc = llamada.excepcion or {}
    mensaje = str(exc.get("mensaje", ""))
    if exc.get("clase") == "TypeError" and any(c in mensaje for c in (
            "only length-1 arrays", "only size-1 arrays", "only 0-dimensional arrays")):
        return ("usas math.sin / math.cos con un array: sólo aceptan un número; usa np.sin y np.cos, "
                "que trabajan elemento a elemento.")
    return None


ERRORES = [
    # a stub that computes nothing: only the contract can score (points only for work done)
    ErrorConocido(id="sin_calcular", nombre="no calcula nada", seccion=EJERCICIO, detector=resultado_constante),
    ErrorConocido(
        id="concatenado", nombre="[sin | cos] concatenado", seccion=FORMULA,
        explicacion="pones todos los senos a la izquierda y todos los cosenos a la derecha ([sin | cos]); "
                    "el artículo los intercala: columna 2i el seno y columna 2i+1 el coseno del mismo "
                    "ángulo. Ojo: P·Pᵀ sale igual en las dos disposiciones; compara los vectores "
                    "(p. ej. PE[1, :4]).",
        implementacion=_variante(disposicion="concatenada")),
    ErrorConocido(
        id="sin_cos_intercambiados", nombre="sin y cos intercambiados", seccion=FORMULA,
        explicacion="intercambias seno y coseno: la columna 2i lleva el seno y la 2i+1 el coseno. "
                    "Compruébalo: la fila pos = 0 debe ser [0, 1, 0, 1, …].",
        implementacion=_variante(funciones=("cos", "sin"))),
    ErrorConocido(
        id="exponente_2j", nombre="exponente 2j/d con j la columna", seccion=FORMULA,
        explicacion="usas el índice de columna j en el exponente (2j/d_model) en lugar del índice de "
                    "pareja i = j // 2: las columnas 2i y 2i+1 comparten la frecuencia 1/10000^(2i/d_model).",
        implementacion=_variante(exponente="columna_2j")),
    ErrorConocido(
        id="exponente_j", nombre="exponente j/d en todas las columnas", seccion=FORMULA,
        explicacion="usas j/d_model con j el índice de columna: la columna 2i+1 (coseno) debe usar el "
                    "mismo exponente 2i/d_model que la 2i (seno); tus cosenos tienen otra frecuencia.",
        implementacion=_variante(exponente="columna_j")),
    ErrorConocido(
        id="posiciones_desde_1", nombre="posiciones desde 1", seccion=FORMULA,
        explicacion="las posiciones empiezan en 1: deben ser 0, 1, …, T-1 (np.arange(T)); la fila 0 "
                    "debe ser [0, 1, 0, 1, …].",
        implementacion=_variante(pos0=1)),
    ErrorConocido(
        id="pareja_desde_1", nombre="pareja desde 1", seccion=FORMULA,
        explicacion="el índice de pareja i empieza en 1: debe ir de 0 a d_model/2 - 1, de modo que las "
                    "columnas 0 y 1 sean sin(pos) y cos(pos) (frecuencia 1).",
        implementacion=_variante(i0=1)),
    ErrorConocido(id="otra_base", nombre="otra base", seccion=FORMULA, detector=_otra_base),
    ErrorConocido(
        id="exponente_doble", nombre="exponente doble (2·i con i que ya va de dos en dos)", seccion=FORMULA,
        explicacion="tu exponente es el doble del de la fórmula, 4i/d_model en lugar de 2i/d_model (las "
                    "frecuencias bajan demasiado deprisa): si `i` ya recorre las columnas pares "
                    "(range(0, d_model, 2) o np.arange(0, d_model, 2)), el exponente es i / d_model; con `i` la "
                    "pareja (0, 1, 2…), 2 * i / d_model.",
        implementacion=_variante(exponente="doble")),
    ErrorConocido(
        id="linspace", nombre="exponentes con np.linspace", seccion=FORMULA,
        explicacion="repartes los exponentes como tensor2tensor (la lección lo cuenta: i/(d_model/2 − 1), "
                    "np.linspace(0, 1, d_model // 2) o su equivalente): la última pareja llega al exponente 1 y "
                    "las demás se desplazan. El ejercicio pide la fórmula del artículo, 2i/d_model = 0, 2/d_model, "
                    "…, (d_model − 2)/d_model, que no llegan a 1: np.arange(0, d_model, 2) / d_model.",
        implementacion=_variante(exponente="linspace")),
    ErrorConocido(
        id="multiplica", nombre="multiplica en vez de dividir", seccion=FORMULA,
        explicacion="multiplicas pos por 10000^(2i/d_model) en lugar de dividir: el ángulo es "
                    "pos / 10000^(2i/d_model) (las frecuencias bajan con i, no suben).",
        implementacion=_variante(operacion="multiplicar")),
    ErrorConocido(
        id="division_entera", nombre="división entera", seccion=FORMULA,
        explicacion="calculas el exponente con división entera (2i // d_model vale 0): todas las columnas "
                    "salen con la misma frecuencia. Usa la división real 2 * i / d_model.",
        implementacion=_variante(exponente="entera")),
    ErrorConocido(
        id="precedencia_en_el_exponente", nombre="paréntesis del exponente (10000 ** 2 * i)", seccion=NUMPY,
        explicacion="escribes el exponente sin paréntesis, `pos / 10000 ** 2 * i / d_model`: Python eleva "
                    "primero (10000 ** 2) y después multiplica por i y divide entre d_model, así que cada ángulo "
                    "vale pos·i/(10⁸·d_model), casi 0, y la tabla queda en [0, 1, 0, 1, …] para toda posición. "
                    "El exponente entero va entre paréntesis: pos / 10000 ** (2 * i / d_model).",
        implementacion=_precedencia("exponente")),
    ErrorConocido(
        id="precedencia_de_d_model", nombre="d_model fuera del exponente", seccion=NUMPY,
        explicacion="escribes `pos / 10000 ** (2 * i) / d_model`: d_model divide el ángulo en lugar del "
                    "exponente, así que la pareja i gira con 1/(10000^(2i)·d_model) y, desde la pareja 1, la "
                    "tabla ya no cambia con la posición. Es pos / 10000 ** (2 * i / d_model): 2i/d_model "
                    "entero en el exponente.",
        implementacion=_precedencia("d_model")),
    ErrorConocido(
        id="grados", nombre="grados", seccion=FORMULA,
        explicacion="conviertes el ángulo como si estuviera en grados (np.deg2rad, np.radians o ·π/180): "
                    "np.sin y np.cos trabajan en radianes; usa pos / 10000^(2i/d_model) tal cual.",
        implementacion=_variante(grados=True)),
    ErrorConocido(id="a_grados", nombre="ángulo pasado a grados", seccion=FORMULA, detector=_a_grados),
    ErrorConocido(id="pos_e_i_intercambiados", nombre="pos e i cambiados de sitio", seccion=FORMULA,
                  detector=_pos_e_i_intercambiados),
    ErrorConocido(
        id="dtype_entero", nombre="dtype entero", seccion=EJERCICIO,
        explicacion="tu tabla es de enteros: al guardar senos y cosenos en un array de enteros se truncan "
                    "a 0 (o ±1). Créala con np.zeros((T, d_model)), que es float64.",
        implementacion=_entero),
    ErrorConocido(
        id="transpuesta", nombre="transpuesta", seccion=EJERCICIO,
        explicacion="devuelves la tabla traspuesta, (d_model, T): las filas son las posiciones y las "
                    "columnas las dimensiones; la forma es (T, d_model).",
        implementacion=_transpuesto),
    ErrorConocido(
        id="solo_senos", nombre="sólo senos", seccion=FORMULA,
        explicacion="usas el seno en todas las columnas: las columnas impares (2i+1) llevan el coseno.",
        implementacion=_variante(funciones=("sin", "sin"))),
    ErrorConocido(
        id="posicion_entre_T", nombre="posición dividida entre T", seccion="2. Tres respuestas fáciles que no bastan",
        explicacion="divides la posición entre T (pos / T): así el mismo pos significa cosas distintas "
                    "según la longitud de la frase y la posición deja de ser absoluta. El ángulo usa pos "
                    "tal cual: pos / 10000^(2i/d_model).",
        implementacion=_posicion_entre_T),
    ErrorConocido(
        id="senos_por_columna", nombre="sólo senos, una frecuencia por columna", seccion=FORMULA,
        explicacion="usas el seno en todas las columnas, cada una con su frecuencia 10000^(-j/d_model): "
                    "las columnas van por parejas, seno en la 2i y coseno en la 2i+1, con la misma "
                    "frecuencia 10000^(-2i/d_model) las dos.",
        implementacion=_senos_por_columna),
    ErrorConocido(
        id="exponente_distinto_en_columnas_altas", nombre="otro exponente en las columnas altas",
        seccion=FORMULA,
        explicacion="las primeras columnas están bien, pero desde la pareja i = 4 (sólo con d_model > 8) "
                    "el exponente deja de ser 2i/d_model: todas las parejas usan la misma fórmula, "
                    "pos / 10000^(2i/d_model).",
        implementacion=_exponente_sin_2_desde_la_pareja_4),
    ErrorConocido(id="razon_redondeada", nombre="razón con pocas cifras", seccion=FORMULA,
                  detector=_razon_redondeada),
    ErrorConocido(id="se_aleja_con_posiciones_grandes", nombre="se aleja con posiciones grandes",
                  seccion=FORMULA, categoria="robustez", detector=_se_aleja_con_posiciones_grandes),
    ErrorConocido(id="sin_ejes_de_tamano_1", nombre="sin los ejes de tamaño 1", seccion=EJERCICIO,
                  categoria="generalidad", detector=sin_ejes_de_tamano_1),
    ErrorConocido(id="eje_de_lote", nombre="un eje de tamaño 1 de más", seccion=EJERCICIO,
                  detector=con_ejes_de_tamano_1_de_mas),
    ErrorConocido(id="complejos", nombre="números complejos", seccion=EJERCICIO, detector=devuelve_complejos),
    ErrorConocido(id="otra_precision", nombre="otra precisión", seccion=EJERCICIO,
                  detector=devuelve_otra_precision("crea la tabla con np.zeros((T, d_model)) (float64).")),
    ErrorConocido(id="T_ignorado", nombre="T ignorado", seccion=EJERCICIO, categoria="generalidad",
                  detector=_T_ignorado),
    ErrorConocido(id="float32_por_dentro", nombre="float32 por dentro", seccion=EJERCICIO,
                  categoria="robustez", detector=_float32_angulos),
    ErrorConocido(id="salida_float32", nombre="salida float32", seccion=EJERCICIO,
                  detector=devuelve_float32("crea la tabla con np.zeros((T, d_model)) o convierte con "
                                            ".astype(np.float64).")),
    ErrorConocido(id="subclase_de_ndarray", nombre="subclase de ndarray", seccion=EJERCICIO,
                  detector=devuelve_subclase("no uses np.asmatrix / np.matrix, devuelve el array tal cual "
                                             "o conviértelo con np.asarray(PE).")),
    ErrorConocido(id="lista", nombre="lista en vez de array", seccion=EJERCICIO,
                  detector=devuelve_lista("¿.tolist() o listas de Python? Devuelve el array (T, d_model) "
                                          "directamente o con np.array(...).")),
    ErrorConocido(id="math_sin", nombre="math.sin con arrays", seccion=NUMPY, categoria="excepcion",
                  detector=_math_sin),
]
