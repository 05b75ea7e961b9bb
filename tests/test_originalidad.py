"""Course text and code are written in our own words: no run of words copied from a seed."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import RAIZ

HERRAMIENTA = RAIZ.parent / "shared" / "tools" / "originality.py"


@pytest.mark.skipif(not HERRAMIENTA.exists(), reason="no está ../shared/tools/originality.py")
def test_ningun_pasaje_repite_una_semilla():
    salida = subprocess.run([sys.executable, str(HERRAMIENTA), "."], cwd=RAIZ,
                            capture_output=True, text=True, timeout=300)
    assert salida.returncode == 0 and "no passage repeats" in salida.stdout.lower(), salida.stdout[-3000:]
