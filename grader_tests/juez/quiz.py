"""Quiz questions («Comprueba tu intuición») and how answers are read.

Each question knows its correct answer, how to read what a student typed and
the explanation shown in the feedback.  Answers are judged on the trusted side
(see ``grader_tests.juez.juez``), so the correct options never enter the student's
kernel during autograding.  Each notebook's questions live in
``grader_tests/cuestionarios/<notebook>.py``.

Accepted forms: a letter in any case, with spaces, a closing parenthesis or
a period, or as «opción b» / «respuesta b», or a one-letter list or tuple
(``"b"``, ``" B "``, ``"b)"``, ``["b"]``); for multi-select a set, list or
tuple of letters or a string such as ``"a, c"``, ``"a y c"``, ``"{a, b, d}"``
or ``"abd"``; for integers an ``int`` or a NumPy integer, a float (also a
NumPy float) equal to an integer, or a string of digits (spaces, dots and
underscores as thousands separators are ignored) or in scientific notation
(``"2.56e2"``); for true / false a ``bool`` (also ``np.True_``) or
``"verdadero"`` / ``"falso"`` / ``"v"`` / ``"f"``.  Anything else earns 0
with a message, never an exception.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from .veredicto import Veredicto


class RespuestaMalFormada(ValueError):
    """The answer cannot be read as the kind of answer the question asks for."""


def _texto_corto(valor: object) -> str:
    texto = repr(valor)
    return texto if len(texto) <= 80 else texto[:77] + "..."


@dataclass(frozen=True)
class Pregunta:
    """Base class: one autograded quiz question.

    Attributes:
        variable: the name the student assigns (``respuesta_1``).
        correcta: the correct answer, in the question's canonical form.
        explicacion: Spanish text that explains the right answer (feedback).
    """

    variable: str
    correcta: object
    explicacion: str

    def leer(self, valor: object) -> object:  # pragma: no cover - abstract
        raise NotImplementedError

    def formato(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def mostrar(self, canonica: object) -> str:
        return repr(canonica)

    def juzgar(self, valor: object, maximo: float) -> Veredicto:
        """Score ``valor`` (what the student assigned) out of ``maximo`` points.

        The verdict keeps the answer as read (``respuesta``, canonical form), or
        why it could not be read (``motivo``).
        """
        if valor is None or valor is Ellipsis:
            return Veredicto(0, maximo, [
                f"No has contestado: `{self.variable}` sigue vacía. {self.formato()}"],
                propiedad=self.variable, motivo="sin_contestar")
        try:
            leida = self.leer(valor)
        except RespuestaMalFormada as exc:
            return Veredicto(0, maximo, [
                f"No se puede leer tu respuesta {_texto_corto(valor)}: {exc} {self.formato()}"],
                propiedad=self.variable, motivo="respuesta_ilegible")
        if leida == self.correcta:
            return Veredicto(maximo, maximo, [
                f"Correcto: {self.mostrar(leida)}.", self.explicacion],
                propiedad=self.variable, respuesta=leida)
        return Veredicto(0, maximo, [
            f"Has respondido {self.mostrar(leida)}; la respuesta correcta es "
            f"{self.mostrar(self.correcta)}.", self.explicacion],
            propiedad=self.variable, respuesta=leida)


_PREFIJOS = ("opción", "opcion", "respuesta", "la")


def _sin_adornos(texto: str) -> str:
    """``" Opción B) "`` → ``"b"``: lower case, without spaces, brackets, quotes, periods or a prefix word."""
    limpio = texto.strip().lower().strip("()[]{}.'\"«» ")
    palabras = limpio.split()
    while len(palabras) > 1 and palabras[0] in _PREFIJOS:
        palabras = palabras[1:]
    return " ".join(palabras).strip("()[]{}.'\"«» :")


def _letra(valor: object, opciones: str) -> str:
    if isinstance(valor, (list, tuple)) and len(valor) == 1:
        valor = valor[0]
    if not isinstance(valor, str):
        raise RespuestaMalFormada("se esperaba una letra entre comillas.")
    letra = _sin_adornos(valor)
    if len(letra) > 1 and all(c in opciones for c in re.sub(r"[\s,;/+&]+|\by\b", "", letra)):
        raise RespuestaMalFormada(
            f"esta pregunta tiene una sola respuesta y has escrito varias letras ({letra}).")
    if len(letra) != 1 or letra not in opciones:
        raise RespuestaMalFormada(
            f"la letra tiene que ser una de {', '.join(opciones)}.")
    return letra


@dataclass(frozen=True)
class Opcion(Pregunta):
    """Single choice: the student writes one letter."""

    opciones: str = "abcd"

    def leer(self, valor: object) -> str:
        return _letra(valor, self.opciones)

    def formato(self) -> str:
        return f'Escribe una sola letra entre comillas, por ejemplo `{self.variable} = "a"`.'

    def mostrar(self, canonica: object) -> str:
        return f"«{canonica}»"


@dataclass(frozen=True)
class Varias(Pregunta):
    """Multi-select, all-or-nothing: every correct letter and no other."""

    opciones: str = "abcd"

    def leer(self, valor: object) -> frozenset:
        if isinstance(valor, str):
            texto = _sin_adornos(valor)
            partes = [p for p in re.split(r"[\s,;/+&]+|\by\b", texto) if p]
            if len(partes) == 1 and len(partes[0]) > 1 and all(c in self.opciones for c in partes[0]):
                partes = list(partes[0])            # "abd": letters written together
        elif isinstance(valor, (set, frozenset, list, tuple)):
            partes = list(valor)
        else:
            raise RespuestaMalFormada("se esperaba un conjunto de letras.")
        if not partes:
            raise RespuestaMalFormada("no has marcado ninguna opción.")
        return frozenset(_letra(p, self.opciones) for p in partes)

    def formato(self) -> str:
        return f'Escribe un conjunto de letras, por ejemplo `{self.variable} = {{"a", "c"}}`.'

    def mostrar(self, canonica: object) -> str:
        return "{" + ", ".join(f'"{x}"' for x in sorted(canonica)) + "}"


@dataclass(frozen=True)
class Entero(Pregunta):
    """An exact integer (e.g. a number of parameters)."""

    def leer(self, valor: object) -> int:
        if isinstance(valor, (bool, np.bool_)):
            raise RespuestaMalFormada("se esperaba un número entero, no True/False.")
        if isinstance(valor, (int, np.integer)):
            return int(valor)
        if isinstance(valor, np.floating):
            valor = float(valor)
        if isinstance(valor, float):
            if math.isfinite(valor) and valor == int(valor):
                return int(valor)
            raise RespuestaMalFormada("se esperaba un número entero exacto.")
        if isinstance(valor, str):
            texto = valor.strip()
            if len(texto) > 60:
                raise RespuestaMalFormada("el número es demasiado largo.")
            # thousands separated in groups of exactly three digits: "2 359 296", "2.359.296", "2_359_296"
            if re.fullmatch(r"[+-]?[1-9]\d{0,2}(?:[ ._\u00a0\u202f]\d{3})+", texto):
                return (-1 if texto.startswith("-") else 1) * int(re.sub(r"\D", "", texto))
            if re.fullmatch(r"[+-]?\d+", texto):
                return int(texto)
            # a whole number written as a decimal or in scientific notation: "256.0", "256,0", "2.56e2"
            decimal = texto.replace(",", ".") if texto.count(",") == 1 and "." not in texto else texto
            if re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", decimal):
                numero = float(decimal)
                if math.isfinite(numero) and numero == int(numero):
                    return int(numero)
                raise RespuestaMalFormada("se esperaba un número entero exacto.")
        raise RespuestaMalFormada("se esperaba un número entero.")

    def formato(self) -> str:
        return f"Escribe el número sin comillas, por ejemplo `{self.variable} = 1234`."

    def mostrar(self, canonica: object) -> str:
        return f"{canonica:,}".replace(",", " ")


_VERDADERO = {"v", "verdadero", "cierto", "true", "si", "sí"}
_FALSO = {"f", "falso", "false", "no"}


@dataclass(frozen=True)
class VerdaderoFalso(Pregunta):
    """True / false."""

    def leer(self, valor: object) -> bool:
        if isinstance(valor, (bool, np.bool_)):
            return bool(valor)
        if isinstance(valor, str):
            palabra = valor.strip().lower()
            if palabra in _VERDADERO:
                return True
            if palabra in _FALSO:
                return False
        raise RespuestaMalFormada("se esperaba True o False.")

    def formato(self) -> str:
        return f"Escribe `{self.variable} = True` o `{self.variable} = False`."

    def mostrar(self, canonica: object) -> str:
        return "verdadero (True)" if canonica else "falso (False)"
