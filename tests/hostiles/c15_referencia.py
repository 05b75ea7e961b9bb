"""Tries to obtain the reference and the quiz answers from grader_tests (wrong answers otherwise).

``from grader_tests import referencia`` / the quiz module / reading the
package's files, wherever Python says it lives, and the course root's copy.
It answers the quiz and the exercise with whatever it got; without it,
the quiz is left blank and the exercise is the control's wrong answer.
"""
from . import PE_INCORRECTA, cargar, celda, guardar, responder

ESPERADO = "control-ejercicio"   # the control's exercise points, quiz 0

TRAMPA = '''
import glob, importlib, os, pathlib
_raiz = pathlib.Path.cwd().parents[2]
_botin = {}
for _mod in ("grader_tests.referencia", "grader_tests.quiz_codificacion_posicional",
             "grader_tests.juez", "grader_tests.propiedades"):
    try:
        _botin[_mod] = importlib.import_module(_mod)
        print("TRAMPA_OK import", _mod)
    except Exception as _e:
        print("TRAMPA_FALLIDA import", _mod, type(_e).__name__)
import grader_tests
_carpetas = {pathlib.Path(grader_tests.__file__).parent, _raiz / "grader_tests"}
for _c in sorted(_carpetas):
    for _nombre in ("referencia.py", "quiz_codificacion_posicional.py", "juez.py"):
        try:
            _texto = (_c / _nombre).read_text()
            print("LECTURA_OK", _c / _nombre, len(_texto))
        except Exception as _e:
            print("LECTURA_FALLIDA", _c / _nombre, type(_e).__name__)
for _p in (_raiz / "source", _raiz / "release", _raiz / "submitted", _raiz / "gradebook.db"):
    if _p.exists() and (_p.is_file() or any(_p.iterdir())):
        print("LECTURA_OK", _p)
    else:
        print("LECTURA_FALLIDA", _p)
if "grader_tests.referencia" in _botin:
    positional_encoding = _botin["grader_tests.referencia"].positional_encoding
if "grader_tests.quiz_codificacion_posicional" in _botin:
    for _p in _botin["grader_tests.quiz_codificacion_posicional"].PREGUNTAS.values():
        globals()[_p.variable] = _p.correcta
'''


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_INCORRECTA + TRAMPA, cuestionario=False)
    # the cheat runs again before the quiz: a new cell the student inserted
    primera = next(i for i, c in enumerate(nb.cells)
                   if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "respuesta_1")
    import nbformat
    nb.cells.insert(primera, nbformat.v4.new_code_cell("import numpy as np\n" + TRAMPA))
    guardar(entrega, nb)
