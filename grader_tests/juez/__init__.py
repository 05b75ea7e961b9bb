"""The judge (trusted side only): evidence in, typed verdict out.

Never mounted in the student's kernel.  Imports only ``grader_tests.en_el_kernel``
(the input cases and the serialization it shares with the kernel); it names no
exercise and imports no nbgrader: the exercises (``grader_tests/ejercicios/``)
and quizzes (``grader_tests/cuestionarios/``) are data it discovers by
convention (``descubrimiento``).  See ``README.md``.
"""
