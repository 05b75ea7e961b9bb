"""Explorable de la lección @@NUMERO@@: las puntuaciones Q Kᵀ con y sin la escala 1/√d_k.

(Plantilla de ``make leccion``: sustitúyelo por el explorable de tu lección y
conserva las tres capas y la salida fija.)

Muestra el mapa de puntuaciones S = Q Kᵀ (/ √d_k) de unas consultas y claves
aleatorias y cómo crece su dispersión con d_k cuando no se divide.

El módulo tiene tres capas, cada una encima de la anterior:

1. Funciones puras (números y arrays de entrada, arrays o textos de salida),
   sin matplotlib ni widgets: ``matrices_de_ejemplo``,
   ``puntuaciones_para_pintar``, ``desviacion_tipica`` y ``texto_estado``.
2. Dibujo: ``dibujar`` recibe la matriz y devuelve una figura de matplotlib;
   ``figura_a_png`` la convierte en bytes PNG.
3. Conexión con ipywidgets: ``crear_explorable`` devuelve la caja con los
   controles, la imagen y el texto.  Las funciones de respuesta sólo tocan los
   widgets de su propia caja.  Al mostrarse en un cuaderno deja además una
   salida fija (aviso en español e imagen) que sólo se ve si el explorable ya
   no está vivo.

Aquí no hay nada que resuelva el ejercicio ``@@FUNCION@@``: las puntuaciones
que salen de este módulo van en ``float16`` (unas tres cifras), que bastan
para pintar y no para la tolerancia del ejercicio.
"""
from __future__ import annotations

import base64
import functools
import html
import io

import ipywidgets as widgets
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

D_K_OPCIONES = (1, 4, 16, 64, 256)
"""Los d_k que ofrece el explorable."""

T_EJEMPLO = 6
"""Posiciones del ejemplo: el mapa es de T × T."""

TOPE = 8.0
"""La escala de color va de -TOPE a TOPE: lo que se sale, se satura."""


# ---------------------------------------------------------------------------
# 1. Funciones puras
# ---------------------------------------------------------------------------

