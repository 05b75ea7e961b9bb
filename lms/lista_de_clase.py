"""The class roster: who is in the course, with their LMS identity and their course id.

``downloaded/alumnos.csv`` (optional) is either

* nbgrader's own student CSV (what ``nbgrader db student import`` reads):
  ``id,first_name,last_name,email,lms_user_id`` — Spanish titles are accepted
  too (``alumno`` or ``id_alumno``, ``nombre``, ``apellidos``, ``correo``,
  ``id_lms``); or
* the CSV Canvas exports from its gradebook (``Student, ID, SIS User ID,
  SIS Login ID, Section, ...``): ``ID`` is the Canvas user id, and the course
  id is the SIS User ID (else the SIS Login ID, else the fallback below).

Each student of an LMS download is matched to the roster by LMS id, then
e-mail (Moodle's grading worksheet shows it), then name (word order, case and
accents ignored); a match must be unique, and a name never takes a row that a
stronger key gives to someone else (``lms.recogida.asignar_ids``).  Without a
roster, or for someone not on it, the id is the fallback of
:func:`id_provisional`, made unique.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lms import formatos
from lms.descompresion import legible
from lms.formatos import Identidad

ID_VALIDO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$")
ALIAS = {
    "id": ("id", "alumno", "id_alumno", "student_id", "identificador_curso"),
    "first_name": ("first_name", "nombre"),
    "last_name": ("last_name", "apellidos"),
    "email": ("email", "correo", "correo_electronico", "e-mail"),
    "lms_user_id": ("lms_user_id", "id_lms", "lms_id"),
}


@dataclass
class Alumno:
    """One roster row.  ``id`` is the nbgrader student id (a folder name in submitted/)."""

    id: str
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    lms_user_id: str = ""
    seccion: str = ""
    sis_login: str = ""
    sis_user: str = ""
    nombre_lms: str = ""          # as the LMS writes it (Canvas: "Last, First")

    @property
    def nombre(self) -> str:
        return self.nombre_lms or f"{self.first_name} {self.last_name}".strip()


@dataclass
class ListaDeClase:
    """The roster read from ``ruta`` (empty when there is none), and what was wrong with it."""

    ruta: Path | None = None
    alumnos: list[Alumno] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)
    formato: str = ""

    def __bool__(self) -> bool:
        return bool(self.alumnos)

    def ids(self) -> list[str]:
        return [a.id for a in self.alumnos]

    def _unico(self, candidatos: list[Alumno]) -> Alumno | None:
        return candidatos[0] if len(candidatos) == 1 else None

    def por_id_del_lms(self, ident: Identidad) -> Alumno | None:
        """The one row whose ``lms_user_id`` is ``ident``'s LMS id (strong: the LMS gives it)."""
        return self._unico([a for a in self.alumnos if a.lms_user_id and a.lms_user_id == ident.lms_id])

    def por_correo(self, correo: str) -> Alumno | None:
        """The one row with this e-mail (strong: Moodle's worksheet gives each participant's)."""
        if not correo:
            return None
        return self._unico([a for a in self.alumnos if a.email and a.email.casefold() == correo.casefold()])

    def por_nombre(self, ident: Identidad) -> list[Alumno]:
        """Rows whose name is ``ident``'s (weak: students may edit their name in the LMS).

        Moodle: the same words, in any order, without case or accents; Canvas: the same letters
        and digits (how Canvas writes names in file names).
        """
        if not ident.nombre:
            return []
        if ident.lms == "canvas":
            clave = formatos.pegado(ident.nombre)
            return [a for a in self.alumnos if clave and clave in {
                formatos.pegado(a.last_name + a.first_name), formatos.pegado(a.first_name + a.last_name),
                formatos.pegado(a.nombre_lms)} - {""}]
        clave = formatos.palabras(ident.nombre)
        return [a for a in self.alumnos if clave and clave == formatos.palabras(a.nombre)]

    def buscar(self, ident: Identidad, correo: str = "") -> tuple[Alumno | None, str]:
        """The roster student for one LMS identity on its own, and how (Spanish): LMS id, e-mail, name.

        Only for one identity in isolation: a whole download is matched by ``lms.recogida.asignar_ids``,
        which never lets a name take a row a stronger key gives to someone else.
        """
        por_id = self.por_id_del_lms(ident)
        if por_id:
            return por_id, f"por su id de {ident.lms.capitalize()}"
        por_correo = self.por_correo(correo)
        if por_correo:
            return por_correo, "por su correo"
        por_nombre = self.por_nombre(ident)
        if len(por_nombre) == 1:
            return por_nombre[0], "por su nombre"
        if len(por_nombre) > 1:
            return None, "hay varios con ese nombre en la lista de clase"
        return None, ""

    def filas_nbgrader(self) -> list[list[str]]:
        """The roster as nbgrader's student CSV (header first), for ``nbgrader db student import``."""
        filas = [["id", "first_name", "last_name", "email", "lms_user_id"]]
        for a in self.alumnos:
            first, last = a.first_name, a.last_name
            if not (first or last) and a.nombre_lms:
                last, _, first = a.nombre_lms.partition(",")
            filas.append([a.id, first.strip(), last.strip(), a.email, a.lms_user_id])
        return filas


