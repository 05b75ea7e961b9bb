"""Tests of the lesson-1 explorable (source/01_atencion_multicabeza/explorable_cabezas.py).

Pure layer: the claims the lesson makes about the five maps.  Wiring: the
widget is built headlessly, buttons are clicked and the row selector is set,
and the resulting state (legend, summary panel, image, button styles) is checked.
"""
from __future__ import annotations

import inspect

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from conftest import cargar_modulo

RUTA = "source/01_atencion_multicabeza/explorable_cabezas.py"


@pytest.fixture(scope="module")
def ex(raiz):
    return cargar_modulo(raiz / RUTA, "explorable_cabezas")


@pytest.fixture(scope="module")
def mapas(ex):
    return ex.calcular_mapas()


def fila(ex, mapas, nombre_mapa, palabra):
    return mapas[nombre_mapa][ex.PALABRAS.index(palabra)]


def peso(ex, pesos, palabra):
    return pesos[ex.PALABRAS.index(palabra)]


# --- pure layer: shapes and invariants -------------------------------------

def test_frase_y_reglas(ex):
    """Eight tokens of the sentence; four rules, each one column of Wq and of Wk."""
    assert ex.PALABRAS == ("el", "ratón", "pequeño", "que", "persiguen", "los", "gatos", "duerme")
    X = ex.matriz_rasgos()
    Wq, Wk = ex.matrices_reglas()
    assert X.shape == (8, 5) and X.dtype == np.float64
    assert Wq.shape == Wk.shape == (5, 4)
    assert ex.NOMBRES_MAPAS == ("Cabeza 1", "Cabeza 2", "Cabeza 3", "Cabeza 4", "Suma")


def test_cinco_mapas_con_filas_que_suman_uno(ex, mapas):
    """Every map is (8, 8), non-negative, each row summing to 1."""
    assert list(mapas) == list(ex.NOMBRES_MAPAS)
    for nombre, A in mapas.items():
        assert A.shape == (8, 8), nombre
        assert np.all(A >= 0), nombre
        np.testing.assert_allclose(A.sum(axis=1), 1.0, atol=1e-12, err_msg=nombre)


def test_mapas_salen_del_codigo_de_atencion(ex, mapas):
    """Maps are softmax(Q Kᵀ/√d_k) of the rule columns, not typed numbers."""
    X = ex.matriz_rasgos()
    Wq, Wk = ex.matrices_reglas()
    Q, K = X @ Wq, X @ Wk

    def referencia(q, k):
        E = q @ k.T / np.sqrt(q.shape[1])
        pesos = np.exp(E - np.max(E, axis=1, keepdims=True))
        return pesos / np.sum(pesos, axis=1, keepdims=True)

    for j in range(4):
        np.testing.assert_allclose(mapas[f"Cabeza {j + 1}"], referencia(Q[:, [j]], K[:, [j]]), atol=1e-12)
    np.testing.assert_allclose(mapas["Suma"], referencia(Q, K), atol=1e-12)
    # «Suma» is one head with d_k = 4 divided by √4 = 2, not a mix of the four heads
    media = sum(mapas[f"Cabeza {j}"] for j in range(1, 5)) / 4
    assert not np.allclose(mapas["Suma"], media)


def test_mapas_cambian_con_las_reglas(ex):
    """calcular_mapas really reads Wq/Wk: zeroing rule 1 makes head 1 uniform."""
    Wq, Wk = ex.matrices_reglas()
    Wq[:, 0] = 0.0
    A = ex.calcular_mapas(Wq=Wq, Wk=Wk)["Cabeza 1"]
    np.testing.assert_allclose(A, 1 / 8)


def test_softmax_estable(ex):
    """Huge scores give finite rows summing to 1."""
    S = ex.softmax_filas(np.array([[1000.0, 0.0, -1000.0], [5.0, 5.0, 5.0]]))
    assert np.all(np.isfinite(S))
    np.testing.assert_allclose(S, [[1, 0, 0], [1 / 3, 1 / 3, 1 / 3]], atol=1e-12)


# --- pure layer: the lesson's claims ---------------------------------------

