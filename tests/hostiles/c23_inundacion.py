"""The kernel floods its folder: 20 000 tiny files, 300 nested folders and a 200 MiB sparse file.

Its folder is a copy in memory with a cap on files (issue 19): the flood
stops there with the limit named, and nothing of it reaches the TA's folder
or the feedback, which costs what an honest one costs; the answer is the
control's wrong one.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"
RAZON = "chocó con un límite de la corrección (sitio para escribir archivos)"

INUNDAR = '''
import os
os.makedirs("inundacion", exist_ok=True)
for _i in range(20000):
    with open(f"inundacion/f{_i:05d}.txt", "w") as _f:
        _f.write("x")
_p = "hondo"
for _i in range(300):
    _p = os.path.join(_p, "d")
os.makedirs(_p, exist_ok=True)
with open("disperso.bin", "wb") as _f:
    _f.truncate(200 * 1024 ** 2)
'''


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA + INUNDAR)
