"""Helpers shared by every trusted layer of grader_tests and by ``scripts/`` and ``lms/``.

The bottom of the trusted side: imports nothing of ``grader_tests``.  Never
mounted in the student's kernel (the kernel side, ``en_el_kernel/``, does not
need it).  See ``README.md``.
"""
