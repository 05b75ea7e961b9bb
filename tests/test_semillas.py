"""Every item of every seed document is taught in a lesson: the inventories in ``tests/semillas/``.

``tests/semillas/<NNN>.json`` lists the items of seed ``<NNN>`` (its ideas, examples, figures,
formulas and exercise contracts), one JSON object each::

    {"semilla": "000", "tipo": "idea", "que": "<qué enseña, en una frase>",
     "leccion": "01_atencion_multicabeza", "ancla": "<texto de la celda que lo enseña>"}

``ancla`` is a piece of text copied from the lesson cell (markdown or code) of
``source/<leccion>/*.ipynb`` that teaches the item; it is compared with runs of whitespace
collapsed, so re-wrapping a paragraph does not break it.  When a lesson is rewritten, a missing
anchor names the item by its ``que``: find where the new text teaches it and copy the anchor from
there (or teach it again).  The seeds themselves live in ``../shared/seeds`` (``<NNN>_*.txt``);
when that folder is present, each inventory must name an existing seed.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from functools import lru_cache

import pytest

from conftest import RAIZ

CARPETA = RAIZ / "tests" / "semillas"
SEMILLAS = RAIZ.parent / "shared" / "seeds"
TIPOS = ("idea", "ejemplo", "figura", "fórmula", "contrato")
CLAVES = {"semilla", "tipo", "que", "leccion", "ancla"}
INVENTARIOS = sorted(CARPETA.glob("*.json"))


def _espacios(texto: str) -> str:
    return re.sub(r"\s+", " ", texto).strip()


def _leer(ruta):
    return json.loads(ruta.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _celdas(leccion: str) -> tuple[str, ...]:
    """The text of every cell of ``source/<leccion>/*.ipynb``, whitespace collapsed."""
    textos = []
    for cuaderno in sorted((RAIZ / "source" / leccion).glob("*.ipynb")):
        for celda in _leer(cuaderno).get("cells", []):
            fuente = celda.get("source", "")
            textos.append(_espacios("".join(fuente) if isinstance(fuente, list) else fuente))
    return tuple(textos)


def test_hay_inventarios():
    assert INVENTARIOS, f"no hay ningún inventario en {CARPETA.relative_to(RAIZ)}/"


@pytest.mark.parametrize("ruta", INVENTARIOS, ids=lambda p: p.name)
def test_formato_del_inventario(ruta):
    items = _leer(ruta)
    assert isinstance(items, list) and items, f"{ruta.name}: debe ser una lista JSON no vacía"
    problemas = []
    for n, item in enumerate(items):
        donde = f"{ruta.name}, elemento {n}"
        if not isinstance(item, dict):
            problemas.append(f"{donde}: no es un objeto JSON")
            continue
        if set(item) != CLAVES:
            problemas.append(f"{donde}: claves {sorted(item)}; deben ser exactamente {sorted(CLAVES)}")
            continue
        vacias = [k for k in sorted(CLAVES) if not isinstance(item[k], str) or not item[k].strip()]
        if vacias:
            problemas.append(f"{donde}: {', '.join(vacias)} debe ser un texto no vacío")
            continue
        if item["semilla"] != ruta.stem:
            problemas.append(f"{donde}: «semilla» es {item['semilla']!r} y el archivo es {ruta.name}")
        if item["tipo"] not in TIPOS:
            problemas.append(f"{donde}: «tipo» es {item['tipo']!r}; vale uno de {', '.join(TIPOS)}")
        if not list((RAIZ / "source" / item["leccion"]).glob("*.ipynb")):
            problemas.append(f"{donde}: no existe la lección source/{item['leccion']}/")
    veces = Counter(str(i.get("que")) for i in items if isinstance(i, dict))
    repetidos = sorted(que for que, n in veces.items() if n > 1)
    if repetidos:
        problemas.append(f"{ruta.name}: «que» repetido: {', '.join(repetidos)}")
    assert not problemas, "\n".join(problemas)


@pytest.mark.parametrize("ruta", INVENTARIOS, ids=lambda p: p.name)
def test_la_semilla_existe(ruta):
    if not SEMILLAS.is_dir():
        pytest.skip(f"no está {SEMILLAS} (las semillas no viajan con el curso)")
    assert sorted(SEMILLAS.glob(f"{ruta.stem}_*.txt")) or (SEMILLAS / f"{ruta.stem}.txt").is_file(), (
        f"{ruta.name}: no hay ninguna semilla {ruta.stem}_*.txt en {SEMILLAS}")


@pytest.mark.parametrize("ruta", INVENTARIOS, ids=lambda p: p.name)
def test_cada_elemento_se_ensena_en_su_leccion(ruta):
    faltan = []
    for item in _leer(ruta):
        if not isinstance(item, dict) or not CLAVES <= set(item):
            continue                      # the format test reports it
        ancla = _espacios(str(item["ancla"]))
        if not any(ancla in celda for celda in _celdas(str(item["leccion"]))):
            faltan.append(f"«{item['que']}» ({item['tipo']}): no se encuentra {item['ancla']!r} "
                          f"en ninguna celda de source/{item['leccion']}/")
    assert not faltan, (f"{ruta.name}: {len(faltan)} elementos de la semilla sin su celda:\n"
                        + "\n".join(faltan))
