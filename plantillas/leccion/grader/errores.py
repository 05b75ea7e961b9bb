"""The known mistakes of ``@@FUNCION@@``, with their Spanish diagnoses (trusted side only).

Each one has a battery file ``bateria/e*.py`` that makes it (``# error: <id>``);
``seccion`` is the heading of lesson @@NUMERO@@ to revisit.
"""
from __future__ import annotations

from grader_tests.diagnostico import ErrorConocido, resultado_constante


def _sin_escala(Q, K):
    return Q @ K.T


ERRORES = [
    # a stub that computes nothing: only the contract can score (points only for work done)
    ErrorConocido(id="sin_calcular", nombre="no calcula nada", seccion="Ejercicio: `@@FUNCION@@`",
                  detector=resultado_constante),
    ErrorConocido(
        id="sin_escala", nombre="sin escala", seccion="2. Por qué se divide entre √d_k",
        explicacion="no divides Q Kᵀ entre √d_k: tus puntuaciones son √d_k veces más grandes de lo "
                    "debido. Divide entre np.sqrt(d_k), con d_k = K.shape[1].",
        implementacion=_sin_escala),
]
