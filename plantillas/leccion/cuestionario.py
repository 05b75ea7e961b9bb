"""Answers of the quiz «Comprueba tu intuición» of lesson @@NUMERO@@ (trusted side only).

Keyed by the grade_id of each quiz TEST cell in
``source/@@TAREA@@/@@NOMBRE@@.ipynb`` (found by the notebook's name).
"""
from __future__ import annotations

from grader_tests.juez.quiz import Opcion, Pregunta

PREGUNTAS: dict[str, Pregunta] = {
    "comprueba_respuesta_1": Opcion(
        variable="respuesta_1",
        correcta="b",
        explicacion=(
            "Sin dividir, una puntuación suma d_k productos independientes de varianza 1: su varianza "
            "es d_k y su desviación típica, √d_k. Al pasar de 16 a 64 la desviación pasa de 4 a 8, el "
            "doble. Por eso se divide entre √d_k: la desviación queda en 1 sea cual sea d_k."
        ),
    ),
}
