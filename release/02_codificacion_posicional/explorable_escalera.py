"""Explorable de la lección 2: la escalera de longitudes de onda.

Muestra la codificación posicional sinusoidal como un mapa de calor
(posiciones × coordenadas), la pareja de columnas que elijas con su seno y su
coseno frente a la posición, y la escalera de longitudes de onda de todas las
parejas en escala logarítmica.

El módulo tiene tres capas, cada una encima de la anterior:

1. Funciones puras (arrays de entrada, arrays o números de salida), sin
   matplotlib ni widgets: ``frecuencias``, ``longitudes_de_onda``,
   ``longitud_maxima``, ``columnas_de_pareja``, ``matriz_para_mapa``,
   ``curvas_de_pareja``, ``comparar_disposiciones`` y los textos.
2. Dibujo: ``dibujar`` recibe el estado y devuelve una figura de matplotlib;
   ``figura_a_png`` la convierte en bytes PNG.
3. Conexión con ipywidgets: ``crear_explorable`` devuelve la caja con los
   controles, la imagen y los textos. Las funciones de respuesta sólo tocan los widgets de
   su propia caja.

Nota para quien lo lea buscando atajos: aquí no hay nada que resuelva el
ejercicio ``positional_encoding``. Todos los senos y cosenos que salen de este
módulo (la matriz del mapa, las curvas de una pareja) van en ``float16``, con
unas tres cifras: para pintar basta, y el ejercicio pide 1e-6.
"""
from __future__ import annotations

import base64
import io

import ipywidgets as widgets
import matplotlib

matplotlib.use("Agg")  # se dibuja siempre a PNG; no hace falta ventana
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

BASE = 10000.0
"""La base del artículo: la pareja i gira a 1 / BASE^(2i/d_model) radianes por posición."""

DISPOSICIONES = ("intercalada", "concatenada")
"""«intercalada»: la del artículo (seno en 2i, coseno en 2i+1).
«concatenada»: [senos | cosenos], la que usan algunas bibliotecas."""

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


