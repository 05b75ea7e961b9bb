"""Which students each worker grades.

A student is never split: each worker runs nbgrader's own autograde (and
generate_feedback) on whole students, all their assignments.  The rule is the
position in ``sorted(submitted/)``: with ``n`` parts, part ``i`` holds the
students at positions ``p`` with ``p % n == i``.  The same rule makes the
shards of a Kubernetes Indexed Job (``--fragmento I/N``, one index per pod)
and the workers inside one machine or pod (``--trabajadores K``).
"""
from __future__ import annotations

import os
import re

VARIABLE_TRABAJADORES = "CURSO_TRABAJADORES"


class RepartoInvalido(ValueError):
    """A shard or a number of workers that makes no sense (Spanish message)."""


def repartir(alumnos: list[str], i: int, n: int) -> list[str]:
    """Students of part ``i`` of ``n``: positions ``p`` of ``alumnos`` with ``p % n == i``."""
    if not 0 <= i < n:
        raise RepartoInvalido(f"no hay fragmento {i} de {n}")
    return [a for p, a in enumerate(alumnos) if p % n == i]


def leer_fragmento(texto: str) -> tuple[int, int]:
    """``"I/N"`` → ``(I, N)`` with ``0 <= I < N``.

    Raises:
        RepartoInvalido: not of that form.
    """
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", texto or "")
    if not m or int(m[2]) < 1 or int(m[1]) >= int(m[2]):
        raise RepartoInvalido(f"--fragmento tiene que ser I/N con 0 ≤ I < N (por ejemplo 0/8), no «{texto}»")
    return int(m[1]), int(m[2])


def nucleos() -> int:
    """CPU cores this process may use (its affinity mask: a container's cpuset too)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def trabajadores(pedidos: int | None = None) -> int:
    """How many nbgrader runs at once: ``--trabajadores``, else ``CURSO_TRABAJADORES``, else the cores.

    Raises:
        RepartoInvalido: not a positive integer.
    """
    valor: int | str | None = pedidos
    origen = "--trabajadores"
    if valor is None and os.environ.get(VARIABLE_TRABAJADORES, "").strip():
        valor, origen = os.environ[VARIABLE_TRABAJADORES].strip(), VARIABLE_TRABAJADORES
    if valor is None:
        return nucleos()
    try:
        k = int(valor)
    except ValueError:
        k = 0
    if k < 1:
        raise RepartoInvalido(f"{origen} tiene que ser un número entero mayor que 0, no «{valor}»")
    return k
