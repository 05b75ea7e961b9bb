"""Pruebas visibles de `@@FUNCION@@` (lección @@NUMERO@@): lo que ejecuta cada celda de comprobación.

Cada celda de comprobación termina con una línea que llama a una función de
este módulo con el espacio de nombres del cuaderno, por ejemplo::

    __import__("pruebas_@@FUNCION@@").valores(globals())

``contrato``, ``valores`` y ``generalidad`` comprueban `@@FUNCION@@` con un
caso pequeño (T = 3, d_k = 2) y, la última, con tamaños extremos. Si algo
falla, lanzan ``PruebaVisibleFallida``: en sus primeras líneas, qué no
coincide y la causa más probable; después, los valores esperados y los
tuyos. Los valores esperados salen de la fórmula de la sección 2 con estas
entradas.

Si tu función ya falla con el caso visible, la generalidad no vuelve a
cobrarlo (sólo mira que no haya excepciones, ``nan`` ni ``inf`` y que la
forma sea la del contrato), salvo que no calcule bien nada: sin trabajo
hecho (ni S ni los productos Q[t]·K[s] salvo un factor común), esa celda no
puntúa. Es la misma regla que aplica la nota (README del curso, «Cómo se
califica»).

Al calificar se usan otros casos y la copia del curso de este archivo:
editar la tuya no cambia la nota.
"""
from __future__ import annotations

import numpy as np

from pruebas_visibles import aprobado, como_array, fallo, funcion_del_cuaderno, llamar, matriz

TOLERANCIA = {"rtol": 1e-6, "atol": 1e-6}      # la del ejercicio

Q = np.array([[1.0, 0.5], [-1.0, 2.0], [0.5, 0.0]])        # (T, d_k) = (3, 2)
K = np.array([[2.0, -1.0], [0.0, 1.5], [1.0, 1.0]])        # (3, 2)
# Q Kᵀ / √2 con estas entradas (la fórmula de la sección 2):
S = np.array([[1.06066017, 0.53033009, 1.06066017],
              [-2.82842712, 2.12132034, 0.70710678],
              [0.70710678, 0.00000000, 0.35355339]])


def _causa(s: np.ndarray) -> str:
    """La causa más probable de que ``s`` no sea S (el caso visible), para el mensaje."""
    if np.allclose(s, S * np.sqrt(2), **TOLERANCIA):
        return "Causa probable: no divides entre √d_k = √2."
    if np.allclose(s, S.T, **TOLERANCIA):
        return ("Causa probable: calculas K Qᵀ, la traspuesta. La fila t es la consulta Q[t] frente a todas "
                "las claves: Q @ K.T.")
    c = float(np.vdot(s, S) / np.vdot(S, S))
    if abs(c) > 1e-3 and np.allclose(s, c * S, **TOLERANCIA):
        factor = f"{c:.4g}".replace(".", ",")                  # coma decimal, como en el texto
        return (f"Causa probable: la escala. Cada puntuación es {factor} veces la esperada: divide Q Kᵀ "
                "entre √d_k = √2, con d_k = K.shape[1] = 2.")
    return "Causas probables: S[t, s] es el producto escalar de Q[t] y K[s] (Q @ K.T), dividido entre √d_k."


def contrato(espacio: dict) -> None:
    """Un ``np.ndarray`` float64 de forma (T, T) = (3, 3)."""
    funcion = funcion_del_cuaderno(espacio, "@@FUNCION@@")
    s = llamar(funcion, Q.copy(), K.copy())
    if type(s) is not np.ndarray:
        fallo(f"Se esperaba un np.ndarray y ha llegado {type(s).__module__}.{type(s).__name__}: devuelve el "
              "array tal cual (sin .tolist() ni np.matrix).")
    if s.shape != (3, 3):
        fallo(f"Con T = 3 se esperaba la forma (T, T) = (3, 3) y ha llegado {s.shape}.")
    if s.dtype != np.float64:
        fallo(f"Se esperaba dtype float64 y ha llegado {s.dtype}.")
    aprobado("Contrato correcto en el caso visible.")


