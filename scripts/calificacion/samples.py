"""Build the sample submissions from ``release/`` plus per-student answers.

Each file ``examples/respuestas/<student>.py`` lists what that sample student
typed, in sections::

    # %% 01_atencion_multicabeza / multi_head
    <code typed where the stub was>
    # %% 01_atencion_multicabeza / quiz = correcto
    # %% 01_atencion_multicabeza / respuesta_2
    respuesta_2 = "a"

A section names an assignment and the grade_id of an answer cell; its code
replaces the stub lines of that cell (``# ESCRIBE TU CÓDIGO AQUÍ`` and the
``raise NotImplementedError()`` after it), indented like the stub — or the
whole cell when the code defines the function at column 0.  ``quiz =
correcto`` fills every quiz answer of the assignment with the right one (taken
from the grader's quiz module); later sections override single answers.

Assignments a student file never mentions are copied untouched (blank),
unless the file has a section for every other assignment (``*``), which
takes the exercise from the exercise's battery
(``grader_tests/ejercicios/<function>/bateria/``) and answers the quiz right::

    # %% * / correcto          the first correct implementation (c*.py)
    # %% * / error conocido    the first wrong one that makes a known mistake

So a new lesson has its samples (a correct one, a known mistake, a blank
one) without editing any answers file.

Because samples are rebuilt from the current release every time, they never
go stale when a lesson changes.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import stat
import sys
import tempfile
from pathlib import Path

import nbformat

RAIZ = Path(__file__).resolve().parents[2]
# Run as a script (make grade, make comprobar...), Python puts this folder first on sys.path: the course
# root takes its place, so these modules have one name only (scripts.calificacion.<módulo>).
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(RAIZ)
if str(RAIZ) not in sys.path:
    sys.path.insert(0, str(RAIZ))
RESPUESTAS = RAIZ / "examples" / "respuestas"
MARCA_MUESTRAS = ".muestras.json"
EN_OBRA = ".muestras-en-obra"
STUB = "# ESCRIBE TU CÓDIGO AQUÍ"
SECCION = re.compile(r"^# %% *(?P<assignment>[\w.-]+|\*) */ *(?P<destino>.+?) *$")


class SampleError(ValueError):
    """An answers file or a release notebook does not fit together."""


def parse_answers(path: Path) -> list[tuple[str, str, str]]:
    """Sections of an answers file as ``(assignment, target, code)`` in order."""
    sections: list[tuple[str, str, str]] = []
    current: tuple[str, str] | None = None
    lines: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = SECCION.match(line)
        if m:
            if current:
                sections.append((*current, "\n".join(lines).strip("\n")))
            current, lines = (m["assignment"], m["destino"]), []
        elif current:
            lines.append(line)
    if current:
        sections.append((*current, "\n".join(lines).strip("\n")))
    return sections


def plant(nb: nbformat.NotebookNode, grade_id: str, code: str) -> None:
    """Put ``code`` where a student types in the answer cell ``grade_id``.

    Raises:
        SampleError: no answer cell has that grade_id, or it has no stub.
    """
    cells = [c for c in nb.cells
             if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id]
    if len(cells) != 1:
        raise SampleError(f"{len(cells)} celdas con grade_id {grade_id!r}")
    cell = cells[0]
    if re.search(r"^def ", code, re.M) and re.search(r"^def ", cell.source, re.M):
        cell.source = code
        return
    lines = cell.source.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == STUB:
            indent = line[: len(line) - len(line.lstrip())]
            end = i + 2 if i + 1 < len(lines) and lines[i + 1].strip() == "raise NotImplementedError()" else i + 1
            body = [indent + l if l.strip() else l for l in code.split("\n")]
            cell.source = "\n".join(lines[:i] + body + lines[end:])
            return
    raise SampleError(f"la celda {grade_id!r} no tiene el texto de relleno {STUB!r}")


def correct_quiz_answers(notebook_name: str) -> dict[str, str]:
    """``{answer grade_id: 'respuesta_N = <literal>'}`` from the grader's quiz module."""
    from grader_tests.juez import descubrimiento
    answers = {}
    for question in descubrimiento.cuestionario(notebook_name).values():
        value = question.correcta
        literal = ("{" + ", ".join(repr(x) for x in sorted(value)) + "}"
                   if isinstance(value, (set, frozenset)) else repr(value))
        answers[question.variable] = f"{question.variable} = {literal}"
    return answers


