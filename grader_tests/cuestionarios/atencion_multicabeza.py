"""Answers of the quiz «Comprueba tu intuición» of lesson 1 (multi-head attention).

Trusted side only: keyed by the grade_id of each quiz TEST cell in
``source/01_atencion_multicabeza/atencion_multicabeza.ipynb`` (found by the
notebook's name: ``grader_tests/cuestionarios/atencion_multicabeza.py``).  Questions 1-5
come from sections 2-8 of the lesson, 6-8 from the vectorised form and the
shapes through the layer (sections 4, 9 and 10).
"""
from __future__ import annotations

from grader_tests.quiz import Entero, Opcion, Pregunta, Varias, VerdaderoFalso

PREGUNTAS: dict[str, Pregunta] = {
    "comprueba_respuesta_1": Opcion(
        variable="respuesta_1",
        correcta="b",
        explicacion=(
            "P y R calculan, para cada pareja de palabras, los mismos cuatro productos q_sj·k_tj; P "
            "además divide su suma entre √4 = 2. La diferencia está en el momento de normalizar. P "
            "suma primero y hace un único softmax, y la exponencial convierte esa suma en un producto "
            "(la sección 5 lo comprueba: la fila de P es el producto de las cuatro filas de R "
            "elevadas a 1/2, normalizado), así que una palabra tiene que puntuar en todas las reglas "
            "a la vez. R normaliza cada columna por separado, cada cabeza recoge sus valores con su "
            "propia fila y W^O mezcla después las cuatro lecturas. W^Q y W^K tienen los mismos "
            "elementos en las dos capas (c es falsa), y ambas pueden atender a todas las posiciones "
            "(d es falsa)."
        ),
    ),
    "comprueba_respuesta_2": Entero(
        variable="respuesta_2",
        correcta=4 * 768 * 768,
        explicacion=(
            "Por cabeza hay W_i^Q, W_i^K y W_i^V de 768 × 64 (d_k = d_v = 768 / 12 = 64), y W^O "
            "añade 12·64 = 768 filas de 768. En total, 12·3·768·64 + 768·768 = 3·768² + 768² = "
            "4·768² = 2 359 296 parámetros. El número de cabezas se cancela: con 1 o con 24 "
            "cabezas saldría lo mismo."
        ),
    ),
    "comprueba_respuesta_3": Opcion(
        variable="respuesta_3",
        correcta="c",
        explicacion=(
            "Con d_k = d_v = d_model / h, la capa tiene 4·d_model² parámetros, y las proyecciones y "
            "los productos Q_i K_iᵀ y A_i V_i cuestan lo mismo para cualquier h; la concatenación "
            "mide h·d_v = d_model. Sólo crecen con h los h·T² pesos de los mapas (sección 4). Lo "
            "de la opción a no ocurre: todas las cabezas leen X entera, lo que se estrecha es el "
            "espacio en el que cada una compara consultas y claves. Ni la estabilidad del softmax "
            "ni √d_k piden valores especiales."
        ),
    ),
    "comprueba_respuesta_4": Varias(
        variable="respuesta_4",
        correcta=frozenset("abd"),
        opciones="abcde",
        explicacion=(
            "Con los mismos bloques, cada cabeza calcula las mismas Q_i, K_i y V_i: los mapas "
            "coinciden (a) y la concatenación repite h veces el mismo trozo en cada fila (b). "
            "Concat · W^O es la suma de head_i · W^O_i, y con todas las head_i iguales queda "
            "head_1 · (W^O_1 + … + W^O_h) (d). Ninguna función de pérdida tiene un término por "
            "cabeza (c es falsa): si las cabezas llegan a separarse es porque los bloques de W^O "
            "son distintos y dan gradientes distintos (sección 8). El número de parámetros depende "
            "de las formas, no de los valores (e es falsa)."
        ),
    ),
    "comprueba_respuesta_5": VerdaderoFalso(
        variable="respuesta_5",
        correcta=False,
        explicacion=(
            "Falso. Con cabezas de anchura completa basta tomar como W^O la matriz de h bloques "
            "I/h apilados, de h·d_model × d_model: Concat(head_1, …, head_h) · W^O es entonces la "
            "media de las cabezas. Y al revés, una media de cabezas anchas con W~_i^V = h·W_i^V·W_i^O "
            "calcula lo mismo que la capa del artículo (sección 7): lo que las distingue es el "
            "tamaño, no lo que pueden calcular."
        ),
    ),
    "comprueba_respuesta_6": Opcion(
        variable="respuesta_6",
        correcta="d",
        explicacion=(
            "X W^Q mide (10, 512). reshape(10, 8, 64) parte cada fila en 8 bloques de 64 columnas, "
            "y la transposición de los dos primeros ejes deja (8, 10, 64): Q[i] es la matriz (T, d_k) "
            "de la cabeza i, y el producto por lotes con las claves transpuestas da puntuaciones de "
            "(8, 10, 10)."
        ),
    ),
    "comprueba_respuesta_7": Opcion(
        variable="respuesta_7",
        correcta="a",
        explicacion=(
            "reshape recorre los números en orden de filas (el orden C de NumPy) y los reparte en la "
            "forma pedida. Si se pide (h, T, d_k) directamente, la primera «cabeza» recibe los "
            "primeros trozos de d_k números, que son varios bloques de la posición 0 y siguientes, en "
            "vez del primer bloque de cada posición. Hay que partir antes en (T, h, d_k) y luego "
            "intercambiar los dos primeros ejes. Las formas cuadran en los dos caminos, por eso el "
            "fallo no avisa."
        ),
    ),
    "comprueba_respuesta_8": Entero(
        variable="respuesta_8",
        correcta=8 * 10 * 10,
        explicacion=(
            "Cada cabeza tiene su propio mapa de T × T = 100 puntuaciones, y son 8: el tensor mide "
            "(8, 10, 10), 800 números. Esos h·T² números, y las exponenciales del softmax que se "
            "calculan con ellos, son lo que crece con h; los parámetros y los productos no."
        ),
    ),
}
