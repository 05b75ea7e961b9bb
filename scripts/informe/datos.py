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

Rates count only the students who attempted (:data:`REGLA`): a blank,
unanswered, missing or ungradable cell goes to its own «sin contestar» count,
never to the denominator.  Quiz questions are named by the first words of
their statement in the course's ``source/`` notebook (:func:`titulos_de_preguntas`),
never by anything a student wrote.
Everything a student brought (ids, answers) stays plain data here; escaping is
the writer's job.
"""
from __future__ import annotations

import functools
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
SIN_ENTREGA = "sin entrega: no entregó esta tarea"
TOLERANCIA = 1e-6

# A cell was attempted when the judge could judge what the student wrote: the function
# was defined and ran (even if wrong, or not a function), the answer was given (even if
# unreadable).  Every other reason (blank, not defined, cell not run, timeout...) is «sin contestar».
MOTIVOS_INTENTADOS = (None, "no_invocable", "respuesta_ilegible")
REGLA = ("Los porcentajes cuentan sólo a quienes lo intentaron (función definida, respuesta dada, celda "
         "ejecutada); las celdas en blanco, sin contestar, sin entrega o que no se pudieron calificar se "
         "cuentan aparte, como «sin contestar».")
LARGO_TITULO = 64            # characters of a quiz question's title before «…»


def cuenta(n: int, singular: str, plural: str | None = None) -> str:
    """``cuenta(1, "entrega")`` → ``"1 entrega"``; ``cuenta(3, "entrega")`` → ``"3 entregas"``."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


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
        celdas_con_error: per notebook, the solution cells whose run stopped with an
            exception (grade_id → class name, as the trusted recorder kept it).
    """
    alumno: str
    puntos: float
    maximo: float
    celdas: list[CeldaJuzgada] = field(default_factory=list)
    sin_veredicto: list[str] = field(default_factory=list)
    celdas_con_error: dict[str, dict[str, str]] = field(default_factory=dict)
    entregada: object = None                 # nbgrader's timestamp (naive UTC), None without one
    plazo: object = None                     # the due date that applies to it (extension included)
    segundos_tarde: float = 0.0
    prorroga: object = None                  # timedelta, None without an extension
    penalizacion: float = 0.0                # points taken for lateness (nbgrader's late_submission_penalty)
    pendiente: bool = False                  # held for the TA's review (grader_tests.revision)

    @property
    def juzgada(self) -> bool:
        return bool(self.celdas)


@dataclass
class TareaLeida:
    """One assignment as read: its submissions, the students without one, its quiz titles.

    Attributes:
        sin_entrega: ids of the students the gradebook knows who have no submission.
        titulos: quiz test cell grade_id → short title of the question (``source/``).
    """
    tarea: str
    maximo: float
    entregas: list[EntregaLeida] = field(default_factory=list)
    sin_entrega: list[str] = field(default_factory=list)
    titulos: dict[str, str] = field(default_factory=dict)
    plazo: object = None                     # the assignment's due date (naive UTC), None without one


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


def _celdas_con_error(registro: dict) -> dict[str, str]:
    """The record's ``celdas_con_error``, keeping only well-formed class names."""
    from grader_tests.registro_de_veredictos import CLAVE_ERRORES, nombre_de_excepcion
    errores = registro.get(CLAVE_ERRORES)
    if not isinstance(errores, dict):
        return {}
    return {gid: nombre_de_excepcion(ename) for gid, ename in errores.items()
            if isinstance(gid, str) and nombre_de_excepcion(ename)}


