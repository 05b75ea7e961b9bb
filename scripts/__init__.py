"""The course's tools, in rooms named for their job (``scripts/README.md``).

* ``scripts.calificacion`` -- the TA's job: ``make grade`` (``grade.py``), the course page of the hub's
  service (``servicio_del_curso.py``), the sample submissions and the table's observations;
* ``scripts.informe`` -- the class report (``make informe``);
* ``scripts.autores`` -- the authors' tools (``make comprobar``, ``make leccion``);
* ``scripts.mediciones`` -- the benchmarks (``make bench``); not tests, and nothing a TA runs.

No import cycle between modules: ``informe`` uses two helpers of ``calificacion`` (the gradebook's URL,
the terminal's output); ``calificacion/grade.py``, the entry point nothing imports, calls ``informe`` at
the end of ``make grade``; ``mediciones`` uses ``calificacion``'s samples; ``autores`` stands alone.
"""
