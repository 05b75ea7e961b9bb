"""Answers of the quiz «Comprueba tu intuición» of lesson 2 (sinusoidal positional encoding).

Trusted side only: keyed by the grade_id of each quiz TEST cell in
``source/02_codificacion_posicional/codificacion_posicional.ipynb``.  The five
questions follow the lesson: the raw index, what M_k depends on, the score of a
position against itself, dropping the cosines, summing versus concatenating.
"""
from __future__ import annotations

from grader_tests.quiz import Entero, Opcion, Pregunta, Varias, VerdaderoFalso

PREGUNTAS: dict[str, Pregunta] = {
    "comprueba_respuesta_1": Opcion(
        variable="respuesta_1",
        correcta="b",
        explicacion=(
            "El problema es de escala. Las demás coordenadas de un embedding rondan el intervalo "
            "[-1, 1]; una coordenada que vale 300 en el token 300 aporta 300·301 = 90 300 al "
            "producto escalar con su vecino y deja en nada la contribución del significado. Que "
            "sea un entero no importa (la red lo trataría como un número real más), no hace falta "
            "conocer T para escribirlo y dos posiciones distintas nunca comparten índice."
        ),
    ),
    "comprueba_respuesta_2": Varias(
        variable="respuesta_2",
        correcta=frozenset({"a", "c"}),
        explicacion=(
            "Cada bloque de M_k es un giro de ángulo ω_i·k: sólo intervienen el desplazamiento k y "
            "las frecuencias ω_i = 10000^(−2i/d_model), que dependen de d_model y de la base. La "
            "posición de partida se queda en el vector al que se aplica la matriz, y por eso una "
            "sola M_k sirve para todas las posiciones. T no aparece en ningún sitio de la fórmula. "
            "La pregunta se corrige a todo o nada: hacía falta marcar a y c, y sólo esas."
        ),
    ),
    "comprueba_respuesta_3": Entero(
        variable="respuesta_3",
        correcta=256,
        explicacion=(
            "PE_pos · PE_pos suma, para cada pareja, sin²(ω_i·pos) + cos²(ω_i·pos) = 1. Hay "
            "d_model/2 parejas, así que el resultado es d_model/2 = 256 con d_model = 512, "
            "cualquiera que sea pos. Es también la suma de cos(ω_i·k) con k = 0, el máximo de esa "
            "cantidad: la norma de cada fila es √256 = 16."
        ),
    ),
    "comprueba_respuesta_4": Opcion(
        variable="respuesta_4",
        correcta="b",
        explicacion=(
            "Para avanzar k posiciones, sin(ω(pos+k)) = sin(ω·pos)cos(ωk) + cos(ω·pos)sin(ωk) "
            "necesita el coseno de la posición de partida. Sin él, sin(ω·pos) por sí solo no determina "
            "sin(ω(pos+k)) (dos ángulos con el mismo seno avanzan a senos distintos), así que no "
            "hay ninguna matriz fija M_k válida para todas las posiciones. El producto escalar "
            "también se estropea: Σ sin(ω·pos)sin(ω(pos+k)) = ½Σ[cos(ωk) − cos(ω(2pos+k))] "
            "depende de pos. Los valores siguen acotados y T sigue sin aparecer."
        ),
    ),
    "comprueba_respuesta_5": VerdaderoFalso(
        variable="respuesta_5",
        correcta=False,
        explicacion=(
            "Falso. Al sumar, significado y posición comparten cada coordenada, y ningún resultado "
            "asegura que las capas siguientes sepan desenredarlos; concatenar sí los mantendría "
            "aparte, a costa de anchura. Que la suma funcione se apoya en argumentos plausibles (W^Q y W^K se "
            "entrenan y pueden reservar direcciones; la codificación tiene una estructura de ondas "
            "fija muy distinta de la de un embedding) y en la práctica, no en una demostración."
        ),
    ),
}