def _entrega(raiz: Path, carpeta: Path, tarea: str, entrega) -> EntregaLeida:
    """Read one submission (``notas_en_bloque.EntregaEnBloque``) and its records."""
    from grader_tests.registro_de_veredictos import nombre_seguro
    alumno = entrega.alumno
    leida = EntregaLeida(alumno, float(entrega.puntos), float(entrega.maximo), entregada=entrega.timestamp,
                         plazo=entrega.plazo_efectivo, segundos_tarde=entrega.segundos_tarde,
                         prorroga=entrega.extension, penalizacion=entrega.penalizacion)
    for nombre in sorted(entrega.cuadernos):
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
        notas = {gid: g.auto_score for gid, g in entrega.cuadernos[nombre].items()}
        celdas = registro["celdas"]
        coincide = all(gid in notas and notas[gid] is not None
                       and abs(float(notas[gid]) - float(v["puntos"])) <= TOLERANCIA for gid, v in celdas.items())
        if not coincide:
            leida.sin_veredicto.append(f"los veredictos guardados de {nombre}.ipynb no coinciden con el libro de "
                                       "notas (de una calificación anterior): vuelve a calificar")
            continue
        leida.celdas += [CeldaJuzgada(nombre, gid, v) for gid, v in sorted(celdas.items())]
        leida.celdas_con_error[nombre] = _celdas_con_error(registro)
    return leida


def _texto_de_markdown(texto: str) -> str:
    """Plain text of a short piece of the lessons' Markdown + LaTeX: ``$d_{\\text{model}}$`` → ``d_model``."""
    texto = re.sub(r"^\s*\**\s*Pregunta\s+\d+\s*[.:]?\s*\**\s*", "", texto)
    texto = re.sub(r"\\(?:text|mathrm|mathbf|mathit|operatorname)\{([^{}]*)\}", r"\1", texto)
    texto = re.sub(r"([_^])\{(\w*)\}", r"\1\2", texto)                  # d_{model} → d_model
    texto = re.sub(r"([_^])\{([^{}]*)\}", r"\1(\2)", texto)              # PE_{pos+k} → PE_(pos+k)
    for orden, signo in (("sqrt", "√"), ("top", "ᵀ"), ("le", "≤"), ("ge", "≥"), ("times", "×"),
                         ("cdot", "·"), ("dots", "…"), ("ldots", "…"), ("in", "∈"), ("pi", "π")):
        texto = re.sub(r"\\" + orden + r"(?![A-Za-z])\s*", signo, texto)
    texto = re.sub(r"\\[,;:! ]", " ", texto)
    texto = re.sub(r"\\([A-Za-z]+)", r"\1", texto)
    texto = re.sub(r"[$`*{}]|\\", "", texto)
    texto = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", texto)         # [link](url) → link
    return " ".join(texto.split())


def titulo_corto(texto: str, largo: int = LARGO_TITULO) -> str:
    """The first words of ``texto`` up to ``largo`` characters, cut at a word and ended with «…»."""
    texto = " ".join(texto.split())
    if len(texto) <= largo:
        return texto
    corte = texto[:largo + 1].rsplit(" ", 1)[0] if " " in texto[:largo + 1] else texto[:largo]
    return corte.rstrip(" ,;:.-–—(") + "…"


def titulos_de_preguntas(cuaderno) -> dict[str, str]:
    """Quiz test cell grade_id → short Spanish title, from a ``source/`` notebook (trusted side).

    The title is the first paragraph of the Markdown cell above the question's
    answer cell (``**Pregunta 3.** ¿Por qué…``), without the «Pregunta N.» label,
    Markdown and LaTeX markup, cut by :func:`titulo_corto`.  Student notebooks
    are never read here.

    Args:
        cuaderno: path of the ``source/<tarea>/<cuaderno>.ipynb`` notebook.

    Returns:
        ``{"comprueba_respuesta_3": "¿Por qué se toma d_k = d_model/h y no otra anchura?"}``;
        empty if the notebook is missing or unreadable.
    """
    import nbformat
    try:
        nb = nbformat.read(str(cuaderno), as_version=4)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}
    titulos = {}
    celdas = nb.cells
    for i, celda in enumerate(celdas):
        nbg = celda.get("metadata", {}).get("nbgrader", {})
        gid = nbg.get("grade_id")
        if celda.cell_type != "code" or not nbg.get("grade") or nbg.get("solution") or not isinstance(gid, str):
            continue
        spec = _especificacion(gid)
        if spec is None or spec.es_funcion:
            continue
        for anterior in reversed(celdas[:i]):
            previo = anterior.get("metadata", {}).get("nbgrader", {})
            if anterior.cell_type == "markdown":
                parrafo = re.split(r"\n\s*\n|\n\s*[-*+]\s|\n\s*\d+[.)]\s", anterior.source.strip())[0]
                titulo = titulo_corto(_texto_de_markdown(parrafo))
                if titulo:
                    titulos[gid] = titulo
                break
            if previo.get("grade") and not previo.get("solution"):
                break                         # the previous question's test cell: no statement of its own
    return titulos


