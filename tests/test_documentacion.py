"""The documentation as a map: every relative link resolves and every guide is one click from the README.

The README maps the guides in ``docs/`` (and the folder READMEs); a guide moved or renamed, a
heading reworded or a ``../`` forgotten would leave a reader on a dead link.  Checked here, without
network: links to files and folders of the repository (``[texto](ruta)``, ``[texto](ruta#ancla)``),
anchors against the headings of the target file (GitHub's slugs), every guide of ``docs/`` linked
from ``README.md``, and the quick start's two commands.
"""
from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parent.parent
GUIAS = sorted((RAIZ / "docs").glob("*.md"))

ENLACE = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
BLOQUE_DE_CODIGO = re.compile(r"^```.*?^```", re.S | re.M)


def documentos() -> list[Path]:
    """README.md, docs/*.md and every README.md under version control (not generated copies)."""
    salida = subprocess.run(["git", "ls-files", "*.md"], cwd=RAIZ, capture_output=True, text=True)
    versionados = {RAIZ / l for l in salida.stdout.split()} if salida.returncode == 0 else set()
    readmes = {p for p in versionados if p.name == "README.md" and not p.parts[len(RAIZ.parts)] == "release"}
    return sorted({RAIZ / "README.md", *GUIAS, *readmes})


def ancla(titulo: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation out, spaces to hyphens."""
    titulo = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", titulo).strip().lower()
    titulo = "".join(c for c in titulo if c in " -_" or unicodedata.category(c)[0] in "LN")
    return titulo.replace(" ", "-")


def anclas(archivo: Path) -> set[str]:
    texto = BLOQUE_DE_CODIGO.sub("", archivo.read_text(encoding="utf-8"))
    vistas: dict[str, int] = {}
    resultado = set()
    for linea in texto.splitlines():
        m = re.match(r"#{1,6}\s+(.*)", linea)
        if m:
            base = ancla(m.group(1))
            n = vistas.get(base, 0)
            vistas[base] = n + 1
            resultado.add(base if n == 0 else f"{base}-{n}")
    return resultado


def enlaces(archivo: Path) -> list[str]:
    texto = BLOQUE_DE_CODIGO.sub("", archivo.read_text(encoding="utf-8"))
    texto = re.sub(r"`[^`\n]*`", "", texto)
    return ENLACE.findall(texto)


@pytest.mark.parametrize("archivo", documentos(), ids=lambda p: str(p.relative_to(RAIZ)))
def test_cada_enlace_relativo_lleva_a_un_archivo_y_a_su_titulo(archivo):
    rotos = []
    for destino in enlaces(archivo):
        if re.match(r"[a-z][a-z0-9+.-]*:", destino):        # http:, https:, mailto:: not followed here
            continue
        ruta, _, fragmento = destino.partition("#")
        objetivo = (archivo.parent / ruta).resolve() if ruta else archivo
        if not objetivo.exists():
            rotos.append(f"{destino}: no existe {objetivo}")
        elif not objetivo.resolve().is_relative_to(RAIZ):
            rotos.append(f"{destino}: sale del repositorio")
        elif fragmento and objetivo.suffix == ".md" and fragmento not in anclas(objetivo):
            rotos.append(f"{destino}: {objetivo.name} no tiene el título #{fragmento}")
    assert not rotos, f"{archivo.relative_to(RAIZ)}:\n" + "\n".join(rotos)


def test_cada_guia_esta_a_un_clic_del_readme():
    assert GUIAS, "docs/ no tiene guías"
    enlazadas = {(RAIZ / e.partition("#")[0]).resolve() for e in enlaces(RAIZ / "README.md")}
    sueltas = [g.name for g in GUIAS if g.resolve() not in enlazadas]
    assert not sueltas, f"el README no enlaza estas guías: {sueltas}"
    assert (RAIZ / "despliegue" / "README.md").resolve() in enlazadas
    assert (RAIZ / "scripts" / "README.md").resolve() in enlazadas


def test_el_inicio_rapido_tiene_las_dos_ordenes():
    texto = (RAIZ / "README.md").read_text(encoding="utf-8")
    seccion = texto.split("## Inicio rápido", 1)[1].split("\n## ", 1)[0]
    bloque = re.search(r"```bash\n(.*?)```", seccion, re.S).group(1)
    ordenes = [l.split("#")[0].strip() for l in bloque.splitlines() if l.split("#")[0].strip()]
    assert ordenes == ["make grade", "make test"]


def test_el_ancla_sigue_a_github():
    assert ancla("Plazos, retrasos y prórrogas") == "plazos-retrasos-y-prórrogas"
    assert ancla("Validate dice lo mismo que la nota") == "validate-dice-lo-mismo-que-la-nota"
    assert ancla("`make grade` (en paralelo)") == "make-grade-en-paralelo"


# Spanish key names JupyterLab never shows: its menus, tooltips and shortcut lists write the keys
# as lumino names them (Shift, Enter, Ctrl, Backspace…) and no translation reaches them
# (ajustes_jupyterlab/README.md).  A quoted «Mayús» explains the key; a bare one names it.
TECLA_EN_ESPANOL = re.compile(r"(?<![«\w])(Mayús|Intro|Supr|RePág|AvPág|Retroceso)(?![\w»])")


def _textos_para_el_alumnado() -> dict[str, str]:
    """Every text a student reads: the guides, the lessons and their files, the interface's Spanish."""
    import json
    textos = {str(p.relative_to(RAIZ)): p.read_text(encoding="utf-8") for p in documentos()}
    for ruta in sorted((RAIZ / "source").glob("*/*")) + sorted((RAIZ / "plantillas" / "leccion").glob("*")):
        if ruta.suffix == ".ipynb":
            celdas = json.loads(ruta.read_text(encoding="utf-8"))["cells"]
            textos[str(ruta.relative_to(RAIZ))] = "\n".join("".join(c["source"]) for c in celdas)
        elif ruta.suffix in (".py", ".json", ".md"):
            textos[str(ruta.relative_to(RAIZ))] = ruta.read_text(encoding="utf-8")
    for po in (RAIZ / "ajustes_jupyterlab" / "traducciones").glob("*.po"):
        textos[str(po.relative_to(RAIZ))] = "\n".join(
            l for l in po.read_text(encoding="utf-8").splitlines() if l.startswith("msgstr"))
    return textos


def test_las_teclas_con_el_nombre_que_les_da_jupyterlab():
    """«Shift+Enter», as the run button's tooltip and the Run menu show it, never «Mayús + Intro»."""
    textos = _textos_para_el_alumnado()
    assert any("source/" in r and r.endswith(".ipynb") for r in textos) and len(textos) > 20
    en_espanol = {ruta: sorted(set(TECLA_EN_ESPANOL.findall(texto))) for ruta, texto in textos.items()
                  if TECLA_EN_ESPANOL.search(texto)}
    assert not en_espanol, f"teclas con un nombre que JupyterLab no enseña: {en_espanol}"
    assert "(Shift+Enter)" in (RAIZ / "plantillas" / "leccion" / "respaldo_explorable.py").read_text(encoding="utf-8")
    guia = (RAIZ / "docs" / "estudiantes.md").read_text(encoding="utf-8")
    assert "**Shift**" in guia and "**Enter**" in guia       # the guide says which keys those are
