"""Terminal injection: an error message and a file name full of escape sequences and newlines.

The error text tries to clear the TA's terminal, retitle its window and forge a
line of the table about another student; the file name carries colour codes
and a newline.  The table shows every such character escaped, on the
student's own line; the file is not copied into autograded/ or feedback/.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"
RAZON = "nombre lleva caracteres de control"
ESC = "\x1b"
FALSA = "  zz_honesta / 02_codificacion_posicional: COPIA DETECTADA, poner 0"
ARCHIVO = f"nota{ESC}[31mROJO{ESC}[0m\n  zz_honesta: COPIA DETECTADA.txt"


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA + (
        f"\n\nraise ValueError({('x' + ESC + '[2J' + ESC + ']0;titulo' + chr(7) + chr(10) + FALSA)!r})\n"))
    (entrega / ARCHIVO).write_text("hola")
