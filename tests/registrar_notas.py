"""Record the grades every battery file and sample submission gets, per cell (``notas_de_referencia.json``).

The tests compare today's grades with this record (``test_diagnostico.py``,
``test_bateria.py``, ``test_calificacion.py``): a refactor must not change a
single grade.  Regenerate it only when a grading change is deliberate, and
say so in the commit::

    .venv/bin/python tests/registrar_notas.py          # a few minutes: real nbgrader runs

Three records: the battery judged in-process, the battery under ``nbgrader
autograde`` (one temporary course per exercise, as ``test_bateria.py``
does), and the sample submissions after ``scripts/calificacion/grade.py`` in a temporary
copy of the course.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

AQUI = Path(__file__).resolve().parent
sys.path.insert(0, str(AQUI))
import conftest  # noqa: E402,F401  (puts the course root on sys.path)

RAIZ = AQUI.parent
DESTINO = AQUI / "notas_de_referencia.json"


def main() -> int:
    from scripts.calificacion import libro_de_notas

    import test_bateria as tb
    from curso_temporal import copiar_curso, entorno
    from grader_tests.juez import bateria, descubrimiento

    anterior = json.loads(DESTINO.read_text(encoding="utf-8")) if DESTINO.exists() else {}
    salida = {"_origen": anterior.get("_origen", "Notas por celda"), "bateria_en_proceso": {},
              "bateria_autocalificada": {}, "muestras": {}}
    for funcion, ej in descubrimiento.ejercicios().items():
        for archivo in ej.bateria():
            veredictos = bateria.corregir(funcion, bateria.cargar(archivo, funcion))
            salida["bateria_en_proceso"][f"{funcion}/{archivo.nombre}"] = {g: v.puntos for g, v in veredictos.items()}
    base = Path(tempfile.mkdtemp(prefix="registrar-notas-"))
    try:
        cursos = {f: tb.preparar_curso(base, f, todos=True) for f in tb.ASIGNACIONES}
        procesos = {f: tb._nbgrader(c, "autograde", tb.ASIGNACIONES[f][0]) for f, (c, _) in cursos.items()}
        for funcion, proceso in procesos.items():
            tb._esperar(proceso, cursos[funcion][0], "autograde", limite=1800)
        for funcion, (curso, alumnos) in cursos.items():
            for alumno, (_, _, celdas) in tb.resultados(curso, funcion, alumnos).items():
                salida["bateria_autocalificada"][f"{funcion}/{alumno}"] = celdas
        curso = copiar_curso(base / "muestras")
        muestras = subprocess.run([sys.executable, "scripts/calificacion/grade.py"], cwd=curso, env=entorno(),
                                  capture_output=True, text=True)
        if muestras.returncode != 0:
            raise SystemExit(f"make grade de las muestras terminó con {muestras.returncode}:\n"
                             f"{muestras.stdout[-4000:]}\n{muestras.stderr[-4000:]}")
        with libro_de_notas.abrir(curso) as gb:
            for leccion in descubrimiento.lecciones(curso):
                for entrega in gb.find_assignment(leccion.tarea).submissions:
                    salida["muestras"][f"{entrega.student.id}/{leccion.tarea}"] = {
                        g.name: float(g.score) for nb in entrega.notebooks for g in nb.grades}
    finally:
        shutil.rmtree(base, ignore_errors=True)
    DESTINO.write_text(json.dumps(salida, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{DESTINO.relative_to(RAIZ)}: {sum(len(v) for k, v in salida.items() if k != '_origen')} registros")
    return 0


if __name__ == "__main__":
    os.chdir(AQUI)
    sys.exit(main())
