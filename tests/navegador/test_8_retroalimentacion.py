"""The feedback a student reads, in Chromium (issue 22.8): no word split across lines, no stray score.

Every feedback page ``make grade`` wrote for the samples (``curso_ta``), at three window widths:
in the verdicts (pre-formatted, wrapped) no word shorter than the line is broken between two
letters or digits («toke / n»; a break after punctuation, as in «(n?,k), / (k,m?)», is the
browser's line breaking);
the graded test cells show their verdict and no bare ``Out[n]: 3``.
"""
from __future__ import annotations

import pytest

PALABRAS_PARTIDAS = """() => {
    const partidas = [], palabra = /[\\p{L}\\p{N}]+/gu;
    for (const pre of document.querySelectorAll('div.output_area pre')) {
        const ancho = pre.getBoundingClientRect().width;
        const recorrido = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        let nodo;
        while ((nodo = recorrido.nextNode())) {
            const t = nodo.textContent, r = document.createRange();
            for (const m of t.matchAll(palabra)) {
                r.setStart(nodo, m.index); r.setEnd(nodo, m.index + m[0].length);
                const cajas = Array.from(r.getClientRects()).filter(c => c.width > 0);
                if (cajas.length < 2) continue;
                const arriba = new Set(cajas.map(c => Math.round(c.top)));
                const largo = cajas.reduce((s, c) => s + c.width, 0);
                if (arriba.size > 1 && largo < ancho) partidas.push(m[0]);
            }
        }
    }
    return partidas;
}"""

NOTAS_SUELTAS = """() => Array.from(document.querySelectorAll('div.cell'))
    .filter(c => Array.from(c.querySelectorAll('.nbgrader-label')).some(l => l.textContent.includes('Celda calificada')))
    .flatMap(c => Array.from(c.querySelectorAll('.output_prompt')).map(p => p.textContent.trim()))
    .filter(t => t.startsWith('Out'))"""


@pytest.mark.parametrize("ancho", [700, 1000, 1400])
def test_comentarios_sin_palabras_partidas_ni_notas_sueltas(curso_ta, pagina, captura, ancho):
    paginas = sorted((curso_ta / "feedback").glob("*/*/*.html"))
    assert len(paginas) >= 4, "make grade tenía que dejar los comentarios de las muestras"
    pagina.set_viewport_size({"width": ancho, "height": 900})
    for html in paginas:
        pagina.goto(html.as_uri())
        pagina.wait_for_load_state("load")
        partidas = pagina.evaluate(PALABRAS_PARTIDAS)
        assert not partidas, f"{html.relative_to(curso_ta)} a {ancho} px: palabras partidas {partidas[:5]}"
        assert pagina.evaluate(NOTAS_SUELTAS) == [], f"{html.relative_to(curso_ta)}: «Out[…]» tras un veredicto"
    captura(f"comentarios-{ancho}px")
