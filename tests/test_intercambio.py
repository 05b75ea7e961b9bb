"""``nbgrader collect`` on the TA's side never follows what students put in the exchange (issue 10).

A temporary course with an exchange: one inbound submission carries links
(to the answer key, to another folder, to a device), a FIFO and a garbled
``timestamp.txt``; another inbound entry *is* a link to the TA's ``source/``.
Collect copies only regular files and folders, says why in Spanish, refuses
the linked entry and still collects everyone else.  No kernel runs here.
"""
from __future__ import annotations

import os
import stat

import pytest
from curso_temporal import copiar_curso, ejecutar

pytestmark = pytest.mark.slow

TAREA = "02_codificacion_posicional"
CURSO_ID = "atencion-y-posicion"
FECHA = "2026-11-30 10:00:00.000000 UTC"


def test_collect_no_sigue_enlaces_ni_archivos_especiales(tmp_path):
    curso = copiar_curso(tmp_path / "curso")
    intercambio = tmp_path / "intercambio"
    entrada = intercambio / CURSO_ID / "inbound"
    entrada.mkdir(parents=True)
    with open(curso / "nbgrader_config.py", "a") as f:
        f.write(f"\nc.Exchange.root = {str(intercambio)!r}\n")
    alumna = entrada / f"alumna+{TAREA}+{FECHA}"
    alumna.mkdir()
    (alumna / "codificacion_posicional.ipynb").write_text((curso / "release" / TAREA /
                                                           "codificacion_posicional.ipynb").read_text())
    (alumna / "notas.txt").write_text("mis notas\n")
    (alumna / "timestamp.txt").write_text("no es una fecha")
    os.symlink(curso / "grader_tests" / "ejercicios" / "positional_encoding" / "referencia.py", alumna / "clave.py")
    os.symlink(curso / "source", alumna / "fuentes")
    os.symlink("/dev/zero", alumna / "ceros.bin")
    os.mkfifo(alumna / "tuberia")
    os.symlink(curso / "source" / TAREA, entrada / f"intrusa+{TAREA}+{FECHA}")
    honesto = entrada / f"honesto+{TAREA}+{FECHA}"
    honesto.mkdir()
    (honesto / "codificacion_posicional.ipynb").write_text("{}")

    proceso = ejecutar(curso, "nbgrader", "collect", TAREA, check=False, timeout=300)
    salida = proceso.stdout + proceso.stderr
    assert proceso.returncode == 0, salida
    recogida = curso / "submitted" / "alumna" / TAREA
    nombres = sorted(p.name for p in recogida.iterdir())
    assert nombres == ["codificacion_posicional.ipynb", "notas.txt", "timestamp.txt"], nombres
    for ruta in recogida.rglob("*"):
        assert stat.S_ISREG(ruta.lstat().st_mode), ruta
    for aviso in ("se ignoró un enlace simbólico: clave.py", "se ignoró un enlace simbólico: fuentes",
                  "se ignoró una tubería con nombre (FIFO): tuberia", "se ignoró un enlace simbólico: ceros.bin"):
        assert aviso in salida, (aviso, salida[-3000:])
    assert not any((curso / "submitted" / "intrusa").rglob("*.ipynb"))
    assert "intrusa" in salida and "no se recoge" in salida
    assert (curso / "submitted" / "honesto" / TAREA / "codificacion_posicional.ipynb").is_file()
