"""Fills every place it can write while it runs: 4 GiB in its folder, 4 GiB in /tmp, a million files.

Before issue 19 its folder was the TA's disk: a cell wrote 4 GiB or a
million files there, and the TA's next steps walked them (1 GB of memory,
a minute).  Now each writable place of the sandbox is a tmpfs in memory
with a size and a file count: every attempt stops there (``OSError`` 28 or
27), nothing reaches the TA's disk, and the cell says which limit it hit.
The answer, defined first, is the control's wrong one.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"
RAZON = "chocó con un límite de la corrección (sitio para escribir archivos)"

LLENAR = '''
import os
_escritos = {}
for _destino in ("grande.bin", "/tmp/grande.bin", "/dev/shm/grande.bin"):
    _n = 0
    try:
        with open(_destino, "wb") as _f:
            for _i in range(4096):
                _f.write(b"x" * 2 ** 20)
                _n += 1
    except OSError as _e:
        pass
    _escritos[_destino] = _n
print("MIB_ESCRITOS", _escritos)
for _carpeta in (".", "/tmp"):
    os.remove(os.path.join(_carpeta, "grande.bin"))
_creados = 0
try:
    for _i in range(1_000_000):
        open(f"f{_i:07d}", "w").close()
        _creados += 1
finally:
    print("ARCHIVOS_CREADOS", _creados)
'''


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA + LLENAR)
