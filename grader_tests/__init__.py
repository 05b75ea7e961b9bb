"""Hidden tests of the course (nbgrader): one folder per graded exercise in ``ejercicios/``.

Only hidden test cells import this package, with one expression that binds
no name in the student's namespace (a student's own ``corregir``, ``casos``
or ``grader_tests`` is never shadowed, and the student's function is looked
up in ``globals()``)::

    __import__("grader_tests").corregir("<grade_id of the cell>", globals())

Kernel-safe modules: ``cliente``, ``casos``, ``serializacion`` and each
exercise's ``casos.py`` (``aislamiento.MODULOS_PUBLICOS``).  Everything else
(each exercise's reference, properties, known mistakes and battery, the quiz
answers, the judge, the nbgrader extensions) is trusted-side only and hidden
from students' kernels under autograde.
"""
from .cliente import corregir

__all__ = ["corregir"]
