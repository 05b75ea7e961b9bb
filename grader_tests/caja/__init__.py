"""The sandbox and its limits: where and how the students' kernels run under autograde.

Never mounted in the student's kernel (``lanzador_caja.py`` is copied in as a
script, not imported).  Imports only ``grader_tests.en_el_kernel`` (which files
the kernel may see, the evidence's MIME type) and ``grader_tests.comun``;
never the judge.  See ``README.md``.
"""
