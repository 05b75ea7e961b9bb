"""A correct solution inside a notebook file of about 8 MB made of what grading never reads: one code cell
with 100 000 outputs, a markdown cell with 20 000 pasted pictures, 3 000 cells with forged nbgrader marks
(a hostile tester's F4, issue 19: 48 MB of outputs and attachments cost 85 s and 2.6 GB of the TA's
autograde, outside the sandbox).

The file is read by the bounded reader (``grader_tests/caja/cuaderno_acotado.py``): full marks, and the
table and the feedback say what was left out.
"""
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output

from . import PE_CORRECTA, cargar, guardar, responder

ESPERADO = "completa"
RAZON = "imágenes pegadas"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_CORRECTA)
    salidas = new_code_cell("print('a')", outputs=[new_output("stream", name="stdout", text="a")] * 100_000)
    fotos = new_markdown_cell("hola")
    fotos["attachments"] = {f"a{i}.png": {"image/png": "iVBORw0KGgo="} for i in range(20_000)}
    falsas = [new_markdown_cell("x", metadata={"nbgrader": {"solution": True, "grade": False, "locked": False,
                                                            "grade_id": f"falsa{i}", "schema_version": 3}})
              for i in range(3000)]
    nb.cells[:0] = [salidas, fotos]
    nb.cells.extend(falsas)
    guardar(entrega, nb)
