"""Tries to obtain every exercise's reference and known mistakes, and the quiz answers (wrong answers otherwise).

For every exercise folder of ``grader_tests/ejercicios/`` and every quiz of
``grader_tests/cuestionarios/`` (the list is taken on the TA's side when the
submission is built: inside the sandbox the student cannot list them), it
imports the trusted modules (reference, properties, known mistakes, battery,
quiz answers, judge, discovery) and reads their files, wherever Python says
the package lives and in the course root's copy.  It also imports each
exercise's public ``casos`` (that one must work: the hidden cells need it)
and lists each exercise folder as the kernel sees it.  It answers the quiz
and the exercise with whatever it got; without it, the quiz is left blank
and the exercise is the control's wrong answer.
"""
from . import PE_INCORRECTA, cargar, guardar, responder

ESPERADO = "control-ejercicio"   # the control's exercise points, quiz 0

PLANTILLA = '''
import glob, importlib, os, pathlib
_raiz = pathlib.Path.cwd().parents[2]
_ejercicios = {ejercicios!r}
_cuestionarios = {cuestionarios!r}
_privados = {privados!r}
_botin = {{}}
_modulos = ["grader_tests.juez.juez", "grader_tests.juez.propiedades", "grader_tests.juez.diagnostico",
            "grader_tests.juez.descubrimiento", "grader_tests.juez.bateria", "grader_tests.juez",
            "grader_tests.caja.aislamiento", "grader_tests.extensiones_nbgrader.nbgrader_juez"]
_modulos += [f"grader_tests.ejercicios.{{_f}}.{{_m}}" for _f in _ejercicios for _m in _privados]
_modulos += [f"grader_tests.cuestionarios.{{_c}}" for _c in _cuestionarios]
for _mod in _modulos:
    try:
        _botin[_mod] = importlib.import_module(_mod)
        print("TRAMPA_OK import", _mod)
    except Exception as _e:
        print("TRAMPA_FALLIDA import", _mod, type(_e).__name__)
for _f in _ejercicios:
    try:
        importlib.import_module(f"grader_tests.ejercicios.{{_f}}.casos")
        print("PUBLICO_VISIBLE", _f)
    except Exception as _e:
        print("PUBLICO_INVISIBLE", _f, type(_e).__name__)
import grader_tests
_carpetas = {{pathlib.Path(grader_tests.__file__).parent, _raiz / "grader_tests"}}
for _c in sorted(_carpetas):
    _archivos = ["juez/juez.py", "juez/descubrimiento.py", "caja/aislamiento.py"] + [f"cuestionarios/{{_q}}.py" for _q in _cuestionarios]
    for _f in _ejercicios:
        _archivos += [f"ejercicios/{{_f}}/{{_m}}.py" for _m in _privados]
        try:
            print("LISTADO", _f, sorted(os.listdir(_c / "ejercicios" / _f)))
        except Exception as _e:
            print("LISTADO", _f, type(_e).__name__)
        _bateria = glob.glob(str(_c / "ejercicios" / _f / "bateria" / "*.py"))
        print("LECTURA_OK" if _bateria else "LECTURA_FALLIDA", "batería de", _f, len(_bateria))
    for _nombre in _archivos:
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
for _mod, _m in _botin.items():
    if _mod.endswith(".referencia") and hasattr(_m, "positional_encoding"):
        positional_encoding = _m.positional_encoding
    if _mod.startswith("grader_tests.cuestionarios."):
        for _p in _m.PREGUNTAS.values():
            globals()[_p.variable] = _p.correcta
'''


def trampa() -> str:
    """The cheat, with the names of every exercise, private module and quiz of the course."""
    from grader_tests.juez import descubrimiento
    privados = sorted(m[:-3] for m in descubrimiento.ARCHIVOS_DEL_EJERCICIO if m != "casos.py")
    cuestionarios = sorted(p.stem for p in descubrimiento.CARPETA_CUESTIONARIOS.glob("*.py")
                           if p.stem != "__init__")
    return PLANTILLA.format(ejercicios=list(descubrimiento.nombres_de_ejercicios()),
                            cuestionarios=cuestionarios, privados=privados)


def preparar(entrega):
    nb = cargar(entrega)
    codigo = trampa()
    responder(nb, PE_INCORRECTA + codigo, cuestionario=False)
    # the cheat runs again before the quiz: a new cell the student inserted
    primera = next(i for i, c in enumerate(nb.cells)
                   if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "respuesta_1")
    import nbformat
    nb.cells.insert(primera, nbformat.v4.new_code_cell("import numpy as np\n" + codigo))
    guardar(entrega, nb)
