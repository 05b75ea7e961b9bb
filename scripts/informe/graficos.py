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
import math
import textwrap

AZUL, NARANJA, GRIS, VERDE = "#0072B2", "#D55E00", "#555555", "#009E73"
TOLERANCIA = 1e-6


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


def paso(maximo: float) -> float:
    """Width of a histogram bar: one point up to 20 points (integer maximum), else a tenth of ``maximo``."""
    if maximo <= 0:
        return 1.0
    if maximo <= 20 and float(maximo).is_integer():
        return 1.0
    return maximo / 10


def recuento(notas: list[float], maximo: float) -> list[tuple[float, float, float, int]]:
    """The histogram's bars: ``(centro, desde, hasta, entregas)``, from 0 to ``maximo``.

    Bar ``k`` (centred on ``k · paso``) counts the scores from ``k · paso`` up
    to, not including, the next bar; the last bar counts only the full score
    (``desde == hasta == maximo``), so 18 out of 18 never shares a bar with 17,5.
    Scores outside [0, maximo] count in the first or the last bar.
    """
    ancho = paso(maximo)
    tope = max(float(maximo), 0.0)
    m = max(1, round(tope / ancho)) if tope > 0 else 0
    cuentas = [0] * (m + 1)
    for x in notas:
        if x >= tope - TOLERANCIA:
            k = m
        else:
            k = min(max(int(math.floor(max(x, 0.0) / ancho + TOLERANCIA)), 0), m - 1)
        cuentas[k] += 1
    return [(k * ancho, k * ancho, tope if k == m else (k + 1) * ancho, cuentas[k]) for k in range(m + 1)]


def histograma(notas: list[float], maximo: float) -> str:
    """Histogram of the submissions' scores (x: points out of ``maximo``; y: submissions), bars by :func:`recuento`."""
    plt = _pyplot()
    barras_ = recuento(notas, maximo)
    ancho = paso(maximo)
    figura, ejes = plt.subplots(figsize=(6.4, 3.0))
    centros = [b[0] for b in barras_]
    cuentas = [b[3] for b in barras_]
    colores = [AZUL] * (len(barras_) - 1) + [VERDE]
    ejes.bar(centros, cuentas, width=0.8 * ancho, color=colores, edgecolor="white")
    if len(centros) <= 21:
        ejes.set_xticks(centros, [f"{c:g}" for c in centros])        # decimal point: pagina.num
    ejes.set_xlabel(f"puntos (de {maximo:g})")
    ejes.set_ylabel("entregas")
    ejes.set_xlim(centros[0] - 0.6 * ancho, centros[-1] + 0.6 * ancho)
    ejes.yaxis.get_major_locator().set_params(integer=True)
    ejes.set_ylim(0, max(cuentas + [1]) * 1.1)
    ejes.set_title(f"Distribución de las notas ({_cuenta(len(notas), 'entrega')})")
    return _uri(figura)


def barras(etiquetas: list[str], tasas: list[float], titulo: str, umbral: float | None = None,
           valores: list[str] | None = None) -> str:
    """Horizontal bars of shares in [0, 1] (one per label, top to bottom).

    Each bar's value (``valores``, default the percentage) is written in a
    column to the right of the 100 % mark, so it never sits on the dashed
    threshold line.  Bars under ``umbral`` are drawn in the warning colour, and a
    legend under the chart says what each colour and the line mean.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    plt = _pyplot()
    etiquetas = ["\n".join(textwrap.wrap(e, 48)) or "—" for e in etiquetas]
    valores = valores or [f"{round(100 * t)} %" for t in tasas]
    alto = max(1.6, 0.2 + 0.42 * sum(1 + e.count("\n") * 0.6 for e in etiquetas)) + (0.5 if umbral is not None else 0)
    figura, ejes = plt.subplots(figsize=(7.2, alto))
    posiciones = list(range(len(etiquetas)))[::-1]
    colores = [NARANJA if umbral is not None and t < umbral else AZUL for t in tasas]
    ejes.barh(posiciones, [100 * t for t in tasas], color=colores, height=0.65)
    for y, texto in zip(posiciones, valores):          # x in axes units: right of the 100 % mark
        ejes.text(1.03, y, texto, va="center", ha="left", fontsize=9, color="black",
                  transform=ejes.get_yaxis_transform(), clip_on=False)
    if umbral is not None:
        ejes.axvline(100 * umbral, color=GRIS, linestyle="--", linewidth=1)
        limite = f"{round(100 * umbral)} %"
        figura.subplots_adjust(bottom=0.8 / alto)
        figura.legend(handles=[Patch(color=AZUL, label=f"{limite} o más"),
                               Patch(color=NARANJA, label=f"menos del {limite}"),
                               Line2D([0], [0], color=GRIS, linestyle="--", linewidth=1, label=f"umbral ({limite})")],
                      loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=3, frameon=False, fontsize=9)
    ejes.set_yticks(posiciones, etiquetas)
    ejes.set_xlim(0, 100)
    ejes.set_xticks([0, 25, 50, 75, 100], ["0 %", "25 %", "50 %", "75 %", "100 %"])
    ejes.set_title(titulo)
    return _uri(figura)


def _cuenta(n: int, palabra: str) -> str:
    return f"{n} {palabra if n == 1 else palabra + 's'}"