def test_duerme_cabeza_1_empata_raton_y_gatos(ex, mapas):
    """Row *duerme*: head 1 («¿es sustantivo?») gives ratón and gatos the same weight, the most."""
    p = fila(ex, mapas, "Cabeza 1", "duerme")
    assert peso(ex, p, "ratón") == pytest.approx(peso(ex, p, "gatos"), abs=1e-12)
    assert peso(ex, p, "ratón") == pytest.approx(p.max(), abs=1e-12)


def test_duerme_ninguna_cabeza_elige_solo_raton(ex, mapas):
    """Row *duerme*: no single head puts its maximum on ratón alone."""
    for j in range(1, 5):
        p = fila(ex, mapas, f"Cabeza {j}", "duerme")
        ganadoras = ex.ganadoras(p)
        assert ganadoras != [ex.PALABRAS.index("ratón")], f"Cabeza {j}"


def test_duerme_cabezas_3_y_4_uniformes(ex, mapas):
    """Row *duerme*: heads 3 and 4 (asked only by nouns) are uniform."""
    for j in (3, 4):
        np.testing.assert_allclose(fila(ex, mapas, f"Cabeza {j}", "duerme"), 1 / 8, atol=1e-12)


def test_duerme_suma_elige_raton(ex, mapas):
    """Row *duerme*: «Suma» puts its maximum on ratón, strictly."""
    p = fila(ex, mapas, "Suma", "duerme")
    assert ex.ganadoras(p) == [ex.PALABRAS.index("ratón")]


def test_persiguen_suma_elige_gatos_y_hunde_raton(ex, mapas):
    """Row *persiguen*: «Suma» gives gatos the most weight and ratón less than 0.1."""
    p = fila(ex, mapas, "Suma", "persiguen")
    assert ex.ganadoras(p) == [ex.PALABRAS.index("gatos")]
    assert peso(ex, p, "ratón") < 0.1


def test_persiguen_cabeza_1_conserva_raton(ex, mapas):
    """Row *persiguen*: head 1 still gives ratón as much as gatos (and more than «Suma» does)."""
    p = fila(ex, mapas, "Cabeza 1", "persiguen")
    assert peso(ex, p, "ratón") == pytest.approx(peso(ex, p, "gatos"), abs=1e-12)
    assert peso(ex, p, "ratón") > peso(ex, fila(ex, mapas, "Suma", "persiguen"), "ratón")


def test_suma_es_producto_de_reglas(ex, mapas):
    """«Suma» row ∝ product of the per-rule exp(score/2): the 'and' the lesson explains."""
    X = ex.matriz_rasgos()
    Wq, Wk = ex.matrices_reglas()
    Q, K = X @ Wq, X @ Wk
    s = ex.PALABRAS.index("persiguen")
    producto = np.prod([np.exp(Q[s, j] * K[:, j] / 2) for j in range(4)], axis=0)
    np.testing.assert_allclose(fila(ex, mapas, "Suma", "persiguen"), producto / producto.sum(), atol=1e-12)


def test_resumen_fila(ex, mapas):
    """The per-row summary names the pulled-toward words, with ties and uniform rows."""
    r = {d["mapa"]: d for d in ex.resumen_fila(mapas, "duerme")}
    assert r["Cabeza 1"]["palabras"] == ["ratón", "gatos"]
    assert r["Cabeza 3"]["uniforme"] and r["Cabeza 4"]["uniforme"]
    assert r["Suma"]["palabras"] == ["ratón"]
    assert r["Suma"]["peso"] == pytest.approx(fila(ex, mapas, "Suma", "duerme").max())
    r = {d["mapa"]: d for d in ex.resumen_fila(mapas, ex.PALABRAS.index("persiguen"))}
    assert r["Suma"]["palabras"] == ["gatos"]
    texto = ex.texto_resumen(ex.resumen_fila(mapas, "duerme"), "duerme", seleccionado="Suma")
    assert "«ratón» con" in texto and "uniforme" in texto and "<b>Suma</b>" in texto