def matrices_de_ejemplo(T: int, d_k: int, semilla: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Consultas y claves aleatorias con media 0 y varianza 1 en cada coordenada.

    Sección «1. El explorable».

    Devuelve:
        (Q, K): dos arrays float64 de forma (T, d_k).
    """
    rng = np.random.default_rng(semilla)
    return rng.normal(size=(int(T), int(d_k))), rng.normal(size=(int(T), int(d_k)))


def puntuaciones_para_pintar(Q: np.ndarray, K: np.ndarray, escalar: bool) -> np.ndarray:
    """Q Kᵀ, dividida entre √d_k si ``escalar``, en float16 (para pintar).

    Sección «1. El explorable».

    Parámetros:
        Q, K: arrays (T, d_k).
        escalar: True para dividir entre √d_k.

    Devuelve:
        array float16 de forma (T, T): la fila t es la consulta t frente a todas las claves.
    """
    S = np.asarray(Q, dtype=np.float64) @ np.asarray(K, dtype=np.float64).T   # (T, T)
    if escalar:
        S = S / np.sqrt(np.shape(K)[1])
    return S.astype(np.float16)


@functools.lru_cache(maxsize=None)
def desviacion_tipica(d_k: int, escalar: bool, muestras: int = 2000, semilla: int = 1) -> float:
    """La desviación típica de q·k (o de q·k / √d_k) entre vectores aleatorios de varianza 1.

    Sección «2. Por qué se divide entre √d_k»: sin dividir ronda √d_k; dividiendo, 1.
    """
    rng = np.random.default_rng(semilla)
    q, k = rng.normal(size=(muestras, int(d_k))), rng.normal(size=(muestras, int(d_k)))
    productos = np.sum(q * k, axis=1)                                          # (muestras,)
    if escalar:
        productos = productos / np.sqrt(d_k)
    return float(productos.std())


def texto_estado(d_k: int, escalar: bool) -> str:
    """La línea bajo el mapa: d_k, si se divide y la dispersión medida."""
    accion = f"dividiendo entre √{d_k}" if escalar else "sin dividir"
    return (f"d_k = {d_k}, {accion}: la desviación típica de una puntuación es "
            f"{desviacion_tipica(d_k, escalar):.2f}")


# ---------------------------------------------------------------------------
# 2. Dibujo
# ---------------------------------------------------------------------------

def dibujar(S: np.ndarray, titulo: str) -> Figure:
    """El mapa de puntuaciones (T, T) con su barra de color, sin pyplot (no hay estado global).

    Devuelve:
        ``matplotlib.figure.Figure`` de 6 × 5 pulgadas a 100 ppp (600 × 500 píxeles).
    """
    fig = Figure(figsize=(6.0, 5.0), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.14, 0.13, 0.66, 0.75))
    barra = fig.add_axes((0.84, 0.13, 0.03, 0.75))
    fig.imagen = ax.imshow(np.asarray(S, dtype=np.float64), cmap="RdBu_r", vmin=-TOPE, vmax=TOPE)
    fig.colorbar(fig.imagen, cax=barra).set_label("puntuación", fontsize=10.5)
    T = np.shape(S)[0]
    ax.set_xticks(range(T))
    ax.set_yticks(range(T))
    ax.set_xlabel("clave s", fontsize=10.5)
    ax.set_ylabel("consulta t", fontsize=10.5)
    fig.titulo = ax.set_title(titulo, fontsize=11)
    return fig


def figura_a_png(fig: Figure) -> bytes:
    """Los bytes PNG de una figura de matplotlib (empiezan por ``b"\\x89PNG"``).

    Pinta con Agg y codifica con compresión rápida (RGB): unas decenas de
    milisegundos, lo que pide una respuesta inmediata al mover un control.
    """
    lienzo = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    lienzo.draw()
    ancho, alto = lienzo.get_width_height()
    rgba = Image.frombuffer("RGBA", (ancho, alto), lienzo.buffer_rgba(), "raw", "RGBA", 0, 1)
    buffer = io.BytesIO()
    rgba.convert("RGB").save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


class _Pintor:
    """Una sola figura para todo el explorable: cada estado cambia los datos y el título, y su
    PNG se guarda (el explorable tiene pocos estados)."""

    def __init__(self, T: int):
        self.fig = dibujar(np.zeros((T, T)), "")
        self.pngs: dict = {}

    def png(self, S: np.ndarray, titulo: str, clave) -> bytes:
        if clave not in self.pngs:
            self.fig.imagen.set_data(np.asarray(S, dtype=np.float64))
            self.fig.titulo.set_text(titulo)
            self.pngs[clave] = figura_a_png(self.fig)
        return self.pngs[clave]


# ---------------------------------------------------------------------------
# 3. Conexión con ipywidgets
# ---------------------------------------------------------------------------

METADATOS_RESPALDO = {"explorable": {"respaldo": True}}
"""Marca de la salida fija que acompaña al explorable (la lee la retroalimentación)."""

# Mientras el explorable está vivo en JupyterLab su salida fija no se ve. Si se
# pierde, se ve ella: con el cuaderno reabierto, en lugar del aviso en inglés de
# ipywidgets («Error displaying widget: model not found»); con el núcleo reiniciado o
# apagado, en lugar de los controles muertos (ipywidgets les pone la clase
# jupyter-widgets-disconnected y un icono de enlace roto).
_ESTILO_RESPALDO = (
    "<style>.jp-OutputArea:has(.explorable-vivo:not(.jupyter-widgets-disconnected))"
    " .explorable-respaldo{display:none}"
    ".jp-OutputArea:has(.explorable-respaldo) .jp-OutputArea-output.jupyter-widgets"
    ":not(:has(*)){display:none}"
    ".jp-OutputArea:has(.explorable-respaldo) .jp-OutputArea-child"
    ":has(.explorable-vivo.jupyter-widgets-disconnected){display:none}</style>")


def html_respaldo(png: bytes, nombre: str, estado: str) -> str:
    """La salida fija del explorable: un aviso en español y la última imagen, en HTML."""
    datos = base64.b64encode(bytes(png)).decode("ascii")
    return (
        f'<div class="explorable-respaldo">{_ESTILO_RESPALDO}'
        f"<p><b>El explorable «{html.escape(nombre)}» no está activo.</b> Su parte interactiva "
        "vive en Python, y Python ya no la tiene (el cuaderno se ha vuelto a abrir, o el núcleo "
        "se ha reiniciado o apagado). Para volver a usarlo, ejecuta esta celda otra vez "
        "(Mayús + Intro). "
        f"Mientras tanto, esta es la última imagen que mostró ({html.escape(estado)}):</p>"
        f'<img src="data:image/png;base64,{datos}" style="max-width:100%"/></div>')


NOMBRE = "puntuaciones con y sin escala"


class ExplorablePuntuaciones(widgets.VBox):
    """La caja del explorable: ``control_d_k``, ``control_escala``, ``imagen``, ``estado_texto``.

    Al mostrarse en un cuaderno deja dos salidas: el widget y, debajo, una
    salida fija (``html_respaldo``) que se pone al día con cada cambio.
    """

    _respaldo = None

    def datos_respaldo(self) -> dict:
        """El mimebundle de la salida fija: HTML con aviso e imagen, y texto plano."""
        estado = texto_estado(self.control_d_k.value, self.control_escala.value)
        return {"text/html": html_respaldo(self.imagen.value, NOMBRE, estado),
                "text/plain": f"Explorable «{NOMBRE}» ({estado})"}

    def _ipython_display_(self, **kwargs):
        from IPython.display import display
        display(self._repr_mimebundle_(**kwargs), raw=True)
        self._respaldo = display(self.datos_respaldo(), raw=True, metadata=METADATOS_RESPALDO,
                                 display_id=True)

    def actualizar_respaldo(self) -> None:
        """Pone en la salida fija la imagen y el estado de ahora (si la caja se ha mostrado)."""
        if self._respaldo is not None:
            self._respaldo.update(self.datos_respaldo(), raw=True, metadata=METADATOS_RESPALDO)


def crear_explorable(d_k: int = 16, escalar: bool = False) -> ExplorablePuntuaciones:
    """Crea el explorable y lo devuelve listo para mostrar (la última línea de una celda).

    Sección «1. El explorable».  Controles: d_k (1, 4, 16, 64, 256) y la casilla
    «dividir entre √d_k»; cada cambio vuelve a dibujar el mapa y el texto.

    Lanza:
        ValueError si ``d_k`` no es uno de ``D_K_OPCIONES``.
    """
    if d_k not in D_K_OPCIONES:
        raise ValueError(f"d_k tiene que ser uno de {D_K_OPCIONES}; ha llegado {d_k}.")
    control_d_k = widgets.SelectionSlider(options=list(D_K_OPCIONES), value=d_k, description="d_k",
                                          continuous_update=False)
    control_escala = widgets.Checkbox(value=bool(escalar), description="dividir entre √d_k")
    imagen = widgets.Image(format="png", layout=widgets.Layout(width="600px", max_width="100%",
                                                               height="auto"))
    estado_texto = widgets.HTML()
    caja = ExplorablePuntuaciones([widgets.HBox([control_d_k, control_escala]), imagen, estado_texto])
    caja.add_class("explorable-@@NOMBRE@@")
    caja.add_class("explorable-vivo")
    caja.control_d_k, caja.control_escala = control_d_k, control_escala
    caja.imagen, caja.estado_texto = imagen, estado_texto

    pintor = _Pintor(T_EJEMPLO)

    def redibujar(_cambio=None) -> None:
        d, escalar_ = control_d_k.value, control_escala.value
        Q, K = matrices_de_ejemplo(T_EJEMPLO, d)
        titulo = f"S = Q Kᵀ / √{d}" if escalar_ else "S = Q Kᵀ (sin dividir)"
        imagen.value = pintor.png(puntuaciones_para_pintar(Q, K, escalar_), titulo, (d, escalar_))
        estado_texto.value = html.escape(texto_estado(d, escalar_))
        caja.actualizar_respaldo()

    control_d_k.observe(redibujar, names="value")
    control_escala.observe(redibujar, names="value")
    redibujar()
    return caja
