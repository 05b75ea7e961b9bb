"""A submission that ARRIVES with links and special files (as zip_collect or a careless copy could leave them).

Next to its notebook: symbolic links to the reference implementation, the
quiz answers, the gradebook, another student's folder, a device and
/etc/shadow; a hard link to the source notebook (solutions and hidden tests);
a FIFO; a 1 GiB sparse file.  Its exercise loads the reference from the link
(full marks if nbgrader followed it).  None of it is copied: the exercise has
no code of its own and scores 0; the table says why.
"""
import os

from . import entrega_normal

ESPERADO = "cuestionario"
RAZON = "se ignoró un enlace simbólico: clave.py"

USA_LA_CLAVE = '''\
import numpy as np
exec(open("clave.py").read())          # the reference's positional_encoding, if the link was followed
'''


def preparar(entrega):
    entrega_normal(entrega, USA_LA_CLAVE)
    curso = entrega.parents[2]
    tarea = entrega.name
    os.symlink(curso / "grader_tests" / "ejercicios" / "positional_encoding" / "referencia.py", entrega / "clave.py")
    os.symlink(curso / "grader_tests" / "cuestionarios" / "codificacion_posicional.py", entrega / "respuestas.py")
    os.symlink(curso / "gradebook.db", entrega / "notas.db")
    os.symlink(curso / "submitted" / "otro_alumno" / tarea, entrega / "otro")
    os.symlink("/dev/zero", entrega / "ceros.bin")
    os.symlink("/etc/shadow", entrega / "shadow.txt")
    os.link(curso / "source" / tarea / "codificacion_posicional.ipynb", entrega / "fuente.txt")
    os.mkfifo(entrega / "tuberia")
    with open(entrega / "disperso.bin", "wb") as f:
        f.truncate(1024 ** 3)
