"""HTML and script injection: in a markdown cell, in display(HTML(...)), JavaScript and forged image outputs.

Each piece would set ``window.__inyectado`` (and try formgrader's API) if it
ran in the TA's formgrader or in a feedback page.  The answer is correct:
full marks; the feedback shows the text, never a live script
(tests/test_seguridad.py, tests/navegador/test_6_formgrader_seguridad.py).
"""
import nbformat

from . import PE_CORRECTA, cargar, guardar, responder

ESPERADO = "completa"
TEXTO_VISIBLE = "Texto visible del alumno 4815"
CARGA = ("window.__inyectado = (window.__inyectado || 0) + 1; "
         "fetch('/formgrader/api/grade/1', {method: 'PUT', body: '{\"manual_score\": 0}'});")

MARKDOWN = f'''## Mis notas

{TEXTO_VISIBLE}: $a<b$ y $\\\\sum_i x_i$.

<script>{CARGA}</script>
<img src="x" onerror="{CARGA}">
<a href="javascript:{CARGA}">enlace</a>
<iframe src="javascript:{CARGA}"></iframe>
<svg onload="{CARGA}"></svg>
<div style="background:url(javascript:x)" onmouseover="{CARGA}">pasa por aquí</div>
'''

SALIDAS = f'''
from IPython.display import HTML, Javascript, display
_carga = {CARGA!r}
display(HTML("<b>negrita</b><script>" + _carga + "</script><img src=x onerror=" + repr(_carga) + ">"))
display(Javascript(_carga))
display({{"image/png": 'x" onerror="' + _carga, "text/plain": "imagen"}}, raw=True)
display({{"application/vnd.jupyter.widget-view+json": {{"model_id": "x"}}, "text/plain": "w"}}, raw=True)
'''


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_CORRECTA + SALIDAS)
    nb.cells.insert(1, nbformat.v4.new_markdown_cell(MARKDOWN))
    guardar(entrega, nb)
