"""Explorable de la lección 1: cuatro reglas escritas a mano, cuatro cabezas y «Suma».

La oración «el ratón pequeño que persiguen los gatos duerme» se describe con cinco
rasgos por palabra (sustantivo, verbo, número, determinante, modificador).  Cada
regla es una columna de ``Wq`` y una de ``Wk``; cada cabeza se queda con una
sola columna (d_k = 1) y el botón «Suma» usa las cuatro en una sola cabeza
(d_k = 4, dividida entre √4 y con un único softmax).

El módulo tiene tres capas:

1. Funciones puras (arrays de NumPy dentro, arrays o textos fuera):
   ``matriz_rasgos`` → ``matrices_reglas`` → ``consultas_y_claves`` →
   ``mapa_atencion`` / ``calcular_mapas`` → ``resumen_fila`` / ``texto_resumen``.
   ``escala_de_color`` elige el tope de la escala de color a partir de los mapas.
2. Dibujo: ``dibujar_mapa`` pinta un mapa en unos ejes de matplotlib y
   ``figura_a_png`` lo convierte en bytes PNG.
3. Conexión con ipywidgets: ``crear_explorable`` monta los botones, el selector
   de fila, la imagen y el panel de resumen.  Las funciones de respuesta no tocan ninguna
   variable global: todo el estado vive dentro de la caja que se devuelve.  Al
   mostrarse en un cuaderno, la caja deja además una salida fija (aviso e
   imagen) que sólo se ve si el explorable ya no está vivo.
"""
from __future__ import annotations

import html
import io
import math
import os
import threading

import numpy as np
# matplotlib (sin pyplot) se carga al importar el módulo, no al ejecutar la celda del explorable:
# así su primera imagen no espera a la importación.
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.transforms import Bbox
from PIL import Image

# ---------------------------------------------------------------------------
# 1. Capa pura
# ---------------------------------------------------------------------------

#: Las ocho palabras de la frase, en orden (sección «Por qué una cabeza se queda corta»).
PALABRAS: tuple[str, ...] = (
    "el", "ratón", "pequeño", "que", "persiguen", "los", "gatos", "duerme",
)

#: Los cinco rasgos con que se describe cada palabra (columnas de ``matriz_rasgos``).
RASGOS: tuple[str, ...] = (
    "sustantivo", "verbo", "número", "determinante", "modificador",
)

#: Nombre de cada regla, en el orden de las columnas de ``Wq`` y ``Wk``.
REGLAS: tuple[str, ...] = (
    "¿es sustantivo?",
    "concordancia de número",
    "sustantivo ↔ determinante",
    "sustantivo ↔ modificador",
)

#: Los cinco mapas que ofrece el explorable, en el orden de los botones.
NOMBRES_MAPAS: tuple[str, ...] = ("Cabeza 1", "Cabeza 2", "Cabeza 3", "Cabeza 4", "Suma")

# Rasgos de cada palabra: (sustantivo, verbo, número, determinante, modificador).
# El número vale +1 en singular, -1 en plural y 0 en «que», que no tiene número.
_TABLA_RASGOS = {
    "el":        (0, 0, +1, 1, 0),
    "ratón":     (1, 0, +1, 0, 0),
    "pequeño":   (0, 0, +1, 0, 1),
    "que":       (0, 0,  0, 0, 0),
    "persiguen": (0, 1, -1, 0, 0),
    "los":       (0, 0, -1, 1, 0),
    "gatos":     (1, 0, -1, 0, 0),
    "duerme":    (0, 1, +1, 0, 0),
}


def matriz_rasgos() -> np.ndarray:
    """Matriz de entrada X del explorable, una fila por palabra.

    Sección: «El explorable: cuatro reglas, cuatro cabezas».

    Devuelve:
        X: array float64 de forma (T, 5) = (8, 5); la fila t describe
        ``PALABRAS[t]`` con los rasgos de ``RASGOS``.
    """
    return np.array([_TABLA_RASGOS[p] for p in PALABRAS], dtype=np.float64)


