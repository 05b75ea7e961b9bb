"""The kernel floods its folder: 20 000 tiny files, 300 nested folders and a 200 MiB sparse file.

Past the submission's budget everything is dropped (and reported) before
generate_feedback copies anything, so the feedback costs what an honest one
costs; the answer is the control's wrong one.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"
RAZON = "por superar el límite de la entrega"

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
