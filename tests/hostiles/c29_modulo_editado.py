"""The explorable module shipped with the lesson edited: a helper added there and used.

nbgrader's autograde puts the course's copy of the module back, so the
exercise fails (the helper does not exist); the TA table and the notebook
(hence the feedback) say that the shipped file was edited and replaced.
"""
from . import entrega_normal

ESPERADO = "cuestionario"
RAZON = "modificó archivos que vienen con la tarea (explorable_escalera.py)"

AYUDANTE = '''

def tabla_pe(T, d_model):
    import numpy as np
    pos = np.arange(T)[:, None]
    omega = 1.0 / 10000 ** (np.arange(0, d_model, 2) / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2], PE[:, 1::2] = np.sin(pos * omega), np.cos(pos * omega)
    return PE
'''


def preparar(entrega):
    modulo = entrega / "explorable_escalera.py"
    modulo.write_text(modulo.read_text(encoding="utf-8") + AYUDANTE, encoding="utf-8")
    entrega_normal(entrega, "import numpy as np\nimport explorable_escalera\n\n\n"
                            "def positional_encoding(T, d_model):\n"
                            "    return explorable_escalera.tabla_pe(T, d_model)\n")
