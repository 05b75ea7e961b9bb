"""Encodings: the student saved the notebook from an editor in UTF-16 with a byte-order mark (Windows
Notepad's «Unicode»), holding the control's answer.

Jupyter always writes UTF-8, but the file is still unambiguous text: it is graded like the control, and the
table (and feedback) say it was read from UTF-16.  A notebook in no Unicode encoding is c40's case.
"""
from . import PE_INCORRECTA, entrega_normal, ruta

ESPERADO = "control"
RAZON = "guardado en UTF-16"


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA)
    archivo = ruta(entrega)
    archivo.write_bytes(archivo.read_text(encoding="utf-8").encode("utf-16"))   # BOM + UTF-16 LE
