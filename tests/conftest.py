"""Shared pytest fixtures and helpers for the course's tests."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parent.parent


def cargar_modulo(ruta: Path | str, nombre: str | None = None):
    """Import a module from a file path (e.g. an explorable in ``source/``)."""
    ruta = Path(ruta)
    nombre = nombre or ruta.stem
    spec = importlib.util.spec_from_file_location(nombre, ruta)
    modulo = importlib.util.module_from_spec(spec)
    sys.modules[nombre] = modulo
    spec.loader.exec_module(modulo)
    return modulo


@pytest.fixture(scope="session")
def raiz() -> Path:
    """The course root (where nbgrader_config.py lives)."""
    return RAIZ
