"""Names and text that come from a submission, made safe to show to a person: the one escaping helper.

Student ids, file names, zip entries, error messages and lines of nbgrader's
log come from students: a newline would forge a line of a table about another
student, an escape sequence would clear or retitle the TA's terminal, a bidi
override, a zero-width or a look-alike character would disguise what the TA
reads.  Everything the course shows the TA passes through ``nombre_legible``
(``grader_tests.caja.archivos_alumno``, ``grader_tests.extensiones_nbgrader``,
``scripts.calificacion.observaciones.legible`` and ``lms.descompresion.legible``
call it); HTML is escaped on top of it where it is rendered.
"""
from __future__ import annotations

import unicodedata

__all__ = ["nombre_legible"]


# Non-ASCII characters a name shows as they are: letters of the Latin alphabet with their own shape
# (ß, æ, ø, ł…) and Spanish typography.  Letters made of an ASCII letter and accents (á, ñ, ç, ü) are
# kept too (see _se_ve_tal_cual); every other character of a name is shown as its escape.
_LETRAS_PROPIAS = frozenset("ßæœøÆŒØðÐþÞłŁđĐ")
_SIGNOS_ESPAÑOLES = frozenset("«»¿¡ºª·€…")


def _escape(c: str) -> str:
    """Python's escape of one character: ``\\x0b``, ``\\u200b``, ``\\U0001f600``."""
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def _se_ve_tal_cual(c: str, confundibles: bool) -> bool:
    if " " <= c <= "~":
        return True
    if not confundibles:
        return c.isprintable()
    if c in _LETRAS_PROPIAS or c in _SIGNOS_ESPAÑOLES:
        return True
    # a precomposed letter whose base is an ASCII letter (á = a + ´): its accent shows it is not ASCII
    partes = unicodedata.normalize("NFD", c)
    return (len(partes) > 1 and partes[0].isascii() and partes[0].isalpha()
            and all(unicodedata.combining(x) for x in partes[1:]))


def nombre_legible(ruta: object, limite: int | None = 100, *, confundibles: bool = True) -> str:
    """A name (student id, file or entry name, path) safe to print and impossible to mistake for another.

    The one helper for student-controlled names in the TA's outputs (logs, ``make grade``'s table,
    feedback, LMS reports).  With ``confundibles`` (names, the default) a character is shown as it
    is only when it is printable ASCII, a Latin letter with accents over an ASCII letter (``á``,
    ``ñ``, ``ç``), one of ``ß æ œ ø ð þ ł đ`` or Spanish typography (``« » ¿ ¡ º ª · € …``); every
    other one as its Python escape: control and format characters (``\\x0a``, ``\\u200b``,
    ``\\u202e``), other spaces (``\\xa0``), dashes and letters that look like ASCII ones
    (``xa\\u2010ana``, Cyrillic ``\\u0430``, full-width forms), combining marks written apart
    (``Jose\\u0301``), emoji.  Without ``confundibles`` (whole lines of course text that already
    hold names shown this way: ``scripts.calificacion.observaciones.legible``) only what is not printable is
    escaped.  Escapes are printable ASCII, so showing a shown name again changes nothing.

    ``limite``: at most that many characters, ``…`` included (an escape is never cut); None: no limit.
    """
    piezas = [c if _se_ve_tal_cual(c, confundibles) else _escape(c) for c in str(ruta)]
    if limite is None or sum(map(len, piezas)) <= limite:
        return "".join(piezas)
    cabe, largo = [], 0
    for pieza in piezas:
        if largo + len(pieza) > limite - 1:
            break
        cabe.append(pieza)
        largo += len(pieza)
    return "".join(cabe) + "…"
