"""Hidden tests of the course (nbgrader): ``multi_head`` and ``positional_encoding``.

Only hidden test cells import this package, with two lines::

    from grader_tests import corregir
    corregir("<grade_id of the cell>", globals())

Kernel-safe modules: ``cliente``, ``casos``, ``serializacion``.  Everything
else (reference, known mistakes, quiz answers, judge, nbgrader extensions) is
trusted-side only and hidden from students' kernels under autograde.
"""
from .cliente import corregir

__all__ = ["corregir"]
