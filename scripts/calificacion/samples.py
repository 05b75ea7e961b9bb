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
import json
import re
import shutil
import sys
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
    from grader_tests import descubrimiento
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
    from grader_tests import descubrimiento
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
    from grader_tests.casos import nombres_de_ejercicios
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


def has_real_submissions(submitted: Path) -> bool:
    """True when ``submitted/`` holds anyone who is not a sample student."""
    if not submitted.is_dir():
        return False
    marker = submitted / MARCA_MUESTRAS
    samples = set(json.loads(marker.read_text())) if marker.exists() else set()
    return any(p.is_dir() and p.name not in samples for p in submitted.iterdir())


def build_samples(root: Path = RAIZ, answers_dir: Path = RESPUESTAS) -> list[str]:
    """(Re)build ``submitted/`` from the samples; returns the students built."""
    submitted, release = root / "submitted", root / "release"
    students = sample_students(answers_dir)
    submitted.mkdir(parents=True, exist_ok=True)
    # the marker comes first: a build cut short is still recognised as samples
    (submitted / MARCA_MUESTRAS).write_text(json.dumps(students))
    for student in students:
        shutil.rmtree(submitted / student, ignore_errors=True)
        build_student(student, answers_dir / f"{student}.py", release, submitted)
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
