"""The course authors' tools: ``make comprobar`` (``comprobar``), ``make leccion`` (``leccion``), the
notebook conventions both check (``convenciones``) and the battery's solution with the grader's public
names (``nombres_del_corrector``).  See ``scripts/autores/README.md``."""
