"""Answers of the quiz «Comprueba tu intuición» of lesson 2 (sinusoidal positional encoding).

Trusted side only: keyed by the grade_id of each quiz TEST cell in
``source/02_codificacion_posicional/codificacion_posicional.ipynb``.  The five
questions: the raw index as an encoding, what M_k depends on, PE_pos · PE_pos,
dropping the cosines, summing versus concatenating.
"""
from __future__ import annotations

from grader_tests.juez.quiz import Entero, Opcion, Pregunta, Varias, VerdaderoFalso

PREGUNTAS: dict[str, Pregunta] = {
    "comprueba_respuesta_1": Opcion(
        variable="respuesta_1",
        correcta="b",
        explicacion=(
            "Es una cuestión de escala. El resto de la fila vale del orden de 1, y dos filas vecinas con "
            "500 y 501 en esa coordenada suman 500·501 = 250 500 a su producto escalar: lo que aporta el "
            "significado, unas pocas unidades, queda enterrado. Cerca del principio de la frase el índice "
            "aún es pequeño, pero en cuanto la posición crece manda él. Las otras objeciones no se "
            "sostienen: la red trata el índice como un número real más, escribirlo no exige conocer T y "
            "dos posiciones nunca comparten índice. (La lección enseña además otro fallo: con una "
            "coordenada lineal en la posición, ninguna W consigue que una cabeza señale la palabra "
            "anterior salvo en los extremos de la frase.)"
        ),
    ),
    "comprueba_respuesta_2": Varias(
        variable="respuesta_2",
        correcta=frozenset({"a", "c"}),
        explicacion=(
            "M_k está hecha de bloques R_i(k), giros de ω_i·k radianes: para escribirla bastan el "
            "desplazamiento k y las frecuencias ω_i = 10000^(−2i/d_model), que dependen de d_model y de la "
            "base. La posición de partida no entra (está en el vector al que se aplica la matriz, y por eso "
            "una misma M_k vale en toda la frase), y T no aparece en ninguna fórmula. Se corrige a todo o "
            "nada: la respuesta es exactamente {a, c}."
        ),
    ),
    "comprueba_respuesta_3": Entero(
        variable="respuesta_3",
        correcta=256,
        explicacion=(
            "Cada pareja aporta sin²(ω_i·pos) + cos²(ω_i·pos) = 1 a PE_pos · PE_pos, y hay d_model/2 "
            "parejas: 512/2 = 256, en cualquier posición. Es el valor de Σ cos(ω_i·k) con k = 0, el mayor "
            "que alcanza esa suma, y la norma de cada fila es √256 = 16."
        ),
    ),
    "comprueba_respuesta_4": Opcion(
        variable="respuesta_4",
        correcta="b",
        explicacion=(
            "Avanzar k posiciones necesita también el coseno de la posición de partida: "
            "sin(ω(pos+k)) = sin(ω·pos)cos(ωk) + cos(ω·pos)sin(ωk). La fila 0 prueba que ninguna matriz "
            "fija lo arregla: sólo con senos, PE_0 es el vector cero (sin 0 = 0 en todas las coordenadas), "
            "y cualquier matriz lleva el cero al cero, nunca a PE_k, que no es cero. El producto escalar "
            "también deja de depender sólo de k: "
            "Σ sin(ω_j·pos)·sin(ω_j(pos+k)) = ½Σ[cos(ω_j·k) − cos(ω_j(2pos+k))] depende de pos. Los valores "
            "siguen en [−1, 1] y T sigue sin aparecer (a y c no se pierden), y d es falsa por lo anterior."
        ),
    ),
    "comprueba_respuesta_5": VerdaderoFalso(
        variable="respuesta_5",
        correcta=False,
        explicacion=(
            "Falso. Con la suma, la puntuación se abre en cuatro términos y dos de ellos cruzan la "
            "palabra de una posición con el lugar de la otra; que una capa pueda quedarse con una parte y "
            "no con la otra depende de que el entrenamiento las deje en direcciones distintas, y nada lo "
            "garantiza. Concatenando, W sí podría separarlas por construcción (basta poner a cero los "
            "bloques que cruzan las dos partes), pero gastando anchura. A favor de sumar hay argumentos "
            "de plausibilidad, no una demostración: W^Q y W^K se entrenan y pueden reservar direcciones, "
            "las ondas de frecuencia fija de PE se parecen poco a los embeddings de palabras que produce "
            "el entrenamiento, y el artículo obtuvo sus resultados sumando."
        ),
    ),
}