def leer(raiz: Path, carpeta: Path | None = None) -> list[TareaLeida]:
    """Every assignment of the course's gradebook with its submissions and their verdicts.

    Args:
        raiz: the course root (its ``nbgrader_config.py`` says where the gradebook is).
        carpeta: the verdict records (default ``<raiz>/veredictos``).

    Returns:
        One ``TareaLeida`` per assignment with submissions, by name; submissions by student id;
        ``sin_entrega``: the gradebook's other students (an assignment nobody submitted is left out).
    """
    from grader_tests import notas_en_bloque, revision
    from grader_tests.registro_de_veredictos import nombre_seguro
    from scripts.calificacion import libro_de_notas
    raiz = Path(raiz)
    carpeta = Path(carpeta) if carpeta else raiz / CARPETA_VEREDICTOS
    tareas = []
    with libro_de_notas.abrir(raiz) as gb:
        libro = notas_en_bloque.leer(gb)
        cuadernos_de = {a.name: sorted(nb.name for nb in a.notebooks) for a in gb.assignments}
        retenidas = revision.con_pendientes(gb, str(raiz / revision.CARPETA))
    alumnos = sorted(libro.alumnos)
    for tarea in sorted(libro.tareas):
        entregas = libro.de_tarea(tarea)
        if not entregas:
            continue
        con_entrega = {e.alumno for e in entregas}
        titulos: dict[str, str] = {}
        if nombre_seguro(tarea):
            for cuaderno in cuadernos_de.get(tarea, []):
                if nombre_seguro(cuaderno):
                    titulos.update(titulos_de_preguntas(raiz / "source" / tarea / f"{cuaderno}.ipynb"))
        leidas = [_entrega(raiz, carpeta, tarea, e) for e in entregas]
        for leida in leidas:
            leida.pendiente = (leida.alumno, tarea) in retenidas
        tareas.append(TareaLeida(tarea, float(libro.tareas[tarea]), leidas,
                                 [a for a in alumnos if a not in con_entrega], titulos, libro.duedates[tarea]))
    return tareas


# ---------------------------------------------------------------------------- aggregation

@dataclass
class FilaPropiedad:
    """One exercise test cell: of the ``intentos`` students who wrote the function, ``aprobadas`` got full points.

    ``sin_contestar``: the other students of the class (blank, not defined, not
    submitted, not gradable); they are not in the rate.
    """
    grade_id: str
    funcion: str
    descripcion: str
    intentos: int
    aprobadas: int
    sin_contestar: int = 0

    @property
    def tasa(self) -> float:
        return self.aprobadas / self.intentos if self.intentos else 0.0


@dataclass
class FilaError:
    """A known mistake: ``alumnos`` charged with it out of the ``intentos`` who wrote ``funcion``."""
    id: str
    nombre: str
    categoria: str
    seccion: str
    funcion: str
    alumnos: int
    tasa: float
    intentos: int = 0


