"""Build the course's Spanish catalogue of JupyterLab from the language pack and the course's translations.

    python ajustes_jupyterlab/traducir.py               # rewrites the catalogue
    python ajustes_jupyterlab/traducir.py --comprobar   # exit 1 if the committed one is out of date

Inputs (``traducciones/``):

- ``jupyterlab-language-pack-es-ES-4.5.post3.json``: the ``jupyterlab`` domain of the PyPI
  package ``jupyterlab-language-pack-es-ES`` 4.5.post3, verbatim (BSD-3-Clause, Project Jupyter
  contributors: ``LICENSE-jupyterlab-language-pack-es-ES.txt``).  It covers about a third of
  JupyterLab 4.6's strings and has no Spanish for most of what a student sees (menus, dialogs,
  status bar), three words for the kernel and some wrong entries («New Notebook» → «Nueva
  consola para el cuaderno»).
- ``curso.po``: the course's translations (gettext), which win over the pack's: every string
  on the student's path in JupyterLab 4.6, with one word per idea (núcleo, cuaderno, celda,
  salida, pestaña).
- ``curso-jupyterlab_widgets.po`` and ``curso-notebook.po``: the course's translations of the
  ``jupyterlab_widgets`` domain (ipywidgets) and of Jupyter Notebook 7's own ``notebook`` domain
  (/tree and ``jupyter notebook``; the rest of those pages uses ``jupyterlab``).

Output (the language pack the course environment installs, package ``jupyterlab_language_pack_es_ES``
of ``ajustes_jupyterlab/``): ``locale/es_ES/LC_MESSAGES/<dominio>.json`` (what JupyterLab's
interface reads) and ``<dominio>.mo`` (what jupyterlab_server reads for the settings' titles
and the menus declared in settings: «Archivo», «Ejecutar», «Núcleo»…).  Deterministic: the same
inputs give the same bytes.
"""
from __future__ import annotations

import argparse
import datetime
import io
import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

AQUI = Path(__file__).resolve().parent
TRADUCCIONES = AQUI / "traducciones"
BASE = TRADUCCIONES / "jupyterlab-language-pack-es-ES-4.5.post3.json"
CURSO = TRADUCCIONES / "curso.po"
DOMINIOS = {
    # domain: (the language pack's catalogue or None, the course's translations)
    "jupyterlab": (BASE, CURSO),
    "jupyterlab_widgets": (None, TRADUCCIONES / "curso-jupyterlab_widgets.po"),
    # Jupyter Notebook 7 (/tree, `jupyter notebook`): its own few messages; the rest is «jupyterlab»
    "notebook": (None, TRADUCCIONES / "curso-notebook.po"),
}
DESTINO = AQUI / "jupyterlab_language_pack_es_ES" / "locale" / "es_ES" / "LC_MESSAGES"
CONTEXTO = "\u0004"      # gettext's separator between msgctxt and msgid (JupyterLab's JSON keys)
VERSION = "4.6.6"


def metadatos(dominio: str) -> dict:
    return {"domain": dominio, "language": "es-ES", "plural_forms": "nplurals=2; plural=(n != 1);",
            "version": VERSION}


def _clave(contexto: str | None, msgid: str) -> str:
    return f"{contexto}{CONTEXTO}{msgid}" if contexto else msgid


def traducciones_del_curso(ruta: Path = CURSO) -> dict[str, list[str]]:
    """``{clave JSON: [traducción, (plural)]}`` from ``curso.po``; untranslated entries are an error."""
    with open(ruta, "rb") as archivo:
        catalogo = read_po(archivo, locale="es_ES")
    resultado = {}
    for mensaje in catalogo:
        if not mensaje.id:
            continue
        singular = mensaje.id[0] if isinstance(mensaje.id, (tuple, list)) else mensaje.id
        formas = list(mensaje.string) if isinstance(mensaje.string, (tuple, list)) else [mensaje.string]
        if not all(formas):
            raise ValueError(f"{ruta.name}: «{singular}» no tiene traducción")
        resultado[_clave(mensaje.context, singular)] = formas
    return resultado


