"""One folder per graded exercise, named like the function the student writes.

Kernel-safe by convention: in each folder only ``__init__.py`` (this kind of
docstring, nothing else) and ``casos.py`` reach the student's kernel under
autograde; ``referencia.py``, ``propiedades.py``, ``errores.py`` and
``bateria/`` are trusted-side only (``en_el_kernel.modulos_publicos``).
See ``grader_tests/README.md``.
"""
