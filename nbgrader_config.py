"""nbgrader configuration of the course (read by every `nbgrader ...` run here).

Run nbgrader from this folder (the course root).  The gradebook is the
embedded default, SQLite in ``gradebook.db`` next to this file, unless
``CURSO_DB_URL`` names another (PostgreSQL for a class graded in parallel;
docs/profesorado.md, «El libro de notas»).
"""
import os
import re
import sys

RAIZ = os.path.dirname(os.path.abspath(__file__))
# The hidden tests and their nbgrader extensions live in grader_tests/ here.
if RAIZ not in sys.path:
    sys.path.insert(0, RAIZ)

from nbconvert.preprocessors import ClearMetadataPreprocessor  # noqa: E402
from nbgrader.preprocessors import (  # noqa: E402
    AssignLatePenalties, CheckCellMetadata, ClearHiddenTests, GetGrades,
    IgnorePattern, LimitOutput)
from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor  # noqa: E402

from grader_tests.caja.aislamiento import EjecucionAislada, KernelAislado  # noqa: E402
from grader_tests.extensiones_nbgrader.nbgrader_juez import JuzgarEvidencias, QuitarDuplicados  # noqa: E402
from grader_tests.extensiones_nbgrader.registro_de_veredictos import GuardarVeredictos  # noqa: E402
from grader_tests.extensiones_nbgrader.saneamiento import (AcotarCeldas, LecturaAcotada, AvisarArchivosModificados,  # noqa: E402
                                                        AvisarCeldasOmitidas, ReponerCeldasBorradas,
                                                        ReponerPruebasOcultas)
from grader_tests.extensiones_nbgrader import formgrader_seguro, nbgrader_seguro  # noqa: E402
from grader_tests.extensiones_nbgrader.nbgrader_seguro import AvisosEnComentarios, SanearTrasElKernel  # noqa: E402
from grader_tests.extensiones_nbgrader.retroalimentacion import ExportadorRetroalimentacion  # noqa: E402
from grader_tests.extensiones_nbgrader import salida_limpia  # noqa: E402
from grader_tests.extensiones_nbgrader.salida_limpia import TextoAlternativo  # noqa: E402
from grader_tests.extensiones_nbgrader.plazos import (  # noqa: E402
    ARCHIVO_DEL_TA, AplicarPlazos, ComprobarPlazos, PenalizacionPorRetraso, PlazosDelCurso)
from grader_tests.extensiones_nbgrader.plazos import avisar as avisar_plazos  # noqa: E402
from grader_tests.extensiones_nbgrader.revision import ComprobarRevision, GuardarNotasAutomaticas, NotaAManoEnComentarios  # noqa: E402,E501
from grader_tests.extensiones_nbgrader.huella_de_comentarios import HuellaEnComentarios  # noqa: E402

# Students' files are untrusted in every TA-side step (grader_tests/extensiones_nbgrader/nbgrader_seguro.py,
# grader_tests/caja/archivos_alumno.py; docs/seguridad.md, «Seguridad»).
nbgrader_seguro.aplicar()
# ... and formgrader prints nothing of theirs unescaped, runs no script but its own (CSP), needs no
# network (MathJax from jupyter-server-mathjax) and links under the hub (grader_tests/extensiones_nbgrader/formgrader_seguro.py).
formgrader_seguro.aplicar()
# No spurious warnings in what a TA sees (grader_tests/extensiones_nbgrader/salida_limpia.py).
salida_limpia.aplicar()
from nbgrader.preprocessors import ClearOutput, OverwriteKernelspec  # noqa: E402

c = get_config()  # noqa: F821

c.CourseDirectory.course_id = "atencion-y-posicion"
c.CourseDirectory.root = RAIZ
# formgrader's «Current configuration» panel would print the whole configuration, the gradebook's
# URL (and its PostgreSQL password) included.
c.FormgradeExtension.debug = False
# The gradebook: nbgrader's SQLite gradebook.db here, unless a URL is set below (before the block
# «The gradebook's URL» at the end of this file) or in CURSO_DB_URL, which wins.

