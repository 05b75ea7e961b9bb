"""Collecting submissions from the course's LMS (Moodle, Canvas) and returning grades and feedback.

nbgrader extensions and helpers; see ``lms/README.md`` and ``docs/lms.md``
(the TA's guide).  Folders, relative to the course root:

* ``downloaded/<tarea>/archive/`` — what the TA downloads from the LMS for one
  assignment (nbgrader ``zip_collect``'s own layout);
* ``downloaded/alumnos.csv`` — the optional class roster;
* ``para_subir/`` — what goes back to the LMS (grades CSV, feedback zips).
"""

DESCARGAS = "downloaded"          # nbgrader's ZipCollectApp.downloaded_directory default
ARCHIVO = "archive"               # ... archive_directory default
EXTRAIDO = "extracted"            # ... extracted_directory default
LISTA = "alumnos.csv"             # the roster, inside DESCARGAS
INFORME = "recogida.json"         # the collection report, in DESCARGAS/<tarea>/
SUBIR = "para_subir"              # what the TA uploads back to the LMS
