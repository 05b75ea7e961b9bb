"""Course text and code are written in our own words: no run of words copied from a seed, no lesson
that closely paraphrases one (the shared tools, when the course sits beside ../shared)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import RAIZ

HERRAMIENTA = RAIZ.parent / "shared" / "tools" / "originality.py"
PARAFRASIS = RAIZ.parent / "shared" / "tools" / "paraphrase.py"


@pytest.mark.skipif(not HERRAMIENTA.exists(), reason="no está ../shared/tools/originality.py")
def test_ningun_pasaje_repite_una_semilla():
    salida = subprocess.run([sys.executable, str(HERRAMIENTA), "."], cwd=RAIZ,
                            capture_output=True, text=True, timeout=300)
    assert salida.returncode == 0 and "no passage repeats" in salida.stdout.lower(), salida.stdout[-3000:]


@pytest.mark.skipif(not PARAFRASIS.exists(), reason="no está ../shared/tools/paraphrase.py")
def test_ninguna_leccion_parafrasea_una_semilla():
    """At most 3 % of each lesson's sentences within 0.40 of a seed sentence (the tool's exit status)."""
    salida = subprocess.run([sys.executable, str(PARAFRASIS), "--show", "10"], cwd=RAIZ,
                            capture_output=True, text=True, timeout=300)
    assert salida.returncode == 0, salida.stdout[-4000:]
