"""Tries to write into grader_tests/, the gradebook, source/, release/, the venv and other students' folders.

Relative (``../../otro_alumno/...``) and absolute paths; sqlite on the
gradebook.  Every attempt must fail (and the files stay byte-identical);
the answer is the control's wrong one.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"

ESCRIBIR = '''
import os, pathlib, sqlite3, sys
import grader_tests
_raiz = pathlib.Path.cwd().parents[2]
_tarea = pathlib.Path.cwd().name
_sp = pathlib.Path(np.__file__).parent.parent
_destinos = [
    _raiz / "grader_tests" / "ejercicios" / "positional_encoding" / "referencia.py", _raiz / "grader_tests" / "nuevo.py",
    pathlib.Path(grader_tests.__file__).parent / "en_el_kernel" / "cliente.py",
    pathlib.Path(grader_tests.__file__).parent / "juez" / "juez.py",
    _raiz / "gradebook.db", _raiz / "nbgrader_config.py",
    _raiz / "source" / _tarea / "codificacion_posicional.ipynb",
    _raiz / "release" / _tarea / "codificacion_posicional.ipynb",
    _raiz / "submitted" / "otro_alumno" / _tarea / "codificacion_posicional.ipynb",
    _raiz / "submitted" / "zz_honesta" / _tarea / "codificacion_posicional.ipynb",
    pathlib.Path("../../otro_alumno") / _tarea / "codificacion_posicional.ipynb",
    pathlib.Path("../../zz_honesta") / _tarea / "pista.txt",
    pathlib.Path("../../../submitted/otro_alumno") / _tarea / "pista.txt",
    _sp / "zz_trampa.pth",
    pathlib.Path(sys.prefix) / "bin" / "nbgrader",
]
for _d in _destinos:
    try:
        os.makedirs(_d.parent, exist_ok=True)
        with open(_d, "a") as _f:
            _f.write("\\n# escrito por c16_escrituras\\n")
        print("ESCRITURA_OK", _d)
    except OSError as _e:
        print("ESCRITURA_BLOQUEADA", _d, type(_e).__name__)
try:
    _con = sqlite3.connect(f"file:{_raiz / 'gradebook.db'}?mode=rw", uri=True)
    _con.execute("DELETE FROM grade")
    _con.commit()
    print("ESCRITURA_OK sqlite")
except Exception as _e:
    print("ESCRITURA_BLOQUEADA sqlite", type(_e).__name__)
'''


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA + ESCRIBIR)
