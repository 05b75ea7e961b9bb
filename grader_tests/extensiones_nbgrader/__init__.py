"""The course's extensions of nbgrader: preprocessors, exporters, exchange, formgrader and feedback pieces.

What ``nbgrader_config.py`` names (``grader_tests.extensiones_nbgrader.<module>.<Class>``).
The top of the engine: imports the judge (``grader_tests.juez``), the sandbox
(``grader_tests.caja``), the kernel side (``grader_tests.en_el_kernel``) and
``grader_tests.comun``; nothing of grader_tests imports it.  See ``README.md``.
"""