def test_sin_funcion_del_ejercicio(ex):
    """The shipped module offers no public function with the multi_head contract."""
    for nombre, objeto in vars(ex).items():
        if nombre.startswith("_") or not callable(objeto):
            continue
        try:
            parametros = list(inspect.signature(objeto).parameters)
        except (TypeError, ValueError):
            continue
        assert "Wv" not in parametros and "Wo" not in parametros, nombre
        assert not {"X", "h"} <= set(parametros), nombre
    assert not hasattr(ex, "multi_head")


# --- rendering ---------------------------------------------------------------

def test_dibujo_con_etiquetas_y_pesos(ex, mapas):
    """The heatmap has token labels on both axes and the weights written in the cells."""
    fig, ax = ex.nueva_figura()
    ex.dibujar_mapa(ax, mapas["Suma"], "Mapa «Suma»", "duerme")
    assert [t.get_text() for t in ax.get_xticklabels()] == list(ex.PALABRAS)
    assert [t.get_text() for t in ax.get_yticklabels()] == list(ex.PALABRAS)
    textos = [t.get_text() for t in ax.texts]
    assert len(textos) == 64
    assert f"{fila(ex, mapas, 'Suma', 'duerme').max():.3f}" in textos
    assert ex.figura_a_png(fig).startswith(b"\x89PNG")


def test_pesos_con_tres_decimales_como_el_panel_y_la_leccion(ex, mapas):
    """0.125 (uniform rows) is written 0.125 on the map, as in the panel and the prose (not 0.12)."""
    fig, ax = ex.nueva_figura()
    ex.dibujar_mapa(ax, mapas["Cabeza 3"], "Mapa «Cabeza 3»", "duerme")
    fila_duerme = [t.get_text() for t in ax.texts][7 * 8:8 * 8]
    assert fila_duerme == ["0.125"] * 8
    panel = ex.texto_resumen(ex.resumen_fila(mapas, "duerme"), "duerme")
    assert "0.125 a cada palabra" in panel


def test_escala_de_color_llega_al_mayor_peso_y_no_a_1(ex, mapas):
    """Contrast: the darkest colour is the largest weight of the five maps (0.514), rounded up."""
    maximo = max(float(A.max()) for A in mapas.values())
    assert maximo == pytest.approx(0.5135, abs=1e-4)
    assert ex.escala_de_color(mapas) == pytest.approx(0.6)
    assert ex.escala_de_color({"x": np.array([[0.5, 0.5]])}) == pytest.approx(0.5)
    assert ex.escala_de_color({"x": np.array([[1.0, 0.0]])}) == pytest.approx(1.0)
    caja = ex.crear_explorable()
    fig = caja._pintor.fig
    imagen = fig.axes[0].get_images()[0]
    assert imagen.get_clim() == pytest.approx((0.0, 0.6))
    assert fig.axes[1].get_ylabel() == "peso de atención"     # the colour bar says what it measures


def test_letra_legible(ex, mapas):
    """Word labels and weights are at least 13 px in the 100-dpi PNG."""
    fig, ax = ex.nueva_figura()
    ex.dibujar_mapa(ax, mapas["Suma"], "Mapa «Suma»", "duerme", tope=0.6)
    assert fig.dpi == 100
    for texto in ax.texts + ax.get_xticklabels() + ax.get_yticklabels():
        assert texto.get_fontsize() * fig.dpi / 72 >= 13


# --- wiring (headless) -------------------------------------------------------

def _por_clase(widget, clase):
    encontrados = []
    if clase in getattr(widget, "_dom_classes", ()):
        encontrados.append(widget)
    for hijo in getattr(widget, "children", ()):
        encontrados.extend(_por_clase(hijo, clase))
    return encontrados


@pytest.fixture()
def caja(ex):
    return ex.crear_explorable()


def test_estado_inicial(ex, caja):
    """Defaults: map «Suma», row duerme; the panel names ratón for «Suma»."""
    assert "explorable-cabezas" in caja._dom_classes
    botones = _por_clase(caja, "explorable-cabezas-boton")
    assert [b.description for b in botones] == list(ex.NOMBRES_MAPAS)
    assert [b.description for b in botones if b.button_style == "info"] == ["Suma"]
    (selector,) = _por_clase(caja, "explorable-cabezas-fila")
    assert selector.description == "Fila" and selector.value == "duerme"
    (leyenda,) = _por_clase(caja, "explorable-cabezas-leyenda")
    assert "<b>Suma</b>" in leyenda.value and "<b>duerme</b>" in leyenda.value
    (panel,) = _por_clase(caja, "explorable-cabezas-resumen")
    assert "<b>Suma</b>: «ratón» con" in panel.value
    (imagen,) = _por_clase(caja, "explorable-cabezas-mapa")
    assert bytes(imagen.value).startswith(b"\x89PNG")
    assert len(_por_clase(caja, "explorable-cabezas-botones")) == 1


