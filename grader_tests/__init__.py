"""Hidden tests of the course (nbgrader): one folder per graded exercise in ``ejercicios/``.

Only hidden test cells import this package, with one expression that binds
no name in the student's namespace (a student's own ``corregir``, ``casos``
or ``grader_tests`` is never shadowed, and the student's function is looked
up in ``globals()``)::

    __import__("grader_tests").corregir("<grade_id of the cell>", globals())

The package is in layers (``README.md``), each importing only the ones below.
The student's kernel sees this file and the kernel side (``cliente``,
``casos``, ``serializacion``) plus each exercise's ``casos.py``; everything
else (each exercise's reference, properties, known mistakes and battery, the
quiz answers, the judge, the sandbox, the nbgrader extensions) is
trusted-side only and hidden from students' kernels under autograde.
"""
from .en_el_kernel.cliente import publicar_evidencia as _publicar_evidencia

__all__ = ["corregir"]


def corregir(grade_id: str, espacio: dict):
    """Hidden-test entry point: gather the evidence, publish it, judge it if the judge is here.

    In the student's kernel (autograde's sandbox) only the kernel side exists:
    the evidence is published and the trusted preprocessor judges it outside.
    In an author's run of ``source/`` the judge is importable: the cell prints
    the verdict and returns its points (``juez.juzgar_en_el_acto``).

    Returns:
        The points earned, or ``None`` when judging happens outside this process.
    """
    evidencia = _publicar_evidencia(grade_id, espacio)
    try:
        from .juez.juez import juzgar_en_el_acto
    except ImportError:
        print("Resultados registrados: la nota de esta celda se calcula al calificar.")
        return None
    return juzgar_en_el_acto(evidencia)
