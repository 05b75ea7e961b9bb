"""Encodings: the notebook was re-saved in Latin-1 (no byte-order mark; the «ñ» and accents of the lesson's
text are single bytes that are not UTF-8).

It cannot be read as any Unicode text: 0, with the Spanish reason (not nbformat's English traceback), and
the rest of the class is graded.
"""
from . import PE_CORRECTA, entrega_normal, ruta

ESPERADO = "cero"
RAZON = "no está en UTF-8"


def preparar(entrega):
    entrega_normal(entrega, PE_CORRECTA)
    archivo = ruta(entrega)
    texto = archivo.read_text(encoding="utf-8")
    assert "ñ" in texto
    archivo.write_bytes(texto.encode("latin-1", errors="replace"))
