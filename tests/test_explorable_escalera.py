"""Tests of the lesson-2 explorable (the wavelength ladder): pure layer and headless wiring."""
from __future__ import annotations

import base64
import inspect

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from conftest import RAIZ, cargar_modulo
from grader_tests.juez.descubrimiento import ejercicio

TOLERANCIA_PE = ejercicio("positional_encoding").tolerancia

RUTA = RAIZ / "source" / "02_codificacion_posicional" / "explorable_escalera.py"
esc = cargar_modulo(RUTA, "explorable_escalera")


def pe_referencia(T: int, d_model: int) -> np.ndarray:
    """The exercise's contract, written with a double loop so it shares no code with the module."""
    pe = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(d_model // 2):
            angulo = pos / 10000 ** (2 * i / d_model)
            pe[pos, 2 * i] = np.sin(angulo)
            pe[pos, 2 * i + 1] = np.cos(angulo)
    return pe


# ---------------------------------------------------------------- pure layer

def test_longitudes_de_onda_d32_son_las_de_la_leccion():
    lam = esc._longitudes_exactas(32)
    assert lam.shape == (16,) and lam.dtype == np.float64
    assert np.round(lam[:3], 1).tolist() == [6.3, 11.2, 19.9]
    assert round(float(lam[-1]), 1) == 35332.9
    assert "≈ 35 332.9 posiciones" in esc.texto_longitud(15, 32, "intercalada")


def test_escalera_geometrica_de_razon_10000_a_la_2_entre_d():
    lam = esc._longitudes_exactas(32)
    razones = lam[1:] / lam[:-1]
    np.testing.assert_allclose(razones, 10000 ** (2 / 32), rtol=1e-12)
    assert round(float(razones[0]), 2) == 1.78


def test_frecuencias_empiezan_en_uno_y_decrecen():
    omega = esc.frecuencias(32)
    assert omega[0] == 1.0
    assert np.all(np.diff(omega) < 0)
    np.testing.assert_allclose(2 * np.pi / omega.astype(np.float64), esc.longitudes_de_onda(32), rtol=2e-3)


@pytest.mark.parametrize("d_model", [2, 8, 32, 64, 128])
def test_frecuencias_y_longitudes_publicas_con_tres_cifras_como_la_matriz(d_model):
    """What the module's public functions give per pair is float16, like its map (issue 19, eighth attack):
    enough to read and plot, not the exercise's frequencies (tolerance 1e-6)."""
    omega, lam = esc.frecuencias(d_model), esc.longitudes_de_onda(d_model)
    assert omega.dtype == lam.dtype == np.float16
    exactas = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    np.testing.assert_allclose(omega, exactas, rtol=1e-3)
    np.testing.assert_allclose(lam, 2 * np.pi / exactas, rtol=1e-3)
    if d_model >= 8:
        assert np.max(np.abs(omega.astype(np.float64) - exactas) / exactas) > 1e-5
    curvas = esc.curvas_de_pareja(4, d_model, d_model // 2 - 1)
    assert curvas["longitud"] == float(lam[-1])


@pytest.mark.parametrize("d_model", [2, 4, 32, 128])
def test_longitud_maxima_por_debajo_de_2pi_por_10000(d_model):
    maxima = esc.longitud_maxima(d_model)
    assert maxima == pytest.approx(2 * np.pi * 10000 ** ((d_model - 2) / d_model), rel=1e-3)
    assert maxima == float(esc.longitudes_de_onda(d_model)[-1])
    assert maxima < 2 * np.pi * 10000


def test_longitud_maxima_d128_ronda_54400():
    assert 54_300 < esc.longitud_maxima(128) < 54_500


LLAMADAS_FUERA_DE_LOS_CONTROLES = {
    "frecuencias(314)": lambda: esc.frecuencias(314),
    "longitudes_de_onda(130)": lambda: esc.longitudes_de_onda(130),
    "longitud_maxima(512)": lambda: esc.longitud_maxima(512),
    "columnas_de_pareja(1, 314)": lambda: esc.columnas_de_pareja(1, 314, "intercalada"),
    "matriz_para_mapa(20000, 16)": lambda: esc.matriz_para_mapa(20000, 16, "intercalada"),
    "matriz_para_mapa(201, 16)": lambda: esc.matriz_para_mapa(201, 16, "concatenada"),
    "matriz_para_mapa(8, 314)": lambda: esc.matriz_para_mapa(8, 314, "intercalada"),
    "curvas_de_pareja(200000, 16, 1, 1)": lambda: esc.curvas_de_pareja(200000, 16, 1, 1),
    "curvas_de_pareja(200, 16, 1, 1000)": lambda: esc.curvas_de_pareja(200, 16, 1, 1000),
    "curvas_de_pareja(8, 314, 1)": lambda: esc.curvas_de_pareja(8, 314, 1),
    "comparar_disposiciones(5000, 16)": lambda: esc.comparar_disposiciones(5000, 16),
    "texto_longitud(1, 314)": lambda: esc.texto_longitud(1, 314, "intercalada"),
    "texto_longitud(1, 130) concatenada": lambda: esc.texto_longitud(1, 130, "concatenada"),
    "titulo_curvas(1, 314)": lambda: esc.titulo_curvas(1, 314, "intercalada"),
    "texto_disposicion(300, 16)": lambda: esc.texto_disposicion(300, 16, "intercalada"),
    "dibujar(20000, 16)": lambda: esc.dibujar(20000, 16, 1, "intercalada"),
    "dibujar(8, 314)": lambda: esc.dibujar(8, 314, 1, "intercalada"),
}


@pytest.mark.parametrize("nombre", sorted(LLAMADAS_FUERA_DE_LOS_CONTROLES))
def test_las_funciones_publicas_solo_aceptan_los_tamanos_de_los_controles(nombre):
    """Issue 19, tenth attack: three figures at 200 000 positions (`curvas_de_pareja(200000, d, 1, 1)`) or
    20 000 rows of the map give each frequency to twelve figures through a straight line fitted to the
    unwrapped phase, and the text of a pair wrote «10000^(2/314)» for any size.  Every public function takes
    only the sizes the controls offer and says so in Spanish."""
    with pytest.raises(ValueError, match="no vale aquí") as error:
        LLAMADAS_FUERA_DE_LOS_CONTROLES[nombre]()
    assert "explorable" in str(error.value) or "panel" in str(error.value)


def test_los_tamanos_de_los_controles_siguen_valiendo():
    """The edges the controls reach still work (T = 1 and 200, d_model = 2 and 128, 8 curve points)."""
    assert esc.matriz_para_mapa(esc.T_MAX, esc.D_MODEL_MAX, "intercalada")["matriz"].shape == (200, 128)
    assert esc.matriz_para_mapa(esc.T_MIN, esc.D_MODEL_MIN, "concatenada")["matriz"].shape == (1, 2)
    curvas = esc.curvas_de_pareja(esc.T_MAX, esc.D_MODEL_MAX, esc.PAREJAS_MAX - 1, esc.MUESTRAS_POR_POSICION)
    assert len(curvas["x"]) == (esc.T_MAX - 1) * esc.MUESTRAS_POR_POSICION + 1
    assert "10000^(126/128)" in esc.texto_longitud(63, 128, "intercalada")


@pytest.mark.parametrize("d_model", [8, 16, 34, 64])
def test_longitud_maxima_con_tres_cifras_no_da_la_razon_exacta(d_model):
    """Published with three figures, like every public number of the explorable (issue 19, ninth attack: with the
    exact value, r = (2π/λ_max)^(1/(d_model/2 − 1)) rebuilt the whole table)."""
    maxima = esc.longitud_maxima(d_model)
    assert maxima == float(np.float16(maxima))
    exacta = 2 * np.pi * 10000 ** ((d_model - 2) / d_model)
    assert abs(maxima - exacta) / exacta > 1e-6


def test_los_datos_de_la_figura_y_el_estado_tienen_tres_cifras():
    """Neither the lines of the ladder nor the explorable's state hold an exact wavelength (issue 19, ninth attack)."""
    figura = esc._FiguraEscalera(8, 32, 1, "intercalada")
    for linea in (figura.peldanos, figura.elegido):
        y = np.asarray(linea.get_ydata(), dtype=np.float64)
        assert np.array_equal(y, y.astype(np.float16).astype(np.float64))
    caja = esc.crear_explorable(d_model=32, T=8, pareja=1)
    assert caja.estado["longitud"] == float(np.float16(caja.estado["longitud"]))


@pytest.mark.parametrize("d_model", [0, 3, 7, -2])
def test_d_model_impar_o_no_positivo_se_rechaza(d_model):
    with pytest.raises(ValueError):
        esc.frecuencias(d_model)


def test_mapa_intercalado_coincide_con_el_contrato_del_articulo():
    mapa = esc.matriz_para_mapa(24, 32, "intercalada")
    assert mapa["matriz"].shape == (24, 32)
    np.testing.assert_allclose(mapa["matriz"], pe_referencia(24, 32), atol=1e-3)
    assert mapa["es_seno"][:4].tolist() == [True, False, True, False]
    assert mapa["pareja_de_columna"][:4].tolist() == [0, 0, 1, 1]


def test_mapa_concatenado_pone_senos_y_luego_cosenos():
    ref = pe_referencia(24, 32)
    mapa = esc.matriz_para_mapa(24, 32, "concatenada")
    np.testing.assert_allclose(mapa["matriz"][:, :16], ref[:, 0::2], atol=1e-3)
    np.testing.assert_allclose(mapa["matriz"][:, 16:], ref[:, 1::2], atol=1e-3)
    assert mapa["es_seno"].tolist() == [True] * 16 + [False] * 16


@pytest.mark.parametrize("disposicion", ["intercalada", "concatenada"])
def test_valores_en_menos_uno_uno_para_T_grande(disposicion):
    matriz = esc.matriz_para_mapa(esc.T_MAX, 64, disposicion)["matriz"]
    assert np.all(np.isfinite(matriz))
    assert matriz.min() >= -1.0 and matriz.max() <= 1.0


def test_disposiciones_mismos_productos_escalares_distintos_vectores():
    a = esc.matriz_para_mapa(24, 32, "intercalada")["matriz"].astype(np.float64)
    b = esc.matriz_para_mapa(24, 32, "concatenada")["matriz"].astype(np.float64)
    np.testing.assert_allclose(a @ a.T, b @ b.T, atol=1e-9)
    assert not np.allclose(a, b)
    comparacion = esc.comparar_disposiciones(24, 32)
    assert comparacion["productos"] < 1e-9
    assert comparacion["vectores"] > 1.0


def test_disposicion_desconocida_se_rechaza():
    with pytest.raises(ValueError):
        esc.matriz_para_mapa(4, 8, "al revés")
    with pytest.raises(ValueError):
        esc.columnas_de_pareja(0, 8, "al revés")


@pytest.mark.parametrize("disposicion, esperado", [("intercalada", (6, 7)), ("concatenada", (3, 19))])
def test_columnas_de_la_pareja_3_con_d32(disposicion, esperado):
    assert esc.columnas_de_pareja(3, 32, disposicion) == esperado


@pytest.mark.parametrize("disposicion", ["intercalada", "concatenada"])
def test_columnas_de_pareja_llevan_su_seno_y_su_coseno(disposicion):
    T, d, i = 24, 32, 5
    col_seno, col_coseno = esc.columnas_de_pareja(i, d, disposicion)
    mapa = esc.matriz_para_mapa(T, d, disposicion)
    ref = pe_referencia(T, d)
    np.testing.assert_allclose(mapa["matriz"][:, col_seno], ref[:, 2 * i], atol=1e-3)
    np.testing.assert_allclose(mapa["matriz"][:, col_coseno], ref[:, 2 * i + 1], atol=1e-3)
    assert mapa["es_seno"][col_seno] and not mapa["es_seno"][col_coseno]
    assert mapa["pareja_de_columna"][col_seno] == mapa["pareja_de_columna"][col_coseno] == i


def test_pareja_fuera_de_rango_se_rechaza():
    with pytest.raises(ValueError):
        esc.columnas_de_pareja(16, 32, "intercalada")


def test_curvas_de_pareja_en_posiciones_enteras_son_las_columnas():
    curvas = esc.curvas_de_pareja(24, 32, 2)
    ref = pe_referencia(24, 32)
    mapa = esc.matriz_para_mapa(24, 32, "intercalada")["matriz"]
    np.testing.assert_array_equal(curvas["seno_pos"], mapa[:, 4])
    np.testing.assert_array_equal(curvas["coseno_pos"], mapa[:, 5])
    np.testing.assert_allclose(curvas["seno_pos"], ref[:, 4], atol=1e-3)
    np.testing.assert_allclose(curvas["coseno_pos"], ref[:, 5], atol=1e-3)
    assert curvas["longitud"] == pytest.approx(19.869, abs=1e-2)
    assert curvas["x"][0] == 0 and curvas["x"][-1] == 23


def test_texto_longitud_da_la_formula_y_el_valor():
    texto = esc.texto_longitud(15, 32, "intercalada")
    assert "columnas 30 (seno) y 31 (coseno)" in texto
    assert "2π·10000^(30/32)" in texto
    assert "35 332.9" in texto


def test_formatear_posiciones():
    assert esc.formatear_posiciones(35332.9475) == "35 332.9"
    assert esc.formatear_posiciones(6.2831853) == "6.3"
    # as the lesson writes numbers: four digits are not grouped (a student: «≈ 6 283.2» against the lesson's 6283.2)
    assert esc.formatear_posiciones(6283.185) == "6283.2"
    assert esc.formatear_posiciones(9999.94) == "9999.9" and esc.formatear_posiciones(10000.0) == "10 000.0"


def test_ninguna_funcion_publica_resuelve_el_ejercicio():
    """No public callable of the module returns the exercise's answer ready-made."""
    ref = pe_referencia(5, 8)
    for nombre, objeto in vars(esc).items():
        if nombre.startswith("_") or not inspect.isfunction(objeto) or objeto.__module__ != esc.__name__:
            continue
        for argumentos in [(5, 8), (5, 8, "intercalada")]:
            try:
                resultado = objeto(*argumentos)
            except Exception:  # noqa: BLE001 - any failure means "not a ready-made answer"
                continue
            es_respuesta = (isinstance(resultado, np.ndarray) and resultado.shape == (5, 8)
                            and resultado.dtype == np.float64
                            and np.allclose(resultado, ref, **TOLERANCIA_PE))
            assert not es_respuesta, f"{nombre}{argumentos} devuelve la solución del ejercicio"


def test_ni_las_curvas_ni_los_senos_del_modulo_sirven_para_el_ejercicio():
    """Building PE from the module's pieces (a student's shortcut) misses the 1e-6 tolerance."""
    T, d = 60, 16
    ref = pe_referencia(T, d)
    por_curvas = np.empty((T, d))
    for i in range(d // 2):
        curvas = esc.curvas_de_pareja(T, d, i)
        por_curvas[:, 2 * i], por_curvas[:, 2 * i + 1] = curvas["seno_pos"], curvas["coseno_pos"]
    senos, cosenos = esc._senos_y_cosenos(np.arange(T), d)
    por_senos = np.empty((T, d))
    por_senos[:, 0::2], por_senos[:, 1::2] = senos, cosenos
    for atajo in (por_curvas, por_senos):
        assert np.allclose(atajo, ref, atol=1e-3)            # good enough to draw
        assert not np.allclose(atajo, ref, **TOLERANCIA_PE)  # not enough to pass


def test_curvas_con_T_1_no_inventan_posiciones():
    """T = 1: the curve is the single position 0 (the old code drew up to position 1)."""
    curvas = esc.curvas_de_pareja(1, 8, 0)
    assert curvas["x"].tolist() == [0.0] and curvas["pos"].tolist() == [0.0]


# ---- ticks: integers inside the axis, on every axis that counts things

@pytest.mark.parametrize("n, esperado", [(1, [0]), (2, [0, 1]), (8, list(range(8))),
                                         (9, [0, 2, 4, 6, 8]), (32, [0, 4, 8, 12, 16, 20, 24, 28]),
                                         (64, [0, 8, 16, 24, 32, 40, 48, 56]),
                                         (200, [0, 25, 50, 75, 100, 125, 150, 175])])
def test_marcas_enteras(n, esperado):
    assert esc.marcas_enteras(n, 8) == esperado


def test_marcas_enteras_siempre_dentro_y_enteras():
    for n in range(1, 1001):
        marcas = esc.marcas_enteras(n, 8)
        assert marcas[0] == 0 and all(isinstance(m, int) for m in marcas), n
        assert 1 <= len(marcas) <= 8 and marcas[-1] <= n - 1, n
        assert marcas == sorted(set(marcas)), n


def test_marcas_enteras_rechaza_ejes_vacios():
    with pytest.raises(ValueError):
        esc.marcas_enteras(0)


# ---- labels that follow the layout

def test_rotulo_de_columnas_sigue_a_la_disposicion():
    intercalada = esc.etiqueta_columnas("intercalada")
    concatenada = esc.etiqueta_columnas("concatenada")
    assert "izquierda" in intercalada and "derecha" in intercalada
    assert "cada mitad" in concatenada and "izquierda" not in concatenada
    assert "2i+1" in esc.titulo_mapa("intercalada") and "[sin | cos]" in esc.titulo_mapa("concatenada")
    with pytest.raises(ValueError):
        esc.etiqueta_columnas("al revés")


@pytest.mark.parametrize("disposicion, columnas", [("intercalada", "10 y 11"), ("concatenada", "5 y 21")])
def test_titulo_de_curvas_da_las_columnas_de_la_disposicion(disposicion, columnas):
    assert esc.titulo_curvas(5, 32, disposicion) == f"Pareja 5 (columnas {columnas}): λ ≈ 111.7"


def test_nota_con_d_model_2_dice_que_las_disposiciones_coinciden():
    """At d_model = 2 both layouts are the same matrix: the note says so instead of "0.00"."""
    assert esc.comparar_disposiciones(10, 2)["vectores"] == 0.0
    for disposicion in esc.DISPOSICIONES:
        nota = esc.texto_disposicion(10, 2, disposicion)
        assert "misma matriz" in nota and "diferencia máxima" not in nota
    assert "diferencia máxima" in esc.texto_disposicion(10, 4, "concatenada")


@pytest.mark.parametrize("disposicion", ["intercalada", "concatenada"])
def test_con_d_model_2_los_textos_hablan_de_una_columna_y_una_pareja(disposicion):
    """d_model = 2 has one pair: no «columnas 0…0», no fast and slow pairs (student's report 4, issue 22)."""
    nota = esc.texto_disposicion(10, 2, disposicion)
    rotulo = esc.etiqueta_columnas(disposicion, 2)
    assert "el seno va en la columna 0 y el coseno en la 1" in nota
    assert "…" not in nota and "2i" not in nota
    assert "una sola pareja" in rotulo and "rápidas" not in rotulo
    assert "0…1" in esc.texto_disposicion(10, 4, "concatenada")
    assert "rápidas" in esc.etiqueta_columnas(disposicion, 4)


# ---- typed values: refused visibly, the value in use stays

def test_revisar_valor_acepta_lo_que_vale():
    assert esc.revisar_valor("d_model", 48, 32, 2, 128, par=True) == (48, None)


@pytest.mark.parametrize("valor, palabra", [(33, "par"), (512, "de 2 a 128"), (0, "de 2 a 128"),
                                            (-4, "de 2 a 128")])
def test_revisar_valor_rechaza_d_model_impar_o_fuera_de_rango(valor, palabra):
    usado, mensaje = esc.revisar_valor("d_model", valor, 32, 2, 128, par=True)
    assert usado == 32
    assert palabra in mensaje and f"d_model = {valor} no vale" in mensaje
    assert "Sigue d_model = 32" in mensaje


def test_revisar_valor_explica_el_rango_si_se_le_da_motivo():
    _, mensaje = esc.revisar_valor("pareja i", 16, 3, 0, 15, motivo_rango="(hay 16 parejas)")
    assert "de 0 a 15. (hay 16 parejas)" in mensaje


def test_mapa_en_float16_no_pasa_la_tolerancia_del_ejercicio():
    matriz = esc.matriz_para_mapa(50, 16, "intercalada")["matriz"]
    assert matriz.dtype == np.float16
    assert not np.allclose(matriz.astype(np.float64), pe_referencia(50, 16), **TOLERANCIA_PE)


# ---------------------------------------------------------------- rendering

def _textos(fig):
    return [t for t in fig.findobj(matplotlib.text.Text) if t.get_visible() and t.get_text()]


def test_dibujar_tiene_tres_paneles_y_el_mapa_fijo_en_menos_uno_uno():
    fig = esc.dibujar(24, 32, 3, "intercalada")
    ax_mapa, barra, ax_curvas, ax_escalera = fig.axes
    (imagen,) = [a for a in ax_mapa.get_children() if isinstance(a, esc._PixelesDelMapa)]
    assert barra.get_ylim() == (-1.0, 1.0)                 # the colour bar: the fixed scale
    assert imagen.get_array().shape == (400, 384, 3)       # one pixel per pixel of the panel
    np.testing.assert_array_equal(imagen.get_array(), esc.imagen_del_mapa(
        esc.matriz_para_mapa(24, 32, "intercalada")["matriz"], 384, 400))
    # and that is what the PNG shows, position 0 on top (a strip inside the frames and the axes' edges)
    png = _pixeles(esc.figura_a_png(fig))
    np.testing.assert_array_equal(png[560 - 498 + 2:560 - 98 - 2, 75 + 110:75 + 384 - 2],   # right of pair 3
                                  imagen.get_array()[2:-2, 110:-2])
    assert ax_escalera.get_yscale() == "log"
    referencias = [linea.get_ydata()[0] for linea in ax_escalera.get_lines()
                   if len(linea.get_ydata()) == 2 and linea.get_ydata()[0] == linea.get_ydata()[1]]
    assert any(y == pytest.approx(2 * np.pi * 10000) for y in referencias)
    # the two highlighted columns (rectangles) are those of pair 3
    bordes = sorted(p.get_x() + 0.5 for p in ax_mapa.patches)
    assert bordes == [6, 7]
    textos = [t.get_text() for t in _textos(fig)]
    assert "posición pos" in textos and esc.etiqueta_columnas("intercalada") in textos
    assert esc.titulo_mapa("intercalada") in textos


def test_figura_a_png_da_un_png_de_1000_pixeles():
    png = esc.figura_a_png(esc.dibujar(8, 8, 0, "concatenada"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert _pixeles(png).shape == (560, 1000, 3)


def test_letra_legible_y_simbolos_con_mathtext():
    """Every text is at least 13 px (100 dpi); λ_i is set as math, never a literal underscore."""
    fig = esc.dibujar(64, 32, 2, "intercalada")
    for texto in _textos(fig):
        assert texto.get_fontsize() * fig.dpi / 72 >= 13, texto.get_text()
        cadena = texto.get_text()
        fuera_de_formulas = cadena.split("$")[0::2]
        assert not any("_" in trozo for trozo in fuera_de_formulas), cadena
    assert r"$\lambda_i$ (posiciones)" == fig.axes[3].get_ylabel()


@pytest.mark.parametrize("T, d_model", [(1, 2), (2, 4), (17, 34), (64, 32), (200, 128)])
def test_marcas_enteras_en_los_ejes_que_cuentan(T, d_model):
    """Positions, columns and pairs: integer ticks inside the data, also at T = 1 and d_model = 2."""
    fig = esc.dibujar(T, d_model, 0, "intercalada")
    ax_mapa, _barra, ax_curvas, ax_escalera = fig.axes
    for marcas, n in ((ax_mapa.get_yticks(), T), (ax_mapa.get_xticks(), d_model),
                      (ax_curvas.get_xticks(), T), (ax_escalera.get_xticks(), d_model // 2)):
        assert len(marcas) and all(float(m).is_integer() and 0 <= m <= n - 1 for m in marcas), marcas
    if T == 1:
        assert list(ax_mapa.get_yticks()) == [0] and list(ax_curvas.get_xticks()) == [0]
        assert ax_curvas.get_xlim() == (-0.5, 0.5)
    if d_model == 2:
        assert list(ax_mapa.get_xticks()) == [0, 1]
        assert list(ax_escalera.get_xticks()) == [0]           # one pair: not an axis up to 56


def test_las_leyendas_no_tapan_datos():
    """Both legends sit outside their axes, so no curve, rung or line can be under them."""
    fig = esc.dibujar(64, 32, 0, "intercalada")
    fig.canvas.draw()
    _mapa, _barra, ax_curvas, ax_escalera = fig.axes
    leyendas = fig.legends + [ax_escalera.get_legend()]
    assert len(leyendas) == 2
    for leyenda in leyendas:
        caja = leyenda.get_window_extent()
        for ax in (ax_curvas, ax_escalera):
            assert not caja.overlaps(ax.get_window_extent()), leyenda


@pytest.mark.parametrize("d_model", [2, 4, 8, 32, 34, 64, 128])
def test_la_escalera_va_de_la_primera_pareja_a_la_ultima(d_model):
    """The prose: the rungs climb from 2π to just below 2π·10000 across the whole axis, whatever d_model;
    more pairs, smaller steps.  The axis is this d_model's pairs, with every rung (and the circle of
    the chosen pair, first or last) inside it."""
    figura = esc._FiguraEscalera(64, d_model, d_model // 2 - 1, "intercalada")
    figura.png()
    ax = figura.ax_escalera
    izquierda, derecha = ax.get_xlim()
    assert izquierda < 0 and d_model // 2 - 1 < derecha
    assert derecha - izquierda <= d_model // 2 + 6                     # no room for pairs that are not there
    x = ax.transData.transform(np.column_stack(figura.peldanos.get_data()))[:, 0]
    assert x.min() - ax.bbox.x0 >= esc.MARGEN_ESCALERA_PX - 1e-6 and ax.bbox.x1 - x.max() >= esc.MARGEN_ESCALERA_PX - 1e-6
    if d_model > 2:                                                     # the line fills the panel
        assert x.max() - x.min() >= ax.bbox.width - 2 * max(esc.MARGEN_ESCALERA_PX, ax.bbox.width / d_model) - 1
    assert ax.get_ylim() == (0.7, 3e5)                                  # λ's axis never moves


def test_limites_de_la_escalera():
    assert esc.limites_escalera(1, 222) == (-0.5, 0.5)
    izquierda, derecha = esc.limites_escalera(64, 222, 9)
    assert izquierda == pytest.approx(63 - derecha) and 63 < derecha < 67
    assert 9 * (derecha - izquierda) / 222 == pytest.approx(-izquierda)  # exactly 9 px each side
    for malo in ((0, 222), (3, 18)):
        with pytest.raises(ValueError):
            esc.limites_escalera(*malo)


def test_mapa_sin_muare_pixel_a_pixel():
    """The heatmap's pixels: whole blocks of 3 × 2 per cell with d_model = 128 and T = 200 (its densest
    state); elsewhere every pixel is a mix of the cells it covers, never a colour from further away."""
    matriz = esc.matriz_para_mapa(200, 128, "intercalada")["matriz"]
    pixeles = esc.imagen_del_mapa(matriz, *esc.MAPA_PX)
    colores = esc.imagen_del_mapa(matriz, 128, 200)                    # one pixel per cell
    np.testing.assert_array_equal(pixeles, np.repeat(np.repeat(colores, 2, axis=0), 3, axis=1))
    assert esc.MAPA_PX == (384, 400) and 384 // 128 == 3 and 400 // 200 == 2
    # another size (3.84 × 2.67 px per cell): each pixel lies between the colours of its cells
    matriz = esc.matriz_para_mapa(150, 100, "intercalada")["matriz"]
    pixeles = esc.imagen_del_mapa(matriz, *esc.MAPA_PX).astype(int)
    colores = esc.imagen_del_mapa(matriz, 100, 150).astype(int)
    for fila in range(0, 400, 7):
        for columna in range(0, 384, 5):
            f0, f1 = int(fila * 150 / 400), min(149, int((fila + 1) * 150 / 400))
            c0, c1 = int(columna * 100 / 384), min(99, int((columna + 1) * 100 / 384))
            vecinas = colores[f0:f1 + 1, c0:c1 + 1].reshape(-1, 3)
            assert (vecinas.min(0) - 1 <= pixeles[fila, columna]).all(), (fila, columna)
            assert (pixeles[fila, columna] <= vecinas.max(0) + 1).all(), (fila, columna)
    # the panel really is 384 × 400 whole pixels, drawn one to one
    fig = esc.dibujar(200, 128, 0, "intercalada")
    assert tuple(fig.axes[0].bbox.bounds) == (75.0, 98.0, 384.0, 400.0)


@pytest.mark.parametrize("disposicion", esc.DISPOSICIONES)
def test_cada_trozo_contiene_sus_artistas(disposicion):
    """The saved pieces of the canvas hold everything drawn in them, in the extreme states."""
    for estado in [(1, 2, 0), (200, 128, 63), (17, 34, 16), (200, 2, 0), (1, 128, 0)]:
        figura = esc._FiguraEscalera(*estado, disposicion)
        figura.png()
        renderer = figura.fig.canvas.get_renderer()
        for texto in _textos(figura.fig):     # nothing is cut at the edges of the picture
            caja = texto.get_window_extent(renderer)
            assert caja.x0 >= 0 and caja.y0 >= 0 and caja.x1 <= 1000 and caja.y1 <= 560, texto
        encima = [a for _, a in figura.capa_estado]      # drawn every time, over every piece
        with esc._escondidos(encima):
            for nombre, (bbox, _clave, artistas, _tope) in figura._trozos.items():
                for artista in artistas:
                    extension = artista.get_tightbbox(renderer)
                    if extension is None:       # an axis whose numbers are drawn by _NumerosDeMarcas
                        assert isinstance(artista, matplotlib.axis.Axis), (nombre, artista)
                        continue
                    assert bbox.x0 <= extension.x0 and extension.x1 <= bbox.x1, (nombre, estado)
                    assert bbox.y0 <= extension.y0 and extension.y1 <= bbox.y1, (nombre, estado)
        cajas = [b for b, *_ in figura._trozos.values()]
        for i, una in enumerate(cajas):
            for otra in cajas[i + 1:]:
                interseccion = matplotlib.transforms.Bbox.intersection(una, otra)
                assert interseccion is None or interseccion.width * interseccion.height == 0


# ---------------------------------------------------------------- headless wiring

@pytest.fixture()
def caja():
    return esc.crear_explorable()


def test_explorable_con_valores_por_defecto(caja):
    assert caja.estado == {"d_model": 32, "T": 64, "pareja": 0, "disposicion": "intercalada",
                           "columnas": (0, 1), "longitud": pytest.approx(2 * np.pi, rel=1e-3)}
    assert caja.imagen.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert "6.3 posiciones" in caja.etiqueta_longitud.value
    for parte, clase in [(caja, "explorable-escalera"), (caja, "explorable-vivo"),
                         (caja.children[0], "explorable-escalera-controles"),
                         (caja.imagen, "explorable-escalera-imagen"),
                         (caja.etiqueta_longitud, "explorable-escalera-longitud"),
                         (caja.nota_disposicion, "explorable-escalera-nota"),
                         (caja.aviso, "explorable-escalera-aviso"),
                         (caja.control_d_model, "explorable-escalera-d-model"),
                         (caja.texto_d_model, "explorable-escalera-d-model-texto"),
                         (caja.control_T, "explorable-escalera-t"),
                         (caja.texto_T, "explorable-escalera-t-texto"),
                         (caja.control_pareja, "explorable-escalera-pareja"),
                         (caja.texto_pareja, "explorable-escalera-pareja-texto"),
                         (caja.control_disposicion, "explorable-escalera-disposicion")]:
        assert clase in parte._dom_classes
    assert caja.control_d_model.description == "d_model (par)"
    assert caja.control_T.description == "T (posiciones)"
    assert caja.control_pareja.description == "pareja i"
    assert caja.control_disposicion.description == "disposición"
    assert (caja.texto_d_model.value, caja.texto_T.value, caja.texto_pareja.value) == ("32", "64", "0")
    for control in (caja.control_d_model, caja.control_T, caja.control_pareja):
        # the box beside each slider shows its number, live while dragging (issue 22.1)
        assert control.continuous_update and not control.readout
    assert caja.aviso.value == ""


def test_botones_de_disposicion_con_sitio_para_su_texto(caja):
    """The toggle buttons get a width for their longest label (they were cut at the default)."""
    ancho = caja.control_disposicion.style.button_width
    assert ancho.endswith("px")
    letras = max(len(etiqueta) for etiqueta, _ in caja.control_disposicion.options)
    assert int(ancho[:-2]) >= 8 * letras


@pytest.mark.parametrize("d_model, pareja", [(32, 2), (32, 15), (64, 7), (8, 3)])
def test_longitud_mostrada_sigue_la_formula(caja, d_model, pareja):
    caja.control_d_model.value = d_model
    caja.control_pareja.value = pareja
    esperado = 2 * np.pi * 10000 ** (2 * pareja / d_model)
    assert caja.estado["longitud"] == pytest.approx(esperado, rel=1e-3)    # float16, like the public numbers
    assert f"≈ {esc.formatear_posiciones(esperado)} posiciones" in caja.etiqueta_longitud.value
    assert f"Pareja {pareja} " in caja.etiqueta_longitud.value
    assert (caja.texto_d_model.value, caja.texto_pareja.value) == (str(d_model), str(pareja))


def test_pareja_elegida_resalta_sus_columnas(caja):
    caja.control_pareja.value = 4
    assert caja.estado["columnas"] == (8, 9)
    assert "columnas 8 (seno) y 9 (coseno)" in caja.etiqueta_longitud.value


def test_cambiar_d_model_ajusta_el_maximo_de_la_pareja(caja):
    caja.control_pareja.value = 15
    caja.control_d_model.value = 8
    assert caja.control_pareja.max == 3
    assert caja.estado["pareja"] == 3 and caja.estado["d_model"] == 8
    assert caja.texto_pareja.value == "3"
    caja.control_d_model.value = 64
    assert caja.control_pareja.max == 31


def test_con_un_solo_valor_el_deslizador_queda_quieto_y_a_la_izquierda(caja):
    """d_model = 2 has one pair: noUiSlider drew a slider with min = max with its handle at the right end (the
    first student of issue 22). It is disabled, with its handle at the left, where the only value is; back to
    d_model = 4 it moves again."""
    caja.control_d_model.value = 2
    assert caja.control_pareja.disabled and (caja.control_pareja.min, caja.control_pareja.value) == (0, 0)
    assert caja.control_pareja.max > caja.control_pareja.min and caja.estado["pareja"] == 0
    assert not caja.control_d_model.disabled and not caja.control_T.disabled
    caja.control_d_model.value = 4
    assert not caja.control_pareja.disabled and caja.control_pareja.max == 1
    caja.control_pareja.value = 1
    assert caja.estado["pareja"] == 1


def test_solo_se_ofrecen_d_model_pares(caja):
    assert caja.control_d_model.step == 2 and caja.control_d_model.min % 2 == 0


def test_cambiar_T_redibuja(caja):
    antes = caja.imagen.value
    caja.control_T.value = 120
    assert caja.estado["T"] == 120 and caja.texto_T.value == "120"
    assert caja.imagen.value != antes


def test_alternar_disposicion(caja):
    caja.control_pareja.value = 3
    antes = caja.imagen.value
    caja.control_disposicion.value = "concatenada"
    assert caja.estado["disposicion"] == "concatenada"
    assert caja.estado["columnas"] == (3, 19)
    assert "columnas 3 (seno) y 19 (coseno)" in caja.etiqueta_longitud.value
    assert "concatenada" in caja.nota_disposicion.value
    assert "P·Pᵀ coincide" in caja.nota_disposicion.value
    assert caja.imagen.value != antes
    caja.control_disposicion.value = "intercalada"
    assert caja.estado["columnas"] == (6, 7)


def test_teclear_un_valor_valido_lo_usa(caja):
    caja.texto_d_model.value = "48"
    assert caja.control_d_model.value == 48 and caja.estado["d_model"] == 48
    assert caja.aviso.value == ""
    caja.texto_T.value = "7"
    caja.texto_pareja.value = "20"
    assert (caja.estado["T"], caja.estado["pareja"]) == (7, 20)


@pytest.mark.parametrize("valor, palabra", [(33, "par"), (512, "de 2 a 128"), (0, "de 2 a 128")])
def test_teclear_d_model_que_no_vale_se_rechaza_a_la_vista(caja, valor, palabra):
    """Typed odd / out-of-range d_model: Spanish message, nothing changes, and the box goes back to the
    value in force, the one the picture and the message show («Sigue d_model = 32»)."""
    antes = caja.imagen.value
    caja.texto_d_model.value = str(valor)
    assert caja.texto_d_model.value == "32" and caja.control_d_model.value == 32
    assert caja.estado["d_model"] == 32 and caja.imagen.value == antes
    assert palabra in caja.aviso.value and "Sigue d_model = 32" in caja.aviso.value
    caja.control_T.value = 65      # the next accepted change clears the message
    assert caja.aviso.value == "" and caja.texto_d_model.value == "32"


def test_teclear_T_o_pareja_fuera_de_rango_se_rechaza(caja):
    caja.texto_T.value = "500"
    assert caja.texto_T.value == "64" and caja.estado["T"] == 64 and "de 1 a 200" in caja.aviso.value
    assert "Sigue T = 64" in caja.aviso.value
    caja.texto_pareja.value = "16"
    assert caja.texto_pareja.value == "0" and caja.texto_T.value == "64" and caja.estado["pareja"] == 0
    assert "de 0 a 15" in caja.aviso.value and "hay 16 parejas" in caja.aviso.value
    assert "Sigue pareja i = 0" in caja.aviso.value


def test_el_aviso_se_va_con_el_siguiente_valor_que_se_usa(caja):
    """No stale warning: after a refused value (the box back at 32), the next value used clears it,
    typed or from a slider, and a value typed twice is refused twice."""
    caja.texto_d_model.value = "33"
    assert "no vale" in caja.aviso.value and caja.texto_d_model.value == "32"
    caja.texto_d_model.value = "33"
    assert "d_model = 33 no vale" in caja.aviso.value and caja.texto_d_model.value == "32"
    caja.texto_d_model.value = "34"
    assert caja.aviso.value == "" and caja.estado["d_model"] == 34
    caja.texto_T.value = "0"
    assert "T = 0 no vale" in caja.aviso.value and caja.texto_T.value == "64"
    caja.control_pareja.value = 3
    assert caja.aviso.value == "" and caja.estado["pareja"] == 3 and caja.texto_T.value == "64"


def test_la_pareja_respeta_el_maximo_con_cualquier_d_model(caja):
    """The pair slider always has the current range from its creation (Home/End go to its ends)."""
    viejo = caja.control_pareja
    caja.control_d_model.value = 128
    nuevo = caja.control_pareja
    assert nuevo is not viejo and viejo.comm is None        # a new slider, the old one closed
    assert (nuevo.min, nuevo.max, nuevo.step) == (0, 63, 1)
    assert "explorable-escalera-pareja" in nuevo._dom_classes and nuevo.description == "pareja i"
    assert nuevo in caja.children[0].children[2].children
    nuevo.value = 63                                          # what End sends
    assert caja.estado["pareja"] == 63 and caja.texto_pareja.value == "63"
    assert "Pareja 63 " in caja.etiqueta_longitud.value
    caja.control_T.value = 200
    assert caja.control_pareja is nuevo                       # unchanged range: the same slider
    caja.control_d_model.value = 2
    assert caja.control_pareja.disabled and caja.control_pareja.value == 0 and caja.estado["pareja"] == 0
    caja.texto_pareja.value = "1"
    assert "aquí sólo vale 0" in caja.aviso.value and "hay una sola pareja, la 0" in caja.aviso.value


def test_aplicar_cambio_desde_el_deslizador_y_desde_la_casilla_llega_a_lo_mismo():
    en_uso = {"d_model": 32, "T": 64, "pareja": 15}
    for nombre, valor in (("d_model", 8), ("T", 200), ("pareja", 3), ("d_model", 128)):
        assert (esc.aplicar_cambio(en_uso, nombre, valor)["en_uso"]
                == esc.aplicar_cambio(en_uso, nombre, valor, tecleado=True)["en_uso"])
    r = esc.aplicar_cambio(en_uso, "d_model", 8)
    assert r == {"en_uso": {"d_model": 8, "T": 64, "pareja": 3},
                 "casillas": {"d_model": 8, "T": 64, "pareja": 3}, "aviso": None}


def test_aplicar_cambio_un_deslizador_no_sale_de_sus_limites():
    en_uso = {"d_model": 32, "T": 64, "pareja": 0}
    assert esc.aplicar_cambio(en_uso, "pareja", 63)["en_uso"]["pareja"] == 15
    assert esc.aplicar_cambio(en_uso, "T", 0)["en_uso"]["T"] == 1
    assert esc.aplicar_cambio(en_uso, "d_model", 33)["en_uso"]["d_model"] == 32
    assert esc.aplicar_cambio(en_uso, "d_model", 500)["en_uso"]["d_model"] == 128


def test_aplicar_cambio_tecleado_que_no_vale():
    en_uso = {"d_model": 32, "T": 64, "pareja": 5}
    r = esc.aplicar_cambio(en_uso, "pareja", 16, tecleado=True)
    assert r["en_uso"] == en_uso and r["casillas"] == en_uso      # the boxes show the values in force
    assert r["aviso"].startswith("pareja i = 16 no vale: aquí va de 0 a 15.")
    assert r["aviso"].endswith("Sigue pareja i = 5.")
    # any value in use (even the same) clears it
    assert esc.aplicar_cambio(en_uso, "pareja", 5, tecleado=True) == {
        "en_uso": en_uso, "casillas": en_uso, "aviso": None}


@pytest.mark.parametrize("d_model, frase", [
    (2, "hay una sola pareja, la 0"), (4, "hay 2 parejas, numeradas desde 0"),
    (128, "hay 64 parejas, numeradas desde 0")])
def test_motivo_de_la_pareja_con_su_plural(d_model, frase):
    assert frase in esc.motivo_de_rango("pareja", d_model)
    assert "1 parejas" not in esc.motivo_de_rango("pareja", d_model)


@pytest.mark.parametrize("d_model", range(2, 130, 2))
def test_limites_de_cada_control(d_model):
    assert esc.limites("d_model", d_model) == (2, 128, 2)
    assert esc.limites("T", d_model) == (1, 200, 1)
    assert esc.limites("pareja", d_model) == (0, d_model // 2 - 1, 1)


def test_revisar_valor_con_un_solo_valor_posible():
    assert esc.revisar_valor("pareja i", 1, 0, 0, 0)[1].startswith("pareja i = 1 no vale: aquí sólo vale 0.")


def test_dos_explorables_no_comparten_estado():
    uno, otro = esc.crear_explorable(), esc.crear_explorable()
    uno.control_pareja.value = 5
    assert otro.estado["pareja"] == 0


def test_valores_iniciales_que_no_ofrece_se_rechazan():
    for argumentos in ({"d_model": 256}, {"T": 0}, {"pareja": 16}, {"disposicion": "otra"}):
        with pytest.raises(ValueError):
            esc.crear_explorable(**argumentos)


# ---------------------------------------------------------------- static fallback

def test_vista_del_widget_y_salida_fija_aparte(caja):
    datos = caja._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in datos
    respaldo = caja.datos_respaldo()
    assert 'class="explorable-respaldo"' in respaldo["text/html"]
    assert "ejecuta esta celda otra vez" in respaldo["text/html"]
    assert "data:image/png;base64," + base64.b64encode(caja.imagen.value).decode() in respaldo["text/html"]
    assert "d_model = 32, T = 64" in respaldo["text/plain"]


def test_al_mostrarse_deja_widget_y_salida_fija_que_sigue_a_cada_cambio(caja, monkeypatch):
    """In a notebook: two outputs (widget, then the marked static fallback) and updates per change."""
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
    assert len(mostrados) == 2
    assert "application/vnd.jupyter.widget-view+json" in mostrados[0][0]
    assert mostrados[1][1]["metadata"] == esc.METADATOS_RESPALDO
    caja.control_pareja.value = 3
    datos, kwargs = actualizados[-1]
    assert base64.b64encode(caja.imagen.value).decode() in datos["text/html"]
    assert "pareja i = 3" in datos["text/plain"] and kwargs["metadata"] == esc.METADATOS_RESPALDO


# ---------------------------------------------------------------- fast redraw

def _pixeles(png):
    import io

    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(bytes(png))).convert("RGB"))


def test_redibujo_igual_que_dibujo_nuevo(caja):
    """After each change (cached layers or not) the PNG is pixel for pixel a fresh ``dibujar``."""
    pasos = [("control_pareja", 5), ("control_disposicion", "concatenada"), ("control_T", 10),
             ("control_d_model", 8), ("control_pareja", 2), ("control_T", 64),
             ("control_d_model", 32), ("control_disposicion", "intercalada"), ("control_pareja", 0),
             ("control_pareja", 5), ("control_T", 1), ("control_d_model", 2), ("control_T", 200),
             ("control_d_model", 128), ("control_pareja", 63), ("control_disposicion", "concatenada")]
    for control, valor in pasos:
        setattr(getattr(caja, control), "value", valor)
        e = caja.estado
        nuevo = esc.figura_a_png(esc.dibujar(e["T"], e["d_model"], e["pareja"], e["disposicion"]))
        np.testing.assert_array_equal(_pixeles(caja.imagen.value), _pixeles(nuevo), err_msg=str(e))


def test_cambiar_pareja_no_toca_el_fondo(caja):
    """Changing only the pair keeps the heatmap image as it was and reuses the saved pieces."""
    figura = esc._FiguraEscalera(64, 32, 5, "intercalada")   # pairs 5 and 7: all 64 positions
    figura.png()
    datos = figura.imagen.get_array().copy()
    figura.poner(64, 32, 7, "intercalada")
    figura.png()
    np.testing.assert_array_equal(figura.imagen.get_array(), datos)
    assert [p.get_x() + 0.5 for p in figura.recuadros] == [14, 15]
    assert {nombre: len(g) for nombre, g in figura._guardados.items()} == {
        "titulo": 1, "rotulo": 1, "mapa": 1, "curvas": 1, "escalera": 1}


def test_imagen_a_su_tamano(caja):
    """The Image widget is shown at the PNG's pixel width (not stretched, so it is sharp)."""
    ancho = _pixeles(caja.imagen.value).shape[1]
    assert caja.imagen.layout.width == f"{ancho}px"


def test_salida_fija_una_sola_vez_por_rafaga_de_cambios(caja, monkeypatch):
    """In a kernel the fallback (a second copy of the PNG) travels once per burst, after 0.5 s."""
    pendientes, actualizados = [], []
    monkeypatch.setattr(esc, "_mas_tarde", lambda funcion, segundos: pendientes.append((funcion, segundos)))

    class Asa:
        def update(self, datos, **kwargs):
            actualizados.append(datos)

    caja._respaldo = Asa()
    for pareja in (1, 2, 3):
        caja.control_pareja.value = pareja
    assert [s for _, s in pendientes] == [0.5] and actualizados == []
    pendientes[0][0]()
    assert len(actualizados) == 1 and "pareja i = 3" in actualizados[0]["text/plain"]
    caja.control_pareja.value = 4
    assert len(pendientes) == 2


def test_mas_tarde_usa_el_bucle_del_nucleo_desde_cualquier_hilo(monkeypatch):
    """In a kernel: add_callback (thread-safe, wakes the loop) that schedules call_later; else now."""
    import IPython

    llamadas = []

    class Bucle:
        def add_callback(self, funcion, *args):
            llamadas.append(("add_callback", funcion.__name__, args))
            funcion(*args)

        def call_later(self, segundos, funcion):
            llamadas.append(("call_later", segundos, funcion))

    class Shell:
        kernel = type("K", (), {"io_loop": Bucle()})()

    hecho = []
    monkeypatch.setattr(IPython, "get_ipython", lambda: Shell())
    esc._mas_tarde(lambda: hecho.append(1), 0.5)
    assert [l[:2] for l in llamadas] == [("add_callback", "call_later"), ("call_later", 0.5)]
    assert hecho == []
    monkeypatch.setattr(IPython, "get_ipython", lambda: None)
    esc._mas_tarde(lambda: hecho.append(2), 0.5)
    assert hecho == [2]


# ---------------------------------------------------------------- extreme states (issue 22.1)

@pytest.mark.parametrize("T, longitud, esperado", [
    (200, 2 * np.pi, 38), (64, 2 * np.pi, 38), (30, 2 * np.pi, 30), (200, 112.0, 200),
    (1, 2 * np.pi, 1), (2, 2 * np.pi, 2), (200, 0.1, 2)])
def test_posiciones_en_curvas(T, longitud, esperado):
    assert esc.posiciones_en_curvas(T, longitud) == esperado


def test_posiciones_en_curvas_nunca_mas_de_seis_vueltas_ni_mas_de_T():
    for d_model in range(2, 130, 2):
        for T in (1, 7, 64, 200):
            for longitud in esc._longitudes_exactas(d_model):
                n = esc.posiciones_en_curvas(T, longitud)
                assert 1 <= n <= T
                assert n == T or (n - 1) / longitud <= esc.VUELTAS_EN_CURVAS


def test_puntos_y_rotulo_de_las_curvas():
    assert esc.puntos_en_curvas(38, 255) and esc.puntos_en_curvas(64, 255)
    assert not esc.puntos_en_curvas(65, 255) and not esc.puntos_en_curvas(200, 255)
    assert esc.puntos_en_curvas(1, 255)
    assert esc.rotulo_curvas(200, 200) == "posición pos"
    assert esc.rotulo_curvas(38, 200) == "posición pos (las 38 primeras de 200: 6 vueltas)"


def _luminancia(png):
    import io

    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(bytes(png))).convert("L"), dtype=np.float64)


def test_mapa_sin_muare_con_128_columnas_y_200_filas():
    """d_model = 128, T = 200: the slow pairs' stripes (sin ≈ 0, cos ≈ 1) are even, with no beats.

    Averaged over one pair's width, the brightness of a row is the same all along the slow
    columns; with whole pixels dealt unevenly (2 or 3 per column) it swings (≈ 20 grey levels).
    """
    figura = esc._FiguraEscalera(200, 128, 0, "intercalada")
    gris = _luminancia(figura.png())
    caja = figura.ax_mapa.bbox
    alto = gris.shape[0]
    x0 = int(np.ceil(caja.x0 + 96 / 128 * caja.width))
    x1 = int(np.floor(caja.x0 + 127 / 128 * caja.width))
    perfil = gris[int(alto - caja.y1) + 5:int(alto - caja.y0) - 5, x0:x1].mean(axis=0)
    ancho_pareja = int(round(caja.width / 64))
    media_movil = np.convolve(perfil, np.ones(ancho_pareja) / ancho_pareja, mode="valid")
    assert perfil.std() > 30, "las franjas tienen que seguir viéndose"
    assert media_movil.std() < 5, f"franjas desiguales (muaré): {media_movil.std():.1f}"


@pytest.mark.parametrize("pareja, disposicion", [(0, "intercalada"), (63, "intercalada"),
                                                  (63, "concatenada"), (31, "concatenada")])
def test_pareja_elegida_se_ve_con_d_model_128(pareja, disposicion):
    """An arrow over each of the pair's columns, in its colour, above the map (2.5-px columns)."""
    figura = esc._FiguraEscalera(200, 128, pareja, disposicion)
    imagen = _pixeles(figura.png())
    alto = imagen.shape[0]
    for flecha, columna, color in zip(figura.flechas, esc.columnas_de_pareja(pareja, 128, disposicion),
                                      ((0, 0, 0), (0x1a, 0x96, 0x41))):
        x, y = figura.ax_mapa.transData.transform((columna, 0))[0], figura.ax_mapa.bbox.y1
        assert flecha.get_xdata()[0] == columna
        trozo = imagen[int(alto - y) - 9:int(alto - y) - 2, int(x) - 2:int(x) + 3].reshape(-1, 3)
        distancias = np.abs(trozo.astype(int) - np.array(color)).sum(axis=1)
        assert distancias.min() < 60, f"no se ve la flecha de la columna {columna}"


def test_curvas_legibles_con_T_200():
    """Pair 0 over 200 positions: 6 turns shown (not 32), no dots squeezed under the lines."""
    figura = esc._FiguraEscalera(200, 128, 0, "intercalada")
    figura.png()
    assert figura.ax_curvas.get_xlim() == (0, 37)
    assert not figura.seno_pos.get_visible() or esc.puntos_en_curvas(38, figura.ax_curvas.bbox.width)
    assert figura.rotulo_curvas.get_text() == "posición pos (las 38 primeras de 200: 6 vueltas)"
    figura.poner(200, 128, 40, "intercalada")          # a slow pair: the 200 positions, no dots
    figura.png()
    assert figura.ax_curvas.get_xlim() == (0, 199)
    assert not figura.seno_pos.get_visible() and not figura.coseno_pos.get_visible()
    assert figura.rotulo_curvas.get_text() == "posición pos"


# ---- the typed boxes are text, so the mouse wheel scrolls the page instead of changing a number

def test_las_casillas_son_de_texto_y_la_rueda_no_las_cambia(caja):
    """A focused <input type="number"> changes with the wheel while the figure does not follow
    (student's report 4, issue 22): the boxes are text inputs that send on Enter or blur."""
    import ipywidgets as widgets
    for casilla in (caja.texto_d_model, caja.texto_T, caja.texto_pareja):
        assert type(casilla) is widgets.Text and casilla.continuous_update is False


@pytest.mark.parametrize("texto, entero", [("64", 64), (" 64 ", 64), ("+8", 8), ("64.0", 64), ("64,", 64),
                                           ("−3", -3), (12, 12)])
def test_leer_entero_acepta_enteros_escritos(texto, entero):
    assert esc.leer_entero(texto) == entero


@pytest.mark.parametrize("texto", ["", "abc", "6.5", "1e3", "3 2", "True", True, None, "9" * 12])
def test_leer_entero_rechaza_lo_que_no_es_un_entero(texto):
    assert esc.leer_entero(texto) is None


@pytest.mark.parametrize("texto", ["abc", "6.5", ""])
def test_teclear_algo_que_no_es_un_numero_se_rechaza_a_la_vista(caja, texto):
    antes = caja.imagen.value
    caja.texto_T.value = texto
    assert caja.texto_T.value == "64" and caja.estado["T"] == 64 and caja.imagen.value == antes
    assert ("como un entero, sin decimales" if texto else "con cifras") in caja.aviso.value
    assert "Sigue T = 64" in caja.aviso.value
    caja.texto_T.value = " 65 "
    assert caja.estado["T"] == 65 and caja.texto_T.value == "65" and caja.aviso.value == ""


def test_en_un_cuaderno_estrecho_la_imagen_no_se_encoge_hasta_no_leerse(caja):
    """A 900 px window with the sidebar open left the figure at ~470 px and its labels at ~5 px
    (student's report 4, issue 22): it shrinks at most to ESCALA_MINIMA, inside a frame that scrolls
    sideways."""
    ancho = int(caja.imagen.layout.width.removesuffix("px"))
    minimo = int(caja.imagen.layout.min_width.removesuffix("px"))
    assert minimo == round(ancho * esc.ESCALA_MINIMA) and minimo >= 750
    assert esc.LETRA_PEQUENA * esc.PPP / 72 * esc.ESCALA_MINIMA >= 10       # the small labels stay ≥ 10 px
    marco = next(c for c in caja.children if caja.imagen in getattr(c, "children", ()))
    assert marco.layout.overflow.split()[0] == "auto" and "explorable-escalera-marco-imagen" in marco._dom_classes


def _intro(casilla, texto):
    """What the browser sends for «texto» + Enter in a box: «submit» first (keypress), then the new
    value only if it differs from the box's (change)."""
    casilla._handle_custom_msg({"event": "submit"}, None)
    if str(texto) != casilla.value:
        casilla.value = str(texto)


def test_volver_a_escribir_el_valor_en_uso_quita_el_aviso(caja):
    """Issue 22, fifth student's report (M3): «T = 0» is rejected; re-typing 64 (the value in use,
    so the box sends no new value) clears the warning, and so does re-typing another box's value."""
    _intro(caja.texto_T, "0")
    assert "T = 0 no vale" in caja.aviso.value and caja.texto_T.value == "64"
    _intro(caja.texto_T, "64")
    assert caja.aviso.value == "" and caja.estado["T"] == 64
    _intro(caja.texto_pareja, "-1")
    assert "pareja i = -1 no vale" in caja.aviso.value
    _intro(caja.texto_d_model, "32")
    assert caja.aviso.value == "" and caja.estado["d_model"] == 32
    _intro(caja.texto_d_model, "33")           # a value that is not valid still warns after the submit
    assert "d_model = 33 no vale" in caja.aviso.value and caja.texto_d_model.value == "32"


def _tinta(png: bytes, caja: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    """The bounding box (x0, y0, x1, y1) of the dark pixels of ``png`` inside ``caja`` (pixels, top-down)."""
    import io

    from PIL import Image

    gris = np.asarray(Image.open(io.BytesIO(png)).convert("L").crop(caja))
    filas, columnas = np.nonzero(gris < 128)
    if not len(filas):
        return None
    return int(columnas.min()), int(filas.min()), int(columnas.max()), int(filas.max())


@pytest.mark.parametrize("T, d_model, pareja", [(64, 32, 0), (100, 64, 5), (200, 128, 63), (1, 2, 0), (17, 34, 3)])
def test_numeros_de_las_marcas_como_los_de_matplotlib(T, d_model, pareja):
    """The tick numbers drawn from saved texts (issue 22, speed) are matplotlib's: the same texts, in
    the same places (within a pixel), on the map's two axes, the curves' and the ladder's «pareja i»."""
    figura = esc._FiguraEscalera(T, d_model, pareja, "intercalada")
    nuestros = figura.png()
    textos = {nombre: [texto for texto, _ in numeros.textos()] for nombre, numeros in figura.numeros.items()}
    for numeros in figura.numeros.values():
        numeros.set_visible(False)
        numeros.ax.tick_params(axis=numeros.eje, **({"labelbottom": True} if numeros.eje == "x" else {"labelleft": True}))
    for texto in (figura.titulo_curvas, figura.rotulo_curvas):      # matplotlib's own way of drawing letters
        texto.__class__ = matplotlib.text.Text
    de_matplotlib = esc.figura_a_png(figura.fig)
    for nombre, numeros in figura.numeros.items():
        eje = numeros.ax.xaxis if numeros.eje == "x" else numeros.ax.yaxis
        bajo, alto = sorted(eje.get_view_interval())
        esperados = [t.get_text() for t in eje.get_majorticklabels()
                     if bajo - 1e-9 <= t.get_position()[numeros.eje == "y"] <= alto + 1e-9]
        assert textos[nombre] == esperados and esperados, (nombre, textos[nombre], esperados)
    alto = figura.fig.bbox.height
    for numeros in figura.numeros.values():
        caja = numeros.ax.bbox
        if numeros.eje == "x":          # the band under the axis, below its tick marks
            banda = (int(caja.x0) - 20, int(alto - caja.y0) + 6, int(caja.x1) + 20, int(alto - caja.y0) + 24)
        else:                           # the band left of the axis, left of its tick marks
            banda = (int(caja.x0) - 45, int(alto - caja.y1) - 8, int(caja.x0) - 6, int(alto - caja.y0) + 8)
        a, b = _tinta(nuestros, banda), _tinta(de_matplotlib, banda)
        assert a is not None and b is not None, (numeros.eje, a, b)
        assert max(abs(x - y) for x, y in zip(a, b)) <= 1, (numeros.ax.get_title(), numeros.eje, a, b)
    # and the texts drawn every time from saved texts (_LetrasGuardadas): the curves' title and label
    renderer = figura.fig.canvas.get_renderer()
    for texto in (figura.titulo_curvas, figura.rotulo_curvas):
        caja = texto.get_window_extent(renderer)
        banda = (int(caja.x0) - 4, int(alto - caja.y1) - 4, int(caja.x1) + 4, int(alto - caja.y0) + 4)
        a, b = _tinta(nuestros, banda), _tinta(de_matplotlib, banda)
        assert a is not None and b is not None, (texto.get_text(), a, b)
        assert max(abs(x - y) for x, y in zip(a, b)) <= 1, (texto.get_text(), a, b)
