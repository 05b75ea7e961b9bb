"""Name the likely mistake behind a wrong result (trusted side only).

Every known mistake is a small function with the exercise's signature that
makes that mistake on purpose.  A wrong result is compared with what each of
them returns on the same inputs; the ones that match are named, in Spanish,
with a hint on how to check it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import referencia


@dataclass(frozen=True)
class ErrorConocido:
    """A known mistake: a faulty implementation and its Spanish diagnosis."""

    nombre: str
    implementacion: object
    explicacion: str


def _mh_escala_d_model(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    salida, A = referencia.multi_head(X * 1.0, Wq * np.sqrt(d_k / d_model), Wk, Wv, Wo, h)
    return salida, A


def _mh_sin_wo(X, Wq, Wk, Wv, Wo, h):
    return referencia.multi_head(X, Wq, Wk, Wv, np.eye(X.shape[1]), h)


ERRORES_MULTI_HEAD = [
    ErrorConocido("escala √d_model", _mh_escala_d_model,
                  "divides las puntuaciones entre √d_model en lugar de entre √d_k (d_k = d_model // h)."),
    ErrorConocido("sin W^O", _mh_sin_wo,
                  "devuelves la concatenación de las cabezas sin multiplicarla por Wo."),
]


def _pe_concatenado(T, d_model):
    PE = referencia.positional_encoding(T, d_model)
    return np.concatenate([PE[:, 0::2], PE[:, 1::2]], axis=1)


ERRORES_POSITIONAL_ENCODING = [
    ErrorConocido("[sin | cos] concatenado", _pe_concatenado,
                  "pones todos los senos a la izquierda y todos los cosenos a la derecha; el artículo "
                  "los intercala: columna 2i el seno y columna 2i+1 el coseno del mismo ángulo."),
]

ERRORES = {"multi_head": ERRORES_MULTI_HEAD, "positional_encoding": ERRORES_POSITIONAL_ENCODING}


def _coincide(obtenido: object, esperado: object) -> bool:
    if isinstance(esperado, tuple):
        return (isinstance(obtenido, (tuple, list)) and len(obtenido) == len(esperado)
                and all(_coincide(o, e) for o, e in zip(obtenido, esperado)))
    return (type(obtenido) is np.ndarray and obtenido.dtype.kind in "biuf"
            and obtenido.shape == np.shape(esperado)
            and bool(np.allclose(obtenido, esperado, rtol=1e-4, atol=1e-6, equal_nan=True)))


def diagnosticar(objetivo: str, llamada) -> list[str]:
    """Spanish diagnoses of the known mistakes whose output equals the student's."""
    if llamada.excepcion is not None:
        return []
    textos = []
    for error in ERRORES.get(objetivo, []):
        try:
            with np.errstate(all="ignore"):
                esperado = error.implementacion(*llamada.argumentos)
        except Exception:
            continue
        if _coincide(llamada.resultado, esperado):
            textos.append(error.explicacion)
    return textos