def valores(espacio: dict) -> None:
    """Las puntuaciones del caso visible (T = 3, d_k = 2)."""
    funcion = funcion_del_cuaderno(espacio, "@@FUNCION@@")
    s = como_array(llamar(funcion, Q.copy(), K.copy()), "S")
    if s.shape != (3, 3):
        fallo(f"Con T = 3 se esperaba la forma (3, 3) y ha llegado {s.shape}.", "Mira la celda del contrato.")
    if np.ptp(s) < 1e-12:
        fallo(f"Tu S es constante (todo {s.flat[0]:g}): aún no calculas los productos Q[t]·K[s].",
              "S[t, s] es el producto escalar de Q[t] y K[s] dividido entre √d_k (Q @ K.T / √d_k).")
    if not np.allclose(s, S, **TOLERANCIA):
        fallo(f"Las puntuaciones no coinciden.\n{_causa(s)}", f"esperado:\n{matriz(S)}\nobtenido:\n{matriz(s)}")
    aprobado("Valores correctos en el caso visible.")


def trabajo_hecho(s: np.ndarray) -> bool:
    """Si ``s`` (el resultado del caso visible) tiene algo bien calculado (la regla de la nota).

    S entera o los productos Q[t]·K[s] multiplicados todos por un mismo factor
    distinto de cero (sin la escala o con otra), también traspuestos.
    """
    if s.shape != S.shape or not np.all(np.isfinite(s)):
        return False
    for candidata in (s, s.T):
        c = float(np.vdot(candidata, S) / np.vdot(S, S))        # el mejor factor común
        if abs(c) > 1e-3 and np.allclose(candidata, c * S, **TOLERANCIA):
            return True
    return False


SIN_TRABAJO = ("Con el caso visible (T = 3, d_k = 2), tu función no calcula bien nada: ni las "
               "puntuaciones S ni los productos Q[t]·K[s] salvo un factor común. Sin trabajo hecho, "
               "la generalidad no puntúa (tampoco al calificar). Empieza por la celda de los valores.")


def _sin_nan_ni_inf(s: np.ndarray, caso: str, forma: tuple, forma_bien: bool) -> None:
    """La forma (T, T), si estaba bien en el caso visible, y todo finito."""
    if forma_bien and s.shape != forma:
        fallo(f"Con {caso} se esperaba la forma {forma} y ha llegado {s.shape}.")
    if not np.all(np.isfinite(s)):
        fallo(f"Con {caso} hay valores no finitos (nan o inf).")


def generalidad(espacio: dict) -> None:
    """Funciona con una sola posición (T = 1) y con d_k = 1."""
    funcion = funcion_del_cuaderno(espacio, "@@FUNCION@@")
    # la regla de la nota con el caso visible: si ya falla ahí, esta celda no lo cobra otra vez
    visible = como_array(llamar(funcion, Q.copy(), K.copy()), "S")
    bien = visible.shape == S.shape and bool(np.allclose(visible, S, **TOLERANCIA))
    if not bien and not trabajo_hecho(visible):
        fallo(SIN_TRABAJO)
    s1 = como_array(llamar(funcion, np.array([[1.0, 2.0, 2.0]]), np.array([[2.0, 0.0, 1.0]])), "S")
    s2 = como_array(llamar(funcion, np.array([[2.0], [-1.0]]), np.array([[3.0], [0.5]])), "S")
    _sin_nan_ni_inf(s1, "T = 1 y d_k = 3", (1, 1), visible.shape == S.shape)
    _sin_nan_ni_inf(s2, "T = 2 y d_k = 1", (2, 2), visible.shape == S.shape)
    if not bien:
        aprobado("Nada que restar aquí: sin excepciones, nan ni inf con T = 1 y con d_k = 1. Tu función ya "
                 "falla con el caso visible, y eso lo descuenta la celda de los valores.")
        return
    if not np.allclose(s1, 4 / np.sqrt(3), **TOLERANCIA):
        fallo(f"Con T = 1 y d_k = 3 se esperaba [[4 / √3]] = [[{4 / np.sqrt(3):.6f}]].",
              f"ha llegado {np.round(s1, 6).tolist()}.")
    if not np.allclose(s2, [[6.0, 1.0], [-3.0, -0.5]], **TOLERANCIA):
        fallo("Con d_k = 1 se esperaba [[6, 1], [-3, -0.5]].", f"ha llegado {np.round(s2, 6).tolist()}.")
    aprobado("Generalidad correcta en el caso visible.")
