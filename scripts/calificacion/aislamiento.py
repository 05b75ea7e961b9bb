"""Before grading: does the sandbox start here?  (``make grade`` grades nobody if it does not.)

The students' code runs inside bubblewrap (``grader_tests/caja/aislamiento.py``).
Where bubblewrap cannot create its namespaces (a container with the default
seccomp/AppArmor profile, a kernel without unprivileged user namespaces),
every kernel would die and every student would get 0 with "el proceso de
Python del cuaderno murió": a silent, class-wide wrong result.  So
:func:`comprobar` starts the real sandbox once, with the course's
configuration, in a folder inside ``autograded/`` as a kernel would (cost:
a fraction of a second), and raises :class:`AislamientoNoDisponible` with the
reason and what to do when it does not work.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MARCA = "aislamiento-en-marcha"
VARIABLE = "CURSO_SIN_AISLAMIENTO"
INTENTOS = 2                  # a failure that does not repeat is not worth refusing the class

QUE_HACER = """Qué hacer:
  - En una máquina (Debian, Ubuntu): apt-get install bubblewrap; sin ser root hacen falta espacios de
    nombres de usuario sin privilegios (sysctl user.max_user_namespaces > 0; en Ubuntu 24.04,
    kernel.apparmor_restrict_unprivileged_userns=0).
  - En un contenedor Docker: --security-opt seccomp=unconfined --security-opt apparmor=unconfined
    --security-opt systempaths=unconfined.
  - En Kubernetes: el pod con hostUsers: false, seccompProfile y appArmorProfile Unconfined y
    procMount: Unmasked (despliegue/README.md, «El aislamiento en Kubernetes»).
  - Bajo tu responsabilidad, sin aislar el código de los alumnos: CURSO_SIN_AISLAMIENTO=1.
No se ha calificado a nadie."""


class AislamientoNoDisponible(RuntimeError):
    """The sandbox cannot start here (Spanish message: why, and what to do)."""


def _configuracion(raiz: Path):
    from traitlets.config.loader import PyFileConfigLoader
    return PyFileConfigLoader("nbgrader_config.py", path=str(raiz)).load_config()


def comprobar(raiz: Path, timeout: float = 60) -> str | None:
    """Start the course's sandbox once; None when it works, a warning when it is turned off.

    Returns:
        None if a sandboxed process ran; the Spanish warning to print when the
        TA turned the sandbox off (``CURSO_SIN_AISLAMIENTO=1``).

    Raises:
        AislamientoNoDisponible: bubblewrap is missing or the sandboxed process did not run.
    """
    if os.environ.get(VARIABLE) == "1":
        return ("AVISO: CURSO_SIN_AISLAMIENTO=1: el código de los alumnos se ejecuta SIN aislar, "
                "bajo tu responsabilidad.")
    if shutil.which("bwrap") is None:
        raise AislamientoNoDisponible(
            "No se puede calificar: no está bubblewrap (bwrap), el aislamiento que ejecuta el código de los "
            "alumnos.\n" + QUE_HACER)
    from grader_tests.caja.aislamiento import KernelAislado
    caja = KernelAislado(config=_configuracion(raiz))
    caja.raiz = caja.raiz or str(raiz)
    base = Path(raiz) / "autograded"
    base.mkdir(exist_ok=True)
    for intento in range(INTENTOS):
        if intento:
            time.sleep(1)          # something passing on the machine: once more before refusing the class
        carpeta = tempfile.mkdtemp(prefix=".comprobacion-aislamiento-", dir=base)
        try:
            try:
                proceso = caja.ejecutar([sys.executable, "-c", f"print({MARCA!r})"], carpeta, timeout=timeout)
                salida, codigo = proceso.stdout + proceso.stderr, proceso.returncode
            except subprocess.TimeoutExpired:
                salida, codigo = f"no terminó en {timeout:g} s", None
            except OSError as error:
                salida, codigo = str(error), None
        finally:
            shutil.rmtree(carpeta, ignore_errors=True)
        if codigo == 0 and MARCA in salida:
            return None
    detalle = "\n".join(f"    {l}" for l in salida.strip().splitlines()[-6:]) or "    (sin mensaje)"
    raise AislamientoNoDisponible(
        "No se puede calificar: el aislamiento (bubblewrap) no arranca en esta máquina, así que cada "
        "cuaderno moriría y toda la clase sacaría un 0.\n"
        f"  Lo que dijo al arrancar (código {codigo}):\n{detalle}\n" + QUE_HACER)