# ``# %% * / <kind>``: what the exercise of every assignment the file does not name gets
TODAS = "*"
DE_LA_BATERIA = {"correcto": "the first correct implementation", "error conocido": "the first known mistake"}


def battery_code(function: str, kind: str) -> str:
    """The code of ``function``'s battery file for a ``* / <kind>`` section.

    Raises:
        SampleError: the exercise has no such battery file.
    """
    from grader_tests.juez import descubrimiento
    files = descubrimiento.ejercicio(function).bateria()
    if kind == "correcto":
        chosen = [f for f in files if f.espera == "completo" and not f.nombre.endswith("_nombres_del_corrector")]
    else:
        chosen = [f for f in files if f.espera != "completo" and f.errores]
    if not chosen:
        raise SampleError(f"la batería de {function} no tiene ningún archivo para «{kind}»")
    return chosen[0].codigo


def _functions_of(nb: nbformat.NotebookNode) -> list[str]:
    """The graded exercise functions of a notebook (answer cells named like an exercise folder)."""
    from grader_tests.en_el_kernel.casos import nombres_de_ejercicios
    exercises = set(nombres_de_ejercicios())
    return [c.metadata.nbgrader["grade_id"] for c in nb.cells
            if c.get("metadata", {}).get("nbgrader", {}).get("solution")
            and c.metadata.nbgrader.get("grade_id") in exercises]


def build_student(student: str, answers_file: Path, release: Path, submitted: Path) -> None:
    """Copy every release folder for ``student`` and plant their answers."""
    by_assignment: dict[str, list[tuple[str, str]]] = {}
    every_other: list[str] = []
    for assignment, target, code in parse_answers(answers_file):
        if assignment == TODAS:
            if target not in DE_LA_BATERIA:
                raise SampleError(f"{answers_file.name}: «# %% * / {target}» no existe; usa "
                                  + " o ".join(f"«* / {k}»" for k in DE_LA_BATERIA))
            every_other.append(target)
        else:
            by_assignment.setdefault(assignment, []).append((target, code))
    for folder in sorted(p for p in release.iterdir() if p.is_dir()):
        dest = submitted / student / folder.name
        shutil.copytree(folder, dest)
        for nb_path in sorted(dest.glob("*.ipynb")):
            nb = nbformat.read(nb_path, as_version=4)
            plan: dict[str, str] = {}          # grade_id -> code; later sections win
            sections = by_assignment.get(folder.name)
            if sections is None and every_other:
                plan.update(correct_quiz_answers(nb_path.stem))
                for function in _functions_of(nb):
                    plan[function] = battery_code(function, every_other[-1])
            for target, code in sections or []:
                if target.replace(" ", "") == "quiz=correcto":
                    plan.update(correct_quiz_answers(nb_path.stem))
                else:
                    plan[target] = code
            for grade_id, code in plan.items():
                plant(nb, grade_id, code)
            nbformat.write(nb, nb_path)
    unknown = set(by_assignment) - {p.name for p in release.iterdir()}
    if unknown:
        raise SampleError(f"{answers_file.name}: tareas desconocidas {sorted(unknown)}")


def sample_students(answers_dir: Path = RESPUESTAS) -> list[str]:
    return sorted(p.stem for p in answers_dir.glob("*.py"))


# A sample folder is a few small notebooks: a folder with more files, or a file past this size, is never
# one (and is not read through).
MAYOR_ARCHIVO_DE_MUESTRA = 4 * 1024 * 1024
MAS_ARCHIVOS_DE_MUESTRA = 100


