"""A correct answer that leaves processes running: Popen, a fork, a double fork with setsid.

They must not survive the notebook (tests look for their unusual sleep times).
"""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "completa"
SUEÑOS = ("1234.5", "2345.5", "3456.5")

HIJOS = '''
import os, subprocess
subprocess.Popen(["sleep", "1234.5"])
if os.fork() == 0:
    os.execvp("sleep", ["sleep", "2345.5"])
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "3456.5"])
    os._exit(0)
'''


def preparar(entrega):
    entrega_normal(entrega, PE_CORRECTA + HIJOS)
