"""Text that comes from a submission, made safe to show to a person: the one escaping helper.

Student ids, file names, zip entries, error messages and lines of nbgrader's
log come from students: a newline would forge a line of a table about another
student, an escape sequence would clear or retitle the TA's terminal, a bidi
override or a zero-width character would disguise what the TA reads, a lone
surrogate would break the encoder.  Everything the course prints or writes
for the TA (``scripts/``, ``lms/``, the sandbox's and the exchange's messages)
passes through ``legible`` first; HTML is escaped on top of it where it is
rendered (``extensiones_nbgrader/html_seguro.py``).
"""
from __future__ import annotations

__all__ = ["legible"]


def _escape(c: str) -> str:
    codigo = ord(c)
    if codigo < 0x100:
        return f"\\x{codigo:02x}"
    if codigo < 0x10000:
        return f"\\u{codigo:04x}"
    return f"\\U{codigo:08x}"


def legible(texto: object, limite: int | None = None) -> str:
    """``texto`` as one printable line: control, format and invisible characters shown as escapes.

    Every character that ``str.isprintable`` rejects (controls, ``\\n``, ESC,
    DEL, C1 controls, bidi overrides, zero-width characters, line and paragraph
    separators, surrogates) becomes ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``;
    everything else is kept.

    Args:
        texto: any object (``str()`` of it is shown).
        limite: at most this many characters, the last one ``…`` when cut;
            ``None``: no limit.

    Returns:
        The printable text (a ``str`` without any line break).
    """
    visible = "".join(c if c.isprintable() else _escape(c) for c in str(texto))
    if limite is not None and len(visible) > limite:
        visible = visible[: max(limite - 1, 0)] + "…"
    return visible
