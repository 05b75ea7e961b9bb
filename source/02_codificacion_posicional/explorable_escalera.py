"""Explorable de la lección 2: la escalera de longitudes de onda.

Muestra la codificación posicional sinusoidal como un mapa de calor
(posiciones × coordenadas), la pareja de columnas que elijas con su seno y su
coseno frente a la posición, y la escalera de longitudes de onda de todas las
parejas en escala logarítmica.

El módulo tiene tres capas, cada una encima de la anterior:

1. Funciones puras (números y arrays de entrada, arrays o textos de salida),
   sin matplotlib ni widgets: ``frecuencias``, ``longitudes_de_onda``,
   ``longitud_maxima``, ``columnas_de_pareja``, ``matriz_para_mapa``,
   ``curvas_de_pareja``, ``comparar_disposiciones``, ``marcas_enteras``,
   la lógica de los controles (``limites``, ``revisar_valor``, ``aplicar_cambio``)
   y los textos (``texto_longitud``, ``texto_disposicion``,
   ``titulo_mapa``, ``etiqueta_columnas``, ``titulo_curvas``).
2. Dibujo: ``dibujar`` recibe el estado y devuelve una figura de matplotlib;
   ``figura_a_png`` la convierte en bytes PNG. El explorable usa
   ``_FiguraEscalera``, que da el mismo PNG pintando sólo lo que cambia.
3. Conexión con ipywidgets: ``crear_explorable`` devuelve la caja con los
   controles, la imagen y los textos. Las funciones de respuesta sólo tocan los
   widgets de su propia caja.

Nota para quien lo lea buscando atajos: aquí no hay nada que resuelva el
ejercicio ``positional_encoding``. Todos los números por pareja que salen de
las funciones públicas de este módulo (la matriz del mapa, las curvas de una
pareja, sus frecuencias, sus longitudes de onda, la más larga de ellas, los
datos de las figuras y el estado del explorable) van en ``float16``, con unas
tres cifras: para pintar y leer basta, y el ejercicio pide 1e-6. Además, las
funciones públicas sólo aceptan los tamaños que enseñan los controles (T de 1
a 200, d_model par de 2 a 128, ``MUESTRAS_POR_POSICION`` puntos de curva por
posición como mucho): tres cifras en cientos de miles de posiciones dan la
frecuencia con muchas más. Por dentro el módulo calcula en float64
(``_frecuencias_exactas``), porque la fórmula es la de la lección; copiarla de
aquí es escribir la fórmula, no usar el explorable.
"""
from __future__ import annotations

import contextlib
import functools
import html
import io
import math
import re

import ipywidgets as widgets
import numpy as np
from matplotlib import colormaps
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize, to_rgba
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.ticker import FixedLocator, LogLocator, NullFormatter
from matplotlib.transforms import Bbox, ScaledTranslation
from PIL import Image

BASE = 10000.0
"""La base del artículo: la pareja i gira a 1 / BASE^(2i/d_model) radianes por posición."""

DISPOSICIONES = ("intercalada", "concatenada")
"""«intercalada»: la del artículo (seno en 2i, coseno en 2i+1).
«concatenada»: [senos | cosenos], la que usan algunas bibliotecas."""

D_MODEL_MIN, D_MODEL_MAX = 2, 128
"""Los d_model que ofrece el explorable (pares). Con más de 128 columnas el mapa ya no se lee."""

T_MIN, T_MAX = 1, 200
"""Las longitudes de secuencia que ofrece el explorable."""

PAREJAS_MAX = D_MODEL_MAX // 2
"""Parejas con el d_model más ancho."""

MUESTRAS_POR_POSICION = 8
"""Puntos de las curvas continuas entre dos posiciones enteras (el panel de curvas no usa más)."""

COLOR_SENO = "black"
COLOR_COSENO = "#1a9641"  # verde: se distingue sobre el rojo y el azul del mapa


# ---------------------------------------------------------------------------
# 1. Funciones puras
# ---------------------------------------------------------------------------

def _comprobar_d_model(d_model: int) -> int:
    d_model = int(d_model)
    if d_model < 2 or d_model % 2:
        raise ValueError(f"d_model tiene que ser par y al menos 2; ha llegado {d_model}.")
    return d_model


def _d_model_del_explorable(d_model: int) -> int:
    """``d_model`` si es uno de los que ofrecen los controles (par, de 2 a 128); si no, ValueError en español.

    Las funciones públicas sólo aceptan los tamaños que el explorable puede
    enseñar (issue 19, décimo ataque: con miles de posiciones en float16, una
    recta ajustada a la fase daba la frecuencia exacta). Para otros tamaños,
    la codificación se calcula con la fórmula.
    """
    d_model = _comprobar_d_model(d_model)
    if not D_MODEL_MIN <= d_model <= D_MODEL_MAX:
        raise ValueError(f"d_model = {d_model} no vale aquí: el explorable sólo enseña los d_model pares de "
                         f"{D_MODEL_MIN} a {D_MODEL_MAX}, los de sus controles. Para otros tamaños, calcula la "
                         "codificación con la fórmula.")
    return d_model


def _T_del_explorable(T: int) -> int:
    """``T`` si es uno de los que ofrecen los controles (de 1 a 200); si no, ValueError en español."""
    T = int(T)
    if not T_MIN <= T <= T_MAX:
        raise ValueError(f"T = {T} no vale aquí: el explorable sólo enseña de {T_MIN} a {T_MAX} posiciones, "
                         "las de sus controles. Para otras longitudes, calcula la codificación con la fórmula.")
    return T