_TERMINOS = [
    # (English word left in the pack's Spanish, or the pack's other word for it) -> the course's word
    (re.compile(r"\b(?:[Kk]ernels|intérpretes)\b"), "núcleos"),
    (re.compile(r"\b(?:[Kk]ernel|intérprete)\b"), "núcleo"),
    (re.compile(r"(?<!Jupyter )\b[Nn]otebooks\b"), "cuadernos"),
    (re.compile(r"(?<!Jupyter )\b[Nn]otebook\b"), "cuaderno"),
    (re.compile(r"\bNúcleo\b"), "núcleo"),
    (re.compile(r"\bCuaderno\b"), "cuaderno"),
]


def normalizar(texto: str) -> str:
    """The pack's Spanish with the course's one word per idea: núcleo (not Kernel or intérprete),
    cuaderno (not Notebook); capital only where a sentence starts.  «Jupyter Notebook» stays."""
    for patron, palabra in _TERMINOS:
        texto = patron.sub(palabra, texto)
    return re.sub(r"(^|[.!?¿¡]\s+|\n)(núcleo|cuaderno)", lambda m: m.group(1) + m.group(2).capitalize(), texto)


def catalogo(dominio: str = "jupyterlab") -> dict[str, list[str]]:
    """The merged catalogue of a domain: the pack's entries, then the course's on top (sorted keys)."""
    base_ruta, curso = DOMINIOS[dominio]
    base = json.loads(base_ruta.read_text(encoding="utf-8")) if base_ruta else {}
    base.pop("", None)
    fusion = {clave: [normalizar(forma) for forma in valor] for clave, valor in base.items()}
    fusion.update(traducciones_del_curso(curso))
    return {"": metadatos(dominio), **dict(sorted(fusion.items()))}


def texto_json(datos: dict) -> str:
    return json.dumps(datos, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def bytes_mo(datos: dict) -> bytes:
    """The same catalogue as a gettext ``.mo`` (babel), plural forms included."""
    fecha = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)   # fixed: the same bytes every time
    cat = Catalog(locale="es_ES", domain=datos[""]["domain"], project="curso-atencion-jupyterlab-es",
                  version=VERSION, fuzzy=False, creation_date=fecha, revision_date=fecha)
    for clave, formas in datos.items():
        if not clave:
            continue
        contexto, _, msgid = clave.rpartition(CONTEXTO)
        if len(formas) > 1:
            cat.add((msgid, msgid), tuple(formas), context=contexto or None)
        else:
            cat.add(msgid, formas[0], context=contexto or None)
    salida = io.BytesIO()
    write_mo(salida, cat, use_fuzzy=False)
    return salida.getvalue()


def archivos() -> dict[str, bytes]:
    """``{nombre: contenido}`` of every generated file (``<dominio>.json`` and ``<dominio>.mo``)."""
    resultado = {}
    for dominio in DOMINIOS:
        datos = catalogo(dominio)
        resultado[f"{dominio}.json"] = texto_json(datos).encode("utf-8")
        resultado[f"{dominio}.mo"] = bytes_mo(datos)
    return resultado


def escribir() -> None:
    DESTINO.mkdir(parents=True, exist_ok=True)
    for nombre, contenido in archivos().items():
        (DESTINO / nombre).write_bytes(contenido)


def al_dia() -> list[str]:
    """The generated files that differ from what the inputs give (empty: up to date)."""
    diferentes = []
    for nombre, contenido in archivos().items():
        ruta = DESTINO / nombre
        if not ruta.exists() or ruta.read_bytes() != contenido:
            diferentes.append(str(ruta.relative_to(AQUI.parent)))
    sobran = {p.name for p in DESTINO.glob("*")} - set(archivos())
    diferentes += [str((DESTINO / n).relative_to(AQUI.parent)) + " (sobra)" for n in sorted(sobran)]
    return diferentes