def test_pulsar_boton_cambia_mapa(ex, caja):
    """Clicking «Cabeza 1» selects that map and redraws; the panel keeps all five maps."""
    (imagen,) = _por_clase(caja, "explorable-cabezas-mapa")
    antes = bytes(imagen.value)
    caja.botones["Cabeza 1"].click()
    assert caja.mapa_seleccionado == "Cabeza 1"
    assert caja.botones["Cabeza 1"].button_style == "info"
    assert caja.botones["Suma"].button_style == ""
    assert "<b>Cabeza 1</b>" in caja.leyenda.value
    assert bytes(imagen.value) != antes and bytes(imagen.value).startswith(b"\x89PNG")
    assert "<b>Cabeza 1</b>: empate entre «ratón» y «gatos»" in caja.panel.value
    caja.botones["Suma"].click()
    assert caja.mapa_seleccionado == "Suma" and "<b>Suma</b>" in caja.leyenda.value


def test_el_boton_elegido_lo_dicen_sus_clases_no_solo_su_color(ex, caja):
    """Every map button carries CONMUTADOR and only the chosen one PULSADO (the course's JupyterLab turns it
    into aria-pressed; the sixth student's report B4-6), from the start and after each click."""
    for elegido in ("Suma", "Cabeza 2", "Cabeza 4"):
        if elegido != "Suma":
            caja.botones[elegido].click()
        assert all(ex.CONMUTADOR in b._dom_classes for b in caja.botones.values())
        assert [n for n, b in caja.botones.items() if ex.PULSADO in b._dom_classes] == [elegido]


def test_cambiar_fila_actualiza_resumen(ex, caja):
    """Selecting the row persiguen makes the panel name gatos for «Suma»."""
    caja.selector_fila.value = "persiguen"
    assert "<b>persiguen</b>" in caja.leyenda.value
    assert "Fila «persiguen»" in caja.panel.value
    assert "<b>Suma</b>: «gatos» con" in caja.panel.value
    assert "Cabeza 1: empate entre «ratón» y «gatos»" in caja.panel.value
    caja.botones["Cabeza 3"].click()
    assert caja.selector_fila.value == "persiguen"
    assert "<b>Cabeza 3</b>: a nadie en particular" in caja.panel.value


def test_dos_explorables_independientes(ex):
    """No shared state: clicking in one explorable leaves another untouched."""
    a, b = ex.crear_explorable(), ex.crear_explorable(mapa_inicial="Cabeza 2", fila_inicial="gatos")
    a.botones["Cabeza 4"].click()
    assert b.mapa_seleccionado == "Cabeza 2" and b.selector_fila.value == "gatos"
    with pytest.raises(ValueError):
        ex.crear_explorable(mapa_inicial="Cabeza 9")


def test_salida_fija_con_aviso_imagen_y_resumen(caja):
    """The static fallback: Spanish hint to run the cell again, the current PNG and the summary."""
    import base64

    assert "application/vnd.jupyter.widget-view+json" in caja._repr_mimebundle_()
    assert "explorable-vivo" in caja._dom_classes
    datos = caja.datos_respaldo()
    assert 'class="explorable-respaldo"' in datos["text/html"]
    assert "ejecuta esta celda otra vez" in datos["text/html"]
    assert base64.b64encode(caja.imagen.value).decode() in datos["text/html"]
    assert caja.panel.value in datos["text/html"]
    assert "mapa «Suma», fila «duerme»" in datos["text/plain"]


