"""The kernel leaves links in its own autograded folder for the TA's later steps to follow.

Its notebook is replaced by a link to the gradebook (nbgrader would write the
graded notebook through it); links to the reference, the quiz answers, the
source notebook, the gradebook and a TA file outside the course (which
``set_permissions`` would chmod to 444 and ``generate_feedback`` would copy
into feedback/); a link to a device; a FIFO; a hard link; and it deletes
nbgrader's ``timestamp.txt`` and ``submission_secret.txt``.  The kernel works
on a copy of its folder in memory (issue 19): none of it reaches the TA's
folder, which holds exactly what nbgrader put there (the TA's steps would
still remove links and special files: ``test_archivos_alumno.py``); the
answer is the control's wrong one.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"

ENLACES = '''
import os, pathlib
_aqui = pathlib.Path.cwd()
_raiz = _aqui.parents[2]
_tarea = _aqui.name
_ta = _raiz.parent / "ta_privado" / "clave_privada"
for _nombre, _destino in [
        ("ref.py", _raiz / "grader_tests" / "ejercicios" / "positional_encoding" / "referencia.py"),
        ("quiz.py", _raiz / "grader_tests" / "cuestionarios" / "codificacion_posicional.py"),
        ("fuente.txt", _raiz / "source" / _tarea / "codificacion_posicional.ipynb"),
        ("libreta.db", _raiz / "gradebook.db"),
        ("clave_ta", _ta),
        ("otro", _raiz / "submitted" / "otro_alumno" / _tarea),
        ("ceros.bin", pathlib.Path("/dev/zero"))]:
    try:
        os.symlink(_destino, _nombre)
    except OSError as _e:
        print("enlace no creado", _nombre, _e)
try:
    os.mkfifo("tuberia")
    os.link("explorable_escalera.py", "duro.py")
except OSError as _e:
    print("no creado", _e)
for _n in ("timestamp.txt", "submission_secret.txt"):
    try:
        os.unlink(_n)
    except OSError:
        pass
os.unlink("codificacion_posicional.ipynb")
os.symlink(_raiz / "gradebook.db", "codificacion_posicional.ipynb")
'''


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA + ENLACES)
