"""The TA's grading job (``make grade``): release, autograde, feedback, export, table.

Runs the plain nbgrader commands from the course root:

1. checks the gradebook's URL and that the sandbox starts (if it cannot,
   nobody is graded: ``scripts/calificacion/aislamiento.py``);
2. ``nbgrader generate_assignment`` for every assignment; the LMS downloads
   (``lms/``) or, without real submissions, the sample ones;
3. nbgrader's autograde and generate_feedback with K workers at once, each on
   its own students (``scripts/calificacion/lote.py``): one batch per worker
   and assignment, then a run of its own for any submission that failed, so a
   broken notebook never stops the others;
4. ``nbgrader export`` (``grades.csv``), a Spanish table student × assignment
   with score / max and, for every submission that could not be graded fully,
   why; then the steps that come after grading (``PASOS_TRAS_CALIFICAR``).

Grades, comments, the table and ``grades.csv`` are the same for every K, and
running it twice gives the same grades.  ``--fragmento I/N`` grades only one
shard of the students (a Kubernetes Indexed Job: ``despliegue/``), with the
assignments already released and without exporting.  ``--alumno ID`` (repeatable)
regrades only those students; the export, feedback and report stay the whole class's.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

RAIZ = Path(__file__).resolve().parents[2]
# Run as a script (make grade, make comprobar...), Python puts this folder first on sys.path: the course
# root takes its place, so these modules have one name only (scripts.calificacion.<módulo>).
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(RAIZ)
if str(RAIZ) not in sys.path:
    sys.path.insert(0, str(RAIZ))

from scripts.calificacion import libro_de_notas  # noqa: E402
from lms import integracion as lms  # noqa: E402
from scripts.calificacion import observaciones, samples  # noqa: E402
from scripts.calificacion import aislamiento, razones as razones_de, reparto  # noqa: E402
from scripts.calificacion.lote import Entrega, Lote  # noqa: E402
from scripts.calificacion.ordenes import Nbgrader  # noqa: E402
from scripts.calificacion.progreso import Progreso  # noqa: E402
from grader_tests.extensiones_nbgrader.intercambio import observaciones_de_la_recogida  # noqa: E402
from scripts.calificacion.tiempos import fase  # noqa: E402
from scripts.calificacion import tiempos  # noqa: E402


def tareas(raiz: Path | None = None) -> list[str]:
    raiz = raiz or RAIZ
    return sorted(p.name for p in (raiz / "source").iterdir() if p.is_dir() and any(p.glob("*.ipynb")))


def alumnos(raiz: Path | None = None) -> list[str]:
    carpeta = (raiz or RAIZ) / "submitted"
    return sorted(p.name for p in carpeta.iterdir() if p.is_dir()) if carpeta.is_dir() else []


def asegurar_fila(alumno: str, tarea: str, raiz: Path | None = None) -> bool:
    """Give ``alumno`` a grade row for ``tarea`` when nbgrader could not grade it (see :func:`asegurar_filas`).

    Returns True when nbgrader could not grade any of its notebooks.
    """
    return bool(asegurar_filas([(alumno, tarea)], raiz))


def asegurar_filas(pares: list[tuple[str, str]], raiz: Path | None = None) -> set[tuple[str, str]]:
    """:func:`asegurar_fila` for many ``(alumno, tarea)`` in one gradebook session.

    A submission without a row gets one (every notebook and grade at 0: nbgrader's
    own empty grades); one that nbgrader left with cells never graded (no notebook
    of the assignment could be graded: only a notebook of another assignment, a
    damaged file) gets those cells at 0 points and no longer «needs manual grade»,
    as nbgrader does for a missing notebook: reported in the table, not left
    pending forever.

    Returns the pairs nbgrader could not grade at all (no autograded notebook): the
    same answer on every run, whoever created the row.
    """
    from nbgrader.api import MissingEntry
    raiz = raiz or RAIZ
    if not pares:
        return set()
    with libro_de_notas.abrir(raiz) as gb:
        for alumno, tarea in pares:
            try:
                entrega = gb.find_submission(tarea, alumno)
            except MissingEntry:
                gb.update_or_create_student(alumno)
                entrega = gb.add_submission(tarea, alumno)
            for cuaderno in entrega.notebooks:
                notas = list(cuaderno.grades)
                if notas and all(g.auto_score is None and g.manual_score is None for g in notas):
                    for g in notas:
                        g.auto_score, g.needs_manual_grade = 0.0, False
        gb.db.commit()
    return {(a, t) for a, t in pares if not any((raiz / "autograded" / a / t).glob("*.ipynb"))}


def retirar_muestras(raiz: Path | None = None) -> list[str]:
    """Remove the sample students once real submissions arrive (folders and gradebook).

    Only the sample folders still exactly as ``samples.build_samples`` built
    them (the fingerprints in ``submitted/.muestras.json``) are removed, with
    their autograded/ and feedback/ folders and their gradebook submissions;
    a student whose every folder went is removed from the gradebook.  A folder
    that now holds something else (a real student whose id is a sample's:
    nbgrader collect or zip_collect wrote there) is kept and graded as real.

    Returns:
        The sample students whose folders were removed, sorted.
    """
    from nbgrader.api import MissingEntry
    raiz = raiz or RAIZ
    submitted = raiz / "submitted"
    marca = submitted / samples.MARCA_MUESTRAS
    if not marca.exists():
        return []
    intactas, _ = samples.sample_folders(submitted)
    for alumno, tarea in intactas:
        for carpeta in ("submitted", "autograded", "feedback"):
            shutil.rmtree(raiz / carpeta / alumno / tarea, ignore_errors=True)
    alumnos = sorted({a for a, _ in intactas})
    enteros = []                                     # samples with nothing of theirs left
    for alumno in alumnos:
        if not any((submitted / alumno).iterdir()):
            enteros.append(alumno)
            for carpeta in ("submitted", "autograded", "feedback"):
                shutil.rmtree(raiz / carpeta / alumno, ignore_errors=True)
    if libro_de_notas.existe(libro_de_notas.url_del_curso(raiz)):
        with libro_de_notas.abrir(raiz) as gb:
            for alumno, tarea in sorted(intactas):
                if alumno not in enteros:
                    try:
                        gb.remove_submission(tarea, alumno)
                    except MissingEntry:
                        pass
            for alumno in enteros:
                try:
                    gb.remove_student(alumno)
                except MissingEntry:
                    pass
    marca.unlink()
    return alumnos


@dataclass
class Resultado:
    """What grading left for the table and the steps after it."""
    alumnos: list[str]                                   # the students graded (rows of the table)
    tareas: list[str]
    razones: dict[tuple[str, str], list[str]] = field(default_factory=dict)   # observations
    fragmento: tuple[int, int] | None = None


def observaciones_de(raiz: Path, alumno: str, tarea: str, entrega: Entrega, sin_calificar: bool = False) -> list[str]:
    """The Spanish observations of one graded submission, in the table's order, without repeats.

    ``sin_calificar``: nbgrader left no graded cell (:func:`asegurar_filas` gave it 0 points).
    """
    lista = [entrega.fallo] if entrega.fallo else []
    lista += razones_de.del_log_del_alumno(entrega.log)
    lista += entrega.avisos
    for ruta in sorted((raiz / "autograded" / alumno / tarea).glob("*.ipynb")):
        lista += razones_de.problemas_del_cuaderno(ruta)
    lista += razones_de.cuadernos_ajenos(raiz, alumno, tarea)
    if sin_calificar:
        lista.append("no se pudo calificar ningún cuaderno: sin nota (en blanco en grades.csv, con not_graded = sí)")
    lista += entrega.avisos_comentarios
    if entrega.sin_comentarios:
        lista.append("no se pudieron generar sus comentarios (mira el error de generate_feedback arriba)")
    return list(dict.fromkeys(lista))


def comprobar_antes_de_calificar(raiz: Path) -> str:
    """The gradebook's URL (checked) once the sandbox has started; SystemExit otherwise.

    Nothing is written before both checks pass: no grades, no release.
    """
    try:
        url = libro_de_notas.url_del_curso(raiz)
    except libro_de_notas.LibroDeNotasInvalido as error:
        raise SystemExit(f"No se puede calificar: {error}") from None
    if not libro_de_notas.es_sqlite(url):
        try:
            with libro_de_notas.abrir(raiz):      # nbgrader creates its tables on a new database
                pass
        except Exception as error:  # noqa: BLE001 - any driver error: the TA needs its text
            raise SystemExit(f"No se puede calificar: no se pudo abrir el libro de notas "
                             f"{libro_de_notas.ocultar_clave(url)} ({type(error).__name__}: "
                             f"{str(error).strip().splitlines()[0][:300] if str(error).strip() else ''})") from None
    problema = problemas_de_plazos(raiz)
    if problema:
        raise SystemExit(problema)
    for aviso in avisos_de_prorrogas(raiz):
        print(observaciones.legible(aviso))
    try:
        aviso = aislamiento.comprobar(raiz)
    except aislamiento.AislamientoNoDisponible as error:
        raise SystemExit(str(error)) from None
    if aviso:
        print(aviso)
    return url


def problemas_de_plazos(raiz: Path) -> str | None:
    """Why the course's due dates cannot be used (Spanish), or None (``grader_tests.extensiones_nbgrader.plazos``).

    Every date and extension must be readable, and the exchange's time zone
    must give timestamps nbgrader reads back exactly (UTC).
    """
    from grader_tests.extensiones_nbgrader import plazos
    try:
        config_plazos, _, config = plazos.leer(raiz)
    except plazos.PlazoInvalido as error:
        return f"No se puede calificar: {error}"
    mal = config_plazos.invalidas()
    # an extension that cannot be read stops only that student on that assignment (autograde's
    # ComprobarPlazos; avisos_de_prorrogas says so): a due date or the file itself stops everything
    lineas = ([mal["archivo"]] if mal["archivo"] else []) + list(mal["fechas"].values())
    zona = config.get("Exchange", {}).get("timezone", "UTC")
    if not plazos.zona_de_marcas_segura(zona):
        lineas.append(f"c.Exchange.timezone = {zona!r}: nbgrader escribiría la hora de las entregas con un nombre "
                      "de zona que luego lee como UTC (en verano, «CEST»: dos horas de más). Déjalo en \"UTC\"; "
                      "los plazos se escriben en hora de Madrid en plazos.toml.")
    if lineas:
        return ("No se puede calificar (no se ha cambiado ninguna nota): corrige estos plazos en plazos.toml y "
                "vuelve a empezar:\n  " + "\n  ".join(lineas))
    return None


def avisos_de_prorrogas(raiz: Path) -> list[str]:
    """The extensions of plazos.toml that cannot be read, each with what it means (Spanish): that student is not
    graded on that assignment (their previous grades stay) and everybody else is."""
    from grader_tests.extensiones_nbgrader import plazos
    try:
        mal = plazos.leer(raiz)[0].invalidas()["prorrogas"]
    except plazos.PlazoInvalido:
        return []
    return [f"⚠ Plazos: {texto}. No se califica a {alumno} en {tarea} (sus notas anteriores no cambian) hasta que "
            "lo corrijas; al resto de la clase, sí." for (tarea, alumno), texto in sorted(mal.items())]


def publicar_tareas(raiz: Path, ids: list[str]) -> None:
    """``nbgrader generate_assignment <tarea> --force`` for every assignment, in this process.

    nbgrader's own converter with the course's configuration, as formgrader's
    «Generate» button runs it (``NbGraderAPI.generate_assignment``); one start-up
    instead of one per assignment.

    Raises:
        SystemExit: nbgrader could not generate one (its log goes to stderr first).
    """
    from nbgrader.converters import GenerateAssignment
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.utils import capture_log
    from traitlets.config.loader import PyFileConfigLoader
    libro_de_notas.herramientas_en_path()          # nbgrader runs alembic on a new gradebook
    config = PyFileConfigLoader("nbgrader_config.py", path=str(raiz)).load_config()
    coursedir = CourseDirectory(config=config)
    for tarea in ids:
        coursedir.assignment_id = tarea
        conversor = GenerateAssignment(coursedir=coursedir, config=config)
        conversor.force = True
        conversor.create_assignment = True
        resultado = capture_log(conversor)
        if not resultado["success"]:
            sys.stderr.write((resultado.get("log") or "") + (resultado.get("error") or ""))
            raise SystemExit(f"Falló: nbgrader generate_assignment {tarea} --force")


def preparar_entregas(raiz: Path, nbgrader: Nbgrader, forzar_muestras: bool, sin_muestras: bool = False) -> None:
    """Release every assignment; collect the LMS downloads, or build the samples without real submissions.

    ``sin_muestras`` (the hub's class page): never the samples; without real
    submissions there is nothing to grade, and it says so.
    """
    with fase("publicar (generate_assignment)"):
        publicar_tareas(raiz, tareas(raiz))
    with fase("entregas (LMS o muestras)"):
        return _preparar_entregas(raiz, nbgrader, forzar_muestras, sin_muestras)


def _preparar_entregas(raiz: Path, nbgrader: Nbgrader, forzar_muestras: bool, sin_muestras: bool) -> None:
    recogida = lms.recoger_descargas(raiz, nbgrader)      # downloaded/<tarea>/archive/ (Moodle, Canvas)
    for linea in recogida:
        print(observaciones.legible(linea))
    reales = samples.has_real_submissions(raiz / "submitted") or recogida
    if sin_muestras and not reales:
        retirar_muestras(raiz)
        print("No hay entregas en submitted/: recógelas antes (nbgrader collect o «Collect» en el Formgrader).")
        return
    for tarea in tareas(raiz):                            # what the last nbgrader collect refused
        _, generales = observaciones_de_la_recogida(str(raiz / "submitted"), tarea)
        if generales:
            print(f"Recogida del intercambio de {tarea} (último nbgrader collect):")
            for linea in generales:
                print(observaciones.legible(f"  {linea}"))
    if forzar_muestras or not reales:
        nombres = samples.build_samples(raiz)
        print(f"Entregas de muestra: {', '.join(nombres)}")
    else:
        for alumno, tarea in sorted(samples.sample_folders(raiz / "submitted")[1]):
            print(f"submitted/{alumno}/{tarea}: una entrega real con el id de un alumno de muestra; se conserva y "
                  "se califica como real (la muestra se retira).")
        retiradas = retirar_muestras(raiz)
        if retiradas:
            print(f"Hay entregas reales: se retiran las de muestra ({', '.join(retiradas)}).")
        print("Se califican las entregas reales de submitted/.")


def calificar(forzar_muestras: bool = False, trabajadores: int | None = None,
              fragmento: tuple[int, int] | None = None, raiz: Path | None = None,
              progreso: Progreso | None = None, sin_muestras: bool = False,
              solo: list[str] | None = None) -> Resultado:
    """Grade every submission of ``submitted/`` (or of one shard, or only the students ``solo``); see the module
    docstring.  ``solo``: ids of ``submitted/`` (raises SystemExit, in Spanish, naming any that is not there)."""
    raiz = raiz or RAIZ
    nbgrader = Nbgrader(raiz)
    with fase("comprobaciones"):
        url = comprobar_antes_de_calificar(raiz)
    ids = tareas(raiz)
    try:
        k = reparto.trabajadores(trabajadores)
    except reparto.RepartoInvalido as error:
        raise SystemExit(f"No se puede calificar: {error}") from None
    if fragmento is None:
        preparar_entregas(raiz, nbgrader, forzar_muestras, sin_muestras)
        mios = alumnos(raiz)
        if solo:
            faltan = sorted(set(solo) - set(mios))
            if faltan:
                raise SystemExit("No se puede calificar: no hay carpeta en submitted/ de "
                                 + ", ".join(observaciones.legible(a) for a in faltan)
                                 + " (¿falta recoger su entrega?).")
            mios = [a for a in mios if a in set(solo)]
            print(f"Se califica sólo a {len(mios)} de {len(alumnos(raiz))} alumnos (--alumno); grades.csv, "
                  "los comentarios y el informe siguen siendo de toda la clase.")
    else:
        _comprobar_tareas_publicadas(raiz, ids)
        mios = reparto.repartir(alumnos(raiz), *fragmento)
        print(f"Fragmento {fragmento[0]}/{fragmento[1]}: {len(mios)} alumnos de {len(alumnos(raiz))}.")
        if libro_de_notas.es_sqlite(url) and fragmento[1] > 1:
            print("Aviso: el libro de notas es SQLite; no califiques varios fragmentos a la vez (ni desde varias "
                  "máquinas): para eso, PostgreSQL (CURSO_DB_URL).")
    try:
        lote = Lote(raiz, mios, k, url, progreso or Progreso())
    except reparto.RepartoInvalido as error:
        raise SystemExit(f"No se puede calificar: {error}") from None
    print(f"Se califica con {len(lote.trabajadores)} "
          f"{'trabajador' if len(lote.trabajadores) == 1 else 'trabajadores a la vez'} "
          f"(libro de notas: {libro_de_notas.ocultar_clave(url)}).")
    try:
        with fase("calificar (trabajadores y fusión)"):
            entregas = lote.calificar(ids)
    except Exception as error:
        from scripts.calificacion.fusion import DefinicionesDistintas
        if isinstance(error, DefinicionesDistintas):
            raise SystemExit(str(error)) from None
        raise
    resultado = Resultado(alumnos=mios, tareas=ids, fragmento=fragmento)
    enviadas = [(a, t) for t in ids for a in mios if (raiz / "submitted" / a / t).is_dir()]
    with fase("filas y plazos"):
        sin_calificar = asegurar_filas(enviadas, raiz)
        plazos_y_revisiones = estado_de_plazos(raiz, mios, ids)
    with fase("observaciones"):
        _observar(resultado, raiz, ids, mios, set(enviadas), entregas, sin_calificar, plazos_y_revisiones)
    return resultado


def _observar(resultado, raiz, ids, mios, enviadas, entregas, sin_calificar, plazos_y_revisiones) -> None:
    for tarea in ids:
        de_la_recogida, _ = observaciones_de_la_recogida(str(raiz / "submitted"), tarea)
        for alumno in mios:
            if (alumno, tarea) not in enviadas:
                resultado.razones[(alumno, tarea)] = ["no entregó esta tarea", *de_la_recogida.get(alumno, [])]
                continue
            lista = de_la_recogida.get(alumno, []) + \
                observaciones_de(raiz, alumno, tarea, entregas.get((alumno, tarea), Entrega()),
                                 (alumno, tarea) in sin_calificar)
            lista += plazos_y_revisiones.get((alumno, tarea), [])
            if lista:
                resultado.razones[(alumno, tarea)] = lista
    if resultado.fragmento is None and set(mios) == set(alumnos(raiz)):
        for (alumno, tarea), lista in lms.motivos_sin_recoger(raiz).items():    # refused in the LMS download
            if alumno not in mios:
                resultado.razones[(alumno, tarea)] = ["no se recogió nada de su entrega del LMS", *lista]


def estado_de_plazos(raiz: Path, alumnos: list[str], tareas: list[str]) -> dict[tuple[str, str], list[str]]:
    """Bring the course's due dates, extensions and penalties into the gradebook; the lines for the table.

    ``(alumno, tarea)`` → Spanish lines: how late (after its extension) and
    the points taken (``grader_tests.extensiones_nbgrader.plazos``), and what is held for the TA's
    review (``grader_tests.extensiones_nbgrader.revision``).
    """
    from grader_tests.extensiones_nbgrader import notas_en_bloque, plazos, revision
    config_plazos, politica, _ = plazos.leer(raiz)
    lineas: dict[tuple[str, str], list[str]] = {}
    ilegibles = config_plazos.invalidas()["prorrogas"]
    for (tarea, alumno), texto in ilegibles.items():
        if alumno in alumnos and tarea in tareas:
            lineas.setdefault((alumno, tarea), []).append(
                f"no se calificó esta tarea: {texto}; sus notas anteriores no cambian: corrige la prórroga y "
                "vuelve a calificar")
    with libro_de_notas.abrir(raiz) as gb:
        for nota in plazos.sincronizar(gb, config_plazos, politica, tareas=tareas, saltar=set(ilegibles)):
            print(observaciones.legible(f"Plazos: {nota}"))
        clase, fuentes = plazos.clase_del_curso(gb)
        clase |= set(alumnos)
        for aviso in plazos.prorrogas_de_desconocidos(config_plazos, clase, fuentes).values():
            print(observaciones.legible(f"Plazos: ⚠ {aviso}"))
        libro = notas_en_bloque.leer(gb, tareas, alumnos)
        carpeta = str(raiz / revision.CARPETA)
        for (tarea, alumno), e in libro.entregas.items():
            estado = plazos.EstadoDeEntrega(e.duedate, e.extension, e.timestamp, e.segundos_tarde, e.penalizacion)
            texto = plazos.texto_del_retraso(estado, politica, config_plazos.zona)
            suyas = ([texto] if texto else []) + revision.pendientes(gb, carpeta, tarea, alumno)
            if suyas:
                lineas.setdefault((alumno, tarea), []).extend(suyas)
    return lineas


def _comprobar_tareas_publicadas(raiz: Path, ids: list[str]) -> None:
    from nbgrader.api import MissingEntry
    with libro_de_notas.abrir(raiz) as gb:
        for tarea in ids:
            try:
                gb.find_assignment(tarea)
            except MissingEntry:
                raise SystemExit(f"No se puede calificar por fragmentos: la tarea {tarea} no está en el libro de "
                                 "notas. Publícala antes (nbgrader generate_assignment o el Formgrader).") from None


def exportar(raiz: Path, destino: Path) -> list[str]:
    """``nbgrader export --to destino`` in this process: the course's exporter on its gradebook.

    The exporter is the one ``nbgrader export`` would use (``c.ExportApp.plugin_class``
    of the course's ``nbgrader_config.py``: ``lms.exportadores.NotasCsv``), with the
    same configuration; only nbgrader's start-up (seconds) is saved.  Returns the
    assignments it left out because no student has them (``NotasCsv.omitidas``;
    the caller says so), its warnings are not printed twice.
    """
    import logging
    from traitlets.config.loader import PyFileConfigLoader
    from traitlets.utils.importstring import import_item
    config = PyFileConfigLoader("nbgrader_config.py", path=str(raiz)).load_config()
    clase = config.get("ExportApp", {}).get("plugin_class", "nbgrader.plugins.CsvExportPlugin")
    plugin = (import_item(clase) if isinstance(clase, str) else clase)(config=config, to=str(destino))
    registro = logging.getLogger("curso.exportar")
    registro.propagate = False
    if not registro.handlers:
        manejador = logging.StreamHandler(sys.stderr)
        manejador.addFilter(lambda r: not hasattr(r, "omitidas"))     # main prints that one itself
        registro.addHandler(manejador)
    registro.setLevel(logging.WARNING)
    plugin.log = registro
    with libro_de_notas.abrir(raiz) as gb:
        plugin.export(gb)
    return list(getattr(plugin, "omitidas", []))


def tabla(resultado: Resultado, raiz: Path | None = None) -> str:
    """The Spanish table student × assignment and the observations.

    Each cell: the score after the late penalty over the maximum, with the
    penalty when there is one (``16.2 / 18 (tarde: -1.8)``) and «pendiente de
    revisión» when a resubmission's old manual grades are held; «sin entrega»
    without a submission; «sin nota» when nbgrader could not grade it at all (no autograded
    notebook; the observations say why).  The same score as ``grades.csv``.
    """
    from grader_tests.extensiones_nbgrader import notas_en_bloque, revision
    raiz = raiz or RAIZ
    ids = resultado.tareas
    filas = []
    listados = list(resultado.alumnos)
    if resultado.fragmento is None:
        listados += lms.alumnos_sin_entrega(raiz, listados)
    with libro_de_notas.abrir(raiz) as gb:
        libro = notas_en_bloque.leer(gb, ids, listados)
        carpeta = str(raiz / revision.CARPETA)
        retenidas = {(a, t) for (t, a) in libro.entregas if revision.pendientes(gb, carpeta, t, a)}
    calificadas = notas_en_bloque.calificadas_en_disco(raiz)
    hay_retraso = False
    for alumno in listados:
        celdas = [observaciones.legible(alumno)]
        for tarea in ids:
            e = libro.entregas.get((tarea, alumno))
            if e is None:
                celdas.append("sin entrega")
                continue
            if calificadas is not None and (alumno, tarea) not in calificadas:
                celdas.append(f"sin nota / {e.maximo:g}")
                continue
            texto = f"{round(e.nota, 2):g} / {e.maximo:g}"
            if e.penalizacion > 0:
                texto += f" (tarde: -{round(e.penalizacion, 2):g})"
                hay_retraso = True
            if (alumno, tarea) in retenidas:
                texto += " (pendiente de revisión)"
            celdas.append(texto)
        filas.append(celdas)
    cabecera = ["alumno", *ids]
    anchos = [max(len(f[i]) for f in [cabecera, *filas]) for i in range(len(cabecera))]
    lineas = ["  ".join(c.ljust(a) for c, a in zip(cabecera, anchos)),
              "  ".join("-" * a for a in anchos)]
    lineas += ["  ".join(c.ljust(a) for c, a in zip(f, anchos)) for f in filas]
    if hay_retraso:
        lineas.append("(nota después de la penalización por retraso: la misma que grades.csv)")
    if resultado.razones:
        lineas += ["", "Observaciones (lo que no se pudo calificar, quedó sin contestar o el alumno cambió):"]
        for (alumno, tarea), lista in sorted(resultado.razones.items()):
            for razon in lista:
                lineas.append(observaciones.legible(f"  {alumno} / {tarea}: {razon}"))
    return "\n".join(lineas)


def sin_fila(resultado: Resultado, raiz: Path | None = None) -> list[str]:
    """``alumno / tarea`` of submissions that ended without a gradebook row (should be none)."""
    from grader_tests.extensiones_nbgrader import notas_en_bloque
    raiz = raiz or RAIZ
    with libro_de_notas.abrir(raiz) as gb:
        libro = notas_en_bloque.leer(gb, resultado.tareas, resultado.alumnos)
    return [f"{alumno} / {tarea}" for alumno in resultado.alumnos for tarea in resultado.tareas
            if (raiz / "submitted" / alumno / tarea).is_dir() and (tarea, alumno) not in libro.entregas]


# ---------------------------------------------------------------------------- after grading
# Each step gets the course root and the Resultado once the grades are in the gradebook and
# grades.csv is written, and returns the lines to print.  New steps (e.g. a class report) go here.

def paso_notas_y_comentarios(raiz: Path, resultado: Resultado) -> list[str]:
    return [f"Notas: {raiz / 'grades.csv'}   Comentarios: {raiz / 'feedback'}/<alumno>/<tarea>/"]


def paso_subidas_al_lms(raiz: Path, resultado: Resultado) -> list[str]:
    return lms.preparar_subidas(raiz, Nbgrader(raiz))              # para_subir/ (Moodle, Canvas)


def paso_informe(raiz: Path, resultado: Resultado) -> list[str]:
    """The class report (scripts/informe/); a failure is reported and never undoes the grading."""
    from scripts import informe
    try:
        return informe.lineas_para_la_terminal(raiz, informe.generar(raiz))
    except Exception as error:  # noqa: BLE001 - the grades are in: say why the report is missing
        return [f"No se pudo escribir el informe de la clase ({type(error).__name__}: {error}); "
                "vuelve a intentarlo con make informe."]


PASOS_TRAS_CALIFICAR: list[Callable[[Path, Resultado], list[str]]] = [
    paso_notas_y_comentarios,
    paso_subidas_al_lms,
    paso_informe,
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Califica todas las entregas de submitted/.")
    parser.add_argument("--muestras", action="store_true",
                        help="rehace las entregas de muestra aunque haya entregas reales")
    parser.add_argument("--sin-muestras", action="store_true",
                        help="nunca califica las entregas de muestra: sin entregas reales no califica nada "
                             "(la página del curso en el hub)")
    parser.add_argument("--trabajadores", type=int, metavar="K",
                        help="cuántos nbgrader a la vez (por defecto CURSO_TRABAJADORES o el número de núcleos)")
    parser.add_argument("--fragmento", metavar="I/N",
                        help="califica sólo los alumnos de sorted(submitted/) en las posiciones p con p %% N == I "
                             "(todas sus tareas), sin publicar ni exportar: un índice de un Job de Kubernetes")
    parser.add_argument("--alumno", action="append", metavar="ID",
                        help="califica sólo a este alumno de submitted/ (todas sus tareas; se puede repetir), p. ej. "
                             "tras corregir su prórroga; grades.csv, los comentarios publicables y el informe siguen "
                             "siendo de toda la clase")
    args = parser.parse_args(argv)
    if args.alumno and args.fragmento is not None:
        parser.error("--alumno y --fragmento no van juntos: un fragmento ya elige a sus alumnos")
    observaciones.preparar_salida()       # any terminal encoding: accents degrade, nothing crashes
    fragmento = None
    if args.fragmento is not None:
        try:
            fragmento = reparto.leer_fragmento(args.fragmento)
        except reparto.RepartoInvalido as error:
            parser.error(str(error))
    resultado = calificar(args.muestras, args.trabajadores, fragmento, sin_muestras=args.sin_muestras,
                          solo=args.alumno)
    if fragmento is None:
        with fase("exportar"):
            omitidas = exportar(RAIZ, RAIZ / "grades.csv")
        if omitidas:            # not released, nobody handed them in: out of grades.csv and of the table
            from lms.exportadores import aviso_de_omitidas
            print(observaciones.legible(aviso_de_omitidas(omitidas)))
            resultado.tareas = [t for t in resultado.tareas if t not in omitidas]
            resultado.razones = {k: v for k, v in resultado.razones.items() if k[1] not in omitidas}
    print()
    with fase("tabla"):
        print(tabla(resultado))
    print()
    if fragmento is not None:
        faltan = sin_fila(resultado)
        tiempos.guardar()
        if faltan:
            print(f"Sin fila en el libro de notas: {', '.join(faltan)}", file=sys.stderr)
            return 1
        return 0
    for paso in PASOS_TRAS_CALIFICAR:
        with fase(f"después: {paso.__name__.removeprefix('paso_')}"):
            for linea in paso(RAIZ, resultado):
                print(observaciones.legible(linea))
    tiempos.guardar()
    vacias = lms.descargas_sin_recoger(RAIZ)
    if vacias:
        print(f"ERROR: no se recogió ninguna entrega de la descarga del LMS de {', '.join(vacias)} aunque tiene "
              "archivos (los motivos están en el informe de recogida de arriba).", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
