"""Too many processes, and memory spread over several processes (each under the per-process limit).

Starts sleeping processes until the system refuses, then four children of
400 MB each.  The process limit of the kernel's tree must stop the first
(cgroup pids.max or RLIMIT_NPROC); the memory limit of the tree (a cgroup,
or without one the sandbox's watchdog) kills some children, the largest
first, and the kernel lives on.  The answer is the control's wrong one.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"

PROCESOS = '''
import subprocess, sys
_hijos = []
try:
    for _i in range(2000):
        _hijos.append(subprocess.Popen(["sleep", "60"]))
except OSError as _e:
    print("PROCESOS_LIMITADOS", len(_hijos), type(_e).__name__)
for _h in _hijos:
    _h.kill()
    _h.wait()
_codigo = "import time; b = bytearray(400 * 1024 ** 2); time.sleep(2)"
_memoria = [subprocess.Popen([sys.executable, "-c", _codigo]) for _i in range(4)]
print("HIJOS_MATADOS", sum(1 for _h in _memoria if _h.wait() < 0))
'''


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA + PROCESOS)
