"""The battery of student implementations, autograded by the real nbgrader pipeline.

Every file in ``tests/bateria/<function>/`` holds only what a student would
type in the exercise cell (imports and the function) and a header::

    # espera: completo | parcial | cero
    # diagnostico: <text that must appear in the autograded feedback>   (optional)
    # puntos: <exact total of the exercise's test cells>                (optional)

Each file becomes one student: it is planted into a copy of the release
notebook in the solution cell (grade_id ``multi_head`` / ``positional_encoding``;
the rest of the notebook untouched), all students of one assignment are
autograded by ONE ``nbgrader autograde`` in a temporary course, and the scores
are read back from the gradebook (the exercise's test cells only; quiz cells
are ignored).  The two assignments run in parallel, in two temporary courses.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

from scripts import samples
import pytest

RAIZ = Path(__file__).resolve().parent.parent
BATERIA = Path(__file__).resolve().parent / "bateria"

# function -> (assignment folder, notebook name)
ASIGNACIONES = {
    "multi_head": ("01_atencion_multicabeza", "atencion_multicabeza"),
    "positional_encoding": ("02_codificacion_posicional", "codificacion_posicional"),
}
PUNTOS_TOTALES = {"multi_head": 10.0, "positional_encoding": 6.0}


def leer_cabecera(ruta: Path) -> dict:
    """The ``# clave: valor`` lines at the top of a battery file."""
    cabecera: dict = {}
    for linea in ruta.read_text(encoding="utf-8").splitlines():
        if not linea.startswith("#"):
            break
        clave, _, valor = linea[1:].partition(":")
        if clave.strip() in ("espera", "diagnostico", "puntos") and valor.strip():
            cabecera[clave.strip()] = valor.strip()
    if cabecera.get("espera") not in ("completo", "parcial", "cero"):
        raise ValueError(f"{ruta.name}: falta '# espera: completo|parcial|cero'")
    return cabecera


def archivos(funcion: str) -> list[Path]:
    return sorted((BATERIA / funcion).glob("*.py"))


def plantar(nb, funcion: str, codigo: str):
    """Put ``codigo`` where the student types, in the cell with grade_id ``funcion``."""
    samples.plant(nb, funcion, codigo)
    assert "raise NotImplementedError()" not in next(
        c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == funcion)
    return nb


def _entorno() -> dict:
    entorno = dict(os.environ)
    binarios = str(Path(sys.executable).parent)
    entorno["PATH"] = binarios + os.pathsep + entorno.get("PATH", "")
    entorno.pop("JUPYTER_CONFIG_DIR", None)
    return entorno


def _nbgrader(curso: Path, *argumentos: str) -> subprocess.Popen:
    registro = open(curso / f"nbgrader_{argumentos[0]}.log", "w")
    return subprocess.Popen([sys.executable, "-m", "nbgrader", *argumentos], cwd=curso,
                            env=_entorno(), stdout=registro, stderr=subprocess.STDOUT)


def _esperar(proceso: subprocess.Popen, curso: Path, que: str, limite: float = 420) -> None:
    codigo = proceso.wait(timeout=limite)
    assert codigo == 0, f"nbgrader {que} falló:\n" + (curso / f"nbgrader_{que}.log").read_text()[-4000:]


def preparar_curso(base: Path, funcion: str) -> tuple[Path, list[tuple[str, Path]]]:
    """A temporary course with one assignment and one student per battery file."""
    carpeta, cuaderno = ASIGNACIONES[funcion]
    curso = base / funcion
    curso.mkdir()
    shutil.copy(RAIZ / "nbgrader_config.py", curso)
    ignorar = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")
    shutil.copytree(RAIZ / "grader_tests", curso / "grader_tests", ignore=ignorar)
    shutil.copytree(RAIZ / "source" / carpeta, curso / "source" / carpeta, ignore=ignorar)
    # the gradebook (and, without a release in the repo, the release itself)
    _esperar(_nbgrader(curso, "generate_assignment", carpeta, "--force"), curso, "generate_assignment")
    release = RAIZ / "release" / carpeta
    if not (release / f"{cuaderno}.ipynb").exists():
        release = curso / "release" / carpeta
    alumnos = []
    for ruta in archivos(funcion):
        alumno = ruta.stem
        destino = curso / "submitted" / alumno / carpeta
        shutil.copytree(release, destino, ignore=ignorar)
        nb = nbformat.read(release / f"{cuaderno}.ipynb", as_version=4)
        nbformat.write(plantar(nb, funcion, ruta.read_text(encoding="utf-8")), destino / f"{cuaderno}.ipynb")
        alumnos.append((alumno, ruta))
    return curso, alumnos