def test_al_mostrarse_deja_la_salida_fija_y_la_pone_al_dia(caja, monkeypatch, ex):
    import IPython.display

    mostrados, actualizados = [], []

    class Asa:
        def update(self, datos, **kwargs):
            actualizados.append((datos, kwargs))

    def display(datos, **kwargs):
        mostrados.append((datos, kwargs))
        return Asa() if kwargs.get("display_id") else None

    monkeypatch.setattr(IPython.display, "display", display)
    caja._ipython_display_()
    assert [sorted(d) for d, _ in mostrados][0] == sorted(caja._repr_mimebundle_())
    assert mostrados[1][1]["metadata"] == ex.METADATOS_RESPALDO
    caja.botones["Cabeza 2"].click()
    datos, kwargs = actualizados[-1]
    assert "mapa «Cabeza 2»" in datos["text/plain"] and kwargs["metadata"] == ex.METADATOS_RESPALDO


# --- fast redraw: same picture as a fresh draw, shown at its own size ---------

def _pixeles(png):
    import io

    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(bytes(png))).convert("RGB"))


def test_redibujo_igual_que_dibujo_nuevo(ex, mapas):
    """After clicks and row changes, the widget's PNG is pixel for pixel a fresh draw of that state
    (every map, the first and the last row: the saved piece of the canvas covers all that changes)."""
    ex._PINTORES.clear()
    caja = ex.crear_explorable()
    acciones = [lambda: caja.botones["Cabeza 1"].click(),
                lambda: setattr(caja.selector_fila, "value", "persiguen"),
                lambda: caja.botones["Cabeza 3"].click(),
                lambda: setattr(caja.selector_fila, "value", "el"),
                lambda: caja.botones["Suma"].click(),
                lambda: setattr(caja.selector_fila, "value", "duerme")]
    acciones += [lambda n=n: caja.botones[n].click() for n in ("Cabeza 2", "Cabeza 4", "Cabeza 1")]
    for accion in acciones:
        accion()
        nombre, fila_elegida = caja.mapa_seleccionado, caja.selector_fila.value
        fig, ax = ex.nueva_figura()
        ex.dibujar_mapa(ax, mapas[nombre], f"Mapa «{nombre}»", fila_elegida,
                        tope=ex.escala_de_color(mapas))
        np.testing.assert_array_equal(_pixeles(caja.imagen.value), _pixeles(ex.figura_a_png(fig)))


def test_dibujar_mapa_dos_veces_igual_que_una(ex, mapas):
    """Updating the artists of a drawn map gives the same picture as drawing on new axes."""
    fig, ax = ex.nueva_figura()
    ex.dibujar_mapa(ax, mapas["Cabeza 2"], "Mapa «Cabeza 2»", "gatos")
    ex.figura_a_png(fig)
    ex.dibujar_mapa(ax, mapas["Suma"], "Mapa «Suma»", "duerme")
    assert len(ax.texts) == 64 and len(ax.images) == 1
    otra, ax_otra = ex.nueva_figura()
    ex.dibujar_mapa(ax_otra, mapas["Suma"], "Mapa «Suma»", "duerme")
    np.testing.assert_array_equal(_pixeles(ex.figura_a_png(fig)), _pixeles(ex.figura_a_png(otra)))


def test_imagen_a_su_tamano(caja):
    """The Image widget is shown at the PNG's pixel width (not stretched, so it is sharp)."""
    ancho = _pixeles(caja.imagen.value).shape[1]
    assert caja.imagen.layout.width == f"{ancho}px"


@pytest.mark.parametrize("paso", ["autograde", "validate"])
def test_bajo_nbgrader_no_se_pinta_de_antemano_y_todo_se_ve_igual(ex, mapas, monkeypatch, paso):
    """Under nbgrader nobody clicks: the other maps are not painted ahead, and every picture is the same."""
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    ex._PINTORES.clear()
    en_lab = ex.crear_explorable()
    assert set(en_lab._pintor._fondos) == set(mapas)            # JupyterLab: every map ready for a click
    monkeypatch.setenv("NBGRADER_EXECUTION", paso)
    ex._PINTORES.clear()                                        # a new kernel: nothing drawn yet
    calificada = ex.crear_explorable()
    assert set(calificada._pintor._fondos) == {"Suma"}
    assert calificada.datos_respaldo() == en_lab.datos_respaldo()    # the still picture of the feedback
    for caja in (en_lab, calificada):
        caja.botones["Cabeza 2"].click()
    np.testing.assert_array_equal(_pixeles(calificada.imagen.value), _pixeles(en_lab.imagen.value))


