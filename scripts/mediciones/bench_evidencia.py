"""Benchmark (not a test): memory of the TA's process judging forged evidence.

Each case runs in a fresh Python process that imports the judge, builds the
notebook cell the student's kernel would have left (a hidden test cell with
the evidence output) and scores it with ``nbgrader_juez.veredicto_de_celda``,
exactly as ``nbgrader autograde`` does.  Reported: the peak resident memory
of that process (``ru_maxrss``) above a process that only imports the judge,
the points, and the first line of the verdict, for the first value cell of
every exercise found (``grader_tests/ejercicios/``; the honest evidence is
the reference's).  Issue 10: a 200-byte forged
evidence (a NumPy void scalar of 1.5 GB) made the TA's process grow to
1.5 GB before the bounds of ``grader_tests/evidencia.py``.

    .venv/bin/python scripts/mediciones/bench_evidencia.py
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]

PREPARAR = r'''
import json, resource, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from nbformat.notebooknode import from_dict
from grader_tests import descubrimiento, nbgrader_juez
from grader_tests.cliente import MIME_EVIDENCIA, recoger_evidencia
from grader_tests.serializacion import serializar

EJ = descubrimiento.ejercicio(sys.argv[3])
GID = next(g for g, p in EJ.propiedades.items() if p.tipo == "valores")
PUNTOS = EJ.propiedades[GID].puntos
CUADERNO = next(l.cuaderno.stem for l in descubrimiento.lecciones(sys.argv[1]) if EJ.funcion in l.funciones)
def evidencia(caso):
    ev = recoger_evidencia(GID, {EJ.funcion: EJ.referencia})
    r = ev["resultados"][0]
    if caso == "honesta":
        return ev
    if caso == "escalar_void_1500MB":
        r["resultado"] = {"tipo": "escalar_numpy", "dtype": "V1500000000", "valor": {"tipo": "int", "valor": "0"}}
    elif caso == "forma_enorme":
        r["resultado"] = {"tipo": "ndarray", "dtype": "<f8", "shape": [100000, 100000], "datos": ""}
    elif caso == "anidada_100000":
        x = {"tipo": "none"}
        for _ in range(100000):
            x = {"tipo": "list", "longitud": 1, "elementos": [x]}
        r["resultado"] = x
    elif caso == "lista_1e6":
        r["resultado"] = {"tipo": "list", "longitud": 10**6, "elementos": [{"tipo": "none"}] * 10**6}
    elif caso == "texto_64MB":
        r["stdout"] = "x" * (64 * 1024 ** 2)
    return ev

caso = sys.argv[2]
ev = evidencia(caso) if caso != "base" else None
celda = from_dict({"cell_type": "code", "source": "", "execution_count": 1, "id": "c", "outputs": [],
                   "metadata": {"nbgrader": {"grade": True, "grade_id": GID, "points": PUNTOS}}})
if ev is not None:   # plain dicts, as deep as the student made them
    celda["outputs"] = [{"output_type": "display_data", "metadata": {},
                         "data": {MIME_EVIDENCIA: ev, "text/plain": ""}}]
antes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
v = nbgrader_juez.veredicto_de_celda(celda, CUADERNO) if ev is not None else None
despues = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"kib": despues, "delta_kib": despues - antes,
                  "puntos": None if v is None else v.puntos,
                  "linea": "" if v is None else v.texto().strip().splitlines()[0][:100]}))
'''

CASOS = ["honesta", "escalar_void_1500MB", "forma_enorme", "anidada_100000", "lista_1e6", "texto_64MB"]


def medir(caso: str, funcion: str) -> dict:
    salida = subprocess.run([sys.executable, "-c", PREPARAR, str(RAIZ), caso, funcion], capture_output=True,
                            text=True, timeout=300)
    if salida.returncode != 0:
        return {"error": salida.stderr.strip().splitlines()[-1] if salida.stderr else "?"}
    return json.loads(salida.stdout.strip().splitlines()[-1])


def main() -> int:
    sys.path.insert(0, str(RAIZ))
    from grader_tests.casos import nombres_de_ejercicios
    for funcion in nombres_de_ejercicios():
        base = medir("base", funcion)
        print(f"{funcion}: un proceso que sólo importa el juez usa {base['kib'] / 1024:.0f} MiB de memoria "
              "residente máxima")
        print(f"  {'evidencia':<22} {'pico del juicio':>16}  puntos  veredicto")
        for caso in CASOS:
            r = medir(caso, funcion)
            if "error" in r:
                print(f"  {caso:<22} ERROR {r['error']}")
                continue
            print(f"  {caso:<22} {r['delta_kib'] / 1024:>12.1f} MiB  {r['puntos']:>6g}  {r['linea']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
