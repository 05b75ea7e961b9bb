"""Configuración de nbgrader de tu copia de la tarea: no la edites.

`nbgrader validate` y el botón «Validate» de JupyterLab leen este archivo
cuando se ejecutan en esta carpeta (abre JupyterLab o la terminal aquí).
Pone los mismos límites que la corrección:

* cada celda tiene 60 s (nbgrader, sin este archivo, da 30 s);
* lo que tu código escribe en stderr (avisos de `warnings`,
  `print(..., file=sys.stderr)`) aparece como salida normal y no hace fallar
  la validación; al corregir tampoco resta puntos. Las pruebas visibles ya lo
  hacen por su cuenta con tu función, también sin este archivo.

Al corregir se usa la copia del curso de este archivo, no la tuya.
"""
c = get_config()  # noqa: F821

c.Execute.timeout = 60
c.Execute.interrupt_on_timeout = True
# Only for Validate: the kernel it starts sends stderr as ordinary output.
c.Validator.Execute.extra_arguments = [
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.exec_lines=import sys; sys.stderr.name = 'stdout'",
]

# Una entrega recogida (<curso>/submitted/<alumno>/<tarea>/, o autograded/ o feedback/) que el profesorado
# valida en su carpeta: el núcleo va en la caja de la corrección, como al corregir, para que el código del
# alumno nunca corra con la cuenta del profesorado. En tu copia no cambia nada.
import os as _os  # noqa: E402

_aqui = _os.path.dirname(_os.path.abspath(globals().get("__file__") or _os.path.join(_os.getcwd(), "x")))
_raiz = _os.path.dirname(_os.path.dirname(_os.path.dirname(_aqui)))
if (_os.path.basename(_os.path.dirname(_os.path.dirname(_aqui))) in ("submitted", "autograded", "feedback")
        and _os.path.isfile(_os.path.join(_raiz, "nbgrader_config.py"))):
    # by name: without the course's code at hand, Validate stops before running anything (it never falls back
    # to an ordinary kernel); valídala entonces desde la raíz del curso
    c.Validator.Execute.kernel_manager_class = "grader_tests.caja.aislamiento.KernelAislado"
    c.KernelAislado.raiz = _raiz
