"""Unicode: a text cell of the notebook holds a lone surrogate written as a JSON escape (``"\\ud800"``), which
is valid JSON but no character UTF-8 can store (a broken copy-paste through a tool that counts UTF-16 units).

The answers are the control's: graded like the control, the character shown as «�», and the table says so
(before, nbgrader stopped with ``UnicodeEncodeError`` when it saved the graded notebook: 0).
"""
from . import PE_INCORRECTA, cargar, entrega_normal, guardar, ruta

ESPERADO = "control"
RAZON = "3 caracteres sueltos que Unicode no admite"


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA)
    nb = cargar(entrega)
    texto = next(c for c in nb.cells if c.cell_type == "markdown")
    texto.source += "\n\nMARCA_SUSTITUTO"
    guardar(entrega, nb)
    archivo = ruta(entrega)
    archivo.write_text(archivo.read_text(encoding="utf-8").replace("MARCA_SUSTITUTO", "\\ud800 y \\udfff\\ud83d"),
                       encoding="utf-8")
