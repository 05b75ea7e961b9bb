"""What the class report is made of: the gradebook and the trusted verdict records, aggregated.

Sources (nothing is parsed from what a notebook printed):

* the course's gradebook (``libro_de_notas.abrir``: SQLite or PostgreSQL):
  every submission's score and every graded cell's ``auto_score``;
* the verdict records that ``grader_tests.registro_de_veredictos`` wrote on
  the trusted side during ``nbgrader autograde``
  (``veredictos/<tarea>/<alumno>/<cuaderno>.json``; ``Veredicto.a_dict``).

A record is used only when every cell it judged has, in the gradebook, the
same ``auto_score``: a record left by an older grading run never mixes with
newer grades (the notebook then counts as not judged, with the reason).

:func:`leer` returns one :class:`TareaLeida` per assignment; :func:`resumir`
turns it into a :class:`Resumen` (score distribution, per-property pass
rates, known mistakes ranked by students, quiz questions, incidents, the
«qué repasar» lines), which ``scripts.informe.pagina`` writes as HTML and CSV.
Everything a student brought (ids, answers) stays plain data here; escaping is
the writer's job.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

CARPETA_VEREDICTOS = "veredictos"
MAX_BYTES_REGISTRO = 4 * 1024 ** 2          # a record is a few KiB; anything larger is not ours

# Thresholds of «qué repasar» (fractions of the graded submissions).
UMBRAL_ERROR = 0.15          # a known mistake made by at least this share of the class
UMBRAL_ACIERTO = 0.70        # a question or property passed by less than this share

# Why a cell scored without being judged normally, in the report's words (keys: Veredicto.motivo).
MOTIVOS_INCIDENCIA = {
    "tiempo_agotado": "agotó el tiempo de la celda",
    "kernel_muerto": "el proceso de Python del cuaderno murió",
    "celda_no_ejecutada": "la celda no llegó a ejecutarse",
    "error_en_celda": "la celda se detuvo con un error antes de la corrección",
    "sin_evidencia": "la celda no ejecutó la corrección (borrada, editada o no ejecutada)",
    "evidencia_duplicada": "la celda publicó varios resultados de corrección",
    "evidencia_invalida": "la evidencia de la celda superó los límites",
    "evidencia_dañada": "la evidencia de la celda no se pudo leer",
    "evidencia_ajena": "la celda publicó resultados de otra celda",
    "no_definido": "la función o la variable no estaba definida",
    "no_invocable": "el nombre no era una función",
    "sin_contestar": "pregunta sin contestar",
    "respuesta_ilegible": "respuesta que no se pudo leer",
    "celda_desconocida": "el corrector no conoce la celda",
    "error_interno": "error interno del corrector (se puede volver a calificar)",
}
SIN_IMPLEMENTAR = "ejercicio sin contestar (la función lanza NotImplementedError)"
PREGUNTA_SIN_DEFINIR = "pregunta sin contestar (su variable no estaba definida)"
TOLERANCIA = 1e-6


# ---------------------------------------------------------------------------- what is read

@dataclass
class CeldaJuzgada:
    """One graded test cell of one submission, with its trusted verdict (``Veredicto.a_dict``)."""
    cuaderno: str
    grade_id: str
    veredicto: dict


@dataclass
class EntregaLeida:
    """One student's submission of one assignment.

    Attributes:
        alumno: the student id (hostile text: escape it where it is shown).
        puntos, maximo: the submission's score in the gradebook (manual grades included).
        celdas: the cells judged, from records that agree with the gradebook.
        sin_veredicto: Spanish reasons for notebooks without a usable record.
    """
    alumno: str
    puntos: float
    maximo: float
    celdas: list[CeldaJuzgada] = field(default_factory=list)
    sin_veredicto: list[str] = field(default_factory=list)

    @property
    def juzgada(self) -> bool:
        return bool(self.celdas)


@dataclass
class TareaLeida:
    tarea: str
    maximo: float
    entregas: list[EntregaLeida] = field(default_factory=list)


def _leer_registro(ruta: Path) -> dict | None:
    """The record at ``ruta`` if it is a well-formed one (bounded size, expected shape), else None."""
    try:
        if not ruta.is_file() or ruta.is_symlink() or ruta.stat().st_size > MAX_BYTES_REGISTRO:
            return None
        datos = json.loads(ruta.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(datos, dict) or not isinstance(datos.get("celdas"), dict):
        return None
    if not all(isinstance(v, dict) and isinstance(v.get("puntos"), (int, float)) for v in datos["celdas"].values()):
        return None
    return datos


def _entrega(raiz: Path, carpeta: Path, tarea: str, entrega) -> EntregaLeida:
    """Read one gradebook submission (``nbgrader.api.Submission``) and its records."""
    from grader_tests.registro_de_veredictos import nombre_seguro
    alumno = entrega.student.id
    leida = EntregaLeida(alumno, float(entrega.score or 0), float(entrega.max_score or 0))
    for cuaderno in sorted(entrega.notebooks, key=lambda n: n.name):
        nombre = cuaderno.name
        registro = None
        if nombre_seguro(alumno) and nombre_seguro(nombre):
            registro = _leer_registro(carpeta / tarea / alumno / f"{nombre}.json")
        if registro is None:
            if not (raiz / "submitted" / alumno / tarea / f"{nombre}.ipynb").is_file():
                leida.sin_veredicto.append(f"no entregó el cuaderno {nombre}.ipynb")
            else:
                leida.sin_veredicto.append(f"nbgrader no pudo calificar {nombre}.ipynb (el motivo está en las "
                                           "observaciones de make grade)")
            continue
        notas = {g.name: g.auto_score for g in cuaderno.grades}
        celdas = registro["celdas"]
        coincide = all(gid in notas and notas[gid] is not None
                       and abs(float(notas[gid]) - float(v["puntos"])) <= TOLERANCIA for gid, v in celdas.items())
        if not coincide:
            leida.sin_veredicto.append(f"los veredictos guardados de {nombre}.ipynb no coinciden con el libro de "
                                       "notas (de una calificación anterior): vuelve a calificar")
            continue
        leida.celdas += [CeldaJuzgada(nombre, gid, v) for gid, v in sorted(celdas.items())]
    return leida


def leer(raiz: Path, carpeta: Path | None = None) -> list[TareaLeida]:
    """Every assignment of the course's gradebook with its submissions and their verdicts.

    Args:
        raiz: the course root (its ``nbgrader_config.py`` says where the gradebook is).
        carpeta: the verdict records (default ``<raiz>/veredictos``).

    Returns:
        One ``TareaLeida`` per assignment with submissions, by name; submissions by student id.
    """
    from scripts.calificacion import libro_de_notas
    raiz = Path(raiz)
    carpeta = Path(carpeta) if carpeta else raiz / CARPETA_VEREDICTOS
    tareas = []
    with libro_de_notas.abrir(raiz) as gb:
        for asignacion in sorted(gb.assignments, key=lambda a: a.name):
            entregas = sorted(asignacion.submissions, key=lambda s: s.student.id)
            if not entregas:
                continue
            tareas.append(TareaLeida(asignacion.name, float(asignacion.max_score or 0),
                                     [_entrega(raiz, carpeta, asignacion.name, e) for e in entregas]))
    return tareas


# ---------------------------------------------------------------------------- aggregation

@dataclass
class FilaPropiedad:
    grade_id: str
    funcion: str
    descripcion: str
    entregas: int
    aprobadas: int

    @property
    def tasa(self) -> float:
        return self.aprobadas / self.entregas if self.entregas else 0.0


@dataclass
class FilaError:
    id: str
    nombre: str
    categoria: str
    seccion: str
    funcion: str
    alumnos: int
    tasa: float


@dataclass
class FilaPregunta:
    grade_id: str
    variable: str
    entregas: int
    correctas: int
    sin_contestar: int
    ilegibles: int
    error_frecuente: str | None      # the most chosen wrong answer, canonical form (student data)
    veces_error_frecuente: int

    @property
    def tasa(self) -> float:
        return self.correctas / self.entregas if self.entregas else 0.0


@dataclass
class Incidencia:
    alumno: str
    motivo: str
    celdas: list[str]
    puntos_perdidos: float | None    # None: the notebook was not judged at all


@dataclass
class Resumen:
    """Everything the report says about one assignment (see :func:`resumir`)."""
    tarea: str
    maximo: float
    notas: list[float]
    juzgadas: int
    propiedades: list[FilaPropiedad]
    errores: list[FilaError]
    preguntas: list[FilaPregunta]
    incidencias: list[Incidencia]
    repasar: list[str]
    exportacion: list[dict]          # one row per student × cell (veredictos.csv)


def _clave_natural(texto: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", texto)]


def _especificacion(grade_id: str):
    from grader_tests.casos import especificacion
    try:
        return especificacion(grade_id)
    except KeyError:
        return None


def _descripcion(grade_id: str, propiedad: str | None) -> str:
    from grader_tests import descubrimiento
    try:
        return descubrimiento.propiedad(grade_id).descripcion
    except Exception:  # noqa: BLE001 - a cell the course no longer defines: its property's name
        return propiedad or grade_id


def mostrar_respuesta(respuesta: object) -> str:
    """A quiz answer in canonical form (``Veredicto.a_dict``) as plain text: ``"a, c"``, ``"verdadero"``, ``"12"``."""
    if isinstance(respuesta, bool):
        return "verdadero" if respuesta else "falso"
    if isinstance(respuesta, list):
        return ", ".join(str(x) for x in respuesta)
    if isinstance(respuesta, float) and math.isfinite(respuesta) and respuesta == int(respuesta):
        return str(int(respuesta))
    return str(respuesta)


def _sin_implementar(v: dict) -> bool:
    casos = v.get("casos") or []
    return bool(casos) and all(c.get("excepcion") == "NotImplementedError" for c in casos)


def porcentaje(x: float) -> str:
    """``0.4286`` → ``"43 %"`` (Spanish typography: a space before %)."""
    return f"{round(100 * x):d}\u00a0%"


def resumir(tarea: TareaLeida, umbral_error: float = UMBRAL_ERROR,
            umbral_acierto: float = UMBRAL_ACIERTO) -> Resumen:
    """Aggregate one assignment.

    * ``notas``: every submission's score (gradebook), for the histogram;
    * ``propiedades``: per exercise test cell, submissions with a verdict and
      those with full points;
    * ``errores``: known mistakes ranked by the number of students charged
      with them (a student counts once however many cells charge it), then by id;
      ``tasa`` over the judged submissions;
    * ``preguntas``: per quiz cell, share with full points, unanswered,
      unreadable, and the most chosen wrong answer (ties: the first in sort order);
    * ``incidencias``: per student and reason, the cells that could not be
      judged normally (timeouts, dead kernels, unanswered…) and the points they
      lost; notebooks without a usable record;
    * ``repasar``: mistakes with ``tasa >= umbral_error``, questions and
      properties with ``tasa < umbral_acierto`` (fixed sentences with numbers).
    """
    juzgadas = [e for e in tarea.entregas if e.juzgada]
    n = len(juzgadas)
    propiedades: dict[str, FilaPropiedad] = {}
    preguntas: dict[str, dict] = {}
    errores: dict[str, dict] = {}
    incidencias: list[Incidencia] = []
    exportacion: list[dict] = []
    for entrega in tarea.entregas:
        suyos: set[str] = set()
        por_motivo: dict[str, list[CeldaJuzgada]] = {}
        for celda in entrega.celdas:
            v = celda.veredicto
            puntos, maximo = float(v.get("puntos", 0)), float(v.get("maximo", 0))
            completo = puntos >= maximo - TOLERANCIA
            spec = _especificacion(celda.grade_id)
            ids_error = []
            for error in v.get("errores") or []:
                if not isinstance(error, dict) or not isinstance(error.get("id"), str):
                    continue
                ids_error.append(error["id"])
                fila = errores.setdefault(error["id"], {"error": error, "alumnos": set(),
                                                        "funcion": spec.objetivo if spec else ""})
                fila["alumnos"].add(entrega.alumno)
                suyos.add(error["id"])
            motivo = v.get("motivo")
            if spec is not None and spec.es_funcion:
                fila = propiedades.setdefault(celda.grade_id, FilaPropiedad(
                    celda.grade_id, spec.objetivo, _descripcion(celda.grade_id, v.get("propiedad")), 0, 0))
                fila.entregas += 1
                fila.aprobadas += completo
                if motivo is None and not completo and _sin_implementar(v):
                    motivo = "sin_implementar"
            elif spec is not None:
                if motivo == "no_definido":
                    motivo = "pregunta_sin_definir"
                datos = preguntas.setdefault(celda.grade_id, {"variable": spec.objetivo, "n": 0, "bien": 0,
                                                              "vacias": 0, "ilegibles": 0, "mal": Counter()})
                datos["n"] += 1
                datos["bien"] += completo
                datos["vacias"] += motivo in ("sin_contestar", "pregunta_sin_definir")
                datos["ilegibles"] += motivo == "respuesta_ilegible"
                if not completo and v.get("respuesta") is not None:
                    datos["mal"][mostrar_respuesta(v["respuesta"])] += 1
            if motivo is not None:
                por_motivo.setdefault(motivo, []).append(celda)
            exportacion.append({
                "alumno": entrega.alumno, "cuaderno": celda.cuaderno, "grade_id": celda.grade_id,
                "propiedad": v.get("propiedad") or "", "puntos": puntos, "maximo": maximo,
                "motivo": v.get("motivo") or "", "errores": ";".join(ids_error),
                "respuesta": "" if v.get("respuesta") is None else mostrar_respuesta(v["respuesta"])})
        for razon in entrega.sin_veredicto:
            incidencias.append(Incidencia(entrega.alumno, razon, [], None))
        for motivo, celdas in sorted(por_motivo.items()):
            texto = {"sin_implementar": SIN_IMPLEMENTAR, "pregunta_sin_definir": PREGUNTA_SIN_DEFINIR}.get(
                motivo, MOTIVOS_INCIDENCIA.get(motivo, motivo))
            perdidos = sum(float(c.veredicto.get("maximo", 0)) - float(c.veredicto.get("puntos", 0)) for c in celdas)
            incidencias.append(Incidencia(entrega.alumno, texto, [c.grade_id for c in celdas], perdidos))

    filas_error = sorted(
        (FilaError(id_, str(d["error"].get("nombre") or id_), str(d["error"].get("categoria") or ""),
                   str(d["error"].get("seccion") or ""), d["funcion"], len(d["alumnos"]),
                   len(d["alumnos"]) / n if n else 0.0) for id_, d in errores.items()),
        key=lambda f: (-f.alumnos, f.id))
    filas_pregunta = []
    for gid, d in sorted(preguntas.items(), key=lambda par: _clave_natural(par[0])):
        frecuente = sorted(d["mal"].items(), key=lambda par: (-par[1], par[0]))[:1]
        filas_pregunta.append(FilaPregunta(gid, d["variable"], d["n"], d["bien"], d["vacias"], d["ilegibles"],
                                           frecuente[0][0] if frecuente else None,
                                           frecuente[0][1] if frecuente else 0))
    filas_propiedad = list(propiedades.values())

    repasar = []
    for f in filas_error:
        if n and f.tasa >= umbral_error:
            repasar.append(f"Error «{f.nombre}» ({f.funcion}): {f.alumnos} de {n} entregas ({porcentaje(f.tasa)}); "
                           f"repasar «{f.seccion}».")
    for f in filas_propiedad:
        if f.entregas and f.tasa < umbral_acierto:
            repasar.append(f"Propiedad «{f.descripcion}» ({f.funcion}): la cumple el {porcentaje(f.tasa)} "
                           f"de las entregas ({f.aprobadas} de {f.entregas}).")
    for f in filas_pregunta:
        if f.entregas and f.tasa < umbral_acierto:
            extra = (f"; la respuesta incorrecta más elegida es «{f.error_frecuente}» ({f.veces_error_frecuente})"
                     if f.error_frecuente is not None else "")
            repasar.append(f"Pregunta {f.variable}: la acierta el {porcentaje(f.tasa)} "
                           f"de las entregas ({f.correctas} de {f.entregas}){extra}.")
    return Resumen(tarea.tarea, tarea.maximo, [e.puntos for e in tarea.entregas], n, filas_propiedad,
                   filas_error, filas_pregunta, sorted(incidencias, key=lambda i: (i.alumno, i.motivo)),
                   repasar, exportacion)
