"""An exercise's battery, judged in-process, and what each file's header promises (trusted side only).

The battery (``grader_tests/ejercicios/<function>/bateria/``) holds what
students would type in the exercise cell: correct implementations
(``c*.py``) and wrong ones (``e*.py``), each with a header
(``descubrimiento.ArchivoDeBateria``).  Here, without nbgrader or a kernel:
``corregir`` runs what every hidden cell of the exercise runs (the client's
evidence, then the trusted judge) and ``incumplimientos`` says, in Spanish,
where a result breaks its file's header.  The tests, ``make comprobar`` and
the benchmarks use it; ``tests/test_bateria.py`` checks the same headers
against the real ``nbgrader autograde``.
"""
from __future__ import annotations

from typing import Callable

from . import juez, propiedades
from ..en_el_kernel.casos import celdas_de
from ..en_el_kernel.cliente import recoger_evidencia
from .descubrimiento import ArchivoDeBateria, Ejercicio
from .veredicto import Veredicto


def cargar(archivo: ArchivoDeBateria, funcion: str) -> Callable:
    """The function a battery file defines (its code run in a fresh namespace)."""
    espacio: dict = {}
    exec(compile(archivo.codigo, str(archivo.ruta), "exec"), espacio)
    return espacio[funcion]


def corregir(funcion: str, implementacion: Callable) -> dict[str, Veredicto]:
    """``{grade_id: Veredicto}`` of every test cell of ``funcion`` for ``implementacion``."""
    espacio = {funcion: implementacion}
    propiedades.empezar_cuaderno()          # one implementation = one notebook (control rule)
    return {g: juez.juzgar(recoger_evidencia(g, espacio), maximo=None, notebook=None) for g in celdas_de(funcion)}


def incumplimientos(ej: Ejercicio, archivo: ArchivoDeBateria, puntos: dict[str, float], texto: str,
                    errores: dict[str, set[str]] | None = None) -> list[str]:
    """Where a graded battery file breaks its header (Spanish; empty: it keeps every promise).

    Args:
        ej: the exercise.
        archivo: the battery file.
        puntos: points of each of the exercise's test cells (by grade_id).
        texto: the feedback text of those cells.
        errores: the known-mistake ids charged in each cell, when known
            (in-process judging; ``nbgrader autograde`` only leaves text).
    """
    maximo = ej.puntos
    total = sum(puntos.values())
    resumen = {g.removeprefix(ej.funcion + "_"): p for g, p in puntos.items()}
    detalle = f"{archivo.nombre}: {total:g} de {maximo:g} {resumen}"
    fallos = []
    if archivo.espera == "completo" and abs(total - maximo) > 1e-9:
        fallos.append(f"{detalle}: se esperaba la nota completa")
    elif archivo.espera == "parcial" and not 0 < total < maximo:
        fallos.append(f"{detalle}: se esperaba una nota parcial")
    elif archivo.espera == "cero" and total != 0:
        fallos.append(f"{detalle}: se esperaba 0")
    if archivo.puntos is not None and abs(total - archivo.puntos) > 1e-6:
        fallos.append(f"{detalle}: se esperaban exactamente {archivo.puntos:g} puntos")
    for gid, maximo_celda in ((g, p.puntos) for g, p in ej.propiedades.items()):
        propiedad = gid.removeprefix(ej.funcion + "_")
        esperado = archivo.celdas.get(propiedad, maximo_celda if archivo.celdas else None)
        if esperado is not None and abs(puntos.get(gid, 0.0) - esperado) > 1e-6:
            fallos.append(f"{detalle}: en {gid} se esperaban {esperado:g} puntos ('# celdas:')")
    if archivo.diagnostico and archivo.diagnostico not in texto:
        fallos.append(f"{detalle}: falta el diagnóstico {archivo.diagnostico!r}")
    if archivo.espera != "completo" and not archivo.diagnostico and "Diagnóstico probable" not in texto:
        fallos.append(f"{detalle}: ningún diagnóstico en la corrección")
    if errores is not None:
        nombrados = set().union(*errores.values()) if errores else set()
        for id_ in archivo.errores:
            if id_ not in nombrados:
                fallos.append(f"{detalle}: el corrector no nombra el error conocido {id_} que declara "
                              f"'# error:' (nombra: {sorted(nombrados) or 'ninguno'})")
    return fallos


def juzgar_archivo(ej: Ejercicio, archivo: ArchivoDeBateria) -> tuple[dict[str, Veredicto], list[str]]:
    """Judge one battery file in-process: its verdicts and where they break its header."""
    veredictos = corregir(ej.funcion, cargar(archivo, ej.funcion))
    puntos = {g: v.puntos for g, v in veredictos.items()}
    texto = "\n".join(v.texto() for v in veredictos.values())
    errores = {g: {e.id for e in v.errores} for g, v in veredictos.items()}
    return veredictos, incumplimientos(ej, archivo, puntos, texto, errores)
