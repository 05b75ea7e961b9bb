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
2. Dibujo: ``dibujar_mapa`` pinta un mapa en unos ejes de matplotlib y
   ``figura_a_png`` lo convierte en bytes PNG.
3. Conexión con ipywidgets: ``crear_explorable`` monta los botones, el selector
   de fila, la imagen y el panel de resumen.  Las funciones de respuesta no tocan ninguna
   variable global: todo el estado vive dentro de la caja que se devuelve.
"""
from __future__ import annotations

import base64
import html
import io

import numpy as np

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

def nueva_figura():
    """Figura de matplotlib propia (sin pyplot, así no se muestra sola).

    Sección: «El explorable: cuatro reglas, cuatro cabezas».

    Devuelve:
        (fig, ax): ``matplotlib.figure.Figure`` de 6 × 5 pulgadas y sus ejes.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.2, 5.2), dpi=90)
    ax = fig.add_subplot(1, 1, 1)
    return fig, ax


def dibujar_mapa(ax, A: np.ndarray, titulo: str, fila: str | int | None = None) -> None:
    """Pinta un mapa (T, T) en ``ax``: fila = quien pregunta, columna = quien contesta.

    Sección: «El explorable: cuatro reglas, cuatro cabezas».

    La primera vez (o si cambia T) los ejes se vacían y se monta el dibujo;
    las siguientes sólo se cambian los datos, los números, sus colores, el
    título y el recuadro de los artistas que ya existen (el mismo dibujo que
    uno nuevo, sin volver a montar los ejes).

    Parámetros:
        ax: ejes de matplotlib.
        A: array (T, T) de pesos en [0, 1].
        titulo: str que se escribe encima.
        fila: palabra o índice de la fila que se recuadra (None: ninguna).
    """
    T = A.shape[0]
    artistas = getattr(ax, "_explorable_cabezas", None)
    if artistas is None or artistas["T"] != T or artistas["imagen"] not in ax.images:
        artistas = _montar_mapa(ax, T)
    artistas["imagen"].set_data(A)
    for s in range(T):
        for t in range(T):
            texto = artistas["numeros"][s][t]
            texto.set_text(f"{A[s, t]:.2f}")
            texto.set_color("white" if A[s, t] > 0.55 else "black")
    artistas["titulo"].set_text(titulo)
    recuadro = artistas["recuadro"]
    if fila is None:
        recuadro.set_visible(False)
    else:
        s = PALABRAS.index(fila) if isinstance(fila, str) else int(fila)
        recuadro.set_y(s - 0.5)
        recuadro.set_visible(True)


def _montar_mapa(ax, T: int) -> dict:
    """Vacía ``ax`` y crea una vez los artistas de un mapa (T, T); los guarda en los ejes."""
    from matplotlib.patches import Rectangle

    ax.clear()
    imagen = ax.imshow(np.zeros((T, T)), cmap="Blues", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(T))
    ax.set_yticks(range(T))
    ax.set_xticklabels(PALABRAS[:T], rotation=45, ha="right")
    ax.set_yticklabels(PALABRAS[:T])
    ax.set_xlabel("quien contesta (columna)")
    ax.set_ylabel("quien pregunta (fila)")
    # Con «y» fija el título no recalcula su altura en cada dibujo (no hay marcas arriba).
    titulo = ax.set_title("", y=1.0)
    numeros = [[ax.text(t, s, "", ha="center", va="center", fontsize=8) for t in range(T)]
               for s in range(T)]
    # El recuadro va encima de todo lo demás de los ejes: así se puede pintar
    # solo sobre un fondo guardado y queda igual que en un dibujo completo.
    recuadro = ax.add_patch(Rectangle((-0.5, -0.5), T, 1, fill=False, edgecolor="crimson",
                                      linewidth=2, zorder=10, visible=False))
    artistas = {"T": T, "imagen": imagen, "numeros": numeros, "titulo": titulo,
                "recuadro": recuadro}
    ax._explorable_cabezas = artistas
    return artistas