def matrices_reglas(fuerza_verbo: float = 2.0, fuerza_numero: float = 2.0,
                    fuerza_sustantivo: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """Las cuatro reglas escritas como columnas de Wq y Wk.

    Sección: «El explorable: cuatro reglas, cuatro cabezas».

    La columna j de ``Wq`` dice qué pregunta cada palabra según la regla j y la
    columna j de ``Wk`` qué contesta; la puntuación de la regla j entre las
    palabras s y t es ``(X @ Wq)[s, j] * (X @ Wk)[t, j]``.

    - Regla 1 («¿es sustantivo?»): preguntan los verbos (``fuerza_verbo``),
      contestan los sustantivos.
    - Regla 2 (concordancia): pregunta y contesta el número (±1), con
      ``fuerza_numero`` en la consulta.
    - Regla 3: preguntan los sustantivos, contestan los determinantes.
    - Regla 4: preguntan los sustantivos, contestan los modificadores.

    Parámetros:
        fuerza_verbo, fuerza_numero, fuerza_sustantivo: escalas (float) de las
            consultas de las reglas 1, 2 y 3-4.

    Devuelve:
        (Wq, Wk): dos arrays float64 de forma (5, 4) = (rasgos, reglas).
    """
    s, v, n, d, m = range(len(RASGOS))
    Wq = np.zeros((len(RASGOS), len(REGLAS)))
    Wk = np.zeros((len(RASGOS), len(REGLAS)))
    Wq[v, 0], Wk[s, 0] = fuerza_verbo, 1.0          # regla 1
    Wq[n, 1], Wk[n, 1] = fuerza_numero, 1.0         # regla 2
    Wq[s, 2], Wk[d, 2] = fuerza_sustantivo, 1.0     # regla 3
    Wq[s, 3], Wk[m, 3] = fuerza_sustantivo, 1.0     # regla 4
    return Wq, Wk


def consultas_y_claves(X: np.ndarray, Wq: np.ndarray,
                       Wk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Proyecta X: Q = X Wq y K = X Wk.

    Sección: «3. Las ecuaciones».

    Parámetros:
        X: array (T, d_entrada).
        Wq, Wk: arrays (d_entrada, r), una columna por regla.

    Devuelve:
        (Q, K): arrays float64 de forma (T, r).
    """
    X = np.asarray(X, dtype=np.float64)
    return X @ np.asarray(Wq, dtype=np.float64), X @ np.asarray(Wk, dtype=np.float64)


def softmax_filas(E: np.ndarray) -> np.ndarray:
    """Softmax de cada fila, restando antes el máximo de la fila (estable).

    Sección: «3. Las ecuaciones».

    Parámetros:
        E: array (T, T') de puntuaciones.

    Devuelve:
        array float64 de la misma forma, con filas no negativas que suman 1.
    """
    E = np.asarray(E, dtype=np.float64)
    pesos = np.exp(E - np.max(E, axis=-1, keepdims=True))   # el máximo de cada fila pasa a 0
    return pesos / np.sum(pesos, axis=-1, keepdims=True)


def mapa_atencion(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    """Mapa de una sola cabeza: softmax(Q Kᵀ / √d_k), fila a fila.

    Sección: «3. Las ecuaciones».

    Parámetros:
        Q: array (T, d_k) de consultas; K: array (T, d_k) de claves.

    Devuelve:
        A: array float64 (T, T); A[s, t] es cuánto lee la posición s (quien
        pregunta) de la posición t (quien contesta).  Cada fila suma 1.
    """
    Q = np.asarray(Q, dtype=np.float64)
    K = np.asarray(K, dtype=np.float64)
    d_k = Q.shape[1]
    return softmax_filas(Q @ K.T / np.sqrt(d_k))


def calcular_mapas(X: np.ndarray | None = None, Wq: np.ndarray | None = None,
                   Wk: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Los cinco mapas del explorable, calculados con ``mapa_atencion``.

    Sección: «El explorable: cuatro reglas, cuatro cabezas».

    «Cabeza j» usa sólo la columna j de Q y K (d_k = 1); «Suma» usa las cuatro
    columnas en una sola cabeza (d_k = 4, división entre √4, un solo softmax).

    Parámetros:
        X: array (T, 5); por defecto ``matriz_rasgos()``.
        Wq, Wk: arrays (5, 4); por defecto ``matrices_reglas()``.

    Devuelve:
        dict de ``NOMBRES_MAPAS`` a arrays float64 (T, T).
    """
    if X is None:
        X = matriz_rasgos()
    if Wq is None or Wk is None:
        Wq_def, Wk_def = matrices_reglas()
        Wq = Wq_def if Wq is None else Wq
        Wk = Wk_def if Wk is None else Wk
    Q, K = consultas_y_claves(X, Wq, Wk)                  # (T, 4) y (T, 4)
    mapas = {}
    for j in range(Q.shape[1]):
        col = slice(j, j + 1)                             # una sola regla
        mapas[f"Cabeza {j + 1}"] = mapa_atencion(Q[:, col], K[:, col])  # (T, T)
    mapas["Suma"] = mapa_atencion(Q, K)                    # (T, T), d_k = 4
    return mapas


def ganadoras(fila_pesos: np.ndarray, tolerancia: float = 1e-9) -> list[int]:
    """Índices de las posiciones que empatan en el peso máximo de una fila.

    Sección: «Lo que ve cada cabeza».

    Parámetros:
        fila_pesos: array (T,) de pesos que suman 1.
        tolerancia: diferencia (float) por debajo de la cual dos pesos empatan.

    Devuelve:
        lista de índices (int) en orden creciente.
    """
    fila_pesos = np.asarray(fila_pesos, dtype=np.float64)
    return [int(t) for t in np.flatnonzero(fila_pesos >= fila_pesos.max() - tolerancia)]


def escala_de_color(mapas: dict[str, np.ndarray], paso: float = 0.1) -> float:
    """Tope de la escala de color: el mayor peso de todos los mapas, redondeado hacia arriba.

    Sección «El explorable: cuatro reglas, cuatro cabezas».  Todos los mapas
    comparten la escala (así se comparan entre sí), pero no llega hasta 1: con
    estas reglas ningún peso pasa de 0.52, y una escala de 0 a 1 dejaría los
    mapas casi blancos.

    Parámetros:
        mapas: dict nombre → array (T, T) de pesos en [0, 1].
        paso: el tope se redondea hacia arriba a un múltiplo de ``paso`` (float > 0).

    Devuelve:
        float en (0, 1].
    """
    maximo = max(float(np.max(A)) for A in mapas.values())
    return min(1.0, math.ceil(round(maximo / paso, 9)) * paso)


def resumen_fila(mapas: dict[str, np.ndarray], fila: str | int) -> list[dict]:
    """Para la fila elegida, hacia qué palabra tira cada mapa y con qué peso.

    Sección: «Lo que ve cada cabeza».

    Parámetros:
        mapas: dict nombre → array (T, T), como el de ``calcular_mapas``.
        fila: la palabra que pregunta (str de ``PALABRAS``) o su índice (int).

    Devuelve:
        lista con un dict por mapa, en el orden de ``mapas``, con las claves
        ``"mapa"`` (str), ``"palabras"`` (lista de str que empatan en el
        máximo), ``"peso"`` (float, el peso de cada una) y ``"uniforme"``
        (bool, True si todas las palabras reciben lo mismo).
    """
    s = PALABRAS.index(fila) if isinstance(fila, str) else int(fila)
    resumen = []
    for nombre, A in mapas.items():
        pesos = A[s]
        indices = ganadoras(pesos)
        resumen.append({
            "mapa": nombre,
            "palabras": [PALABRAS[t] for t in indices],
            "peso": float(pesos[indices[0]]),
            "uniforme": len(indices) == len(pesos),
        })
    return resumen


def texto_resumen(resumen: list[dict], fila: str, seleccionado: str | None = None) -> str:
    """El panel de resumen como HTML (una línea por mapa).

    Sección: «Lo que ve cada cabeza».

    Parámetros:
        resumen: la lista de ``resumen_fila``.
        fila: la palabra que pregunta (str).
        seleccionado: nombre del mapa que se está viendo (se marca en negrita).

    Devuelve:
        str con HTML.
    """
    lineas = [f"<p><b>Fila «{html.escape(fila)}»</b>: hacia dónde tira cada mapa</p>", "<ul>"]
    for r in resumen:
        if r["uniforme"]:
            destino = f"a nadie en particular (reparto uniforme, {r['peso']:.3f} a cada palabra)"
        elif len(r["palabras"]) == 1:
            destino = f"«{html.escape(r['palabras'][0])}» con {r['peso']:.3f}"
        else:
            citas = [f"«{html.escape(p)}»" for p in r["palabras"]]
            empatadas = ", ".join(citas[:-1]) + " y " + citas[-1]
            destino = f"empate entre {empatadas}, {r['peso']:.3f} cada una"
        nombre = html.escape(r["mapa"])
        if r["mapa"] == seleccionado:
            nombre = f"<b>{nombre}</b>"
        lineas.append(f"<li>{nombre}: {destino}</li>")
    lineas.append("</ul>")
    return "\n".join(lineas)


# ---------------------------------------------------------------------------
# 2. Dibujo
# ---------------------------------------------------------------------------

PPP = 100
"""Puntos por pulgada del PNG: la figura de 6.4 × 5.6 pulgadas mide 640 × 560 píxeles."""
LETRA = 10.5           # puntos: unos 15 píxeles a 100 ppp
LETRA_NUMEROS = 9.5    # los pesos escritos en las casillas: unos 13 píxeles


def nueva_figura():
    """Figura de matplotlib propia (sin pyplot, así no se muestra sola), con su barra de color.

    Sección «El explorable: cuatro reglas, cuatro cabezas».

    Devuelve:
        (fig, ax): ``matplotlib.figure.Figure`` de 6.4 × 5.6 pulgadas a 100 ppp y los
        ejes del mapa; los de la barra de color quedan en ``ax.eje_barra``.
    """
    fig = Figure(figsize=(6.4, 5.6), dpi=PPP)
    ax = fig.add_axes((0.19, 0.2, 0.63, 0.72))
    ax.eje_barra = fig.add_axes((0.84, 0.2, 0.03, 0.72))
    return fig, ax


def dibujar_mapa(ax, A: np.ndarray, titulo: str, fila: str | int | None = None,
                 tope: float = 1.0) -> None:
    """Pinta un mapa (T, T) en ``ax``: fila = quien pregunta, columna = quien contesta.

    Sección «El explorable: cuatro reglas, cuatro cabezas».

    La primera vez (o si cambian T o el tope) los ejes se vacían y se monta el
    dibujo, con una barra de color de 0 a ``tope`` si ``ax`` trae ``eje_barra``;
    las siguientes sólo se cambian los datos, los números (con tres decimales,
    como el panel y la lección), sus colores, el título y el recuadro de los
    artistas que ya existen (el mismo dibujo que uno nuevo, sin volver a montar
    los ejes).

    Parámetros:
        ax: ejes de matplotlib.
        A: array (T, T) de pesos en [0, 1].
        titulo: str que se escribe encima.
        fila: palabra o índice de la fila que se recuadra (None: ninguna).
        tope: peso (float) con el color más oscuro; ``escala_de_color`` lo calcula.
    """
    T = A.shape[0]
    artistas = getattr(ax, "_explorable_cabezas", None)
    if (artistas is None or artistas["T"] != T or artistas["tope"] != tope
            or artistas["imagen"] not in ax.images):
        artistas = _montar_mapa(ax, T, tope)
    artistas["imagen"].set_data(A)
    for s in range(T):
        for t in range(T):
            texto = artistas["numeros"][s][t]
            texto.set_text(f"{A[s, t]:.3f}")
            texto.set_color("white" if A[s, t] > 0.6 * tope else "black")
    artistas["titulo"].set_text(titulo)
    recuadro = artistas["recuadro"]
    if fila is None:
        recuadro.set_visible(False)
    else:
        s = PALABRAS.index(fila) if isinstance(fila, str) else int(fila)
        recuadro.set_y(s - 0.5)
        recuadro.set_visible(True)


def _montar_mapa(ax, T: int, tope: float) -> dict:
    """Vacía ``ax`` y crea una vez los artistas de un mapa (T, T); los guarda en los ejes."""
    ax.clear()
    imagen = ax.imshow(np.zeros((T, T)), cmap="Blues", vmin=0.0, vmax=tope)
    ax.set_xticks(range(T))
    ax.set_yticks(range(T))
    ax.set_xticklabels(PALABRAS[:T], rotation=45, ha="right", fontsize=LETRA)
    ax.set_yticklabels(PALABRAS[:T], fontsize=LETRA)
    ax.set_xlabel("quien contesta (columna)", fontsize=LETRA)
    ax.set_ylabel("quien pregunta (fila)", fontsize=LETRA)
    # Con «y» fija el título no recalcula su altura en cada dibujo (no hay marcas arriba).
    titulo = ax.set_title("", y=1.0, fontsize=LETRA + 1)
    numeros = [[ax.text(t, s, "", ha="center", va="center", fontsize=LETRA_NUMEROS)
                for t in range(T)] for s in range(T)]
    # El recuadro va encima de todo lo demás de los ejes: así se puede pintar
    # solo sobre un fondo guardado y queda igual que en un dibujo completo.
    recuadro = ax.add_patch(Rectangle((-0.5, -0.5), T, 1, fill=False, edgecolor="crimson",
                                      linewidth=2.5, zorder=10, visible=False))
    eje_barra = getattr(ax, "eje_barra", None)
    if eje_barra is not None:
        eje_barra.clear()
        barra = ax.figure.colorbar(imagen, cax=eje_barra)
        barra.set_label("peso de atención", fontsize=LETRA)
        barra.ax.tick_params(labelsize=LETRA_NUMEROS)
    artistas = {"T": T, "tope": tope, "imagen": imagen, "numeros": numeros, "titulo": titulo,
                "recuadro": recuadro}
    ax._explorable_cabezas = artistas
    return artistas


def _lienzo(fig):
    """El lienzo Agg de ``fig`` (se crea si no lo tiene)."""
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    return fig.canvas


def _png_del_lienzo(lienzo) -> bytes:
    """Codifica en PNG lo que ya está pintado en el lienzo (RGB, compresión rápida)."""
    ancho, alto = lienzo.get_width_height()
    rgba = Image.frombuffer("RGBA", (ancho, alto), lienzo.buffer_rgba(), "raw", "RGBA", 0, 1)
    buffer = io.BytesIO()
    rgba.convert("RGB").save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


def figura_a_png(fig) -> bytes:
    """Convierte una figura de matplotlib en bytes PNG.

    Sección: «El explorable: cuatro reglas, cuatro cabezas».

    Devuelve:
        bytes que empiezan por la firma PNG ``b"\\x89PNG"``.
    """
    lienzo = _lienzo(fig)
    lienzo.draw()
    return _png_del_lienzo(lienzo)


class _PintorMapas:
    """Dibuja los PNG del explorable sobre una sola figura, guardando lo ya hecho.

    Sección: «El explorable: cuatro reglas, cuatro cabezas».

    Tres capas, pintadas en el mismo orden que un dibujo completo:
    el marco (ejes, etiquetas de las palabras, rótulos, barra de color), igual
    para todos los mapas, se pinta una vez; encima, el mapa (imagen, bordes, 64
    números, título), que sólo depende del mapa elegido; y encima, el recuadro de
    la fila.  Cada capa se guarda y al cambiar algo sólo se repinta lo que
    cambia: de la capa de un mapa se guarda sólo su recuadro del lienzo (los ejes
    y el título, ``region``), no la figura entera, y una capa guardada se repone
    sin volver a tocar sus 64 números.  Los PNG ya hechos se guardan por (mapa,
    fila).  ``preparar`` pinta de antemano la capa de cada mapa: así ninguna
    pulsación tiene que dibujar 64 números, ni siquiera la primera vez que se ve
    un mapa.  Un cerrojo lo hace seguro si dos mensajes de los widgets llegan
    desde hilos distintos.
    """

    def __init__(self, mapas: dict[str, np.ndarray], tope: float = 1.0):
        self.mapas = mapas
        self.tope = tope
        self.fig, self.ax = nueva_figura()
        self._marco = None  # la región del lienzo con sólo el marco
        self.region = None  # Bbox del lienzo que cubre la capa de un mapa y el recuadro
        self._fondos = {}   # nombre del mapa -> esa región con el mapa sin recuadro
        self._pngs = {}     # (nombre, fila) -> bytes PNG
        self._cerrojo = threading.RLock()
        self.ancho_px = int(round(self.fig.get_figwidth() * self.fig.dpi))

    def _capa_mapa(self) -> list:
        artistas = self.ax._explorable_cabezas
        return ([artistas["imagen"], *self.ax.spines.values()]
                + [texto for fila in artistas["numeros"] for texto in fila] + [artistas["titulo"]])

    def png(self, nombre: str, fila: str) -> bytes:
        clave = (nombre, fila)
        with self._cerrojo:
            if clave in self._pngs:
                return self._pngs[clave]
            lienzo = self._fondo(nombre)
            recuadro = self.ax._explorable_cabezas["recuadro"]
            recuadro.set_y(PALABRAS.index(fila) - 0.5)
            recuadro.set_visible(True)
            self.ax.draw_artist(recuadro)
            self._pngs[clave] = _png_del_lienzo(lienzo)
            return self._pngs[clave]

    def preparar(self) -> None:
        """Pinta y guarda la capa de cada mapa (unos 20 ms por mapa, al crear el explorable)."""
        for nombre in self.mapas:
            with self._cerrojo:
                self._fondo(nombre)

    def _fondo(self, nombre: str):
        """Deja en el lienzo el mapa ``nombre`` sin recuadro (de lo guardado si lo hay)."""
        lienzo = _lienzo(self.fig)
        fondo = self._fondos.get(nombre)
        if fondo is not None:
            lienzo.restore_region(fondo)
            return lienzo
        dibujar_mapa(self.ax, self.mapas[nombre], f"Mapa «{nombre}»", None, tope=self.tope)
        capa = self._capa_mapa()
        if self._marco is None:
            for artista in capa:
                artista.set_visible(False)
            lienzo.draw()
            for artista in capa:
                artista.set_visible(True)
            self.region = self._region_de(capa, lienzo.get_renderer())
            self._marco = lienzo.copy_from_bbox(self.region)
        else:
            lienzo.restore_region(self._marco)
        for artista in capa:
            self.ax.draw_artist(artista)
        self._fondos[nombre] = lienzo.copy_from_bbox(self.region)
        return lienzo

    def _region_de(self, capa: list, renderer) -> Bbox:
        """El recuadro del lienzo (píxeles enteros) que cubre la capa de cualquier mapa y el
        recuadro de cualquier fila, con unos píxeles de margen: lo único que cambia de un PNG a
        otro.  El título de cada mapa se mide con su propio texto (unos son más anchos)."""
        titulo = self.ax._explorable_cabezas["titulo"]
        actual = titulo.get_text()
        cajas = [self.ax.get_window_extent(renderer).padded(4)]   # el recuadro sobresale de la fila
        cajas += [a.get_window_extent(renderer) for a in capa if a is not titulo]
        for nombre in self.mapas:
            titulo.set_text(f"Mapa «{nombre}»")
            cajas.append(titulo.get_window_extent(renderer))
        titulo.set_text(actual)
        union = Bbox.union(cajas).padded(2)
        ancho, alto = self.fig.canvas.get_width_height()
        return Bbox.from_extents(max(0, math.floor(union.x0)), max(0, math.floor(union.y0)),
                                 min(ancho, math.ceil(union.x1)), min(alto, math.ceil(union.y1)))


_PINTORES: dict = {}
"""Los pintores ya hechos en este proceso, por mapas y tope (``_pintor``)."""
_PINTORES_MAX = 4
_CERROJO_PINTORES = threading.Lock()


def _pintor(mapas: dict[str, np.ndarray], tope: float) -> _PintorMapas:
    """El pintor de estos mapas: el mismo para cada explorable que los enseña en este núcleo.

    Volver a ejecutar la celda del explorable (o crear otro con los mismos mapas)
    encuentra hechas las capas y los PNG: su primera imagen no se vuelve a dibujar.
    """
    clave = (float(tope), tuple((nombre, np.asarray(A, dtype=np.float64).shape,
                                 np.asarray(A, dtype=np.float64).tobytes()) for nombre, A in mapas.items()))
    with _CERROJO_PINTORES:
        pintor = _PINTORES.get(clave)
        if pintor is None:
            pintor = _PINTORES[clave] = _PintorMapas(mapas, tope)
            while len(_PINTORES) > _PINTORES_MAX:
                del _PINTORES[next(iter(_PINTORES))]
        return pintor


def precalentar(mapa_inicial: str = "Suma", fila_inicial: str = "duerme") -> None:
    """Dibuja de antemano la primera imagen del explorable por defecto (la de ``crear_explorable()``).

    Sección «El explorable: cuatro reglas, cuatro cabezas».  En un núcleo, al
    importar el módulo (la primera celda de la lección) se deja para cuando el
    núcleo quede libre: cuando se ejecuta la celda del explorable, su primera
    imagen ya está hecha.  Fuera de un núcleo no se hace nada al importar.
    """
    mapas = calcular_mapas()
    _pintor(mapas, escala_de_color(mapas)).png(mapa_inicial, fila_inicial)


# ---------------------------------------------------------------------------
# 3. Conexión con ipywidgets
# ---------------------------------------------------------------------------

try:  # el módulo se puede importar (y probar) sin ipywidgets
    import ipywidgets as widgets
except ImportError:  # pragma: no cover
    widgets = None

from respaldo_explorable import METADATOS_RESPALDO, html_respaldo, mas_tarde as _mas_tarde  # noqa: F401


if widgets is not None:
    class CajaExplorable(widgets.VBox):
        """La caja del explorable.

        Sección: «El explorable: cuatro reglas, cuatro cabezas».

        Además de los widgets hijos, guarda referencias a sus partes:
        ``botones`` (dict nombre → Button), ``selector_fila`` (Dropdown),
        ``imagen`` (Image), ``leyenda`` (HTML) y ``panel`` (HTML).  Al
        mostrarse en un cuaderno deja dos salidas: el widget y, debajo, una
        salida fija (``html_respaldo``) que se actualiza con cada cambio y sólo
        se ve cuando el widget ya no está vivo.
        """

        _respaldo = None
        _respaldo_pendiente = False

        def datos_respaldo(self) -> dict:
            """El mimebundle de la salida fija: HTML con aviso, imagen y resumen; texto plano."""
            estado = f"mapa «{self.mapa_seleccionado}», fila «{self.selector_fila.value}»"
            return {"text/html": html_respaldo(self.imagen.value, "cuatro reglas, cuatro cabezas",
                                               estado, self.panel.value),
                    "text/plain": f"Explorable «cuatro reglas, cuatro cabezas» ({estado})"}

        def _ipython_display_(self, **kwargs):
            from IPython.display import display
            display(self._repr_mimebundle_(**kwargs), raw=True)
            self._respaldo = display(self.datos_respaldo(), raw=True, metadata=METADATOS_RESPALDO,
                                     display_id=True)

        def actualizar_respaldo(self) -> None:
            """Pone en la salida fija la imagen y el estado de ahora (si la caja se ha mostrado).

            En un núcleo, medio segundo después y una sola vez por ráfaga de cambios: así
            la salida fija (otra copia de la imagen) no viaja al navegador en cada pulsación.
            """
            if self._respaldo is None or self._respaldo_pendiente:
                return
            self._respaldo_pendiente = True
            _mas_tarde(self._enviar_respaldo, 0.5)

        def _enviar_respaldo(self) -> None:
            self._respaldo_pendiente = False
            if self._respaldo is not None:
                self._respaldo.update(self.datos_respaldo(), raw=True, metadata=METADATOS_RESPALDO)


def sin_interaccion() -> bool:
    """True cuando nbgrader ejecuta el cuaderno (autograde, validate): nadie pulsará un botón.

    nbgrader pone ``NBGRADER_EXECUTION`` en el entorno del núcleo.  Entonces no
    se pintan de antemano las capas de los otros mapas (la imagen inicial, la
    que queda en los comentarios, es la misma); en JupyterLab sí.
    """
    return os.environ.get("NBGRADER_EXECUTION") in ("autograde", "validate")


# Botones de los que sólo uno está elegido: llevan la clase CONMUTADOR, y el elegido también PULSADO. Así un
# lector de pantalla sabe cuál es (la extensión del JupyterLab del curso, ajustes_jupyterlab/labextension,
# les pone aria-pressed según PULSADO, porque ipywidgets no tiene atributos ARIA); el color sólo lo ve quien ve.
CONMUTADOR, PULSADO = "explorable-conmutador", "explorable-pulsado"


def crear_explorable(mapa_inicial: str = "Suma", fila_inicial: str = "duerme",
                     mapas: dict[str, np.ndarray] | None = None):
    """Monta el explorable: cinco botones, selector de fila, mapa y resumen.

    Sección: «El explorable: cuatro reglas, cuatro cabezas».

    Parámetros:
        mapa_inicial: nombre de ``NOMBRES_MAPAS`` que se ve al empezar.
        fila_inicial: palabra de ``PALABRAS`` cuya fila se resume al empezar.
        mapas: dict nombre → array (T, T); por defecto ``calcular_mapas()``.

    Devuelve:
        ``CajaExplorable`` (un ``ipywidgets.VBox``) con clases CSS
        ``explorable-cabezas`` y ``explorable-vivo``.  Partes: botones «Cabeza 1» … «Suma» (clase
        ``explorable-cabezas-boton`` y ``CONMUTADOR``, el elegido además ``PULSADO``, dentro de
        ``explorable-cabezas-botones``),
        Dropdown «Fila» (``explorable-cabezas-fila``), Image
        (``explorable-cabezas-mapa``), HTML de leyenda
        (``explorable-cabezas-leyenda``) y HTML de resumen
        (``explorable-cabezas-resumen``).
    """
    if widgets is None:  # pragma: no cover
        raise ImportError("El explorable necesita ipywidgets.")
    if mapas is None:
        mapas = calcular_mapas()
    if mapa_inicial not in mapas:
        raise ValueError(f"mapa_inicial debe ser uno de {list(mapas)}, no {mapa_inicial!r}.")
    if fila_inicial not in PALABRAS:
        raise ValueError(f"fila_inicial debe ser una de {list(PALABRAS)}, no {fila_inicial!r}.")

    pintor = _pintor(mapas, escala_de_color(mapas))

    botones = {}
    for nombre in mapas:
        boton = widgets.Button(description=nombre, tooltip=f"Ver el mapa «{nombre}»",
                               layout=widgets.Layout(width="auto"))
        boton.add_class("explorable-cabezas-boton")
        boton.add_class(CONMUTADOR)
        botones[nombre] = boton
    fila_botones = widgets.HBox(list(botones.values()))
    fila_botones.add_class("explorable-cabezas-botones")

    selector = widgets.Dropdown(options=list(PALABRAS), value=fila_inicial, description="Fila")
    selector.add_class("explorable-cabezas-fila")

    # La imagen se enseña a su tamaño en píxeles: estirada se vería borrosa.
    imagen = widgets.Image(format="png", layout=widgets.Layout(
        width=f"{pintor.ancho_px}px", max_width="100%", height="auto"))
    imagen.add_class("explorable-cabezas-mapa")
    leyenda = widgets.HTML()
    leyenda.add_class("explorable-cabezas-leyenda")
    panel = widgets.HTML()
    panel.add_class("explorable-cabezas-resumen")

    caja = CajaExplorable([fila_botones, selector, leyenda, imagen, panel])
    caja.add_class("explorable-cabezas")
    caja.add_class("explorable-vivo")
    caja.botones, caja.selector_fila = botones, selector
    caja._pintor = pintor
    caja.imagen, caja.leyenda, caja.panel = imagen, leyenda, panel
    caja.mapa_seleccionado = mapa_inicial

    def actualizar() -> None:
        nombre, fila = caja.mapa_seleccionado, selector.value
        for n, b in botones.items():
            b.button_style = "info" if n == nombre else ""
            (b.add_class if n == nombre else b.remove_class)(PULSADO)
        imagen.value = pintor.png(nombre, fila)
        leyenda.value = (f"<p>Mapa: <b>{html.escape(nombre)}</b> · fila: "
                         f"<b>{html.escape(fila)}</b></p>")
        panel.value = texto_resumen(resumen_fila(mapas, fila), fila, seleccionado=nombre)
        caja.actualizar_respaldo()

    def al_pulsar(boton) -> None:
        caja.mapa_seleccionado = boton.description
        actualizar()

    for boton in botones.values():
        boton.on_click(al_pulsar)
    selector.observe(lambda cambio: actualizar(), names="value")

    actualizar()
    if not sin_interaccion():
        # Las capas de los otros mapas, cuando la primera imagen ya va de camino (en un núcleo, al
        # terminar la celda): la primera imagen no las espera y los clics las encuentran hechas.
        _mas_tarde(pintor.preparar, 0.0)
    return caja


if not sin_interaccion():
    # En un núcleo, al importar el módulo (la primera celda de la lección), la primera imagen del
    # explorable se dibuja en cuanto el núcleo queda libre: al ejecutar su celda ya está hecha.
    _mas_tarde(precalentar, 0.0, sin_nucleo=False)
