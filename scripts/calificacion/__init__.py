"""The TA's grading job (``make grade``, ``scripts/calificacion/grade.py``), in pieces.

| module | what it does |
|---|---|
| ``ordenes`` | runs ``nbgrader <orden>`` in the course root (output read line by line) |
| ``aislamiento`` | starts the real sandbox once before grading; stops everything if it cannot run |
| ``reparto`` | which students each worker grades (``--trabajadores K``, ``--fragmento I/N``) |
| ``lote`` | nbgrader's autograde and generate_feedback on each worker's students, in parallel |
| ``fusion`` | copies a worker's SQLite gradebook rows into the course's gradebook |
| ``razones`` | the Spanish observations of each submission (logs, notebooks, files) |
| ``progreso`` | the progress bar per assignment (only on a terminal) |
| ``libro_de_notas`` | the gradebook's URL: set by nbgrader_config.py (and ``CURSO_DB_URL``), read from there by everything |
"""