def fingerprint(folder: Path) -> dict[str, list] | None:
    """``{relative path: [size, sha256]}`` of every regular file under ``folder``.

    Never follows a link: ``None`` when ``folder`` is not a plain folder, or
    holds anything but plain folders and at most ``MAS_ARCHIVOS_DE_MUESTRA``
    regular files no larger than ``MAYOR_ARCHIVO_DE_MUESTRA`` (such a
    folder is never a sample).
    """
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return None
    except OSError:
        return None
    huella: dict[str, list] = {}
    ilegibles: list[OSError] = []
    for actual, carpetas, archivos in os.walk(folder, followlinks=False, onerror=ilegibles.append):
        for nombre in carpetas:
            if os.path.islink(os.path.join(actual, nombre)):
                return None
        for nombre in archivos:
            ruta = os.path.join(actual, nombre)
            try:
                info = os.lstat(ruta)
            except OSError:
                return None
            if (not stat.S_ISREG(info.st_mode) or info.st_size > MAYOR_ARCHIVO_DE_MUESTRA
                    or len(huella) >= MAS_ARCHIVOS_DE_MUESTRA):
                return None
            try:
                fd = os.open(ruta, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
                with os.fdopen(fd, "rb") as f:
                    resumen = hashlib.sha256(f.read(MAYOR_ARCHIVO_DE_MUESTRA + 1)).hexdigest()
            except OSError:
                return None
            huella[os.path.relpath(ruta, folder)] = [info.st_size, resumen]
    return None if ilegibles else huella


def read_marker(submitted: Path) -> dict[str, dict[str, list[dict]]]:
    """``{student: {assignment: [fingerprint, ...]}}`` of the samples ``build_samples`` left in ``submitted/``.

    A marker from before fingerprints (a bare list of names) records what the
    samples would be if built now from ``release/`` next to ``submitted/``
    (so a sample built by an older version of this module is still one
    unless the lesson changed since); a marker that cannot be read records
    no folder: nothing is taken for a sample.
    """
    try:
        datos = json.loads((submitted / MARCA_MUESTRAS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if isinstance(datos, list):
        return _marker_rebuilt(submitted, [a for a in datos if isinstance(a, str)])
    alumnos = datos.get("alumnos") if isinstance(datos, dict) else None
    if not isinstance(alumnos, dict):
        return {}
    return {a: {t: [h for h in hs if isinstance(h, dict)] for t, hs in ts.items() if isinstance(hs, list)}
            for a, ts in alumnos.items() if isinstance(ts, dict)}


def _marker_rebuilt(submitted: Path, students: list[str]) -> dict[str, dict[str, list[dict]]]:
    raiz = submitted.parent
    respuestas, release = raiz / "examples" / "respuestas", raiz / "release"
    alumnos = {}
    conocidos = set(sample_students(respuestas))
    with tempfile.TemporaryDirectory() as aparte:
        for student in students:
            if student not in conocidos:
                continue
            try:
                build_student(student, respuestas / f"{student}.py", release, Path(aparte))
            except (OSError, SampleError, ValueError):
                continue
            alumnos[student] = {t.name: [fingerprint(t)] for t in sorted((Path(aparte) / student).iterdir())}
    return alumnos


def _write_marker(submitted: Path, alumnos: dict[str, dict[str, list[dict]]]) -> None:
    nueva = submitted / (MARCA_MUESTRAS + ".nueva")
    nueva.write_text(json.dumps({"alumnos": alumnos}, indent=1), encoding="utf-8")
    os.replace(nueva, submitted / MARCA_MUESTRAS)


def write_marker(submitted: Path, students: list[str]) -> None:
    """Record every assignment folder of ``students`` in ``submitted/`` as a sample, as it is now."""
    alumnos = {}
    for student in students:
        carpeta = submitted / student
        tareas = sorted(p.name for p in carpeta.iterdir() if p.is_dir()) if carpeta.is_dir() else []
        alumnos[student] = {t: [h] for t in tareas if (h := fingerprint(carpeta / t)) is not None}
    _write_marker(submitted, alumnos)


def sample_folders(submitted: Path) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """``(intact, replaced)``: the samples' ``(student, assignment)`` folders still as built, and those
    whose folder now holds something else (a real submission under a sample's name: nbgrader collect,
    zip_collect or a TA's copy wrote there).  Only an intact folder is ever removed as a sample.
    """
    intactas, pisadas = set(), set()
    for alumno, tareas in read_marker(submitted).items():
        for tarea, huellas in tareas.items():
            ruta = submitted / alumno / tarea
            if not os.path.lexists(ruta):
                continue
            (intactas if fingerprint(ruta) in huellas else pisadas).add((alumno, tarea))
    return intactas, pisadas


def has_real_submissions(submitted: Path) -> bool:
    """True when ``submitted/`` holds anything that is not an intact sample folder."""
    if not submitted.is_dir():
        return False
    intactas, _ = sample_folders(submitted)
    for alumno in submitted.iterdir():
        if alumno.name.startswith("."):           # the marker, a build in progress (no student id starts with ".")
            continue
        if alumno.is_symlink():
            return True
        if not alumno.is_dir():                   # a stray file is no one's submission
            continue
        if any((alumno.name, p.name) not in intactas for p in alumno.iterdir()):
            return True
    return False


def build_samples(root: Path = RAIZ, answers_dir: Path = RESPUESTAS) -> list[str]:
    """(Re)build the sample students in ``submitted/``; returns the students built.

    A sample is built aside (``submitted/.muestras-en-obra/``), recorded in the
    marker and only then moved into place, replacing nothing but an intact
    sample folder: a student folder holding anything else (a real student
    whose id is a sample's) is left alone and that sample is skipped, said on
    standard output.  A build cut short at any step leaves every folder either
    recognised as a sample or untouched.
    """
    submitted, release = root / "submitted", root / "release"
    submitted.mkdir(parents=True, exist_ok=True)
    obra = submitted / EN_OBRA
    shutil.rmtree(obra, ignore_errors=True)
    intactas, _ = sample_folders(submitted)
    students = []
    for student in sample_students(answers_dir):
        carpeta = submitted / student
        ajenas = ([p.name for p in carpeta.iterdir() if (student, p.name) not in intactas]
                  if carpeta.is_dir() and not carpeta.is_symlink() else ["."] if os.path.lexists(carpeta) else [])
        if ajenas:
            print(f"submitted/{student}/ tiene entregas que no son de muestra: no se sobrescriben y no se crea "
                  f"la muestra «{student}»")
            continue
        students.append(student)
    obra.mkdir()
    for student in students:
        build_student(student, answers_dir / f"{student}.py", release, obra)
    nuevas = {s: {t.name: fingerprint(t) for t in sorted((obra / s).iterdir())} for s in students}
    anteriores = read_marker(submitted)
    # while folders move, both the old and the new build of a sample count as that sample
    _write_marker(submitted, {s: {t: [*anteriores.get(s, {}).get(t, []), h] for t, h in ts.items()}
                              for s, ts in nuevas.items()} | {s: v for s, v in anteriores.items() if s not in nuevas})
    for student in students:
        shutil.rmtree(submitted / student, ignore_errors=True)
        os.replace(obra / student, submitted / student)
    _write_marker(submitted, {s: {t: [h] for t, h in ts.items()} for s, ts in nuevas.items()})
    obra.rmdir()
    return students


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Crea las entregas de muestra en submitted/.")
    parser.add_argument("--root", type=Path, default=RAIZ)
    args = parser.parse_args(argv)
    if has_real_submissions(args.root / "submitted"):
        print("submitted/ ya tiene entregas reales: no se añaden muestras.")
        return 0
    students = build_samples(args.root)
    print(f"Entregas de muestra en submitted/: {', '.join(students)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
