"""The report's charts (matplotlib), as self-contained SVG ``data:`` URIs.

SVG keeps the charts sharp on screen and on paper; text is drawn as paths
(matplotlib's default ``svg.fonttype``), so the image needs no font and no
network.  Ids and metadata are fixed, so the same data always gives the same
bytes (the report is identical for any number of workers).  Colours come from
the colour-blind-safe Okabe–Ito palette, with dark text and a white background
so they also read when printed in grey.
"""
from __future__ import annotations

import base64
import io
import textwrap

AZUL, NARANJA, GRIS = "#0072B2", "#D55E00", "#555555"


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"svg.hashsalt": "informe-de-clase", "font.size": 10, "axes.titlesize": 11,
                         "axes.spines.top": False, "axes.spines.right": False})
    return plt


def _uri(figura) -> str:
    plt = _pyplot()
    buffer = io.BytesIO()
    figura.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figura)
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def intervalos(maximo: float) -> list[float]:
    """Bin edges over [0, maximo]: one per point up to 20 points, else 10 equal bins."""
    if maximo <= 0:
        return [0.0, 1.0]
    if maximo <= 20 and float(maximo).is_integer():
        return [float(x) for x in range(int(maximo) + 1)]
    return [maximo * i / 10 for i in range(11)]


def histograma(notas: list[float], maximo: float) -> str:
    """Histogram of the submissions' scores (x: points out of ``maximo``; y: submissions)."""
    plt = _pyplot()
    bordes = intervalos(maximo)
    figura, ejes = plt.subplots(figsize=(6.4, 3.0))
    ejes.hist([min(max(x, 0.0), bordes[-1]) for x in notas], bins=bordes, color=AZUL, edgecolor="white")
    ejes.set_xlabel(f"puntos (de {maximo:g})")
    ejes.set_ylabel("entregas")
    ejes.set_xlim(bordes[0], bordes[-1])
    ejes.yaxis.get_major_locator().set_params(integer=True)
    ejes.set_title(f"Distribución de las notas ({len(notas)} entregas)")
    return _uri(figura)


def barras(etiquetas: list[str], tasas: list[float], titulo: str, umbral: float | None = None) -> str:
    """Horizontal bars of shares in [0, 1] (one per label, top to bottom), with the value written.

    Bars under ``umbral`` are drawn in the warning colour and the threshold as a dashed line.
    """
    plt = _pyplot()
    etiquetas = ["\n".join(textwrap.wrap(e, 48)) or "—" for e in etiquetas]
    alto = max(1.6, 0.2 + 0.42 * sum(1 + e.count("\n") * 0.6 for e in etiquetas))
    figura, ejes = plt.subplots(figsize=(7.2, alto))
    posiciones = list(range(len(etiquetas)))[::-1]
    colores = [NARANJA if umbral is not None and t < umbral else AZUL for t in tasas]
    ejes.barh(posiciones, [100 * t for t in tasas], color=colores, height=0.65)
    for y, t in zip(posiciones, tasas):
        ejes.text(min(100 * t + 1.5, 101), y, f"{round(100 * t)} %", va="center", fontsize=9, color="black")
    if umbral is not None:
        ejes.axvline(100 * umbral, color=GRIS, linestyle="--", linewidth=1)
    ejes.set_yticks(posiciones, etiquetas)
    ejes.set_xlim(0, 112)
    ejes.set_xticks([0, 25, 50, 75, 100], ["0 %", "25 %", "50 %", "75 %", "100 %"])
    ejes.set_title(titulo)
    return _uri(figura)