@dataclass
class FilaPregunta:
    """One quiz question: of the ``intentos`` students who answered, ``correctas`` got it right.

    ``titulo``: the first words of its statement (``source/`` notebook), or the variable.
    """
    grade_id: str
    variable: str
    titulo: str
    intentos: int
    correctas: int
    sin_contestar: int
    ilegibles: int
    error_frecuente: str | None      # the most chosen wrong answer, canonical form (student data)
    veces_error_frecuente: int

    @property
    def tasa(self) -> float:
        return self.correctas / self.intentos if self.intentos else 0.0

    @property
    def nombre(self) -> str:
        """``Pregunta 3 («¿Por qué se toma…»)`` or ``Pregunta respuesta_3`` without a title."""
        numero = self.variable.removeprefix("respuesta_")
        etiqueta = f"Pregunta {numero}" if numero.isdigit() else f"Pregunta {self.variable}"
        return f"{etiqueta} («{self.titulo}»)" if self.titulo and self.titulo != self.variable else etiqueta


@dataclass
class Incidencia:
    alumno: str
    motivo: str
    celdas: list[str]
    puntos_perdidos: float | None    # None: the notebook was not judged at all (or not submitted)


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
    sin_entrega: list[str] = field(default_factory=list)
    en_blanco: int = 0               # submissions with records where no cell was attempted
    plazo: object = None             # the assignment's due date (naive UTC), None without one
    tardias: list[EntregaLeida] = field(default_factory=list)      # submitted after their due date
    con_prorroga: list[EntregaLeida] = field(default_factory=list)  # students with an extension
    pendientes: list[str] = field(default_factory=list)             # held for the TA's review

    @property
    def alumnos(self) -> int:
        """Students of the class for this assignment: with a submission or without one."""
        return len(self.notas) + len(self.sin_entrega)