def _texto_de_salidas(celda) -> str:
    partes = []
    for salida in celda.get("outputs", []):
        if "text" in salida:
            partes.append(str(salida["text"]))
        for valor in salida.get("data", {}).values():
            partes.append(valor if isinstance(valor, str) else json.dumps(valor, ensure_ascii=False))
        if salida.get("output_type") == "error":
            partes.append(f"{salida.get('ename')}: {salida.get('evalue')}")
    return "\n".join(partes)


def resultados(curso: Path, funcion: str, alumnos) -> dict:
    """Per student: (total auto score of the exercise's cells, feedback text, per-cell scores)."""
    from nbgrader.api import Gradebook

    carpeta, cuaderno = ASIGNACIONES[funcion]
    salida = {}
    with Gradebook(f"sqlite:///{curso / 'gradebook.db'}") as gb:
        for alumno, _ in alumnos:
            envio = gb.find_submission_notebook(cuaderno, carpeta, alumno)
            celdas = {g.name: float(g.auto_score or 0) for g in envio.grades if g.name.startswith(funcion)}
            nb = nbformat.read(curso / "autograded" / alumno / carpeta / f"{cuaderno}.ipynb", as_version=4)
            texto = "\n".join(_texto_de_salidas(c) for c in nb.cells
                              if c.cell_type == "code"
                              and c.metadata.get("nbgrader", {}).get("grade_id", "").startswith(funcion))
            salida[alumno] = (sum(celdas.values()), texto, celdas)
    return salida


@pytest.fixture(scope="module")
def bateria_autocalificada(tmp_path_factory):
    """Autograde both batteries (one nbgrader run per assignment, in parallel)."""
    base = tmp_path_factory.mktemp("cursos")
    cursos = {f: preparar_curso(base, f) for f in ASIGNACIONES}
    procesos = {f: _nbgrader(curso, "autograde", ASIGNACIONES[f][0]) for f, (curso, _) in cursos.items()}
    for funcion, proceso in procesos.items():
        _esperar(proceso, cursos[funcion][0], "autograde")
    return {f: (alumnos, resultados(curso, f, alumnos)) for f, (curso, alumnos) in cursos.items()}


def test_la_bateria_es_suficiente():
    for funcion in ASIGNACIONES:
        cabeceras = [leer_cabecera(r) for r in archivos(funcion)]
        assert sum(c["espera"] != "completo" for c in cabeceras) >= 15, funcion
        assert sum(c["espera"] == "completo" for c in cabeceras) >= 5, funcion


@pytest.mark.slow
@pytest.mark.parametrize("funcion", list(ASIGNACIONES))
def test_bateria_autocalificada(bateria_autocalificada, funcion):
    alumnos, notas = bateria_autocalificada[funcion]
    maximo = PUNTOS_TOTALES[funcion]
    fallos = []
    for alumno, ruta in alumnos:
        cabecera = leer_cabecera(ruta)
        total, texto, celdas = notas[alumno]
        detalle = f"{ruta.name}: {total:g} de {maximo:g} {celdas}"
        espera = cabecera["espera"]
        if espera == "completo" and total != maximo:
            fallos.append(f"{detalle}: se esperaba la nota completa")
        elif espera == "parcial" and not 0 < total < maximo:
            fallos.append(f"{detalle}: se esperaba una nota parcial")
        elif espera == "cero" and total != 0:
            fallos.append(f"{detalle}: se esperaba 0")
        if "puntos" in cabecera and abs(total - float(cabecera["puntos"])) > 1e-6:
            fallos.append(f"{detalle}: se esperaban exactamente {cabecera['puntos']} puntos")
        if "diagnostico" in cabecera and cabecera["diagnostico"] not in texto:
            fallos.append(f"{detalle}: falta el diagnóstico {cabecera['diagnostico']!r}")
        if espera != "completo" and "Diagnóstico probable" not in texto and "no restan puntos" not in texto \
                and "diagnostico" not in cabecera:
            fallos.append(f"{detalle}: ningún diagnóstico en la corrección")
    assert not fallos, "\n".join(fallos)
