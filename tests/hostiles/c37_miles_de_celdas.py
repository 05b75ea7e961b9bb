"""A correct solution plus 3 000 trivial markdown cells (a hostile tester's F5: 250 000 of them cost 13 min and
3.5 GB of nbgrader's own steps, outside the sandbox, with full marks and no word).

Past ``saneamiento.MAX_CELDAS`` the cells outside the assignment are left out before nbgrader's per-cell steps:
full marks, and the table and the feedback say so.
"""
from nbformat.v4 import new_markdown_cell

from . import PE_CORRECTA, cargar, guardar, responder

ESPERADO = "completa"
RAZON = "más celdas de las que se corrigen"


def preparar(entrega):
    nb = cargar(entrega)
    responder(nb, PE_CORRECTA)
    nb.cells.extend(new_markdown_cell(f"$x_{{{i}}}$ **relleno** [enlace](http://example.org)") for i in range(3000))
    guardar(entrega, nb)
