"""Tests of grader_tests/extensiones_nbgrader/explorables_en_comentarios.py: explorables in the feedback as still pictures.

The outputs are the real ones of the course's explorables (their widget view
and their static fallback), the submitted notebook is a file in a temporary
course directory, and the hostile cases are the kind a student can plant in
what they submit (links, huge files, fake or gigantic PNGs, HTML in captions).
"""
from __future__ import annotations

import base64
import io
import json
import os
import struct
import zlib

import nbformat
import numpy as np
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output
from PIL import Image
from traitlets.config import Config

from conftest import RAIZ, cargar_modulo
from grader_tests.extensiones_nbgrader.explorables_en_comentarios import (
    MIME_WIDGET, NOTA_SIN_IMAGEN, NOTA_WIDGET, ExplorablesComoImagen, png_seguro)

esc = cargar_modulo(RAIZ / "source" / "02_codificacion_posicional" / "explorable_escalera.py",
                    "explorable_escalera")
CODIGO = "crear_explorable()"
RECURSOS = {"nbgrader": {"student": "alumna", "assignment": "02_codificacion_posicional",
                         "notebook": "codificacion_posicional"}}


def _pixeles(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def _salidas(caja) -> list:
    """The two outputs a notebook keeps for an explorable: the widget view, then the fallback."""
    return [new_output("display_data", data=caja._repr_mimebundle_()),
            new_output("display_data", data=caja.datos_respaldo(), metadata=esc.METADATOS_RESPALDO)]


def _cuaderno(salidas, codigo=CODIGO, id_celda="leccion-13"):
    nb = new_notebook()
    celda = new_code_cell(codigo, id=id_celda)
    celda.outputs = salidas
    nb.cells = [celda]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    return nb


def _preprocesar(nb, raiz=None, **ajustes):
    config = Config()
    if raiz is not None:
        config.CourseDirectory.root = str(raiz)
    for nombre, valor in ajustes.items():
        setattr(config.ExplorablesComoImagen, nombre, valor)
    return ExplorablesComoImagen(config=config).preprocess(nb, RECURSOS if raiz is not None else {})[0]


def _imagenes(nb) -> list[bytes]:
    return [base64.b64decode(s["data"]["image/png"]) for c in nb.cells for s in c.outputs
            if "image/png" in s.get("data", {})]


@pytest.fixture(scope="module")
def caja():
    return esc.crear_explorable()


def test_widget_y_salida_fija_se_vuelven_la_imagen_con_su_leyenda(caja):
    nb = _preprocesar(_cuaderno(_salidas(caja)))
    (salidas,) = [c.outputs for c in nb.cells]
    assert [s.output_type for s in salidas] == ["stream", "display_data"]
    assert "escalera de longitudes de onda" in salidas[0].text and "d_model = 32, T = 64" in salidas[0].text
    assert set(salidas[1].data) == {"image/png", "text/plain"}           # no HTML, no widget
    np.testing.assert_array_equal(_pixeles(_imagenes(nb)[0]), _pixeles(caja.imagen.value))
    assert "widgets" not in nb.metadata
    assert MIME_WIDGET not in json.dumps(nb)


def test_widget_sin_salida_fija_deja_una_nota_o_su_imagen(caja):
    """Other widgets (or notebooks from before the fallback existed): the view goes, the rest stays."""
    solo_widget = new_output("display_data", data=caja._repr_mimebundle_())
    con_png = new_output("display_data", data={**caja._repr_mimebundle_(),
                                               "image/png": base64.b64encode(caja.imagen.value).decode()})
    nb = _preprocesar(_cuaderno([solo_widget, con_png]))
    primera, segunda = nb.cells[0].outputs
    assert primera.data == {"text/plain": NOTA_WIDGET}
    assert set(segunda.data) == {"text/plain", "image/png"}


def test_las_demas_salidas_no_se_tocan(caja):
    otras = [new_output("stream", name="stdout", text="hola\n"),
             new_output("execute_result", data={"text/plain": "3"}, execution_count=1)]
    nb = _preprocesar(_cuaderno(list(otras)))
    assert nb.cells[0].outputs == otras


# ---- the picture the student last saw: the submitted notebook

def _entrega(raiz, nb):
    carpeta = raiz / "submitted" / "alumna" / "02_codificacion_posicional"
    carpeta.mkdir(parents=True, exist_ok=True)
    ruta = carpeta / "codificacion_posicional.ipynb"
    nbformat.write(nb, str(ruta))
    return ruta


def test_se_ve_la_ultima_imagen_que_vio_la_alumna(tmp_path):
    """Autograde re-ran the cell (initial state); the submitted notebook kept pair 5: that one is shown."""
    calificada = esc.crear_explorable()
    vista = esc.crear_explorable()
    vista.control_pareja.value = 5
    vista.control_disposicion.value = "concatenada"
    _entrega(tmp_path, _cuaderno(_salidas(vista)))
    nb = _preprocesar(_cuaderno(_salidas(calificada)), raiz=tmp_path)
    np.testing.assert_array_equal(_pixeles(_imagenes(nb)[0]), _pixeles(vista.imagen.value))
    assert "pareja i = 5, disposición concatenada" in nb.cells[0].outputs[0].text


@pytest.mark.parametrize("cambio", ["otro_codigo", "otra_celda", "sin_salida_fija", "sin_entrega"])
def test_si_la_entrega_no_corresponde_se_ve_la_calificada(tmp_path, cambio):
    calificada, vista = esc.crear_explorable(), esc.crear_explorable()
    vista.control_T.value = 7
    if cambio == "otro_codigo":
        _entrega(tmp_path, _cuaderno(_salidas(vista), codigo="crear_explorable(T=7)"))
    elif cambio == "otra_celda":
        _entrega(tmp_path, _cuaderno(_salidas(vista), id_celda="otra"))
    elif cambio == "sin_salida_fija":
        _entrega(tmp_path, _cuaderno(_salidas(vista)[:1]))
    nb = _preprocesar(_cuaderno(_salidas(calificada)), raiz=tmp_path)
    np.testing.assert_array_equal(_pixeles(_imagenes(nb)[0]), _pixeles(calificada.imagen.value))


def _png_falso(ancho: int, alto: int) -> bytes:
    """A valid PNG header that declares ``ancho`` × ``alto`` pixels (a decompression bomb's shape)."""
    def trozo(tipo, datos):
        return struct.pack(">I", len(datos)) + tipo + datos + struct.pack(">I", zlib.crc32(tipo + datos))
    return (b"\x89PNG\r\n\x1a\n" + trozo(b"IHDR", struct.pack(">IIBBBBB", ancho, alto, 8, 2, 0, 0, 0))
            + trozo(b"IDAT", zlib.compress(b"\x00" * 64)) + trozo(b"IEND", b""))


@pytest.mark.parametrize("contenido", [
    _png_falso(100_000, 100_000),                       # asks for 10^10 pixels
    b"GIF89a" + b"\x00" * 100,                          # not a PNG
    b"\x89PNG\r\n\x1a\n" + b"basura" * 10,              # PNG signature, broken data
])
def test_imagenes_hostiles_de_la_entrega_no_pasan(tmp_path, caja, contenido):
    assert png_seguro(contenido, 4096 * 4096) is None
    hostil = _salidas(caja)
    hostil[1].data = {"image/png": base64.b64encode(contenido).decode(),
                      "text/plain": "<script>alert(1)</script>"}
    _entrega(tmp_path, _cuaderno(hostil))
    nb = _preprocesar(_cuaderno(_salidas(caja)), raiz=tmp_path)
    np.testing.assert_array_equal(_pixeles(_imagenes(nb)[0]), _pixeles(caja.imagen.value))


def test_entrega_que_es_un_enlace_o_demasiado_grande_no_se_lee(tmp_path, caja):
    otra = esc.crear_explorable(T=9)
    secreto = tmp_path / "fuera.ipynb"
    nbformat.write(_cuaderno(_salidas(otra)), str(secreto))
    ruta = _entrega(tmp_path, _cuaderno(_salidas(otra)))
    ruta.unlink()
    os.symlink(secreto, ruta)                                   # a link: never followed
    nb = _preprocesar(_cuaderno(_salidas(caja)), raiz=tmp_path)
    np.testing.assert_array_equal(_pixeles(_imagenes(nb)[0]), _pixeles(caja.imagen.value))
    ruta.unlink()
    _entrega(tmp_path, _cuaderno(_salidas(otra)))               # a regular file, but over budget
    nb = _preprocesar(_cuaderno(_salidas(caja)), raiz=tmp_path, max_bytes_cuaderno=1000)
    np.testing.assert_array_equal(_pixeles(_imagenes(nb)[0]), _pixeles(caja.imagen.value))
    ruta.write_text("{esto no es json")                          # broken: ignored, no error
    nb = _preprocesar(_cuaderno(_salidas(caja)), raiz=tmp_path)
    assert len(_imagenes(nb)) == 1


def test_salida_fija_sin_imagen_deja_una_nota(caja):
    rota = _salidas(caja)
    rota[1].data = {"text/html": "<p>nada</p>", "text/plain": "x"}
    nb = _preprocesar(_cuaderno(rota))
    assert [s.get("text") for s in nb.cells[0].outputs] == [NOTA_SIN_IMAGEN + "\n"]


def test_en_el_html_se_ve_la_imagen_y_ningun_widget(caja):
    """Rendered with nbconvert: an <img> with the PNG, no widget script, captions as plain text."""
    from nbconvert import HTMLExporter

    salidas = _salidas(caja)
    salidas[1].data["text/plain"] = "Explorable <script>alert(1)</script>"
    exportador = HTMLExporter()
    exportador.register_preprocessor(ExplorablesComoImagen(), enabled=True)
    html, _ = exportador.from_notebook_node(_cuaderno(salidas))
    assert 'src="data:image/png;base64,' in html
    assert MIME_WIDGET not in html and "widget-state" not in html
    assert "<script>alert(1)</script>" not in html


@pytest.mark.slow
def test_comentarios_de_make_grade_ensenan_los_explorables(curso_calificado):
    """End to end (the session's graded course): both lessons' feedback shows each explorable's PNG."""
    curso = curso_calificado.curso
    for tarea, nombre in (("01_atencion_multicabeza", "cuatro reglas, cuatro cabezas"),
                          ("02_codificacion_posicional", "escalera de longitudes de onda")):
        for html in (curso / "feedback" / "perfecta" / tarea).glob("*.html"):
            texto = html.read_text()
            assert f"Explorable «{nombre}»" in texto, html
            posicion = texto.index(f"Explorable «{nombre}»")
            assert 'src="data:image/png;base64,' in texto[posicion:], html
            assert MIME_WIDGET not in texto and "Error displaying widget" not in texto