def _clave_natural(texto: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", texto)]


@functools.lru_cache(maxsize=None)
def _especificacion(grade_id: str):
    """The course's specification of a cell (cached: asked once per cell and student)."""
    from grader_tests.casos import especificacion
    try:
        return especificacion(grade_id)
    except KeyError:
        return None


@functools.lru_cache(maxsize=None)
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


def intentada(veredicto: dict) -> bool:
    """Whether the student attempted the cell (:data:`MOTIVOS_INTENTADOS`; not a NotImplementedError stub)."""
    return veredicto.get("motivo") in MOTIVOS_INTENTADOS and not _sin_implementar(veredicto)


def _motivo_de_error(objetivo: str, es_funcion: bool, motivo: str, errores_del_cuaderno: dict[str, str]) -> str | None:
    """The incident text when ``objetivo`` was not defined because its own cell raised an exception.

    None when that is not the case, or when the exception is the released stub's
    ``NotImplementedError`` (a blank answer, reported as unanswered).
    """
    ename = errores_del_cuaderno.get(objetivo)
    if motivo != "no_definido" or not ename or ename == "NotImplementedError":
        return None
    if es_funcion:
        return f"la celda de {objetivo} se detuvo con {ename}, así que {objetivo} no llegó a definirse"
    return f"la celda de la respuesta se detuvo con {ename} antes de asignar la variable"


def resumir(tarea: TareaLeida, umbral_error: float = UMBRAL_ERROR,
            umbral_acierto: float = UMBRAL_ACIERTO) -> Resumen:
    """Aggregate one assignment.

    * ``notas``: every submission's score (gradebook), for the histogram;
    * ``propiedades``: per exercise test cell, the students who attempted it
      (:func:`intentada`), those with full points, and the rest of the class
      (submissions and students without one) as ``sin_contestar``;
    * ``errores``: known mistakes ranked by the number of students charged
      with them (a student counts once however many cells charge it), then by id;
      ``tasa`` over the students who attempted the function;
    * ``preguntas``: per quiz cell, share right among those who answered,
      unanswered (the rest of the class), unreadable, and the most chosen
      wrong answer (ties: the first in sort order); titled from ``tarea.titulos``;
    * ``incidencias``: per student and reason, the cells that could not be
      judged normally (timeouts, dead kernels, unanswered, a cell that raised…)
      and the points they lost; notebooks without a usable record; students
      without a submission (:data:`SIN_ENTREGA`);
    * ``repasar``: mistakes with ``tasa >= umbral_error``, questions and
      properties with ``tasa < umbral_acierto``, all over the attempted ones
      (fixed sentences with numbers).
    """
    juzgadas = [e for e in tarea.entregas if e.juzgada]
    n = len(juzgadas)
    clase = len(tarea.entregas) + len(tarea.sin_entrega)
    propiedades: dict[str, FilaPropiedad] = {}
    preguntas: dict[str, dict] = {}
    errores: dict[str, dict] = {}
    intentaron: dict[str, set[str]] = {}          # function → students who attempted one of its cells
    incidencias: list[Incidencia] = []
    exportacion: list[dict] = []
    en_blanco = 0
    for entrega in tarea.entregas:
        por_motivo: dict[str, list[CeldaJuzgada]] = {}
        alguna = False
        for celda in entrega.celdas:
            v = celda.veredicto
            puntos, maximo = float(v.get("puntos", 0)), float(v.get("maximo", 0))
            completo = puntos >= maximo - TOLERANCIA
            spec = _especificacion(celda.grade_id)
            intento = intentada(v)
            alguna = alguna or intento
            ids_error = []
            for error in v.get("errores") or []:
                if not isinstance(error, dict) or not isinstance(error.get("id"), str):
                    continue
                ids_error.append(error["id"])
                fila = errores.setdefault(error["id"], {"error": error, "alumnos": set(),
                                                        "funcion": spec.objetivo if spec else ""})
                fila["alumnos"].add(entrega.alumno)
            motivo = v.get("motivo")
            texto = None
            if spec is not None:
                texto = _motivo_de_error(spec.objetivo, spec.es_funcion, motivo,
                                         entrega.celdas_con_error.get(celda.cuaderno, {}))
            if spec is not None and spec.es_funcion:
                fila = propiedades.setdefault(celda.grade_id, FilaPropiedad(
                    celda.grade_id, spec.objetivo, _descripcion(celda.grade_id, v.get("propiedad")), 0, 0))
                fila.intentos += intento
                fila.aprobadas += intento and completo
                if intento or ids_error:
                    intentaron.setdefault(spec.objetivo, set()).add(entrega.alumno)
                if motivo is None and not completo and _sin_implementar(v):
                    texto = SIN_IMPLEMENTAR
            elif spec is not None:
                if motivo == "no_definido" and texto is None:
                    texto = PREGUNTA_SIN_DEFINIR
                datos = preguntas.setdefault(celda.grade_id, {"variable": spec.objetivo, "n": 0, "bien": 0,
                                                              "ilegibles": 0, "mal": Counter()})
                datos["n"] += intento
                datos["bien"] += intento and completo
                datos["ilegibles"] += motivo == "respuesta_ilegible"
                if intento and not completo and v.get("respuesta") is not None:
                    datos["mal"][mostrar_respuesta(v["respuesta"])] += 1
            if texto is None and motivo is not None:
                texto = MOTIVOS_INCIDENCIA.get(motivo, motivo)
            if texto is not None:
                por_motivo.setdefault(texto, []).append(celda)
            exportacion.append({
                "alumno": entrega.alumno, "cuaderno": celda.cuaderno, "grade_id": celda.grade_id,
                "propiedad": v.get("propiedad") or "", "puntos": puntos, "maximo": maximo,
                "motivo": v.get("motivo") or ("sin_implementar" if _sin_implementar(v) else ""),
                "intentada": "sí" if intento else "no", "errores": ";".join(ids_error),
                "respuesta": "" if v.get("respuesta") is None else mostrar_respuesta(v["respuesta"])})
        en_blanco += entrega.juzgada and not alguna
        for razon in entrega.sin_veredicto:
            incidencias.append(Incidencia(entrega.alumno, razon, [], None))
        for texto, celdas in sorted(por_motivo.items()):
            perdidos = sum(float(c.veredicto.get("maximo", 0)) - float(c.veredicto.get("puntos", 0)) for c in celdas)
            incidencias.append(Incidencia(entrega.alumno, texto, [c.grade_id for c in celdas], perdidos))
    for alumno in tarea.sin_entrega:
        incidencias.append(Incidencia(alumno, SIN_ENTREGA, [], None))

    filas_error = []
    for id_, d in errores.items():
        intentos = len(intentaron.get(d["funcion"], set()) | d["alumnos"])
        filas_error.append(FilaError(id_, str(d["error"].get("nombre") or id_), str(d["error"].get("categoria") or ""),
                                     str(d["error"].get("seccion") or ""), d["funcion"], len(d["alumnos"]),
                                     len(d["alumnos"]) / intentos if intentos else 0.0, intentos))
    filas_error.sort(key=lambda f: (-f.alumnos, f.id))
    filas_pregunta = []
    for gid, d in sorted(preguntas.items(), key=lambda par: _clave_natural(par[0])):
        frecuente = sorted(d["mal"].items(), key=lambda par: (-par[1], par[0]))[:1]
        filas_pregunta.append(FilaPregunta(gid, d["variable"], tarea.titulos.get(gid, d["variable"]), d["n"],
                                           d["bien"], clase - d["n"], d["ilegibles"],
                                           frecuente[0][0] if frecuente else None,
                                           frecuente[0][1] if frecuente else 0))
    filas_propiedad = list(propiedades.values())
    for f in filas_propiedad:
        f.sin_contestar = clase - f.intentos

    def sin_contestar(k: int) -> str:
        return f"; {k} sin contestar" if k else ""

    repasar = []
    for f in filas_error:
        if f.intentos and f.tasa >= umbral_error:
            verbo = "lo comete" if f.alumnos == 1 else "lo cometen"
            repasar.append(f"Error «{f.nombre}» ({f.funcion}): {verbo} {f.alumnos} de "
                           f"{cuenta(f.intentos, 'alumno que escribió', 'alumnos que escribieron')} la función "
                           f"({porcentaje(f.tasa)}); repasar «{f.seccion}».")
    for f in filas_propiedad:
        if f.intentos and f.tasa < umbral_acierto:
            repasar.append(f"Propiedad «{f.descripcion}» ({f.funcion}): la cumple el {porcentaje(f.tasa)} "
                           f"de quienes escribieron la función ({f.aprobadas} de {f.intentos})"
                           f"{sin_contestar(f.sin_contestar)}.")
    for f in filas_pregunta:
        if f.intentos and f.tasa < umbral_acierto:
            extra = (f"; la respuesta incorrecta más elegida es «{f.error_frecuente}» "
                     f"({cuenta(f.veces_error_frecuente, 'vez', 'veces')})"
                     if f.error_frecuente is not None else "")
            repasar.append(f"{f.nombre}: la acierta el {porcentaje(f.tasa)} de quienes contestaron "
                           f"({f.correctas} de {f.intentos}){extra}{sin_contestar(f.sin_contestar)}.")
    return Resumen(tarea.tarea, tarea.maximo, [e.puntos for e in tarea.entregas], n, filas_propiedad,
                   filas_error, filas_pregunta, sorted(incidencias, key=lambda i: (i.alumno, i.motivo)),
                   repasar, exportacion, list(tarea.sin_entrega), en_blanco, tarea.plazo,
                   [e for e in tarea.entregas if e.segundos_tarde > 0],
                   [e for e in tarea.entregas if e.prorroga],
                   [e.alumno for e in tarea.entregas if e.pendiente])
