"""The notebook itself is a symbolic link to the source notebook (solutions and hidden tests).

Followed, it would grade the author's solutions: full marks with no work.
Refused: no notebook is graded, the submission scores 0 with a reason.
"""
import os

ESPERADO = "cero"
RAZON = "es un enlace simbólico"


def preparar(entrega):
    from . import ruta
    curso = entrega.parents[2]
    os.unlink(ruta(entrega))
    os.symlink(curso / "source" / entrega.name / "codificacion_posicional.ipynb", ruta(entrega))
