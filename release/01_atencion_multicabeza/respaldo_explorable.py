"""Lo que comparten los explorables del curso: su salida fija y cómo dejar algo para luego.

Cada explorable (``explorable_*.py``) deja, debajo del widget, una salida fija
con su imagen (``html_respaldo``), que sólo se ve cuando el widget ya no está
vivo; y pinta lo costoso un momento después (``mas_tarde``).

La salida fija se renueva con cada cambio (``display_id``) mientras la pestaña
que ejecutó la celda siga abierta. JupyterLab no guarda el ``display_id`` en el
archivo: si la pestaña se cierra y se vuelve a abrir con el núcleo vivo, el
widget sigue funcionando pero su salida fija ya no se renueva. Por eso el aviso
no dice que sea «la última imagen»: dice qué muestra y que puede ser anterior.

Este archivo viaja con cada tarea (está en la carpeta de cada lección de
``source/`` y, por tanto, en ``release/``); el original es
``plantillas/leccion/respaldo_explorable.py`` y ``make release`` lo copia a cada
lección: no edites las copias (una prueba comprueba que son iguales).
"""
from __future__ import annotations

import base64
import html

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


def html_respaldo(png: bytes, nombre: str, estado: str, extra: str = "") -> str:
    """La salida fija de un explorable: un aviso en español y su imagen, en HTML.

    Es lo que ve quien abre el cuaderno guardado sin que el explorable esté vivo
    (sin núcleo, o con uno nuevo): le dice que vuelva a ejecutar la celda y le
    enseña la imagen que quedó en la celda, diciendo qué muestra y que puede
    ser anterior a los últimos cambios (ver la nota del módulo).

    Parámetros:
        png: bytes PNG de la figura; nombre: nombre del explorable (str);
        estado: lo que muestra la imagen (str, texto plano); extra: HTML propio
        del explorable que va debajo de la imagen (por ejemplo, un panel de resumen).

    Devuelve:
        str con HTML (la imagen va dentro, en base64).
    """
    datos = base64.b64encode(bytes(png)).decode("ascii")
    return (
        f'<div class="explorable-respaldo">{_ESTILO_RESPALDO}'
        f"<p><b>El explorable «{html.escape(nombre)}» no está activo.</b> Su parte interactiva "
        "vive en Python, y Python ya no la tiene (el cuaderno se ha vuelto a abrir, o el núcleo "
        "se ha reiniciado o apagado). Para volver a usarlo, ejecuta esta celda otra vez "
        "(Shift+Enter): vuelve a empezar desde su estado inicial, no desde el de la imagen. "
        f"Mientras tanto, esta es la imagen que quedó en la celda ({html.escape(estado)}); "
        "si cerraste la pestaña y la volviste a abrir, puede ser anterior a tus últimos cambios:</p>"
        f'<img src="data:image/png;base64,{datos}" style="max-width:100%"/>{extra}</div>')


def mas_tarde(funcion, segundos: float, sin_nucleo: bool = True) -> None:
    """Llama a ``funcion`` dentro de ``segundos`` en el bucle del núcleo.

    Fuera de un núcleo de Jupyter (pruebas, scripts), la llama ya si ``sin_nucleo``
    es True y no la llama si es False (un trabajo que sólo adelanta algo a quien
    va a pulsar botones).
    """
    try:
        from IPython import get_ipython
        bucle = get_ipython().kernel.io_loop
    except Exception:  # noqa: BLE001 - fuera de un núcleo de Jupyter (pruebas, scripts)
        bucle = None
    if bucle is None:
        if sin_nucleo:
            funcion()
    else:
        # add_callback es seguro desde cualquier hilo y despierta al bucle (los mensajes de
        # los widgets pueden atenderse en otro hilo); ya dentro, se programa la espera.
        bucle.add_callback(bucle.call_later, segundos, funcion)