_CADENA = r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\$]|\\.)*`)"""
_LLAMADAS = {
    "__": re.compile(r"\.__\(\s*" + _CADENA),
    "_n": re.compile(r"\._n\(\s*" + _CADENA + r"\s*,\s*" + _CADENA),
    "_p": re.compile(r"\._p\(\s*" + _CADENA + r"\s*,\s*" + _CADENA),
    "_np": re.compile(r"\._np\(\s*" + _CADENA + r"\s*,\s*" + _CADENA + r"\s*,\s*" + _CADENA),
}


def _literal(texto: str) -> str:
    """A JavaScript string literal's value (the escapes JupyterLab's bundles use)."""
    cuerpo = texto[1:-1]
    if texto[0] != '"':
        cuerpo = cuerpo.replace('\\' + texto[0], texto[0]).replace('"', '\\"')
    return json.loads(f'"{cuerpo}"')


def mensajes_de_jupyterlab(carpetas: list[Path]) -> dict[str, bool]:
    """``{clave JSON: plural}``: how JupyterLab's JavaScript (``carpetas``) asks for each message.

    Read from the ``trans.__``, ``_n``, ``_p`` and ``_np`` calls of the built bundles; ``plural``
    is True when the message is asked for with a count (its entry needs both forms).
    """
    mensajes: dict[str, bool] = {}
    for carpeta in carpetas:
        for ruta in Path(carpeta).rglob("*.js"):
            codigo = ruta.read_text(encoding="utf-8", errors="replace")
            for tipo, patron in _LLAMADAS.items():
                for m in patron.finditer(codigo):
                    try:
                        partes = [_literal(g) for g in m.groups()]
                    except ValueError:
                        continue
                    if tipo == "__":
                        clave, plural = partes[0], False
                    elif tipo == "_n":
                        clave, plural = partes[0], True
                    elif tipo == "_p":
                        clave, plural = _clave(partes[0], partes[1]), False
                    else:
                        clave, plural = _clave(partes[0], partes[1]), True
                    mensajes[clave] = mensajes.get(clave, False) or plural
    return mensajes


def mensajes_de_los_ajustes(carpetas: list[Path]) -> set[str]:
    """JSON keys of the strings JupyterLab's settings schemas (``carpetas``) ask to translate.

    The same selectors jupyterlab_server uses (menu labels with context ``menu``, settings'
    titles and descriptions with ``settings`` or ``schema``…).
    """
    from jupyterlab_server.translation_utils import DEFAULT_SCHEMA_SELECTORS

    selectores = [(re.compile(patron), contexto) for patron, contexto in DEFAULT_SCHEMA_SELECTORS.items()]

    def recorrer(valor, ruta):
        if isinstance(valor, dict):
            for k, v in valor.items():
                yield from recorrer(v, f"{ruta}/{k}" if ruta else k)
        elif isinstance(valor, list):
            for i, v in enumerate(valor):
                yield from recorrer(v, f"{ruta}/{i}")
        elif isinstance(valor, str):
            yield ruta, valor

    claves = set()
    for carpeta in carpetas:
        for ruta in Path(carpeta).rglob("*.json"):
            try:
                esquema = json.loads(ruta.read_text(encoding="utf-8"))
            except ValueError:
                continue
            for camino, texto in recorrer(esquema, ""):
                for patron, contexto in selectores:
                    if texto and patron.fullmatch(camino):
                        claves.add(_clave(contexto, texto))
                        break
    return claves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--comprobar", action="store_true",
                        help="no escribe: sale con 1 si el catálogo no está al día")
    args = parser.parse_args(argv)
    if args.comprobar:
        diferentes = al_dia()
        for ruta in diferentes:
            print(f"No está al día: {ruta} (python ajustes_jupyterlab/traducir.py)")
        return 1 if diferentes else 0
    escribir()
    entradas = ", ".join(f"{d}: {len(catalogo(d)) - 1}" for d in DOMINIOS)
    print(f"Catálogo escrito en {DESTINO.relative_to(AQUI.parent)} ({entradas} entradas)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