def id_provisional(ident: Identidad) -> str:
    """The student id used when there is no roster or the student is not on it.

    Moodle: the name as a slug (``'Ana López García'`` → ``'ana_lopez_garcia'``),
    since Moodle's participant number changes from one assignment to the
    next.  Canvas: the slug and the Canvas user id (``'lopezana_17'``).  When
    it is a roster id, or two people of one download would get it, the
    collector appends ``-<LMS number>`` (``'ana_lopez_garcia-1001'``), which no
    name can produce (see ``lms.recogida.asignar_ids``).
    """
    base = formatos.slug(ident.nombre)
    if ident.lms == "canvas":
        return f"{base}_{formatos.slug(ident.lms_id)}" if base else f"canvas_{formatos.slug(ident.lms_id)}"
    return base or f"moodle_{ident.lms_id}"


def _leer_canvas(libro: formatos.LibroCanvas, lista: ListaDeClase) -> None:
    for fila in libro.alumnos:
        canvas_id = fila.get("ID", "").strip()
        nombre = fila.get("Student", "").strip()
        if not canvas_id or nombre.casefold() in ("student, test", "test student"):
            continue
        candidato = fila.get("SIS User ID", "").strip() or fila.get("SIS Login ID", "").strip()
        id_ = candidato if ID_VALIDO.match(candidato or "") else id_provisional(
            Identidad("canvas", canvas_id, formatos.pegado(nombre), "", "canvas"))
        apellidos, _, nombre_pila = nombre.partition(",")
        lista.alumnos.append(Alumno(
            id_, nombre_pila.strip(), apellidos.strip(), "", canvas_id, fila.get("Section", ""),
            fila.get("SIS Login ID", ""), fila.get("SIS User ID", ""), nombre))


def leer_lista(ruta: Path) -> ListaDeClase:
    """Read the roster at ``ruta``; a missing file gives an empty roster.

    Rows with an invalid or repeated id are left out with a Spanish warning;
    repeated e-mails or LMS ids are warned about (those students are then
    matched by name).  Never raises for a bad file.
    """
    lista = ListaDeClase(ruta)
    if not ruta.exists() and not ruta.is_symlink():
        return lista
    libro = formatos.libro_canvas(ruta)
    if libro:
        lista.formato = "canvas"
        _leer_canvas(libro, lista)
    else:
        leido = formatos.leer_csv(ruta)
        if not leido:
            lista.avisos.append(f"no se pudo leer la lista de clase {ruta.name} (¿es un CSV?): se ignora")
            return lista
        filas = leido[0]
        cabecera = [c.strip().casefold() for c in filas[0]]
        columnas = {rol: next((i for i, c in enumerate(cabecera) if c in alias), None) for rol, alias in ALIAS.items()}
        if columnas["id"] is None:
            lista.avisos.append(f"la lista de clase {ruta.name} no tiene columna «id» (o «alumno»): se ignora")
            return lista
        lista.formato = "nbgrader"
        for n, fila in enumerate(filas[1:], start=2):
            valor = {rol: (fila[i].strip() if i is not None and i < len(fila) else "") for rol, i in columnas.items()}
            lista.alumnos.append(Alumno(valor["id"], valor["first_name"], valor["last_name"], valor["email"],
                                        valor["lms_user_id"]))
    validos, vistos = [], set()
    for alumno in lista.alumnos:
        if not ID_VALIDO.match(alumno.id):
            lista.avisos.append(f"lista de clase: «{legible(alumno.id, 60)}» no sirve como id de alumno "
                                "(letras, números y . _ @ + -, sin espacios): se omite esa fila")
        elif alumno.id in vistos:
            lista.avisos.append(f"lista de clase: el id «{alumno.id}» está repetido: sólo cuenta la primera fila")
        else:
            vistos.add(alumno.id)
            validos.append(alumno)
    lista.alumnos = validos
    for campo, nombre in (("email", "correo"), ("lms_user_id", "id del LMS")):
        repetidos = [v for v, n in Counter(getattr(a, campo).casefold() for a in validos).items() if v and n > 1]
        for valor in repetidos:
            lista.avisos.append(f"lista de clase: el {nombre} «{valor}» está repetido: no se usa para identificar")
    return lista