# Stubs students see where a solution was (Spanish).
c.ClearSolutions.code_stub = {"python": "# ESCRIBE TU CÓDIGO AQUÍ\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "ESCRIBE TU RESPUESTA AQUÍ"

# Student code runs sandboxed (grader_tests/caja/aislamiento.py; docs/seguridad.md, «Seguridad»).
c.KernelAislado.raiz = RAIZ
c.KernelAislado.memoria_maxima = 4 * 1024 ** 3
c.EjecucionAislada.presupuesto_total = 600

# Execution limits for every cell of a submission.
c.Execute.timeout = 60
c.Execute.interrupt_on_timeout = True
c.OverwriteCells.add_missing_cells = True          # also ReponerCeldasBorradas, its subclass
c.LimitOutput.max_lines = 300
c.LimitOutput.max_traceback = 60
# `nbgrader validate` (and JupyterLab's Validate button) run from here judge as a
# student's copy does (source/<tarea>/nbgrader_config.py, same limits: a test
# checks it): stderr in a test cell is ordinary output, not a failure.
c.Validator.Execute.extra_arguments = [
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.exec_lines=import sys; sys.stderr.name = 'stdout'",
]
# ... in the sandbox, as autograde does: from here Validate may be run on a student's submission (a TA checking a
# complaint, the service JupyterLab's Validate button), whose code must not run as the TA (a hostile tester's F6).
c.Validator.Execute.kernel_manager_class = KernelAislado

# Duplicated grade_ids: keep the last copy without aborting (nbgrader's
# DeduplicateIds leaves `{}` metadata that crashes OverwriteCells).
# Untouched test cells get their hidden tests back before OverwriteCells (no false
# "checksum has changed"); edited shipped files are named in the notebook
# (grader_tests/extensiones_nbgrader/saneamiento.py).
# ComprobarPlazos first: a submission whose due date or extension (plazos.toml) cannot be read is refused
# before anything runs or is saved, and the rest of the class is graded.
# AcotarCeldas next: at most saneamiento.MAX_CELDAS cells reach nbgrader's per-cell steps (outside the sandbox).
# A notebook file over 1 MiB is first read by a bounded process that keeps only what grading reads
# (grader_tests/caja/cuaderno_acotado.py): outputs, attachments and huge metadata cost nothing outside the sandbox.
c.Autograde.exporter_class = LecturaAcotada
c.Autograde.sanitize_preprocessors = [
    ComprobarPlazos, AcotarCeldas, ClearOutput, QuitarDuplicados, OverwriteKernelspec, ReponerPruebasOcultas,
    ReponerCeldasBorradas, CheckCellMetadata, AvisarArchivosModificados, AvisarCeldasOmitidas]

# Hidden tests publish evidence; JuzgarEvidencias scores it outside the kernel,
# right after execution and before the grades are saved.
c.Autograde.autograde_preprocessors = [
    EjecucionAislada,
    SanearTrasElKernel,
    JuzgarEvidencias,
    IgnorePattern,
    ClearMetadataPreprocessor,
    LimitOutput,
    GuardarNotasAutomaticas,
    AplicarPlazos,
    AssignLatePenalties,
    CheckCellMetadata,
    GuardarVeredictos,
]
# ... and each cell's verdict, typed, in veredictos/<tarea>/<alumno>/<cuaderno>.json (outside the
# sandbox; read by the class report, scripts/informe/).
c.GuardarVeredictos.carpeta = os.path.join(RAIZ, "veredictos")
# A resubmission never keeps the manual grades of the older one: nbgrader's SaveAutoGrades plus the hold
# for the TA's review, recorded in revisiones/ (grader_tests/extensiones_nbgrader/revision.py; docs/profesorado.md, «Entregas nuevas y notas
# a mano»); feedback for a held submission is refused until the TA reviews it in formgrader.
c.GuardarNotasAutomaticas.carpeta = os.path.join(RAIZ, "revisiones")
c.ComprobarRevision.carpeta = os.path.join(RAIZ, "revisiones")

# Feedback shows the verdicts, never the hidden-test code (nbgrader issue #917).
# Each page carries the fingerprint of what it states (after GetGrades and AplicarPlazos): Release Feedback
# withholds a page whose grade, penalty or comment changed since (grader_tests/extensiones_nbgrader/huella_de_comentarios.py;
# docs/profesorado.md, «Comentarios desactualizados»).
c.GenerateFeedback.preprocessors = [ComprobarRevision, AplicarPlazos, GetGrades, NotaAManoEnComentarios,
                                    HuellaEnComentarios, ClearHiddenTests, AvisosEnComentarios, TextoAlternativo,
                                    CSSHTMLHeaderPreprocessor]
# ... in Spanish: nbgrader's feedback template with its labels translated (plantillas/),
# for generate_feedback only (formgrader keeps its own templates).
c.GenerateFeedback.exporter_class = ExportadorRetroalimentacion
c.ExportadorRetroalimentacion.template_name = "retroalimentacion"
c.ExportadorRetroalimentacion.extra_template_basedirs = [os.path.join(RAIZ, "plantillas")]
c.ClearHiddenTests.enforce_metadata = False

# ---- Due dates and late work (docs/profesorado.md, «Plazos, retrasos y prórrogas»).  The dates and the
# extensions are in plazos.toml next to this file: the one place a TA edits them (not here).  Dates are wall
# time in Madrid; nbgrader's gradebook gets them as UTC (grader_tests/extensiones_nbgrader/plazos.py),
# daylight saving included.  Every value is checked here, as this file loads: one that cannot be read is
# printed (in Spanish, with the student and the format) and never applied silently.
c.PlazosDelCurso.archivo = os.path.join(RAIZ, ARCHIVO_DEL_TA)
avisar_plazos(PlazosDelCurso(config=c))
# Penalty: every started day late takes 10 % of the score, at most 50 % (nbgrader's late_submission_penalty).
c.AssignLatePenalties.plugin_class = PenalizacionPorRetraso
c.PenalizacionPorRetraso.por_dia = 0.10
c.PenalizacionPorRetraso.maximo = 0.50
c.PenalizacionPorRetraso.gracia_minutos = 0
# Submission times are written in UTC: with a zone such as Europe/Madrid nbgrader writes «CEST», which it
# reads back as UTC (two hours off every summer).  Formgrader shows due dates in Madrid time.
c.Exchange.timezone = "UTC"
c.NbGraderAPI.timezone = "Europe/Madrid"

# LMS downloads (Moodle, Canvas) for `nbgrader zip_collect` and `make grade`: unpacking within
# budgets and the LMS's file names (lms/; docs/lms.md, «Con Moodle» / «Con Canvas»).
c.ZipCollectApp.extractor_plugin = "lms.recogida.ExtraccionSegura"
c.ZipCollectApp.collector_plugin = "lms.recogida.NombresDelLMS"

# Students' HTML is inert in the feedback and in formgrader (grader_tests/extensiones_nbgrader/html_seguro.py).
c.HTMLExporter.sanitize_html = True
# Explorables first: each becomes the still picture of its fallback, which the sanitiser
# below keeps (it drops the marks that identify a fallback and every widget reference).
c.HTMLExporter.preprocessors = ["grader_tests.extensiones_nbgrader.explorables_en_comentarios.ExplorablesComoImagen",
                                "grader_tests.extensiones_nbgrader.html_seguro.SanearCuaderno"]
c.HTMLExporter.filters = {"markdown2html": "grader_tests.extensiones_nbgrader.html_seguro.markdown2html_seguro",
                          "clean_html": "grader_tests.extensiones_nbgrader.html_seguro.limpiar_html"}

# grades.csv (nbgrader export): nbgrader's columns, quoted, inert in a spreadsheet (lms/exportadores.py).
c.ExportApp.plugin_class = "lms.exportadores.NotasCsv"

# The exchange steps on the TA's side (grader_tests/extensiones_nbgrader/intercambio.py): collect authenticates each
# inbound entry by its owner (docs/seguridad.md, «Seguridad»); on Kubernetes the hub's uid files say who each uid is.
c.ExchangeFactory.collect = "grader_tests.extensiones_nbgrader.intercambio.RecogerSeguro"
c.Cuentas.carpeta = os.environ.get("CURSO_CUENTAS", "")
c.ExchangeFactory.release_feedback = "grader_tests.extensiones_nbgrader.intercambio.PublicarComentariosSeguro"
# inbound sticky (nobody renames or removes the entry of another) and setgid (entries belong to the graders)
c.ExchangeFactory.release_assignment = "grader_tests.extensiones_nbgrader.intercambio.PublicarTareaSegura"
# The gradebook's URL (docs/profesorado.md, «El libro de notas»; keep this block last): CURSO_DB_URL wins over a
# c.CourseDirectory.db_url set above; postgresql:// gets the driver the course installs (psycopg2:
# SQLAlchemy 2.1 would look for psycopg 3).  Scripts read the result from here
# (scripts/calificacion/libro_de_notas.py); nothing is imported, so no copy of the course can lose it.
_url = os.environ.get("CURSO_DB_URL", "").strip() or c.CourseDirectory.get("db_url", "")
if _url:
    c.CourseDirectory.db_url = re.sub(r"^postgres(?:ql)?://", "postgresql+psycopg2://", _url)