def test_la_primera_imagen_no_espera_a_los_otros_mapas(ex, mapas, monkeypatch):
    """In a kernel the other maps' layers are painted after the cell (issue 22.9: first picture ≤ 1 s)."""
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    pendientes = []
    monkeypatch.setattr(ex, "_mas_tarde", lambda funcion, segundos: pendientes.append((funcion, segundos)))
    ex._PINTORES.clear()
    caja = ex.crear_explorable()
    assert set(caja._pintor._fondos) == {"Suma"} and caja.imagen.value[:4] == b"\x89PNG"
    assert [s for _, s in pendientes] == [0.0]
    antes = caja.imagen.value
    pendientes[0][0]()                       # the kernel, once the cell is done
    assert set(caja._pintor._fondos) == set(mapas) and caja.imagen.value == antes


# --- first picture: drawn once per kernel, ahead of the cell when the module is imported ----

def test_volver_a_ejecutar_la_celda_no_vuelve_a_dibujar(ex, mapas, monkeypatch):
    """A second explorable with the same maps (the cell run again) reuses the painter: its first picture
    and every map already painted come without drawing (issue 22: first picture ≤ 1 s)."""
    ex._PINTORES.clear()
    primera = ex.crear_explorable()
    primera._pintor.preparar()
    monkeypatch.setattr(ex, "dibujar_mapa", lambda *a, **k: pytest.fail("ha vuelto a dibujar un mapa"))
    otra = ex.crear_explorable()
    assert otra._pintor is primera._pintor and otra.imagen.value == primera.imagen.value
    otra.botones["Cabeza 3"].click()
    otra.selector_fila.value = "gatos"
    assert otra.mapa_seleccionado == "Cabeza 3" and primera.mapa_seleccionado == "Suma"   # state apart
    otros_mapas = {n: A * 0.5 for n, A in mapas.items()}
    monkeypatch.undo()
    assert ex.crear_explorable(mapas=otros_mapas)._pintor is not primera._pintor


def test_precalentar_deja_hecha_la_primera_imagen(ex, mapas, monkeypatch):
    """``precalentar`` (in a kernel, once the module is imported) draws crear_explorable()'s first picture."""
    ex._PINTORES.clear()
    ex.precalentar()
    monkeypatch.setattr(ex, "_mas_tarde", lambda *a, **k: None)       # the other maps: later, in a kernel
    monkeypatch.setattr(ex, "dibujar_mapa", lambda *a, **k: pytest.fail("la primera imagen no estaba hecha"))
    caja = ex.crear_explorable()
    fig, ax = ex.nueva_figura()
    monkeypatch.undo()
    ex.dibujar_mapa(ax, mapas["Suma"], "Mapa «Suma»", "duerme", tope=ex.escala_de_color(mapas))
    np.testing.assert_array_equal(_pixeles(caja.imagen.value), _pixeles(ex.figura_a_png(fig)))


@pytest.mark.parametrize("paso, esperado", [(None, True), ("autograde", False), ("validate", False)])
def test_al_importar_en_un_nucleo_se_precalienta(raiz, monkeypatch, paso, esperado):
    """Importing the module asks the kernel for ``precalentar`` when it is idle (never outside a kernel,
    nor under nbgrader, where nobody waits for the picture)."""
    import sys

    if paso is None:
        monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    else:
        monkeypatch.setenv("NBGRADER_EXECUTION", paso)
    cargar_modulo(raiz / RUTA, "explorable_cabezas_importado")        # respaldo_explorable on sys.path
    pedidos = []
    monkeypatch.setattr(sys.modules["respaldo_explorable"], "mas_tarde",
                        lambda funcion, segundos, sin_nucleo=True: pedidos.append((funcion.__name__, segundos,
                                                                                  sin_nucleo)))
    cargar_modulo(raiz / RUTA, "explorable_cabezas_importado")
    assert pedidos == ([("precalentar", 0.0, False)] if esperado else [])
