"""Environment and identity probing: looks for the TA's variables (a token), its uid, root-only files.

The test sets ``CURSO_SECRETO_TA`` in the TA's environment; the kernel must
not see it, must not run as root, and must not read /etc/shadow* or
/etc/gshadow*.  Any success prints a forbidden mark; the answer is the
control's wrong one.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"
SECRETO = "secreto-del-profesorado-1234"

SONDEAR = '''
import glob, os
for _k, _v in os.environ.items():
    if "secreto-del-profesorado" in _v or _k == "CURSO_SECRETO_TA":
        print("LECTURA_OK entorno", _k)
print("uid", os.getuid(), "euid", os.geteuid(), "grupos", os.getgroups())
if os.geteuid() == 0 or os.getuid() == 0:
    print("TRAMPA_OK uid 0")
for _f in sorted(set(glob.glob("/etc/shadow*") + glob.glob("/etc/gshadow*") + ["/etc/shadow-", "/etc/gshadow-"])):
    try:
        _t = open(_f).read()
        if _t:
            print("LECTURA_OK", _f, len(_t))
    except OSError as _e:
        print("LECTURA_BLOQUEADA", _f, _e.strerror)
'''


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA + SONDEAR)
