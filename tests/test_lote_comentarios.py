"""make grade's feedback step (scripts/calificacion/lote.py): one student's page never costs a classmate hers.

A fresh attacker's notebook made the worker's single ``generate_feedback`` run
grow until the system killed it; the classmates graded after him in that batch
were left without feedback (and one without fresh feedback would have kept an
older run's page).  Now every student of the batch without a page written by
this run gets ``generate_feedback --student`` alone.  Fast: nbgrader is a stand-in.
"""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from scripts.calificacion import lote

TAREA = "01_atencion_multicabeza"


class _Progreso:
    def terminada(self, *a, **k):
        pass

    def contada(self, *a, **k):
        return True


class _NbgraderFalso:
    """autograde writes every student's notebook; the batch generate_feedback is killed after its first
    student; alone, every student but ``roto`` gets her page."""

    db_url = None

    def __init__(self, raiz: Path, roto: str):
        self.raiz, self.roto, self.llamadas = raiz, roto, []

    def __call__(self, orden, tarea, *args, check=False, al_leer=None):
        self.llamadas.append((orden, *args))
        alumnos = sorted(p.name for p in (self.raiz / "submitted").iterdir())
        if "--student" in args:
            alumnos = [args[args.index("--student") + 1]]
        if orden == "autograde":
            for a in alumnos:
                carpeta = self.raiz / "autograded" / a / tarea
                carpeta.mkdir(parents=True, exist_ok=True)
                (carpeta / "cuaderno.ipynb").write_text("{}")
            return subprocess.CompletedProcess(args, 0, "", "")
        if "--student" not in args:
            alumnos, codigo = alumnos[:1], -9                  # killed after the first one
        else:
            codigo = 1 if alumnos == [self.roto] else 0
        for a in alumnos:
            if a != self.roto:
                carpeta = self.raiz / "feedback" / a / tarea
                carpeta.mkdir(parents=True, exist_ok=True)
                (carpeta / "cuaderno.html").write_text("<html>nueva</html>")
        return subprocess.CompletedProcess(args, codigo, "", "Killed")


def test_si_el_lote_de_comentarios_muere_cada_compañero_los_recibe_solo(tmp_path, capsys):
    alumnos = ["ana", "bea", "carla", "zeta"]
    for a in alumnos:
        (tmp_path / "submitted" / a / TAREA).mkdir(parents=True)
    # an older run's page of bea: not fresh, so it does not count as her feedback
    vieja = tmp_path / "feedback" / "bea" / TAREA / "cuaderno.html"
    vieja.parent.mkdir(parents=True)
    vieja.write_text("<html>vieja</html>")
    hace_una_hora = time.time() - 3600
    os.utime(vieja, (hace_una_hora, hace_una_hora))

    falso = _NbgraderFalso(tmp_path, roto="carla")
    grupo = lote.Lote.__new__(lote.Lote)
    grupo.raiz, grupo.progreso, grupo._temporal = tmp_path, _Progreso(), tmp_path / "temporal"
    resultado = grupo._tarea(lote.Trabajador(0, alumnos, [], falso), TAREA)

    solos = sorted(args[args.index("--student") + 1] for orden, *args in falso.llamadas
                   if orden == "generate_feedback" and "--student" in args)
    assert solos == ["bea", "carla", "zeta"]                 # ana's page came from the batch
    assert vieja.read_text() == "<html>nueva</html>"
    assert [a for a in alumnos if resultado[a].sin_comentarios] == ["carla"]