def _lienzo(fig):
    """El lienzo Agg de ``fig`` (se crea si no lo tiene); la maqueta se calcula una sola vez."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    if not getattr(fig, "_explorable_maquetada", False):
        fig.tight_layout()   # las etiquetas no cambian: basta con maquetar la primera vez
        fig._explorable_maquetada = True
    return fig.canvas


def _png_del_lienzo(lienzo) -> bytes:
    """Codifica en PNG lo que ya está pintado en el lienzo (RGB, compresión rápida)."""
    from PIL import Image

    ancho, alto = lienzo.get_width_height()
    rgba = Image.frombuffer("RGBA", (ancho, alto), lienzo.buffer_rgba(), "raw", "RGBA", 0, 1)
    buffer = io.BytesIO()
    rgba.convert("RGB").save(buffer, format="png", compress_level=3)
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
    el marco (ejes, etiquetas de las palabras, rótulos), igual para todos los
    mapas, se pinta una vez; encima, el mapa (imagen, bordes, 64 números,
    título), que sólo depende del mapa elegido; y encima, el recuadro de la
    fila.  Cada capa se guarda y al cambiar algo sólo se repinta lo que cambia.
    Los PNG ya hechos se guardan por (mapa, fila).
    """

    def __init__(self, mapas: dict[str, np.ndarray]):
        self.mapas = mapas
        self.fig, self.ax = nueva_figura()
        self._marco = None  # región del lienzo con sólo el marco
        self._fondos = {}   # nombre del mapa -> región del lienzo con el mapa sin recuadro
        self._pngs = {}     # (nombre, fila) -> bytes PNG
        self.ancho_px = int(round(self.fig.get_figwidth() * self.fig.dpi))

    def _capa_mapa(self) -> list:
        artistas = self.ax._explorable_cabezas
        return ([artistas["imagen"], *self.ax.spines.values()]
                + [texto for fila in artistas["numeros"] for texto in fila] + [artistas["titulo"]])

    def png(self, nombre: str, fila: str) -> bytes:
        clave = (nombre, fila)
        if clave in self._pngs:
            return self._pngs[clave]
        dibujar_mapa(self.ax, self.mapas[nombre], f"Mapa «{nombre}»", None)
        lienzo = _lienzo(self.fig)
        fondo = self._fondos.get(nombre)
        if fondo is None:
            capa = self._capa_mapa()
            if self._marco is None:
                for artista in capa:
                    artista.set_visible(False)
                lienzo.draw()
                self._marco = lienzo.copy_from_bbox(self.fig.bbox)
                for artista in capa:
                    artista.set_visible(True)
            else:
                lienzo.restore_region(self._marco)
            for artista in capa:
                self.ax.draw_artist(artista)
            fondo = self._fondos[nombre] = lienzo.copy_from_bbox(self.fig.bbox)
        else:
            lienzo.restore_region(fondo)
        recuadro = self.ax._explorable_cabezas["recuadro"]
        recuadro.set_y(PALABRAS.index(fila) - 0.5)
        recuadro.set_visible(True)
        self.ax.draw_artist(recuadro)
        self._pngs[clave] = _png_del_lienzo(lienzo)
        return self._pngs[clave]


# ---------------------------------------------------------------------------
# 3. Conexión con ipywidgets
# ---------------------------------------------------------------------------

try:  # el módulo se puede importar (y probar) sin ipywidgets
    import ipywidgets as widgets
except ImportError:  # pragma: no cover
    widgets = None


if widgets is not None:
    class CajaExplorable(widgets.VBox):
        """La caja del explorable; en una salida estática se ve como imagen y texto.

        Sección: «El explorable: cuatro reglas, cuatro cabezas».

        Además de los widgets hijos, guarda referencias a sus partes:
        ``botones`` (dict nombre → Button), ``selector_fila`` (Dropdown),
        ``imagen`` (Image), ``leyenda`` (HTML) y ``panel`` (HTML).
        """

        def _repr_mimebundle_(self, **kwargs):
            datos = super()._repr_mimebundle_(**kwargs) or {}
            png = base64.b64encode(self.imagen.value).decode("ascii")
            datos["text/html"] = (
                f'<div class="explorable-cabezas-estatico">{self.leyenda.value}'
                f'<img src="data:image/png;base64,{png}"/>{self.panel.value}</div>')
            return datos


def crear_explorable(mapa_inicial: str = "Suma", fila_inicial: str = "duerme",
                     mapas: dict[str, np.ndarray] | None = None):
    """Monta el explorable: cinco botones, selector de fila, mapa y resumen.

    Sección: «El explorable: cuatro reglas, cuatro cabezas».

    Parámetros:
        mapa_inicial: nombre de ``NOMBRES_MAPAS`` que se ve al empezar.
        fila_inicial: palabra de ``PALABRAS`` cuya fila se resume al empezar.
        mapas: dict nombre → array (T, T); por defecto ``calcular_mapas()``.

    Devuelve:
        ``CajaExplorable`` (un ``ipywidgets.VBox``) con clase CSS
        ``explorable-cabezas``.  Partes: botones «Cabeza 1» … «Suma» (clase
        ``explorable-cabezas-boton``, dentro de ``explorable-cabezas-botones``),
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

    pintor = _PintorMapas(mapas)

    botones = {}
    for nombre in mapas:
        boton = widgets.Button(description=nombre, tooltip=f"Ver el mapa «{nombre}»",
                               layout=widgets.Layout(width="auto"))
        boton.add_class("explorable-cabezas-boton")
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
    caja.botones, caja.selector_fila = botones, selector
    caja.imagen, caja.leyenda, caja.panel = imagen, leyenda, panel
    caja.mapa_seleccionado = mapa_inicial

    def actualizar() -> None:
        nombre, fila = caja.mapa_seleccionado, selector.value
        for n, b in botones.items():
            b.button_style = "info" if n == nombre else ""
        imagen.value = pintor.png(nombre, fila)
        leyenda.value = (f"<p>Mapa: <b>{html.escape(nombre)}</b> · fila: "
                         f"<b>{html.escape(fila)}</b></p>")
        panel.value = texto_resumen(resumen_fila(mapas, fila), fila, seleccionado=nombre)

    def al_pulsar(boton) -> None:
        caja.mapa_seleccionado = boton.description
        actualizar()

    for boton in botones.values():
        boton.on_click(al_pulsar)
    selector.observe(lambda cambio: actualizar(), names="value")

    actualizar()
    return caja