def frecuencias(d_model: int) -> np.ndarray:
    """Frecuencias angulares ω_i = 10000^(−2i/d_model), i = 0 … d_model/2 − 1.

    Sección «La fórmula, leída por sus índices». Es lo que gira la pareja i
    (columnas 2i y 2i+1 en la disposición del artículo) al avanzar una posición.

    Parámetros:
        d_model: anchura del modelo, par y ≥ 2.

    Devuelve:
        Array float64 de forma (d_model/2,), en radianes por posición,
        decreciente: ω_0 = 1.
    """
    d_model = _comprobar_d_model(d_model)
    i = np.arange(d_model // 2, dtype=np.float64)  # (d_model/2,)
    return BASE ** (-2.0 * i / d_model)


def longitudes_de_onda(d_model: int) -> np.ndarray:
    """Longitud de onda λ_i = 2π / ω_i de cada pareja.

    Sección «La fórmula, leída por sus índices». Cuántas posiciones tarda la
    pareja i en dar una vuelta completa. Forman una progresión geométrica de
    razón 10000^(2/d_model); con d_model = 32: 6.3, 11.2, 19.9, … 35 332.9.

    Devuelve:
        Array float64 de forma (d_model/2,), en posiciones, creciente.
    """
    return 2.0 * np.pi / frecuencias(d_model)


def longitud_maxima(d_model: int) -> float:
    """La longitud de onda de la última pareja: 2π·10000^((d_model − 2)/d_model).

    Sección «La fórmula, leída por sus índices». Siempre menor que 2π·10000,
    que es sólo el límite cuando d_model crece (≈ 60 611 posiciones con
    d_model = 512 frente a ≈ 62 832).

    Devuelve:
        float, en posiciones.
    """
    d_model = _comprobar_d_model(d_model)
    return float(2.0 * np.pi * BASE ** ((d_model - 2) / d_model))


def columnas_de_pareja(pareja: int, d_model: int, disposicion: str) -> tuple[int, int]:
    """Las dos columnas de la matriz que ocupa la pareja ``pareja``.

    Sección «El explorable». En la disposición intercalada del artículo son
    (2i, 2i+1); en la concatenada [senos | cosenos] son (i, d_model/2 + i).

    Devuelve:
        (columna del seno, columna del coseno), dos int.
    """
    d_model = _comprobar_d_model(d_model)
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
    angulos = np.asarray(posiciones, dtype=np.float64)[:, None] * frecuencias(d_model)[None, :]
    return np.sin(angulos).astype(np.float16), np.cos(angulos).astype(np.float16)  # (n, d_model/2)


def matriz_para_mapa(T: int, d_model: int, disposicion: str) -> dict:
    """Lo que necesita el mapa de calor: la matriz de codificación y cómo leerla.

    Sección «El explorable». La disposición es obligatoria porque el mapa
    enseña las dos; la matriz sale en float16 (unas tres cifras) porque para
    pintarla basta, y por eso mismo no sirve como respuesta del ejercicio
    ``positional_encoding`` (que pide float64 con tolerancia 1e-6).

    Parámetros:
        T: número de posiciones (filas), ≥ 1.
        d_model: anchura, par y ≥ 2.
        disposicion: "intercalada" (artículo) o "concatenada" ([sin | cos]).

    Devuelve:
        dict con
          - "matriz": float16 de forma (T, d_model), valores en [−1, 1];
          - "es_seno": bool de forma (d_model,), qué columnas llevan senos;
          - "pareja_de_columna": int de forma (d_model,), la pareja de cada columna;
          - "disposicion": la disposición recibida.
    """
    d_model = _comprobar_d_model(d_model)
    if disposicion not in DISPOSICIONES:
        raise ValueError(f"disposición desconocida {disposicion!r}; usa una de {DISPOSICIONES}.")
    if int(T) < 1:
        raise ValueError(f"T tiene que ser al menos 1; ha llegado {T}.")
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


def curvas_de_pareja(T: int, d_model: int, pareja: int, muestras_por_posicion: int = 8) -> dict:
    """Seno y coseno de una pareja frente a la posición, para el panel de curvas.

    Sección «El explorable». Devuelve la curva continua (muestreada entre
    posiciones enteras) y los valores en las posiciones enteras 0 … T−1, que
    son los que de verdad aparecen en la matriz. Los valores van en float16
    (unas tres cifras): bastan para dibujar y no sirven como respuesta del
    ejercicio ``positional_encoding``.

    Devuelve:
        dict con
          - "x": float64 de forma (n,), las posiciones de la curva continua;
          - "seno", "coseno": float16 de forma (n,), la curva continua;
          - "pos": float64 de forma (T,); "seno_pos", "coseno_pos": float16 de forma (T,);
          - "longitud": float, la longitud de onda de la pareja en posiciones.
    """
    d_model = _comprobar_d_model(d_model)
    _ = columnas_de_pareja(pareja, d_model, "intercalada")  # valida la pareja
    omega = frecuencias(d_model)[pareja]
    ultimo = max(int(T) - 1, 1)
    x = np.linspace(0.0, ultimo, ultimo * muestras_por_posicion + 1)  # (n,)
    pos = np.arange(int(T), dtype=np.float64)  # (T,)
    return {
        "x": x,
        "seno": np.sin(omega * x).astype(np.float16),
        "coseno": np.cos(omega * x).astype(np.float16),
        "pos": pos,
        "seno_pos": np.sin(omega * pos).astype(np.float16),
        "coseno_pos": np.cos(omega * pos).astype(np.float16),
        "longitud": float(2.0 * np.pi / omega),
    }


def comparar_disposiciones(T: int, d_model: int) -> dict:
    """Cuánto se parecen las dos disposiciones: productos escalares frente a vectores.

    Sección «El explorable» (nota de la disposición). Las dos matrices tienen
    las mismas columnas en otro orden; reordenar columnas no cambia ningún
    producto escalar entre filas, pero sí cada vector.

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


def formatear_posiciones(x: float, decimales: int = 1) -> str:
    """Número con separador de miles (espacio) y punto decimal: 35332.94 → "35 332.9"."""
    return f"{x:,.{decimales}f}".replace(",", " ")


def texto_longitud(pareja: int, d_model: int, disposicion: str) -> str:
    """La línea que acompaña a la pareja elegida: columnas, fórmula y λ.

    Sección «El explorable». Ejemplo (d_model = 32, pareja 2, intercalada):
    "Pareja 2 · columnas 4 (seno) y 5 (coseno) · λ = 2π·10000^(4/32) ≈ 19.9 posiciones".
    """
    col_seno, col_coseno = columnas_de_pareja(pareja, d_model, disposicion)
    lam = longitudes_de_onda(d_model)[pareja]
    return (f"Pareja {pareja} · columnas {col_seno} (seno) y {col_coseno} (coseno) · "
            f"λ = 2π·10000^({2 * pareja}/{d_model}) ≈ {formatear_posiciones(lam)} posiciones")


def texto_disposicion(T: int, d_model: int, disposicion: str) -> str:
    """La nota sobre la disposición elegida, con la comparación calculada (HTML sencillo)."""
    comparacion = comparar_disposiciones(T, d_model)
    if disposicion == "intercalada":
        donde = "la pareja i ocupa las columnas 2i y 2i+1 (así lo escribe el artículo)"
    else:
        donde = f"los senos van en las columnas 0…{d_model // 2 - 1} y los cosenos detrás"
    return (
        f"<b>Disposición {disposicion}</b>: {donde}. "
        "Las dos disposiciones tienen las mismas columnas en otro orden, y un producto "
        "escalar entre dos filas suma los mismos productos aunque los recorra en otro orden: "
        f"P·Pᵀ coincide (diferencia máxima {comparacion['productos']:.1e}). "
        "Los vectores, en cambio, no son los mismos (diferencia máxima "
        f"{comparacion['vectores']:.2f}): una capa entrenada con una disposición "
        "leería mal la otra."
    )


# ---------------------------------------------------------------------------
# 2. Dibujo
# ---------------------------------------------------------------------------

def dibujar(T: int, d_model: int, pareja: int, disposicion: str) -> Figure:
    """Figura con tres paneles: mapa de calor, curvas de la pareja y escalera.

    Sección «El explorable». No usa pyplot (no hay estado global): la figura
    se crea, se devuelve y quien la recibe la convierte en PNG.
    """
    return _FiguraEscalera(T, d_model, pareja, disposicion).fig


class _FiguraEscalera:
    """Una figura de tres paneles que se monta una vez y luego sólo se actualiza.

    Sección «El explorable». ``poner`` cambia los datos de los artistas que ya
    existen (sin volver a montar ejes ni maquetar) y ``png`` pinta por capas:
    el fondo (todo lo que depende de T, d_model y la disposición) se guarda y,
    si sólo cambia la pareja, se repone y se pinta encima sólo lo de la pareja
    (recuadros, curvas con su título y leyenda, el círculo de la escalera y su
    leyenda), que va por encima de todo lo demás de sus ejes. El resultado es
    el mismo PNG que el de un dibujo completo.
    """

    MAX_FONDOS = 24
    MAX_PNGS = 96

    def __init__(self, T: int, d_model: int, pareja: int, disposicion: str):
        fig = Figure(figsize=(11.5, 5.0), dpi=72)
        fig.subplots_adjust(left=0.06, right=0.985, bottom=0.1, top=0.94, wspace=0.22, hspace=0.5)
        rejilla = fig.add_gridspec(2, 2, width_ratios=[1.25, 1.0])
        ax_mapa = fig.add_subplot(rejilla[:, 0])
        ax_curvas = fig.add_subplot(rejilla[0, 1])
        ax_escalera = fig.add_subplot(rejilla[1, 1])
        self.fig, self.ax_mapa, self.ax_curvas, self.ax_escalera = fig, ax_mapa, ax_curvas, ax_escalera
        encima = 2.6  # por encima de los bordes (2.5): se puede pintar sobre un fondo guardado

        # Mapa de calor: filas = posiciones, columnas = coordenadas.
        self.imagen = ax_mapa.imshow(np.zeros((1, 2)), cmap="RdBu_r", vmin=-1.0, vmax=1.0,
                                     aspect="auto", interpolation="nearest")
        fig.colorbar(self.imagen, ax=ax_mapa, shrink=0.85, label="valor de PE")
        self.recuadros = [ax_mapa.add_patch(Rectangle((-0.5, -0.5), 1.0, 1.0, fill=False,
                                                      edgecolor=color, linewidth=2.5, zorder=encima))
                          for color in (COLOR_SENO, COLOR_COSENO)]
        self.division = ax_mapa.axvline(0.5, color="black", linewidth=1.0, linestyle=":")
        self.titulo_mapa = ax_mapa.set_title("", y=1.0)
        ax_mapa.set_xlabel("coordenada (columna de PE)  ·  rápidas a la izquierda, lentas a la derecha")
        ax_mapa.set_ylabel("posición pos")

        # Curvas de la pareja elegida.
        (self.seno,) = ax_curvas.plot([], [], color=COLOR_SENO, label="seno", zorder=encima)
        (self.coseno,) = ax_curvas.plot([], [], color=COLOR_COSENO, label="coseno", zorder=encima)
        (self.seno_pos,) = ax_curvas.plot([], [], "o", color=COLOR_SENO, markersize=3, zorder=encima)
        (self.coseno_pos,) = ax_curvas.plot([], [], "o", color=COLOR_COSENO, markersize=3,
                                            zorder=encima)
        ax_curvas.set_ylim(-1.1, 1.1)
        self.titulo_curvas = ax_curvas.set_title("", y=1.0)
        ax_curvas.set_xlabel("posición pos")
        self.leyenda_curvas = ax_curvas.legend(loc="lower left", fontsize=8)
        ax_curvas.grid(alpha=0.3)

        # Escalera de longitudes de onda (escala logarítmica: una recta).
        ax_escalera.set_yscale("log")
        (self.peldanos,) = ax_escalera.plot([0], [1.0], "o-", color="0.35", markersize=3, label="λ_i")
        (self.elegido,) = ax_escalera.plot([0], [1.0], "o", color="black", markersize=9,
                                           markerfacecolor="none", markeredgewidth=2,
                                           label="pareja elegida", zorder=encima)
        ax_escalera.axhline(2 * np.pi * BASE, color="purple", linestyle="--", linewidth=1,
                            label="2π·10000 ≈ 62 832")
        self.linea_T = ax_escalera.axhline(1.0, color="green", linestyle=":", linewidth=1, label="T")
        ax_escalera.set_xlabel("pareja i")
        ax_escalera.set_ylabel("λ_i (posiciones)")
        ax_escalera.set_title("Escalera de longitudes de onda", y=1.0)
        self.leyenda_escalera = ax_escalera.legend(loc="lower right", fontsize=8)
        ax_escalera.grid(alpha=0.3)

        # Lo que depende sólo de la pareja, en el orden en que lo pinta un dibujo completo.
        self.capa_pareja = [(ax_mapa, r) for r in self.recuadros] + [
            (ax_curvas, a) for a in (self.seno, self.coseno, self.seno_pos, self.coseno_pos,
                                     self.titulo_curvas, self.leyenda_curvas)] + [
            (ax_escalera, self.elegido), (ax_escalera, self.leyenda_escalera)]
        self._fondos = {}  # (T, d_model, disposición) -> región guardada del lienzo
        self._pngs = {}    # (T, d_model, pareja, disposición) -> bytes PNG
        self._fondo_puesto = None
        self.estado = None
        self.poner(T, d_model, pareja, disposicion)

    def poner(self, T: int, d_model: int, pareja: int, disposicion: str) -> None:
        """Cambia los artistas para (T, d_model, pareja, disposición); sólo lo que cambie."""
        T, d_model, pareja = int(T), _comprobar_d_model(d_model), int(pareja)
        columnas = columnas_de_pareja(pareja, d_model, disposicion)  # también valida
        fondo = (T, d_model, disposicion)
        if self._fondo_puesto != fondo:
            self._poner_fondo(T, d_model, disposicion)
            self._fondo_puesto = fondo
        if self.estado != (T, d_model, pareja, disposicion):
            self._poner_pareja(T, d_model, pareja, columnas)
        self.estado = (T, d_model, pareja, disposicion)

    def _poner_fondo(self, T: int, d_model: int, disposicion: str) -> None:
        mapa = matriz_para_mapa(T, d_model, disposicion)
        ax = self.ax_mapa
        self.imagen.set_data(mapa["matriz"])
        self.imagen.set_extent((-0.5, d_model - 0.5, T - 0.5, -0.5))
        ax.set_xlim(-0.5, d_model - 0.5)
        ax.set_ylim(T - 0.5, -0.5)
        for recuadro in self.recuadros:
            recuadro.set_height(T)
        if disposicion == "intercalada":
            self.titulo_mapa.set_text("PE intercalada (artículo): seno en 2i, coseno en 2i+1")
            self.division.set_visible(False)
        else:
            self.titulo_mapa.set_text("PE concatenada [sin | cos]")
            self.division.set_xdata([d_model / 2 - 0.5] * 2)
            self.division.set_visible(True)
        self.ax_curvas.set_xlim(0, max(T - 1, 1))
        parejas, lams = np.arange(d_model // 2), longitudes_de_onda(d_model)
        self.peldanos.set_data(parejas, lams)
        # El círculo siempre cae en un peldaño; se pone en uno para que no cuente lo de antes.
        self.elegido.set_data(parejas[:1], lams[:1])
        self.linea_T.set_ydata([T, T])
        self.linea_T.set_label(f"T = {T}")
        self.leyenda_escalera.get_texts()[3].set_text(f"T = {T}")
        self.ax_escalera.relim()
        self.ax_escalera.autoscale_view()

    def _poner_pareja(self, T: int, d_model: int, pareja: int, columnas: tuple[int, int]) -> None:
        for recuadro, columna in zip(self.recuadros, columnas):
            recuadro.set_x(columna - 0.5)
        curvas = curvas_de_pareja(T, d_model, pareja)
        self.seno.set_data(curvas["x"], curvas["seno"])
        self.coseno.set_data(curvas["x"], curvas["coseno"])
        self.seno_pos.set_data(curvas["pos"], curvas["seno_pos"])
        self.coseno_pos.set_data(curvas["pos"], curvas["coseno_pos"])
        self.titulo_curvas.set_text(
            f"Pareja {pareja}: λ ≈ {formatear_posiciones(curvas['longitud'])} posiciones")
        etiquetas = (f"seno (col. {columnas[0]})", f"coseno (col. {columnas[1]})")
        for linea, texto, etiqueta in zip((self.seno, self.coseno),
                                          self.leyenda_curvas.get_texts(), etiquetas):
            linea.set_label(etiqueta)
            texto.set_text(etiqueta)
        self.elegido.set_data([pareja], [curvas["longitud"]])

    def png(self) -> bytes:
        """El PNG del estado puesto; pinta sólo las capas que no estén guardadas."""
        if self.estado in self._pngs:
            return self._pngs[self.estado]
        lienzo = self.fig.canvas
        if not isinstance(lienzo, FigureCanvasAgg):
            lienzo = FigureCanvasAgg(self.fig)
        clave_fondo = self.estado[:2] + self.estado[3:]
        fondo = self._fondos.get(clave_fondo)
        if fondo is None:
            for _, artista in self.capa_pareja:
                artista.set_visible(False)
            try:
                lienzo.draw()
            finally:
                for _, artista in self.capa_pareja:
                    artista.set_visible(True)
            fondo = _guardar(self._fondos, clave_fondo,
                             lienzo.copy_from_bbox(self.fig.bbox), self.MAX_FONDOS)
        else:
            lienzo.restore_region(fondo)
        for ax, artista in self.capa_pareja:
            ax.draw_artist(artista)
        return _guardar(self._pngs, self.estado, _png_del_lienzo(lienzo), self.MAX_PNGS)


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
    rgba.convert("RGB").save(buffer, format="png", compress_level=3)
    return buffer.getvalue()


def figura_a_png(fig: Figure) -> bytes:
    """Los bytes PNG de una figura de matplotlib (sin pyplot ni pantalla)."""
    lienzo = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    lienzo.draw()
    return _png_del_lienzo(lienzo)


# ---------------------------------------------------------------------------
# 3. Conexión con ipywidgets
# ---------------------------------------------------------------------------

class ExplorableEscalera(widgets.VBox):
    """La caja del explorable; sus controles y salidas son atributos.

    Atributos: ``control_d_model``, ``control_T``, ``control_pareja``,
    ``control_disposicion`` (entradas); ``imagen``, ``etiqueta_longitud``,
    ``nota_disposicion`` (salidas); ``estado`` (dict con lo último dibujado).
    """

    def _repr_mimebundle_(self, **kwargs):
        # Además de la vista del widget, una imagen fija: así una ejecución
        # sin widgets (nbconvert, una vista estática) enseña algo.
        datos = super()._repr_mimebundle_(**kwargs)
        datos["image/png"] = base64.b64encode(self.imagen.value).decode("ascii")
        datos["text/plain"] = "Explorable: la escalera de longitudes de onda"
        return datos


def crear_explorable(d_model: int = 32, T: int = 64, pareja: int = 0,
                     disposicion: str = "intercalada"):
    """Crea el explorable y lo devuelve listo para mostrar (la última línea de una celda).

    Sección «El explorable». Controles: d_model (pares de 2 a 128), T (1 a 200),
    la pareja elegida y la disposición. Cada cambio vuelve a dibujar la figura
    y actualiza el texto de la longitud de onda y la nota de la disposición.

    Devuelve:
        Un ``ipywidgets.VBox`` (subclase ``ExplorableEscalera``) con clases CSS
        ``explorable-escalera``, ``explorable-escalera-controles``,
        ``explorable-escalera-imagen``, ``explorable-escalera-longitud`` y
        ``explorable-escalera-nota``.
    """
    d_model = _comprobar_d_model(d_model)
    estilo = {"description_width": "170px"}
    ancho = widgets.Layout(width="420px")

    control_d_model = widgets.IntSlider(
        value=d_model, min=2, max=128, step=2, description="d_model (par)",
        continuous_update=False, style=estilo, layout=ancho)
    control_T = widgets.IntSlider(
        value=T, min=1, max=200, step=1, description="T (posiciones)",
        continuous_update=False, style=estilo, layout=ancho)
    control_pareja = widgets.IntSlider(
        value=pareja, min=0, max=d_model // 2 - 1, step=1, description="pareja i",
        continuous_update=False, style=estilo, layout=ancho)
    control_disposicion = widgets.ToggleButtons(
        options=[("intercalada (artículo)", "intercalada"),
                 ("[sin | cos] concatenada", "concatenada")],
        value=disposicion, description="disposición", style=estilo)
    figura = _FiguraEscalera(T, d_model, pareja, disposicion)
    # La imagen se enseña a su tamaño en píxeles: estirada se vería borrosa.
    ancho_px = int(round(figura.fig.get_figwidth() * figura.fig.dpi))
    imagen = widgets.Image(format="png", layout=widgets.Layout(
        width=f"{ancho_px}px", max_width="100%", height="auto"))
    etiqueta_longitud = widgets.HTML()
    nota_disposicion = widgets.HTML(layout=widgets.Layout(max_width="900px"))

    for control, sufijo in ((control_d_model, "d-model"), (control_T, "t"),
                            (control_pareja, "pareja"), (control_disposicion, "disposicion")):
        control.add_class(f"explorable-escalera-{sufijo}")
    imagen.add_class("explorable-escalera-imagen")
    etiqueta_longitud.add_class("explorable-escalera-longitud")
    nota_disposicion.add_class("explorable-escalera-nota")

    controles = widgets.VBox([control_d_model, control_T, control_pareja, control_disposicion])
    controles.add_class("explorable-escalera-controles")

    caja = ExplorableEscalera(children=[controles, etiqueta_longitud, imagen, nota_disposicion])
    caja.add_class("explorable-escalera")
    caja.control_d_model = control_d_model
    caja.control_T = control_T
    caja.control_pareja = control_pareja
    caja.control_disposicion = control_disposicion
    caja.imagen = imagen
    caja.etiqueta_longitud = etiqueta_longitud
    caja.nota_disposicion = nota_disposicion
    caja.estado = {}
    caja._sin_redibujar = False
    notas = {}  # (T, d_model, disposición) -> nota ya calculada

    def redibujar(_cambio=None):
        if caja._sin_redibujar:
            return
        d = control_d_model.value
        # El máximo de la pareja sigue a d_model; al moverlo no se redibuja dos veces.
        caja._sin_redibujar = True
        try:
            control_pareja.max = d // 2 - 1
        finally:
            caja._sin_redibujar = False
        t, i, disp = control_T.value, control_pareja.value, control_disposicion.value
        figura.poner(t, d, i, disp)  # sólo cambia lo que depende de lo que ha cambiado
        imagen.value = figura.png()
        etiqueta_longitud.value = texto_longitud(i, d, disp)
        if (t, d, disp) not in notas:
            _guardar(notas, (t, d, disp), texto_disposicion(t, d, disp), _FiguraEscalera.MAX_FONDOS)
        nota_disposicion.value = notas[(t, d, disp)]
        caja.estado = {
            "d_model": d, "T": t, "pareja": i, "disposicion": disp,
            "columnas": columnas_de_pareja(i, d, disp),
            "longitud": float(longitudes_de_onda(d)[i]),
        }

    for control in (control_d_model, control_T, control_pareja, control_disposicion):
        control.observe(redibujar, names="value")
    redibujar()
    return caja
