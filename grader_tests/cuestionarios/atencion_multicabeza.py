"""Answers of the quiz «Comprueba tu intuición» of lesson 1 (multi-head attention).

Trusted side only: keyed by the grade_id of each quiz TEST cell in
``source/01_atencion_multicabeza/atencion_multicabeza.ipynb`` (found by the
notebook's name: ``grader_tests/cuestionarios/atencion_multicabeza.py``).  Questions 1-5
come from sections 2-9 of the lesson, 6-8 from the shapes through the layer and the
vectorised form (sections 6, 10 and 11).
"""
from __future__ import annotations

from grader_tests.juez.quiz import Entero, Opcion, Pregunta, Varias, VerdaderoFalso

PREGUNTAS: dict[str, Pregunta] = {
    "comprueba_respuesta_1": Opcion(
        variable="respuesta_1",
        correcta="b",
        explicacion=(
            "Las dos capas calculan, para cada pareja de palabras, los mismos cuatro productos "
            "q_sj·k_tj; la única, además, divide su suma entre √4 = 2. Lo que cambia es el sitio donde se "
            "normaliza. La capa única suma y hace un solo softmax, y la exponencial convierte la suma "
            "en un producto de factores, uno por regla (sección 2): su fila es el producto de las "
            "cuatro filas de la capa partida elevadas a 1/2, normalizado (sección 4). En ese producto "
            "gana quien acumula factores favorables en varias reglas, y una regla en contra (un factor "
            "menor que 1) puede anular a otra a favor: así acaba «ratón» empatado con «que» en la fila "
            "de «persiguen». La capa partida normaliza cada columna por separado, cada cabeza recoge "
            "valores con su propia fila y W^O combina después las cuatro lecturas. W^Q y W^K tienen "
            "los mismos elementos en las dos capas (c es falsa), y las dos atienden a todas las "
            "posiciones (d es falsa)."
        ),
    ),
    "comprueba_respuesta_2": Entero(
        variable="respuesta_2",
        correcta=4 * 768 * 768,
        explicacion=(
            "Con d_k = d_v = 768 / 12 = 64, cada cabeza tiene W_i^Q, W_i^K y W_i^V de 768 × 64, y W^O "
            "mide (12·64) × 768 = 768 × 768. En total, 12·3·768·64 + 768·768 = 3·768² + 768² = "
            "4·768² = 2 359 296 números. h no aparece en el resultado: con 1 o con 24 cabezas "
            "saldría lo mismo (sección 6)."
        ),
        pistas=(
            (3 * 768 * 768, "Son 3·768²: las proyecciones de las cabezas, sin W^O. La salida concatenada pasa "
                            "aún por W^O, que mide 768 × 768."),
            (3 * 768 * 64, "Son 3·768·64: W_i^Q, W_i^K y W_i^V de una sola cabeza. Hay 12 cabezas, cada una "
                           "con las suyas, y después W^O, de 768 × 768."),
            (3 * 768 * 64 + 768 * 768, "Son las tres matrices de una sola cabeza más W^O: hay 12 cabezas, "
                                       "cada una con sus W_i^Q, W_i^K y W_i^V."),
            (4 * 768 * 768 + 4 * 768, "Le sumas sesgos (4·768): el modelo de la lección no los lleva, sólo las "
                                      "cuatro matrices."),
        ),
    ),
    "comprueba_respuesta_3": Opcion(
        variable="respuesta_3",
        correcta="c",
        explicacion=(
            "Con d_k = d_v = d_model / h, la capa guarda 4·d_model² parámetros, y las proyecciones y "
            "los productos Q_i K_iᵀ y A_i V_i cuestan las mismas multiplicaciones para cualquier h; "
            "la concatenación mide h·d_v = d_model. Con h sólo crecen los h·T² pesos de los mapas "
            "(sección 6). La opción a no describe la capa: todas las cabezas leen X entera, y lo que "
            "se estrecha es el espacio en el que cada una compara consultas con claves. Ni la "
            "estabilidad del softmax ni √d_k piden valores especiales."
        ),
    ),
    "comprueba_respuesta_4": Varias(
        variable="respuesta_4",
        correcta=frozenset("abd"),
        opciones="abcde",
        explicacion=(
            "Con los mismos bloques, todas las cabezas calculan las mismas Q_i, K_i y V_i: los mapas "
            "coinciden (a) y cada fila de la concatenación repite h veces el mismo trozo (b). "
            "Concat · W^O es la suma de head_i · W^O_i, y con todas las head_i iguales queda "
            "head_1 · (W^O_1 + … + W^O_h) (d). La pérdida del artículo no tiene ningún término propio "
            "de una cabeza (c es falsa): las cabezas pueden separarse porque los bloques de W^O son "
            "distintos y, en general, dan gradientes distintos (sección 9). El número de parámetros "
            "depende de las formas, no de los valores (e es falsa)."
        ),
    ),
    "comprueba_respuesta_5": VerdaderoFalso(
        variable="respuesta_5",
        correcta=True,
        explicacion=(
            "Verdadero. La cabeza i de la capa del artículo aporta A_i·X·(W_i^V·W_i^O) a la salida "
            "(sección 7). Con W~_i^V = h·W_i^V·W_i^O, la media de las h cabezas anchas suma "
            "exactamente esas aportaciones (sección 8). Lo contrario no se cumple: una W~_i^V "
            "cualquiera tiene rango d_model, y un producto W_i^V·W_i^O no pasa de rango d_v, así que "
            "la media de cabezas anchas calcula todo lo que calcula la capa del artículo y más. Lo que "
            "gana el artículo es tamaño: 2·d_model² parámetros en valores y salida, frente a "
            "h·d_model² de las h matrices anchas. Ojo: si las cabezas compartieran los mismos "
            "valores, la media sería una sola cabeza con el mapa medio y sí perdería información."
        ),
    ),
    "comprueba_respuesta_6": Opcion(
        variable="respuesta_6",
        correcta="d",
        explicacion=(
            "X W^Q mide (12, 512). reshape(12, 16, 32) parte cada fila en 16 bloques de 32 "
            "columnas, y al intercambiar los dos primeros ejes queda (16, 12, 32): Q[i] es la matriz "
            "(T, d_k) de la cabeza i, y el producto por lotes con las claves transpuestas da "
            "puntuaciones de (16, 12, 12)."
        ),
    ),
    "comprueba_respuesta_7": Opcion(
        variable="respuesta_7",
        correcta="a",
        explicacion=(
            "reshape recorre los números en orden de filas (el orden C de NumPy) y los reparte en la "
            "forma pedida. Si se pide (h, T, d_k) directamente, la primera «cabeza» se queda con los "
            "T·d_k primeros números: primero todos los bloques de la posición 0, luego los de la 1, "
            "y así hasta completar, en vez del primer bloque de cada posición (en la sección 10, con "
            "T = 5, d_model = 12 y h = 3, los tres bloques de la posición 0 y los dos primeros de la "
            "1). Hay que partir antes en (T, h, d_k) e intercambiar luego los dos primeros ejes. Las "
            "formas cuadran por los dos caminos, por eso NumPy no avisa (c es falsa) y el resultado "
            "sí cambia (b y d son falsas)."
        ),
    ),
    "comprueba_respuesta_8": Entero(
        variable="respuesta_8",
        correcta=3 * 16 * 12 * 12,
        explicacion=(
            "Cada cabeza de cada secuencia tiene su mapa de T × T = 144 puntuaciones: el tensor mide "
            "(B, h, T, T) = (3, 16, 12, 12), 6 912 números. d_model no interviene. Esos B·h·T² "
            "números, y las exponenciales del softmax que se calculan con ellos, son lo que crece con "
            "h; los parámetros y las multiplicaciones de las proyecciones no (sección 6)."
        ),
    ),
}