def _frecuencias_exactas(d_model: int) -> np.ndarray:
    """ω_i = 10000^(−2i/d_model) en float64: lo que el explorable usa por dentro para sus ángulos y sus textos."""
    d_model = _comprobar_d_model(d_model)
    i = np.arange(d_model // 2, dtype=np.float64)  # (d_model/2,)
    return BASE ** (-2.0 * i / d_model)


def frecuencias(d_model: int) -> np.ndarray:
    """Frecuencias angulares ω_i = 10000^(−2i/d_model), i = 0 … d_model/2 − 1, con unas tres cifras.

    Sección «La fórmula, leída por sus índices». Es lo que gira la pareja i
    (columnas 2i y 2i+1 en la disposición del artículo) al avanzar una posición.
    Salen en float16, como la matriz del mapa: para leerlas y pintarlas
    basta, y para el ejercicio ``positional_encoding`` (tolerancia 1e-6) no,
    que tiene que calcular las suyas.

    Parámetros:
        d_model: anchura del modelo, par y ≥ 2.

    Devuelve:
        Array float16 de forma (d_model/2,), en radianes por posición,
        decreciente: ω_0 = 1.

    Lanza:
        ValueError si d_model no es uno de los que ofrece el explorable (par, de 2 a 128).
    """
    return _frecuencias_exactas(_d_model_del_explorable(d_model)).astype(np.float16)


def _longitudes_exactas(d_model: int) -> np.ndarray:
    """λ_i = 2π / ω_i en float64: lo que escriben los textos del explorable (con un decimal)."""
    return 2.0 * np.pi / _frecuencias_exactas(d_model)


def longitudes_de_onda(d_model: int) -> np.ndarray:
    """Longitud de onda λ_i = 2π / ω_i de cada pareja, con unas tres cifras.

    Sección «La fórmula, leída por sus índices». Cuántas posiciones tarda la
    pareja i en dar una vuelta completa. Forman una progresión geométrica de
    razón 10000^(2/d_model); con d_model = 32: 6.3, 11.2, 19.9, … 35 332.9
    (en float16, como ``frecuencias``: 6.28, 11.17, 19.88, … 35 328).

    Devuelve:
        Array float16 de forma (d_model/2,), en posiciones, creciente.

    Lanza:
        ValueError si d_model no es uno de los que ofrece el explorable (par, de 2 a 128).
    """
    return _longitudes_exactas(_d_model_del_explorable(d_model)).astype(np.float16)


def longitud_maxima(d_model: int) -> float:
    """La longitud de onda de la última pareja, 2π·10000^((d_model − 2)/d_model), con unas tres cifras.

    Sección «La fórmula, leída por sus índices». Menor que 2π·10000 ≈ 62 832,
    que es sólo el límite cuando d_model crece (≈ 54 400 posiciones con
    d_model = 128, el más ancho del explorable). Sale redondeada a float16, como ``longitudes_de_onda``:
    para leerla basta, y de ella no se saca la razón exacta de la escalera.

    Devuelve:
        float (un valor de float16), en posiciones.

    Lanza:
        ValueError si d_model no es uno de los que ofrece el explorable (par, de 2 a 128).
    """
    return float(longitudes_de_onda(d_model)[-1])


def columnas_de_pareja(pareja: int, d_model: int, disposicion: str) -> tuple[int, int]:
    """Las dos columnas de la matriz que ocupa la pareja ``pareja``.

    Sección «El explorable». En la disposición intercalada del artículo son
    (2i, 2i+1); en la concatenada [senos | cosenos] son (i, d_model/2 + i).

    Devuelve:
        (columna del seno, columna del coseno), dos int.

    Lanza:
        ValueError si la pareja no existe con ese d_model, d_model no es uno de los que ofrece el
        explorable (par, de 2 a 128) o la disposición es otra.
    """
    d_model = _d_model_del_explorable(d_model)
    mitad = d_model // 2
    if not 0 <= pareja < mitad:
        raise ValueError(f"la pareja tiene que estar entre 0 y {mitad - 1}; ha llegado {pareja}.")
    if disposicion == "intercalada":
        return 2 * pareja, 2 * pareja + 1
    if disposicion == "concatenada":
        return pareja, mitad + pareja
    raise ValueError(f"disposición desconocida {disposicion!r}; usa una de {DISPOSICIONES}.")


def _senos_y_cosenos(posiciones: np.ndarray, d_model: int) -> tuple[np.ndarray, np.ndarray]:
    """Senos y cosenos de los ángulos pos·ω_i, por separado, en float16.

    Devuelve dos bloques de forma (len(posiciones), d_model/2), no la matriz
    del ejercicio, y con unas tres cifras (float16): para pintar sobra, y
    para el ejercicio ``positional_encoding`` (tolerancia 1e-6) no vale. Las
    posiciones pueden no ser enteras (sirven para dibujar curvas continuas).
    """
    angulos = np.asarray(posiciones, dtype=np.float64)[:, None] * _frecuencias_exactas(d_model)[None, :]
    return np.sin(angulos).astype(np.float16), np.cos(angulos).astype(np.float16)  # (n, d_model/2)


def matriz_para_mapa(T: int, d_model: int, disposicion: str) -> dict:
    """Lo que necesita el mapa de calor: la matriz de codificación y cómo leerla.

    Sección «El explorable». La disposición es obligatoria porque el mapa
    enseña las dos; la matriz sale en float16 (unas tres cifras) porque para
    pintarla basta, y por eso mismo no sirve como respuesta del ejercicio
    ``positional_encoding`` (que pide float64 con tolerancia 1e-6).

    Parámetros:
        T: número de posiciones (filas), de 1 a 200 (los del explorable).
        d_model: anchura, par, de 2 a 128 (los del explorable).
        disposicion: "intercalada" (artículo) o "concatenada" ([sin | cos]).

    Devuelve:
        dict con
          - "matriz": float16 de forma (T, d_model), valores en [−1, 1];
          - "es_seno": bool de forma (d_model,), qué columnas llevan senos;
          - "pareja_de_columna": int de forma (d_model,), la pareja de cada columna;
          - "disposicion": la disposición recibida.

    Lanza:
        ValueError con un T o un d_model que el explorable no ofrece (T de 1 a 200; d_model par, de 2
        a 128) o una disposición desconocida.
    """
    d_model = _d_model_del_explorable(d_model)
    if disposicion not in DISPOSICIONES:
        raise ValueError(f"disposición desconocida {disposicion!r}; usa una de {DISPOSICIONES}.")
    T = _T_del_explorable(T)
    senos, cosenos = _senos_y_cosenos(np.arange(int(T)), d_model)  # (T, d/2) cada uno
    mitad = d_model // 2
    parejas = np.arange(mitad)
    if disposicion == "intercalada":
        matriz = np.stack([senos, cosenos], axis=2).reshape(int(T), d_model)  # (T, d)
        es_seno = np.tile([True, False], mitad)
        pareja_de_columna = np.repeat(parejas, 2)
    else:
        matriz = np.concatenate([senos, cosenos], axis=1)  # (T, d)
        es_seno = np.repeat([True, False], mitad)
        pareja_de_columna = np.concatenate([parejas, parejas])
    return {
        "matriz": matriz.astype(np.float16),
        "es_seno": es_seno,
        "pareja_de_columna": pareja_de_columna,
        "disposicion": disposicion,
    }


def curvas_de_pareja(T: int, d_model: int, pareja: int,
                     muestras_por_posicion: int = MUESTRAS_POR_POSICION) -> dict:
    """Seno y coseno de una pareja frente a la posición, para el panel de curvas.

    Sección «El explorable». Devuelve la curva continua (muestreada entre
    posiciones enteras, de 0 a T − 1) y los valores en las posiciones enteras
    0 … T−1, que son los que de verdad aparecen en la matriz. Los valores van
    en float16 (unas tres cifras): bastan para dibujar y no sirven como
    respuesta del ejercicio ``positional_encoding``.

    Devuelve:
        dict con
          - "x": float64 de forma (n,), las posiciones de la curva continua
            (n = (T − 1)·muestras_por_posicion + 1; con T = 1, sólo la posición 0);
          - "seno", "coseno": float16 de forma (n,), la curva continua;
          - "pos": float64 de forma (T,); "seno_pos", "coseno_pos": float16 de forma (T,);
          - "longitud": float, la longitud de onda de la pareja en posiciones (con unas tres cifras,
            como ``longitudes_de_onda``).

    Lanza:
        ValueError con un T, un d_model o una pareja que el explorable no ofrece (T de 1 a 200;
        d_model par, de 2 a 128) o con ``muestras_por_posicion`` fuera de 1 … 8.
    """
    d_model = _d_model_del_explorable(d_model)
    _ = columnas_de_pareja(pareja, d_model, "intercalada")  # valida la pareja
    T = _T_del_explorable(T)
    muestras_por_posicion = int(muestras_por_posicion)
    if not 1 <= muestras_por_posicion <= MUESTRAS_POR_POSICION:
        raise ValueError(f"muestras_por_posicion = {muestras_por_posicion} no vale aquí: el panel de curvas "
                         f"usa de 1 a {MUESTRAS_POR_POSICION} puntos entre dos posiciones.")
    omega = _frecuencias_exactas(d_model)[pareja]
    ultimo = int(T) - 1
    x = np.linspace(0.0, ultimo, ultimo * muestras_por_posicion + 1)  # (n,)
    pos = np.arange(int(T), dtype=np.float64)  # (T,)
    return {
        "x": x,
        "seno": np.sin(omega * x).astype(np.float16),
        "coseno": np.cos(omega * x).astype(np.float16),
        "pos": pos,
        "seno_pos": np.sin(omega * pos).astype(np.float16),
        "coseno_pos": np.cos(omega * pos).astype(np.float16),
        "longitud": float(longitudes_de_onda(d_model)[pareja]),
    }


def comparar_disposiciones(T: int, d_model: int) -> dict:
    """Cuánto se parecen las dos disposiciones: productos escalares frente a vectores.

    Sección «El explorable» (nota de la disposición). Las dos matrices tienen
    las mismas columnas en otro orden; reordenar columnas no cambia ningún
    producto escalar entre filas, pero sí cada vector (salvo con d_model = 2,
    en que las dos disposiciones son la misma: [seno, coseno]).

    Devuelve:
        dict de float:
          - "productos": máx |P·Pᵀ (intercalada) − P·Pᵀ (concatenada)|, ≈ 0;
          - "vectores": máx |P (intercalada) − P (concatenada)|, grande si d_model ≥ 4.
    """
    a = matriz_para_mapa(T, d_model, "intercalada")["matriz"].astype(np.float64)
    b = matriz_para_mapa(T, d_model, "concatenada")["matriz"].astype(np.float64)
    return {
        "productos": float(np.max(np.abs(a @ a.T - b @ b.T))),  # (T, T) cada producto
        "vectores": float(np.max(np.abs(a - b))),
    }


_PASOS = (1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 40, 50, 64, 100, 128, 200, 250, 500, 1000)


def marcas_enteras(n: int, maximo_marcas: int = 8) -> list[int]:
    """Marcas de un eje que cuenta cosas (posiciones, columnas, parejas): enteros de 0 a n − 1.

    Sección «El explorable». Empieza en 0 y avanza con el paso más corto de
    1, 2, 4, 5, 8, 10, 16, 20, 25, 32… que deja como mucho ``maximo_marcas``
    marcas. Nunca da una marca fuera de 0 … n − 1 ni una que no sea entera.

    Parámetros:
        n: cuántas cosas hay (int ≥ 1).
        maximo_marcas: tope de marcas (int ≥ 1).

    Devuelve:
        lista de int creciente que empieza en 0; con n = 1, [0].

    Lanza:
        ValueError si n < 1 o maximo_marcas < 1.
    """
    n, maximo_marcas = int(n), int(maximo_marcas)
    if n < 1 or maximo_marcas < 1:
        raise ValueError(f"hacen falta n ≥ 1 y maximo_marcas ≥ 1; han llegado {n} y {maximo_marcas}.")
    for paso in _PASOS:
        if -(-n // paso) <= maximo_marcas:
            return list(range(0, n, paso))
    return [0]


def revisar_valor(nombre: str, valor: int, actual: int, minimo: int, maximo: int,
                  par: bool = False, motivo_rango: str = "") -> tuple[int, str | None]:
    """Decide si un valor tecleado se puede usar; si no, se queda el de antes y se dice por qué.

    Sección «El explorable». Es lo que hace el explorable cuando escribes un
    número en una de sus casillas: un valor fuera de rango o impar (si tiene
    que ser par) se rechaza con un mensaje en español y el explorable sigue
    con el valor que tenía.

    Parámetros:
        nombre: cómo se llama el valor en el mensaje (str, p. ej. "d_model").
        valor: lo que se ha tecleado (int).
        actual: el valor que se está usando (int).
        minimo, maximo: límites inclusivos (int).
        par: True si el valor tiene que ser par.
        motivo_rango: frase que explica el rango (str, opcional).

    Devuelve:
        (valor que se usa, mensaje o None): el tecleado y None si vale; el
        actual y un mensaje (str) si no.
    """
    valor, actual = int(valor), int(actual)
    if not minimo <= valor <= maximo:
        explicacion = f" {motivo_rango}" if motivo_rango else ""
        rango = f"sólo vale {minimo}" if minimo == maximo else f"va de {minimo} a {maximo}"
        return actual, (f"{nombre} = {valor} no vale: aquí {rango}.{explicacion} "
                        f"Sigue {nombre} = {actual}.")
    if par and valor % 2:
        return actual, (f"{nombre} = {valor} no vale: tiene que ser par, porque cada pareja ocupa "
                        f"dos columnas. Sigue {nombre} = {actual}.")
    return valor, None


CONTROLES = ("d_model", "T", "pareja")
"""Los valores numéricos del explorable, cada uno con su deslizador y su casilla."""


def limites(nombre: str, d_model: int) -> tuple[int, int, int]:
    """(mínimo, máximo, paso) de un control con el ``d_model`` en uso (sección «El explorable»).

    La pareja i va de 0 a d_model/2 − 1: su máximo cambia con d_model. Los
    deslizadores y las casillas usan los mismos límites, así que el teclado
    (flechas, Home/End, PageUp/PageDown), el ratón y un valor tecleado llegan
    a los mismos sitios.

    Lanza:
        ValueError si ``nombre`` no es de ``CONTROLES`` o d_model no vale.
    """
    d_model = _comprobar_d_model(d_model)
    if nombre == "d_model":
        return D_MODEL_MIN, D_MODEL_MAX, 2
    if nombre == "T":
        return T_MIN, T_MAX, 1
    if nombre == "pareja":
        return 0, d_model // 2 - 1, 1
    raise ValueError(f"control desconocido {nombre!r}; usa uno de {CONTROLES}.")


def motivo_de_rango(nombre: str, d_model: int) -> str:
    """La frase que explica el rango de un control en el aviso de un valor rechazado."""
    if nombre == "d_model":
        return "(El artículo usa 512, pero un mapa de tantas columnas ya no se lee.)"
    if nombre == "pareja":
        parejas = _comprobar_d_model(d_model) // 2
        if parejas == 1:
            return f"(Con d_model = {d_model} hay una sola pareja, la 0.)"
        return f"(Con d_model = {d_model} hay {parejas} parejas, numeradas desde 0.)"
    return ""


def leer_entero(texto: object) -> int | None:
    """Lo tecleado en una casilla como entero (``" 64 "``, ``"+8"``, ``"64.0"``), o None si no lo es."""
    if isinstance(texto, (int, np.integer)) and not isinstance(texto, bool):
        return int(texto)
    limpio = str(texto).strip().replace("\u2212", "-")
    if re.fullmatch(r"[+-]?\d{1,9}", limpio):
        return int(limpio)
    if re.fullmatch(r"[+-]?\d{1,9}[.,]0*", limpio):
        return int(re.split(r"[.,]", limpio)[0])
    return None


def aplicar_cambio(en_uso: dict, nombre: str, valor: int | str, tecleado: bool = False) -> dict:
    """Lo que pasa en los controles cuando se mueve un deslizador o se teclea en una casilla.

    Sección «El explorable». Es toda la lógica de los controles numéricos,
    sin widgets: la conexión con ipywidgets sólo copia el resultado.

    - Deslizador (ratón o teclado): el valor se ajusta a los límites de
      ``limites`` (por si llega de una vista con límites viejos) y se usa.
    - Casilla: el texto se lee con ``leer_entero`` (si no es un entero, se
      rechaza como un valor que no vale) y se revisa con ``revisar_valor``. Si vale, se usa; si no, todo
      sigue como estaba, la casilla vuelve al valor en uso (el que dicen la
      imagen y el aviso: «Sigue d_model = 32») y hay aviso. El aviso se va con
      el siguiente valor que se use (tecleado o con un deslizador).
    - Las casillas enseñan siempre los valores en uso.
    - Con d_model nuevo, la pareja baja al nuevo máximo si hace falta.

    Parámetros:
        en_uso: dict con "d_model", "T" y "pareja" (int), los valores en uso.
        nombre: el control que cambia (de ``CONTROLES``).
        valor: el valor nuevo (int; de una casilla, el texto tecleado).
        tecleado: True si viene de la casilla; False, del deslizador.

    Devuelve:
        dict con "en_uso" (los valores en uso después, dict nuevo),
        "casillas" (lo que enseña cada casilla, dict) y "aviso" (str o None).
    """
    en_uso = {clave: int(en_uso[clave]) for clave in CONTROLES}
    minimo, maximo, paso = limites(nombre, en_uso["d_model"])
    leido = leer_entero(valor)
    if leido is None:
        visible = nombre if nombre != "pareja" else "pareja i"
        texto = str(valor).strip()[:20]
        aviso = (f"«{texto}» no es un número entero: escribe {visible} como un entero, sin decimales. "
                 f"Sigue {visible} = {en_uso[nombre]}.") if texto else f"Escribe {visible} con cifras. " \
            f"Sigue {visible} = {en_uso[nombre]}."
        return {"en_uso": en_uso, "casillas": dict(en_uso), "aviso": aviso}
    valor = leido
    if tecleado:
        usado, aviso = revisar_valor(nombre if nombre != "pareja" else "pareja i", valor,
                                     en_uso[nombre], minimo, maximo, par=paso == 2,
                                     motivo_rango=motivo_de_rango(nombre, en_uso["d_model"]))
        if aviso is not None:
            return {"en_uso": en_uso, "casillas": dict(en_uso), "aviso": aviso}
    else:
        usado = min(max(valor, minimo), maximo)
        usado -= (usado - minimo) % paso
    nuevo = {**en_uso, nombre: usado}
    nuevo["pareja"] = min(nuevo["pareja"], limites("pareja", nuevo["d_model"])[1])
    return {"en_uso": nuevo, "casillas": dict(nuevo), "aviso": None}


def formatear_posiciones(x: float, decimales: int = 1) -> str:
    """Número con punto decimal y, de 10 000 en adelante, las cifras agrupadas de tres en tres con un espacio,
    como en la lección: 35332.94 → "35 332.9", 6283.19 → "6283.2" (las de cuatro cifras no se agrupan)."""
    texto = f"{x:.{decimales}f}"
    entera = texto.split(".")[0].lstrip("-")
    return f"{x:,.{decimales}f}".replace(",", " ") if len(entera) > 4 else texto


def texto_longitud(pareja: int, d_model: int, disposicion: str) -> str:
    """La línea que acompaña a la pareja elegida: columnas, fórmula y λ.

    Sección «El explorable». Ejemplo (d_model = 32, pareja 2, intercalada):
    "Pareja 2 · columnas 4 (seno) y 5 (coseno) · λ = 2π·10000^(4/32) ≈ 19.9 posiciones".

    Lanza:
        ValueError con un d_model o una pareja que los controles no ofrecen (d_model par, de 2 a
        128): el texto es el del explorable, no una tabla de la fórmula para cualquier tamaño.
    """
    col_seno, col_coseno = columnas_de_pareja(pareja, d_model, disposicion)
    lam = _longitudes_exactas(d_model)[pareja]
    return (f"Pareja {pareja} · columnas {col_seno} (seno) y {col_coseno} (coseno) · "
            f"λ = 2π·10000^({2 * pareja}/{d_model}) ≈ {formatear_posiciones(lam)} posiciones")


def texto_disposicion(T: int, d_model: int, disposicion: str) -> str:
    """La nota sobre la disposición elegida, con la comparación calculada (HTML sencillo).

    Sección «El explorable». Con d_model = 2 hay una sola pareja y las dos
    disposiciones son la misma matriz, y la nota lo dice en vez de comparar.
    """
    d_model = _comprobar_d_model(d_model)
    if d_model == 2:
        donde = "el seno va en la columna 0 y el coseno en la 1"
    elif disposicion == "intercalada":
        donde = "la pareja i ocupa las columnas 2i y 2i+1 (así lo escribe el artículo)"
    else:
        donde = (f"los senos van en las columnas 0…{d_model // 2 - 1} y los cosenos en "
                 f"{d_model // 2}…{d_model - 1}")
    if d_model == 2:
        return (f"<b>Disposición {disposicion}</b>: {donde}. Con d_model = 2 sólo hay una pareja, "
                "y las dos disposiciones dan la misma matriz, [seno | coseno]: la diferencia "
                "aparece a partir de d_model = 4.")
    comparacion = comparar_disposiciones(T, d_model)
    return (
        f"<b>Disposición {disposicion}</b>: {donde}. "
        "Las dos disposiciones tienen las mismas columnas en otro orden, y un producto "
        "escalar entre dos filas suma los mismos productos aunque los recorra en otro orden: "
        f"P·Pᵀ coincide (diferencia máxima {comparacion['productos']:.1e}). "
        "Los vectores, en cambio, no son los mismos (diferencia máxima "
        f"{comparacion['vectores']:.2f}): una capa entrenada con una disposición "
        "leería mal la otra."
    )


def titulo_mapa(disposicion: str) -> str:
    """Título del mapa de calor según la disposición (sección «El explorable»)."""
    if disposicion == "intercalada":
        return "PE intercalada (artículo): seno en 2i, coseno en 2i+1"
    if disposicion == "concatenada":
        return "PE concatenada [sin | cos]: senos y luego cosenos"
    raise ValueError(f"disposición desconocida {disposicion!r}; usa una de {DISPOSICIONES}.")


def etiqueta_columnas(disposicion: str, d_model: int | None = None) -> str:
    """Rótulo del eje de columnas: dónde quedan las parejas rápidas y las lentas.

    Sección «El explorable». En la disposición intercalada las rápidas están a
    la izquierda y las lentas a la derecha; en la concatenada eso pasa dentro
    de cada mitad (senos, luego cosenos). Con ``d_model = 2`` hay una sola
    pareja y el rótulo lo dice (no hay rápidas ni lentas).
    """
    if disposicion not in DISPOSICIONES:
        raise ValueError(f"disposición desconocida {disposicion!r}; usa una de {DISPOSICIONES}.")
    if d_model == 2:
        return "columna de PE\n(una sola pareja: el seno en la 0 y el coseno en la 1)"
    if disposicion == "intercalada":
        return "columna de PE\n(parejas rápidas a la izquierda, lentas a la derecha)"
    if disposicion == "concatenada":
        return "columna de PE\n(en cada mitad, parejas rápidas al principio y lentas al final)"
    raise ValueError(f"disposición desconocida {disposicion!r}; usa una de {DISPOSICIONES}.")


def titulo_curvas(pareja: int, d_model: int, disposicion: str) -> str:
    """Título del panel de curvas: la pareja, sus columnas y su longitud de onda."""
    col_seno, col_coseno = columnas_de_pareja(pareja, d_model, disposicion)
    lam = _longitudes_exactas(d_model)[pareja]
    return f"Pareja {pareja} (columnas {col_seno} y {col_coseno}): λ ≈ {formatear_posiciones(lam)}"


VUELTAS_EN_CURVAS = 6
"""Vueltas que enseña como mucho el panel de curvas: con más, seno y coseno ya no se leen."""


def posiciones_en_curvas(T: int, longitud: float, vueltas: float = VUELTAS_EN_CURVAS) -> int:
    """Cuántas posiciones (de la 0 a la n − 1) enseña el panel de curvas.

    Sección «El explorable». Todas (n = T), salvo que la pareja dé más de
    ``vueltas`` vueltas en ellas: entonces sólo las primeras, las que caben en
    ``vueltas`` longitudes de onda. Con la pareja 0 (λ ≈ 6.3) y T = 200, 38
    posiciones y no 32 vueltas apretadas en el mismo ancho.

    Parámetros:
        T: posiciones de la matriz (int ≥ 1); longitud: λ de la pareja (float > 0).

    Devuelve:
        int n con 1 ≤ n ≤ T.
    """
    T = int(T)
    if T < 1 or not longitud > 0:
        raise ValueError(f"hacen falta T ≥ 1 y una longitud positiva; han llegado {T} y {longitud}.")
    return min(T, max(2, math.ceil(round(vueltas * longitud, 9))))


PUNTOS_MIN_PX = 4.0
"""Separación mínima, en píxeles, entre los puntos de las posiciones enteras de las curvas."""


def puntos_en_curvas(n: int, ancho_px: float) -> bool:
    """Si se marcan con un punto las posiciones enteras de las curvas (sección «El explorable»).

    Sólo si caben separados al menos ``PUNTOS_MIN_PX`` píxeles: más juntos
    tapan las curvas. Con un panel de 255 píxeles, hasta 64 posiciones.
    """
    return int(n) <= 1 or ancho_px / (int(n) - 1) >= PUNTOS_MIN_PX


def rotulo_curvas(n: int, T: int) -> str:
    """Rótulo del eje de las curvas: dice si se ven todas las posiciones o sólo las primeras, y por qué.

    Sólo las primeras cuando la pareja da más de ``VUELTAS_EN_CURVAS`` vueltas
    en T posiciones (``posiciones_en_curvas``): las que caben en esas
    vueltas.
    """
    if int(n) >= int(T):
        return "posición pos"
    return f"posición pos (las {n} primeras de {T}: {VUELTAS_EN_CURVAS:g} vueltas)"


def limites_escalera(parejas: int, ancho_px: float, margen_px: float = 9.0) -> tuple[float, float]:
    """Límites del eje «pareja i» de la escalera: de la pareja 0 a la última de este d_model.

    Sección «El explorable». El eje se ajusta a las parejas que hay (con una sola,
    d_model = 2, no se rotula hasta 56), con un margen a cada lado de al menos
    ``margen_px`` píxeles y media pareja, para que el círculo de la pareja elegida
    quepa entero aunque sea la primera o la última.

    Parámetros:
        parejas: número de parejas, d_model / 2 (int ≥ 1); ancho_px: ancho del panel
        en píxeles (float > 2·margen_px); margen_px: margen mínimo (float ≥ 0).

    Devuelve:
        (izquierda, derecha), dos float con izquierda < 0 ≤ parejas − 1 < derecha.

    Lanza:
        ValueError si parejas < 1 o el panel no deja sitio para los márgenes.
    """
    parejas, ancho_px = int(parejas), float(ancho_px)
    if parejas < 1 or ancho_px <= 2 * margen_px:
        raise ValueError(f"hacen falta parejas ≥ 1 y un panel de más de {2 * margen_px} píxeles; "
                         f"han llegado {parejas} y {ancho_px}.")
    # margen m (en parejas) con m · ancho / (parejas − 1 + 2m) ≥ margen_px
    margen = max(0.5, margen_px * (parejas - 1) / (ancho_px - 2 * margen_px))
    return -margen, parejas - 1 + margen


# ---------------------------------------------------------------------------
# 2. Dibujo
# ---------------------------------------------------------------------------

PPP = 100
"""Puntos por pulgada del PNG: a 100, la figura de 10 × 5.6 pulgadas mide 1000 × 560 píxeles."""
TAMANO = (10.0, 5.6)
COLORES_MAPA = "RdBu_r"
"""El mapa de colores del mapa de calor, de −1 (azul) a +1 (rojo)."""
ESCALA_MINIMA = 0.78
"""Lo más que se encoge la imagen en un cuaderno estrecho: los rótulos pequeños (9,5 puntos, unos
13 px) se quedan en unos 10 px y se leen; lo que no cabe se ve desplazando la imagen de lado."""
LETRA = 10.5      # puntos: unos 15 píxeles a 100 ppp
LETRA_PEQUENA = 9.5
ENCIMA = 2.6      # por encima de los bordes (2.5): se puede pintar sobre un fondo guardado

# El mapa de calor mide 384 × 400 píxeles: 3 por columna con d_model = 128 y 2 por fila con
# T = 200, enteros en el caso más denso, y más de 3 y de 2 en todos los demás.
MAPA_PX = (384, 400)
"""(ancho, alto) del mapa de calor en píxeles."""
_ANCHO_PX, _ALTO_PX = round(TAMANO[0] * PPP), round(TAMANO[1] * PPP)
# Dónde está cada panel (fracciones de la figura); el mapa, en píxeles enteros.
_POS_MAPA = (75 / _ANCHO_PX, 98 / _ALTO_PX, MAPA_PX[0] / _ANCHO_PX, MAPA_PX[1] / _ALTO_PX)
_POS_BARRA = (0.471, _POS_MAPA[1], 0.012, _POS_MAPA[3])
_POS_CURVAS = (0.607, 0.625, 0.222, 0.29)
_POS_ESCALERA = (0.607, 0.115, 0.222, 0.35)
# Trozos del lienzo que se guardan aparte (no se solapan): a la izquierda del corte
# vertical, el título del mapa (arriba), el mapa y su rótulo (abajo); a la derecha del
# corte, arriba del corte horizontal las curvas y abajo la escalera; el resto (barra de
# color, leyenda de las curvas, rótulos fijos), en el fondo.
_CORTE_X = 0.55
_CORTE_Y = 0.515
_CORTE_TITULO = 0.912
_CORTE_ROTULO = 0.095
MARGEN_ESCALERA_PX = 9
"""Espacio, en píxeles, entre el borde de la escalera y su primer y último peldaño."""


def imagen_del_mapa(matriz: np.ndarray, ancho_px: int, alto_px: int) -> np.ndarray:
    """Los píxeles del mapa de calor: cada píxel, el color medio de las casillas que cubre.

    Sección «El explorable». Colorea ``matriz`` (valores en [−1, 1], ``COLORES_MAPA``) y
    la lleva a ``alto_px`` × ``ancho_px`` promediando por área (``Image.BOX`` de Pillow):
    con un número entero de píxeles por casilla, cada casilla es un bloque de su color;
    si no, sólo los píxeles que caen entre dos casillas mezclan sus colores. Nada de
    repartir píxeles enteros de forma desigual (columnas de 2 y de 3 píxeles) ni de
    suavizar por encima de la casilla: las dos cosas dibujaban en las columnas rápidas
    un muaré que no está en la matriz.

    Parámetros:
        matriz: array (T, d_model) de valores en [−1, 1]; ancho_px, alto_px: int ≥ 1.

    Devuelve:
        array uint8 de forma (alto_px, ancho_px, 3), RGB.
    """
    colores = colormaps[COLORES_MAPA](Normalize(-1.0, 1.0, clip=True)(np.asarray(matriz, dtype=np.float64)),
                                      bytes=True)[..., :3]                       # (T, d_model, 3)
    imagen = Image.fromarray(np.ascontiguousarray(colores), "RGB")
    return np.asarray(imagen.resize((int(ancho_px), int(alto_px)), Image.BOX))


class _PixelesDelMapa(Artist):
    """Los píxeles del mapa de calor, tal cual, en el recuadro de sus ejes (uno por píxel).

    Un artista de matplotlib que pasa ``imagen_del_mapa`` al lienzo con
    ``renderer.draw_image``, lo último que hace también una ``AxesImage``, sin
    remuestrear: los ejes miden ``MAPA_PX`` píxeles enteros, lo mismo que la imagen.
    ``get_array`` devuelve los píxeles (alto, ancho, 3) puestos con ``set_data``.
    """

    zorder = 0

    def __init__(self, ax):
        super().__init__()
        self.ax = ax
        self._rgba = None
        self.set_clip_on(False)

    def set_data(self, rgb: np.ndarray) -> None:
        alto, ancho, _ = rgb.shape
        rgba = np.empty((alto, ancho, 4), dtype=np.uint8)
        rgba[..., :3] = rgb
        rgba[..., 3] = 255
        self._rgba = rgba
        self.stale = True

    def get_array(self) -> np.ndarray:
        return self._rgba[..., :3]

    def get_window_extent(self, renderer=None):
        return self.ax.bbox.frozen()

    def draw(self, renderer):
        if not self.get_visible() or self._rgba is None:
            return
        caja = self.ax.bbox
        alto, ancho, _ = self._rgba.shape
        if (round(caja.width), round(caja.height)) != (ancho, alto):
            raise ValueError(f"el mapa mide {ancho} × {alto} píxeles y sus ejes "
                             f"{caja.width:g} × {caja.height:g}")
        gc = renderer.new_gc()
        self._set_gc_clip(gc)
        gc.set_alpha(1.0)
        # draw_image recibe las filas de abajo arriba; el mapa tiene la posición 0 arriba
        renderer.draw_image(gc, round(caja.x0), round(caja.y0), self._rgba[::-1])
        gc.restore()
        self.stale = False


def _clave_de_fuente(fuente: FontProperties) -> tuple:
    """Lo que decide cómo se ve una letra (una FontProperties puede cambiar después: no sirve de clave)."""
    return (tuple(fuente.get_family()), fuente.get_style(), fuente.get_variant(), fuente.get_weight(),
            fuente.get_stretch(), fuente.get_size_in_points(), fuente.get_file(), fuente.get_math_fontfamily())


def _texto_en_pixeles(texto: str, fuente: FontProperties, color: tuple, ppp: float) -> tuple[np.ndarray, float, float]:
    """Un texto pintado una vez por matplotlib en su propio lienzo transparente (y guardado).

    Devuelve:
        (rgba, alto, bajada): array uint8 (alto_px + 2, ancho_px + 2, 4) con el texto en ``color``
        y su cobertura en el canal alfa (un píxel de margen alrededor, filas de arriba abajo);
        el alto del texto y lo que baja de la línea base, en píxeles (float).
    """
    return _texto_guardado(texto, _clave_de_fuente(fuente), tuple(float(c) for c in color), float(ppp))


@functools.lru_cache(maxsize=512)
def _texto_guardado(texto: str, clave: tuple, color: tuple, ppp: float) -> tuple[np.ndarray, float, float]:
    familia, estilo, variante, peso, anchura, tamano, archivo, formulas = clave
    fuente = FontProperties(family=list(familia), style=estilo, variant=variante, weight=peso, stretch=anchura,
                            size=tamano, fname=archivo, math_fontfamily=formulas)
    ancho, alto, bajada = RendererAgg(1, 1, ppp).get_text_width_height_descent(texto, fuente, ismath=False)
    lienzo = RendererAgg(int(math.ceil(ancho)) + 2, int(math.ceil(alto)) + 2, ppp)
    gc = lienzo.new_gc()
    gc.set_foreground(color)
    # la línea base, contada desde arriba (como la recibe draw_text del lienzo de Agg)
    lienzo.draw_text(gc, 1, lienzo.height - 1 - bajada, texto, fuente, 0)
    gc.restore()
    rgba = np.asarray(lienzo.buffer_rgba()).copy()
    rgba.flags.writeable = False
    return rgba, alto, bajada


class _LetrasGuardadas:
    """El lienzo de Agg, salvo que cada texto sencillo se pinta desde ``_texto_en_pixeles``.

    Para los textos que cambian con el estado (el título y el rótulo de las curvas): matplotlib
    sigue decidiendo dónde va cada línea (``Text.draw``); aquí sólo cambia cómo se ponen sus
    letras, copiando el texto ya pintado en lugar de componerlo letra a letra cada vez. Un texto
    girado, con fórmulas o con varias líneas en una llamada se pinta como siempre.
    """

    def __init__(self, real):
        self._real = real

    def __getattr__(self, nombre):
        return getattr(self._real, nombre)

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath or angle % 360 or "\n" in s or not s:
            return self._real.draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
        rgba, _alto, bajada = _texto_en_pixeles(s, prop, gc.get_rgb(), self._real.dpi)
        # (x, y): el principio de la línea base, y contada desde arriba; draw_image quiere la esquina de
        # abajo a la izquierda contada desde abajo, y las filas de abajo arriba
        self._real.draw_image(gc, round(x) - 1, round(self._real.height - y - bajada - 1), rgba[::-1])


class _TextoGuardado(Text):
    """Un texto de matplotlib que pone sus letras con ``_LetrasGuardadas`` en cualquier dibujo.

    El título y el rótulo de las curvas cambian con cada estado y se pintan cada vez: así
    sus letras se copian en lugar de componerse, igual en un dibujo completo que en uno por
    trozos (los dos dan la misma imagen, píxel a píxel).
    """

    def draw(self, renderer):
        return super().draw(_LetrasGuardadas(renderer))


class _NumerosDeMarcas(Artist):
    """Los números de las marcas de un eje, pintados desde textos ya pintados (``_texto_en_pixeles``).

    Sustituye a los rótulos de las marcas de matplotlib en los ejes que cambian con T, d_model
    y la pareja (el mapa, las curvas, el eje «pareja i»): el mismo texto, la misma letra y el
    mismo sitio (debajo del eje x centrado, a la izquierda del eje y centrado en altura, a la
    distancia de la marca más su separación), pero cada número se pinta una sola vez por
    figura y después sólo se copia, sin volver a componer sus letras (issue 22: la mitad de lo
    que costaba la primera visita a un T o a un d_model eran esos números).
    """

    zorder = 2.55      # encima de los bordes del eje (2.5), debajo de lo que se pinta cada vez (ENCIMA)

    def __init__(self, ax, eje: str):
        super().__init__()
        self.ax, self.eje = ax, eje
        self.set_clip_on(False)
        eje_mpl = ax.xaxis if eje == "x" else ax.yaxis
        marca = eje_mpl.get_major_ticks()[0]
        self._fuente = marca.label1.get_fontproperties().copy()
        self._color = tuple(to_rgba(marca.label1.get_color()))
        # la distancia de matplotlib: el largo de la marca (hacia fuera) más su separación, en puntos
        self._distancia_pt = marca.get_tick_padding() + marca.get_pad()
        ax.tick_params(axis=eje, **({"labelbottom": False} if eje == "x" else {"labelleft": False}))

    def textos(self) -> list[tuple[str, float]]:
        """[(texto, valor)] de las marcas dentro del eje, como los escribiría su formateador."""
        eje = self.ax.xaxis if self.eje == "x" else self.ax.yaxis
        bajo, alto = sorted(eje.get_view_interval())
        valores = [v for v in eje.get_majorticklocs() if bajo - 1e-9 <= v <= alto + 1e-9]
        return list(zip(eje.get_major_formatter().format_ticks(valores), valores))

    def _colocados(self, renderer) -> list[tuple[np.ndarray, int, int]]:
        """[(rgba, x, y)]: cada número y la esquina de abajo a la izquierda donde va, en píxeles del lienzo."""
        distancia = self._distancia_pt * renderer.dpi / 72.0
        caja = self.ax.bbox
        colocados = []
        for texto, valor in self.textos():
            rgba, alto, bajada = _texto_en_pixeles(texto, self._fuente, self._color, renderer.dpi)
            if self.eje == "x":
                x = self.ax.transData.transform((valor, 0.0))[0] - rgba.shape[1] / 2
                base = caja.y0 - distancia - (alto - bajada)          # arriba del texto, a la distancia
            else:
                x = caja.x0 - distancia - rgba.shape[1] + 1
                base = self.ax.transData.transform((0.0, valor))[1] - (alto - bajada) / 2
            colocados.append((rgba, round(x), round(base - bajada - 1)))
        return colocados

    def get_window_extent(self, renderer=None):
        renderer = renderer or self.ax.figure.canvas.get_renderer()
        cajas = [Bbox.from_bounds(x, y, rgba.shape[1], rgba.shape[0]) for rgba, x, y in self._colocados(renderer)]
        return Bbox.union(cajas) if cajas else Bbox.null()

    def draw(self, renderer):
        if not self.get_visible():
            return
        gc = renderer.new_gc()
        gc.set_alpha(1.0)
        for rgba, x, y in self._colocados(renderer):
            # draw_image recibe las filas de abajo arriba
            renderer.draw_image(gc, x, y, rgba[::-1])
        gc.restore()
        self.stale = False


class _FiguraEscalera:
    """La figura de tres paneles: se monta una vez y después sólo se actualiza.

    Sección «El explorable». ``poner`` cambia los datos de los artistas que ya
    existen, con marcas enteras que calcula ``marcas_enteras``; ``png`` pinta
    por trozos del lienzo que no se solapan, cada uno guardado según lo que lo
    hace cambiar:

    - el fondo (barra de color, leyenda de las curvas, rótulos fijos, el eje de
      λ de la escalera), igual para todos los estados, se pinta una vez;
    - el título y el rótulo de columnas del mapa, según la disposición;
    - el mapa con sus marcas, según (T, d_model, disposición);
    - el marco de las curvas con sus marcas, según las posiciones que enseña
      (``posiciones_en_curvas``);
    - el eje «pareja i» de la escalera con sus marcas, según d_model (va de la
      pareja 0 a la última: ``limites_escalera``); lo demás de la escalera (el
      eje de λ, su rejilla, su leyenda), igual para todos, en el fondo;
    - encima, lo que depende de todo a la vez (recuadros y flechas de la pareja,
      curvas con su título y su rótulo, peldaños, círculo y línea de T), que va
      por encima de todo lo demás de sus ejes y se pinta cada vez.

    El mapa mide ``MAPA_PX`` píxeles y se pinta píxel a píxel con
    ``imagen_del_mapa``: con d_model = 128 y T = 200, cada casilla son 3 × 2
    píxeles exactos, sin muaré.

    El resultado es el mismo PNG, píxel a píxel, que el de un dibujo completo
    (``dibujar`` + ``figura_a_png``).
    """

    MAX_MAPAS = 24
    MAX_CURVAS = 24
    MAX_ESCALERAS = 64
    MAX_PNGS = 96

    def __init__(self, T: int, d_model: int, pareja: int, disposicion: str):
        fig = Figure(figsize=TAMANO, dpi=PPP)
        FigureCanvasAgg(fig)
        ax_mapa = fig.add_axes(_POS_MAPA)
        ax_barra = fig.add_axes(_POS_BARRA)
        ax_curvas = fig.add_axes(_POS_CURVAS)
        ax_escalera = fig.add_axes(_POS_ESCALERA)
        self.fig, self.ax_mapa, self.ax_curvas, self.ax_escalera = fig, ax_mapa, ax_curvas, ax_escalera
        for ax in (ax_mapa, ax_barra, ax_curvas, ax_escalera):
            ax.tick_params(labelsize=LETRA_PEQUENA)
        izquierda, abajo, ancho, alto = _POS_MAPA

        # Mapa de calor: filas = posiciones, columnas = coordenadas. Sus píxeles los calcula
        # imagen_del_mapa, uno por píxel del panel, y van al lienzo sin remuestrear.
        self.escala_de_color = ScalarMappable(Normalize(-1.0, 1.0), COLORES_MAPA)
        self.imagen = _PixelesDelMapa(ax_mapa)
        ax_mapa.add_artist(self.imagen)
        ax_mapa.patch.set_visible(False)       # el mapa cubre los ejes: el fondo blanco no hace falta
        barra = fig.colorbar(self.escala_de_color, cax=ax_barra, ticks=[-1, -0.5, 0, 0.5, 1])
        barra.set_label("valor de PE", fontsize=LETRA_PEQUENA)
        self.recuadros = [ax_mapa.add_patch(Rectangle((-0.5, -0.5), 1.0, 1.0, fill=False,
                                                      edgecolor=color, linewidth=2.5, zorder=ENCIMA))
                          for color in (COLOR_SENO, COLOR_COSENO)]
        # Flechas sobre el mapa en las columnas de la pareja: se ven aunque cada columna mida
        # 2.5 píxeles (d_model = 128) o la pareja esté en el borde.
        self.flechas = [ax_mapa.plot([0], [1.018], "v", color=color, markersize=7,
                                     transform=ax_mapa.get_xaxis_transform(), clip_on=False,
                                     zorder=ENCIMA)[0]
                        for color in (COLOR_SENO, COLOR_COSENO)]
        self.division = ax_mapa.axvline(0.5, color="black", linewidth=1.2, linestyle=":")
        # Título y rótulos del mapa en sitios fijos de la figura: no dependen de las marcas.
        self.titulo_mapa = fig.text(izquierda + ancho / 2, abajo + alto + 0.025, "",
                                    ha="center", va="bottom", fontsize=LETRA)
        self.rotulo_columnas = fig.text(izquierda + ancho / 2, 0.02, "", ha="center", va="bottom",
                                        fontsize=LETRA, linespacing=1.25)
        fig.text(0.016, abajo + alto / 2, "posición pos", rotation=90, ha="left", va="center",
                 fontsize=LETRA)

        # Curvas de la pareja elegida; la leyenda va fuera de los ejes: nunca tapa una curva.
        (self.seno,) = ax_curvas.plot([], [], color=COLOR_SENO, linewidth=1.6, label="seno",
                                      zorder=ENCIMA)
        (self.coseno,) = ax_curvas.plot([], [], color=COLOR_COSENO, linewidth=1.6, label="coseno",
                                        zorder=ENCIMA)
        (self.seno_pos,) = ax_curvas.plot([], [], "o", color=COLOR_SENO, markersize=3.5, zorder=ENCIMA)
        (self.coseno_pos,) = ax_curvas.plot([], [], "o", color=COLOR_COSENO, markersize=3.5,
                                            zorder=ENCIMA)
        ax_curvas.set_ylim(-1.15, 1.15)
        ax_curvas.yaxis.set_major_locator(FixedLocator([-1, 0, 1]))
        # el título, donde lo pondría set_title(loc="left", pad=6), pero con sus letras guardadas
        self.titulo_curvas = _TextoGuardado(0.0, 1.0, "", fontsize=LETRA, ha="left", va="baseline",
                                            transform=ax_curvas.transAxes + ScaledTranslation(0, 6 / 72, fig.dpi_scale_trans))
        ax_curvas.add_artist(self.titulo_curvas).set_clip_on(False)     # fuera de los ejes, como un título
        c_izq, c_abajo, c_ancho, c_alto = _POS_CURVAS
        # alineado por la izquierda con las curvas: un rótulo largo («las 38 primeras de 64…») crece hacia la
        # derecha y no pisa el de la barra de color (una alumna: «valor de PE» quedaba encima de «posición»)
        self.rotulo_curvas = fig.add_artist(_TextoGuardado(c_izq, c_abajo - 0.085, "", ha="left", va="bottom",
                                                           fontsize=LETRA, transform=fig.transSubfigure))
        fig.legend(handles=[self.seno, self.coseno], loc="upper left",
                   bbox_to_anchor=(c_izq + c_ancho + 0.012, c_abajo + c_alto),
                   borderaxespad=0.0, fontsize=LETRA_PEQUENA)
        ax_curvas.grid(alpha=0.3)

        # Escalera de longitudes de onda: λ de 1 a 300 000 siempre (los peldaños suben de 2π
        # hasta casi 2π·10000 con cualquier d_model); el eje «pareja i», el de este d_model.
        ax_escalera.set_yscale("log")
        ax_escalera.set_ylim(0.7, 3e5)
        ax_escalera.yaxis.set_major_locator(LogLocator(base=10, numticks=10))
        ax_escalera.yaxis.set_minor_formatter(NullFormatter())
        (self.peldanos,) = ax_escalera.plot([0], [1.0], "o-", color="0.35", markersize=3.5,
                                            linewidth=1.2, label=r"$\lambda_i$ de cada pareja",
                                            zorder=ENCIMA)
        (self.elegido,) = ax_escalera.plot([0], [1.0], "o", color="black", markersize=10,
                                           markerfacecolor="none", markeredgewidth=2,
                                           label="pareja elegida", zorder=ENCIMA)
        limite = ax_escalera.axhline(2 * np.pi * BASE, color="purple", linestyle="--", linewidth=1.2,
                                     label=r"$2\pi\cdot 10000$")
        self.linea_T = ax_escalera.axhline(1.0, color="green", linestyle=":", linewidth=1.6,
                                           label="T (longitud)", zorder=ENCIMA)
        # el rótulo «pareja i», en un sitio fijo de la figura: va en el fondo, no con las marcas
        e_izq, e_abajo, e_ancho, _ = _POS_ESCALERA
        fig.text(e_izq + e_ancho / 2, 0.03, "pareja i", ha="center", va="bottom", fontsize=LETRA)
        ax_escalera.set_ylabel(r"$\lambda_i$ (posiciones)", fontsize=LETRA)
        ax_escalera.set_title("Escalera de longitudes de onda", fontsize=LETRA, y=1.0, pad=6)
        ax_escalera.legend(handles=[self.peldanos, self.elegido, limite, self.linea_T],
                           loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                           fontsize=LETRA_PEQUENA)
        ax_escalera.grid(alpha=0.3, axis="y")      # sólo las horizontales: las de λ no dependen de d_model

        # Sin rótulos de eje propios (van en textos de la figura): que matplotlib no calcule
        # cada vez dónde ponerlos (set_label_coords fija su sitio).
        for ax in (ax_mapa, ax_curvas):
            ax.xaxis.set_label_coords(0.5, -0.1)
            ax.yaxis.set_label_coords(-0.1, 0.5)

        # Los números de las marcas que cambian con T, d_model y la pareja: desde textos ya pintados.
        self.numeros = {nombre: ax.add_artist(_NumerosDeMarcas(ax, eje)) for nombre, ax, eje in (
            ("mapa_x", ax_mapa, "x"), ("mapa_y", ax_mapa, "y"), ("curvas_x", ax_curvas, "x"),
            ("curvas_y", ax_curvas, "y"), ("escalera_x", ax_escalera, "x"))}

        # Lo que se pinta cada vez, encima de los trozos guardados (en el orden de un dibujo completo).
        self.capa_estado = [(ax_mapa, a) for a in (*self.recuadros, *self.flechas)] + [
            (ax_curvas, a) for a in (self.seno, self.coseno, self.seno_pos, self.coseno_pos,
                                     self.titulo_curvas)] + [
            (ax_escalera, a) for a in (self.peldanos, self.elegido, self.linea_T)] + [
            (fig, self.rotulo_curvas)]
        # Trozos guardados: nombre -> (recuadro del lienzo, clave según el estado, artistas, tope).
        W, H = fig.bbox.width, fig.bbox.height
        x, y_rotulo, y_titulo, y_curvas = _CORTE_X * W, _CORTE_ROTULO * H, _CORTE_TITULO * H, _CORTE_Y * H
        self._trozos = {
            "titulo": (Bbox.from_extents(0, y_titulo, x, H), lambda e: e[3], [self.titulo_mapa], 2),
            "rotulo": (Bbox.from_extents(0, 0, x, y_rotulo), lambda e: (e[3], e[1] == 2),   # d_model = 2: otro
                       [self.rotulo_columnas], 4),
            "mapa": (Bbox.from_extents(0, y_rotulo, x, y_titulo), lambda e: (e[0], e[1], e[3]),
                     [ax_mapa], self.MAX_MAPAS),
            "curvas": (Bbox.from_extents(x, y_curvas, W, H), lambda e: self._puesto_curvas,
                       [ax_curvas], self.MAX_CURVAS),
            # del eje «pareja i», sólo lo que cambia con d_model: sus marcas, sus números, su rótulo
            # y el borde de abajo (lo demás de la escalera, igual con cualquier d_model, va en el fondo)
            "escalera": (Bbox.from_extents(x, 0, W, ax_escalera.bbox.y0 + 3), lambda e: e[1],
                         [ax_escalera.xaxis, ax_escalera.spines["bottom"], self.numeros["escalera_x"]],
                         self.MAX_ESCALERAS),
        }
        self._guardados = {nombre: {} for nombre in self._trozos}
        self._fondo = None
        self._pngs = {}    # (T, d_model, pareja, disposición) -> bytes PNG
        self._puesto_mapa = self._puesto_curvas = self._puesto_escalera = None
        self.estado = None
        self.poner(T, d_model, pareja, disposicion)

    @property
    def ancho_px(self) -> int:
        return int(round(self.fig.bbox.width))

    # --- datos de los artistas -------------------------------------------------

    def poner(self, T: int, d_model: int, pareja: int, disposicion: str) -> None:
        """Cambia los artistas para (T, d_model, pareja, disposición); sólo lo que cambie."""
        T, d_model, pareja = _T_del_explorable(T), _d_model_del_explorable(d_model), int(pareja)
        columnas = columnas_de_pareja(pareja, d_model, disposicion)  # también valida
        if self._puesto_mapa != (T, d_model, disposicion):
            self._poner_mapa(T, d_model, disposicion)
        if self._puesto_escalera != d_model:
            self._poner_escalera(d_model)
        n = posiciones_en_curvas(T, _longitudes_exactas(d_model)[pareja])
        if self._puesto_curvas != n:
            self._poner_marco_curvas(n)
        if self.estado != (T, d_model, pareja, disposicion):
            self._poner_estado(T, d_model, pareja, disposicion, columnas)
        self.estado = (T, d_model, pareja, disposicion)

    def _poner_mapa(self, T: int, d_model: int, disposicion: str) -> None:
        mapa = matriz_para_mapa(T, d_model, disposicion)
        ax = self.ax_mapa
        self.imagen.set_data(imagen_del_mapa(mapa["matriz"], *MAPA_PX))
        ax.set_xlim(-0.5, d_model - 0.5)
        ax.set_ylim(T - 0.5, -0.5)
        ax.xaxis.set_major_locator(FixedLocator(marcas_enteras(d_model, 8)))
        ax.yaxis.set_major_locator(FixedLocator(marcas_enteras(T, 8)))
        self.titulo_mapa.set_text(titulo_mapa(disposicion))
        self.rotulo_columnas.set_text(etiqueta_columnas(disposicion, d_model))
        self.division.set_xdata([d_model / 2 - 0.5] * 2)
        self.division.set_visible(disposicion == "concatenada")
        self._puesto_mapa = (T, d_model, disposicion)

    def _poner_escalera(self, d_model: int) -> None:
        """El eje «pareja i» de la escalera para las parejas de ``d_model``."""
        parejas = d_model // 2
        self.ax_escalera.set_xlim(*limites_escalera(parejas, self.ax_escalera.bbox.width, MARGEN_ESCALERA_PX))
        self.ax_escalera.xaxis.set_major_locator(FixedLocator(marcas_enteras(parejas, 9)))
        self._puesto_escalera = d_model

    def _poner_marco_curvas(self, n: int) -> None:
        """El eje de las curvas para las posiciones 0 … n − 1 (``posiciones_en_curvas``)."""
        if n == 1:
            self.ax_curvas.set_xlim(-0.5, 0.5)   # una sola posición: el eje no inventa otras
        else:
            self.ax_curvas.set_xlim(0, n - 1)
        self.ax_curvas.xaxis.set_major_locator(FixedLocator(marcas_enteras(n, 8)))
        self._puesto_curvas = n

    def _poner_estado(self, T: int, d_model: int, pareja: int, disposicion: str,
                      columnas: tuple[int, int]) -> None:
        for recuadro, flecha, columna in zip(self.recuadros, self.flechas, columnas):
            recuadro.set_bounds(columna - 0.5, -0.5, 1.0, T)
            flecha.set_xdata([columna])
        n = self._puesto_curvas
        curvas = curvas_de_pareja(n, d_model, pareja)
        self.seno.set_data(curvas["x"], curvas["seno"])
        self.coseno.set_data(curvas["x"], curvas["coseno"])
        self.seno_pos.set_data(curvas["pos"], curvas["seno_pos"])
        self.coseno_pos.set_data(curvas["pos"], curvas["coseno_pos"])
        puntos = puntos_en_curvas(n, self.ax_curvas.bbox.width)
        self.seno_pos.set_visible(puntos)
        self.coseno_pos.set_visible(puntos)
        self.titulo_curvas.set_text(titulo_curvas(pareja, d_model, disposicion))
        self.rotulo_curvas.set_text(rotulo_curvas(n, T))
        # con unas tres cifras, como las demás longitudes públicas: los datos de una figura también se leen
        longitudes = longitudes_de_onda(d_model).astype(np.float64)
        self.peldanos.set_data(np.arange(d_model // 2), longitudes)
        self.elegido.set_data([pareja], [longitudes[pareja]])
        self.linea_T.set_ydata([T, T])

    # --- pintar por trozos -------------------------------------------------------

    def _trozo(self, nombre: str):
        bbox, clave_de, artistas, tope = self._trozos[nombre]
        guardados = self._guardados[nombre]
        clave = clave_de(self.estado)
        trozo = guardados.get(clave)
        if trozo is None:
            lienzo = self.fig.canvas
            lienzo.restore_region(self._fondo)
            encima = [a for eje, a in self.capa_estado if eje in artistas]
            with _escondidos(encima):
                renderer = lienzo.get_renderer()
                for artista in artistas:
                    artista.draw(renderer)
            trozo = _guardar(guardados, clave, lienzo.copy_from_bbox(bbox), tope)
        return trozo

    def png(self) -> bytes:
        """El PNG del estado puesto; pinta sólo los trozos que no estén guardados."""
        if self.estado in self._pngs:
            return self._pngs[self.estado]
        lienzo = self.fig.canvas
        if self._fondo is None:
            variables = [a for _, _, artistas, _ in self._trozos.values() for a in artistas]
            with _escondidos(variables + [a for _, a in self.capa_estado]):
                lienzo.draw()
            self._fondo = lienzo.copy_from_bbox(self.fig.bbox)
        trozos = [self._trozo(nombre) for nombre in self._trozos]
        lienzo.restore_region(self._fondo)
        for trozo in trozos:
            lienzo.restore_region(trozo)
        for ax, artista in self.capa_estado:
            ax.draw_artist(artista)
        return _guardar(self._pngs, self.estado, _png_del_lienzo(lienzo), self.MAX_PNGS)


def dibujar(T: int, d_model: int, pareja: int, disposicion: str) -> Figure:
    """Figura con tres paneles: mapa de calor, curvas de la pareja y escalera.

    Sección «El explorable». No usa pyplot (no hay estado global): la figura
    se crea, se devuelve y quien la recibe la convierte en PNG con ``figura_a_png``.

    Parámetros:
        T: posiciones (int, 1 … 200); d_model: anchura (par, 2 … 128); pareja: i (int,
        0 … d_model/2 − 1); disposicion: "intercalada" o "concatenada": los valores de los controles.

    Lanza:
        ValueError con un valor que los controles no ofrecen.

    Devuelve:
        ``matplotlib.figure.Figure`` de 10 × 5.6 pulgadas a 100 ppp (1000 × 560 píxeles).
    """
    return _FiguraEscalera(T, d_model, pareja, disposicion).fig


@contextlib.contextmanager
def _escondidos(artistas: list):
    """Esconde ``artistas`` mientras dura el bloque ``with``; después, cada uno como estaba."""
    visibles = [artista.get_visible() for artista in artistas]
    for artista in artistas:
        artista.set_visible(False)
    try:
        yield
    finally:
        for artista, visible in zip(artistas, visibles):
            artista.set_visible(visible)


def _guardar(cache: dict, clave, valor, maximo: int):
    """Guarda ``valor`` en ``cache`` olvidando lo más antiguo si pasa de ``maximo``."""
    cache[clave] = valor
    while len(cache) > maximo:
        del cache[next(iter(cache))]
    return valor


def _png_del_lienzo(lienzo) -> bytes:
    """Codifica en PNG lo que ya está pintado en el lienzo (RGB, compresión rápida)."""
    ancho, alto = lienzo.get_width_height()
    rgba = Image.frombuffer("RGBA", (ancho, alto), lienzo.buffer_rgba(), "raw", "RGBA", 0, 1)
    buffer = io.BytesIO()
    rgba.convert("RGB").save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


def figura_a_png(fig: Figure) -> bytes:
    """Los bytes PNG de una figura de matplotlib (sin pyplot ni pantalla).

    Devuelve:
        bytes que empiezan por la firma PNG ``b"\\x89PNG"``.
    """
    lienzo = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    lienzo.draw()
    return _png_del_lienzo(lienzo)


# ---------------------------------------------------------------------------
# 3. Conexión con ipywidgets
# ---------------------------------------------------------------------------

from respaldo_explorable import METADATOS_RESPALDO, html_respaldo, mas_tarde as _mas_tarde  # noqa: F401


class ExplorableEscalera(widgets.VBox):
    """La caja del explorable; sus controles y salidas son atributos.

    Atributos: ``control_d_model``, ``control_T``, ``control_pareja`` (deslizadores;
    el de la pareja se cambia por uno nuevo cuando d_model cambia su máximo),
    ``texto_d_model``, ``texto_T``, ``texto_pareja`` (casillas para teclear),
    ``control_disposicion`` (botones); ``imagen``, ``etiqueta_longitud``,
    ``nota_disposicion``, ``aviso`` (salidas); ``en_uso`` (dict: d_model, T y pareja
    en uso) y ``estado`` (dict con lo último dibujado).

    Al mostrarse en un cuaderno deja dos salidas: el widget y, debajo, una
    salida fija (``html_respaldo``) que se actualiza con cada cambio y sólo se
    ve cuando el widget ya no está vivo.
    """

    _respaldo = None
    _respaldo_pendiente = False

    def datos_respaldo(self) -> dict:
        """El mimebundle de la salida fija: HTML con aviso e imagen, y texto plano."""
        e = self.estado
        estado = (f"d_model = {e['d_model']}, T = {e['T']}, pareja i = {e['pareja']}, "
                  f"disposición {e['disposicion']}")
        return {"text/html": html_respaldo(self.imagen.value, "escalera de longitudes de onda", estado),
                "text/plain": f"Explorable «escalera de longitudes de onda» ({estado})"}

    def _ipython_display_(self, **kwargs):
        from IPython.display import display
        display(self._repr_mimebundle_(**kwargs), raw=True)
        self._respaldo = display(self.datos_respaldo(), raw=True, metadata=METADATOS_RESPALDO,
                                 display_id=True)

    def actualizar_respaldo(self) -> None:
        """Pone en la salida fija la imagen y el estado de ahora (si la caja se ha mostrado).

        En un núcleo, medio segundo después y una sola vez por ráfaga de cambios: así la
        salida fija (otra copia de la imagen) no viaja al navegador en cada pulsación.
        """
        if self._respaldo is None or self._respaldo_pendiente:
            return
        self._respaldo_pendiente = True
        _mas_tarde(self._enviar_respaldo, 0.5)

    def _enviar_respaldo(self) -> None:
        self._respaldo_pendiente = False
        if self._respaldo is not None:
            self._respaldo.update(self.datos_respaldo(), raw=True, metadata=METADATOS_RESPALDO)


_RASGOS_CONTROL = {"d_model": ("d_model (par)", "d-model"), "T": ("T (posiciones)", "t"),
                   "pareja": ("pareja i", "pareja")}


def _maximo_del_deslizador(nombre: str, d_model: int) -> int:
    """El máximo del deslizador: el de ``limites``, salvo con un solo valor posible, uno más.

    noUiSlider dibuja el asa de un deslizador con mínimo igual al máximo en el extremo derecho (la pareja 0 con
    d_model = 2 parecía la última de muchas); con un máximo de uno más y el deslizador quieto
    (``disabled``), el asa queda a la izquierda, donde está el único valor.
    """
    minimo, maximo, paso = limites(nombre, d_model)
    return maximo if maximo > minimo else minimo + paso


def _deslizador(nombre: str, valor: int, d_model: int) -> widgets.IntSlider:
    """El deslizador de un control, con los límites de ``limites`` para ese d_model.

    Sin número propio (la casilla de al lado lo enseña) y con ``continuous_update``:
    mientras se arrastra, el valor llega al núcleo y la casilla y la figura lo siguen.
    """
    descripcion, clase = _RASGOS_CONTROL[nombre]
    minimo, maximo, paso = limites(nombre, d_model)
    deslizador = widgets.IntSlider(
        value=valor, min=minimo, max=_maximo_del_deslizador(nombre, d_model), step=paso, description=descripcion,
        readout=False, continuous_update=True, style={"description_width": "130px"},
        layout=widgets.Layout(width="400px"),
        # con un solo valor posible (la pareja 0 con d_model = 2), quieto y con el asa a la izquierda
        disabled=minimo == maximo)
    deslizador.add_class(f"explorable-escalera-{clase}")
    return deslizador


def _casilla(nombre: str, valor: int) -> widgets.Text:
    """La casilla donde se teclea el valor de un control: texto, que ``aplicar_cambio`` lee.

    Una casilla de texto y no de número (``IntText`` es un ``<input type="number">``):
    con el foco en ella, la rueda del ratón cambiaría el número sin que la figura lo
    siguiera hasta perder el foco; en una de texto la rueda desplaza la página. El
    valor llega al núcleo con Enter o al salir de la casilla (``continuous_update=False``).
    """
    descripcion, clase = _RASGOS_CONTROL[nombre]
    casilla = widgets.Text(value=str(valor), continuous_update=False, layout=widgets.Layout(width="72px"),
                           tooltip=f"Escribe {descripcion} y pulsa Enter")
    casilla.add_class(f"explorable-escalera-{clase}-texto")
    return casilla


def crear_explorable(d_model: int = 32, T: int = 64, pareja: int = 0,
                     disposicion: str = "intercalada"):
    """Crea el explorable y lo devuelve listo para mostrar (la última línea de una celda).

    Sección «El explorable». Controles: d_model (pares de 2 a 128), T (1 a 200)
    y la pareja elegida, cada uno con deslizador y casilla para teclear, y la
    disposición. Cada cambio vuelve a dibujar la figura y actualiza el texto
    de la longitud de onda y la nota de la disposición. La lógica de los
    controles es ``aplicar_cambio``: un valor tecleado que no vale se rechaza
    con un aviso en español y la casilla vuelve al valor en uso; el aviso se
    va con el siguiente cambio.

    Devuelve:
        Un ``ipywidgets.VBox`` (subclase ``ExplorableEscalera``) con clases CSS
        ``explorable-escalera``, ``explorable-vivo``, ``explorable-escalera-controles``,
        ``explorable-escalera-imagen``, ``explorable-escalera-longitud``,
        ``explorable-escalera-nota`` y ``explorable-escalera-aviso``.

    Lanza:
        ValueError si los valores iniciales no son de los que ofrece el explorable.
    """
    d_model = _comprobar_d_model(d_model)
    en_uso = {"d_model": d_model, "T": int(T), "pareja": int(pareja)}
    for nombre in CONTROLES:
        minimo, maximo, _ = limites(nombre, d_model)
        if not minimo <= en_uso[nombre] <= maximo:
            raise ValueError(f"{nombre} tiene que estar entre {minimo} y {maximo}; "
                             f"ha llegado {en_uso[nombre]}.")
    if disposicion not in DISPOSICIONES:
        raise ValueError(f"disposición desconocida {disposicion!r}; usa una de {DISPOSICIONES}.")

    deslizadores = {nombre: _deslizador(nombre, en_uso[nombre], d_model) for nombre in CONTROLES}
    casillas = {nombre: _casilla(nombre, en_uso[nombre]) for nombre in CONTROLES}
    filas = {nombre: widgets.HBox([deslizadores[nombre], casillas[nombre]],
                                  layout=widgets.Layout(align_items="center"))
             for nombre in CONTROLES}
    control_disposicion = widgets.ToggleButtons(
        options=[("intercalada (artículo)", "intercalada"),
                 ("[sin | cos] concatenada", "concatenada")],
        value=disposicion, description="disposición",
        style={"description_width": "130px", "button_width": "190px"},
        layout=widgets.Layout(width="auto"))
    control_disposicion.add_class("explorable-escalera-disposicion")
    # Las reglas de ipywidgets para una fila con etiqueta (las de los deslizadores): la
    # etiqueta alineada con las de arriba y los botones a su derecha, no debajo.
    control_disposicion.add_class("widget-inline-hbox")
    figura = _FiguraEscalera(T, d_model, pareja, disposicion)
    # La imagen se enseña a su tamaño en píxeles: estirada se vería borrosa. En un cuaderno estrecho
    # (una ventana de 900 px con la barra lateral abierta) se encoge, pero no por debajo de
    # ESCALA_MINIMA: a la mitad, sus rótulos medirían unos 6 px. Lo que no cabe se ve desplazando
    # la imagen de lado (su marco tiene barra horizontal).
    imagen = widgets.Image(format="png", layout=widgets.Layout(
        width=f"{figura.ancho_px}px", max_width="100%",
        min_width=f"{round(figura.ancho_px * ESCALA_MINIMA)}px", height="auto"))
    marco_imagen = widgets.Box([imagen], layout=widgets.Layout(overflow="auto hidden", max_width="100%"))
    marco_imagen.add_class("explorable-escalera-marco-imagen")
    etiqueta_longitud = widgets.HTML()
    nota_disposicion = widgets.HTML(layout=widgets.Layout(max_width="900px"))
    aviso = widgets.HTML()
    imagen.add_class("explorable-escalera-imagen")
    etiqueta_longitud.add_class("explorable-escalera-longitud")
    nota_disposicion.add_class("explorable-escalera-nota")
    aviso.add_class("explorable-escalera-aviso")

    controles = widgets.VBox([filas["d_model"], filas["T"], filas["pareja"], control_disposicion,
                              aviso])
    controles.add_class("explorable-escalera-controles")

    caja = ExplorableEscalera(children=[controles, etiqueta_longitud, marco_imagen, nota_disposicion])
    caja.add_class("explorable-escalera")
    caja.add_class("explorable-vivo")
    caja.texto_d_model, caja.texto_T, caja.texto_pareja = (casillas[n] for n in CONTROLES)
    caja.control_disposicion = control_disposicion
    caja.imagen = imagen
    caja.etiqueta_longitud = etiqueta_longitud
    caja.nota_disposicion = nota_disposicion
    caja.aviso = aviso
    caja.en_uso = dict(en_uso)
    caja.estado = {}
    en_curso = {"si": False}   # mientras el propio explorable pone sus controles
    notas = {}  # (T, d_model, disposición) -> nota ya calculada

    def nombrar_deslizadores() -> None:
        caja.control_d_model, caja.control_T, caja.control_pareja = (deslizadores[n] for n in CONTROLES)

    def redibujar() -> None:
        d, t, i = caja.en_uso["d_model"], caja.en_uso["T"], caja.en_uso["pareja"]
        disp = control_disposicion.value
        figura.poner(t, d, i, disp)  # sólo cambia lo que depende de lo que ha cambiado
        imagen.value = figura.png()
        etiqueta_longitud.value = texto_longitud(i, d, disp)
        if (t, d, disp) not in notas:
            _guardar(notas, (t, d, disp), texto_disposicion(t, d, disp), _FiguraEscalera.MAX_MAPAS)
        nota_disposicion.value = notas[(t, d, disp)]
        caja.estado = {
            "d_model": d, "T": t, "pareja": i, "disposicion": disp,
            "columnas": columnas_de_pareja(i, d, disp),
            "longitud": float(longitudes_de_onda(d)[i]),    # con unas tres cifras, como las funciones públicas
        }
        caja.actualizar_respaldo()

    def poner_controles(resultado: dict) -> None:
        """Copia en los widgets lo que dice ``aplicar_cambio`` (sin volver a entrar aquí)."""
        en_curso["si"] = True
        try:
            d = resultado["en_uso"]["d_model"]
            for nombre in CONTROLES:
                valor = resultado["en_uso"][nombre]
                minimo, maximo, _ = limites(nombre, d)
                if (deslizadores[nombre].max, deslizadores[nombre].disabled) != (
                        _maximo_del_deslizador(nombre, d), minimo == maximo):
                    # Un deslizador nuevo, no otro máximo: noUiSlider (ipywidgets 8) lleva Inicio y
                    # Fin a los límites con que se creó, aunque luego cambien (con d_model = 128, Fin
                    # en «pareja i» iba a la 15).
                    viejo = deslizadores[nombre]
                    deslizadores[nombre] = _deslizador(nombre, valor, d)
                    deslizadores[nombre].observe(respuesta(nombre, tecleado=False), names="value")
                    filas[nombre].children = (deslizadores[nombre], casillas[nombre])
                    viejo.close()
                else:
                    deslizadores[nombre].value = valor
                casillas[nombre].value = str(resultado["casillas"][nombre])
            aviso.value = ("" if resultado["aviso"] is None else
                           f'<span style="color:#b35c00">⚠ {html.escape(resultado["aviso"])}</span>')
        finally:
            en_curso["si"] = False
        nombrar_deslizadores()

    def respuesta(nombre: str, tecleado: bool):
        def al_cambiar(cambio) -> None:
            if en_curso["si"]:
                return
            antes = caja.en_uso
            resultado = aplicar_cambio(antes, nombre, cambio["new"], tecleado=tecleado)
            caja.en_uso = resultado["en_uso"]
            poner_controles(resultado)
            if caja.en_uso != antes:
                redibujar()
        return al_cambiar

    def al_pulsar_intro(_casilla, contenido, _buffers) -> None:
        """Enter en una casilla: el valor tecleado es válido o llega después y dice que no.

        El navegador manda «submit» (keypress) antes que el valor nuevo (change), y si lo
        tecleado es el valor en uso no manda nada más: sin esto, volver a escribir el valor en
        uso dejaba el aviso viejo, de esa casilla o de otra. Aquí el aviso se va; un valor que
        no vale llega justo después y pone el suyo.
        """
        if isinstance(contenido, dict) and contenido.get("event") == "submit" and not en_curso["si"]:
            aviso.value = ""

    def al_cambiar_disposicion(_cambio) -> None:
        poner_controles({"en_uso": caja.en_uso, "casillas": caja.en_uso, "aviso": None})
        redibujar()

    for nombre in CONTROLES:
        deslizadores[nombre].observe(respuesta(nombre, tecleado=False), names="value")
        casillas[nombre].observe(respuesta(nombre, tecleado=True), names="value")
        casillas[nombre].on_msg(al_pulsar_intro)
    control_disposicion.observe(al_cambiar_disposicion, names="value")
    nombrar_deslizadores()
    redibujar()
    return caja
