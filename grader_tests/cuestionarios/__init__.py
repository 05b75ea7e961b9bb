"""The answers of each lesson's quiz, one module per notebook: ``<notebook name>.py`` (trusted side only).

Each module holds ``PREGUNTAS``: ``{grade_id of a comprueba_respuesta_N cell:
Pregunta}`` (``grader_tests.juez.quiz``: ``Opcion``, ``Varias``, ``Entero``,
``VerdaderoFalso``).  Never visible to a student's kernel under autograde.
"""
