"""Answers of the quiz «Comprueba tu intuición» of lesson 1 (multi-head attention).

Trusted side only: keyed by the grade_id of each quiz TEST cell in
``source/01_atencion_multicabeza/atencion_multicabeza.ipynb`` (found by the
notebook's name: ``grader_tests/cuestionarios/atencion_multicabeza.py``).  Questions 1-5
come from the main line of the lesson, 6-8 from the vectorised form and the
shapes through the layer.
"""
from __future__ import annotations

from grader_tests.quiz import Entero, Opcion, Pregunta, Varias, VerdaderoFalso

PREGUNTAS: dict[str, Pregunta] = {
    "comprueba_respuesta_1": Opcion(
        variable="respuesta_1",
        correcta="b",
        explicacion=(
            "Las dos capas calculan los mismos cuatro términos por pareja de palabras (la de una "
            "cabeza, además, divide la suma entre √4 = 2); lo que cambia sobre todo es cuándo se "
            "normaliza. La cabeza única suma los cuatro términos y hace un "
            "solo softmax, de modo que la exponencial los convierte en un producto: una palabra "
            "necesita puntuar bien en todas las reglas. Las cuatro cabezas hacen cuatro softmax, "
            "cada uno con su denominador; cada cabeza lee sus valores con su reparto y W^O combina "
            "después las cuatro salidas A_i V_i. El número de parámetros de W^Q y W^K es el mismo en "
            "las dos."
        ),
    ),
    "comprueba_respuesta_2": Entero(
        variable="respuesta_2",
        correcta=4 * 768 * 768,
        explicacion=(
            "Cada cabeza tiene tres matrices de d_model × d_k y aporta a W^O un bloque de d_v filas "
            "(d_v × d_model). "
            "Con d_k = d_v = d_model / h, el total es h·3·d_model·(d_model/h) + "
            "h·(d_model/h)·d_model = 4·d_model². Para d_model = 768 son 4 · 589 824 = "
            "2 359 296 parámetros, sea cual sea h (aquí 12)."
        ),
    ),
    "comprueba_respuesta_3": Opcion(
        variable="respuesta_3",
        correcta="c",
        explicacion=(
            "Repartir la anchura entre las cabezas hace que la h se cancele en la cuenta: la capa "
            "pesa 4·d_model² y multiplica lo mismo con una cabeza que con dieciséis, y además la "
            "concatenación vuelve a medir d_model. El número de cabezas queda libre para elegirlo "
            "según su utilidad, no según su precio. No es que cada cabeza lea sólo d_k coordenadas de la entrada: todas leen X "
            "entera; es el espacio donde compara cada una lo que se estrecha."
        ),
    ),
    "comprueba_respuesta_4": Varias(
        variable="respuesta_4",
        correcta=frozenset("abd"),
        opciones="abcde",
        explicacion=(
            "Con bloques idénticos, las h cabezas calculan las mismas Q, K y V: los h mapas son "
            "iguales (a), y cada fila de la concatenación repite h veces el mismo vector (b). "
            "Entonces Concat(head_1, …, head_h) W^O = head_1 W^O_1 + … + head_h W^O_h = "
            "head_1 (W^O_1 + … + W^O_h), donde W^O_i es el bloque de filas de la cabeza i (d). "
            "La pérdida no contiene ningún término que reparta papeles (c es "
            "falsa), y el número de parámetros no depende de sus valores (e es falsa)."
        ),
    ),
    "comprueba_respuesta_5": VerdaderoFalso(
        variable="respuesta_5",
        correcta=False,
        explicacion=(
            "Falso. Si cada cabeza tiene la anchura completa y W^O apila h copias de la identidad "
            "divididas entre h, concatenar y multiplicar por W^O da exactamente el promedio. "
            "Promediar es un valor concreto de W^O; aprender W^O permite ese punto y todos los "
            "demás, y no fuerza a que todas las cabezas compartan las coordenadas donde escriben."
        ),
    ),
    "comprueba_respuesta_6": Opcion(
        variable="respuesta_6",
        correcta="d",
        explicacion=(
            "Q = X W^Q mide (10, 512). El reshape separa las columnas en 8 bloques de 64 y da "
            "(10, 8, 64); la transposición pone las cabezas delante: (8, 10, 64). Así cada "
            "Q[i] es la matriz (T, d_k) de una cabeza y el producto por lotes con las claves "
            "transpuestas da las puntuaciones (8, 10, 10)."
        ),
    ),
    "comprueba_respuesta_7": Opcion(
        variable="respuesta_7",
        correcta="a",
        explicacion=(
            "NumPy rellena las formas leyendo la memoria fila a fila. Un reshape directo de "
            "(T, d_model) a (h, T, d_k) corta esa tira en trozos de d_k sin mirar de qué posición "
            "vienen, así que la primera cabeza se queda con los bloques de las primeras posiciones en "
            "vez de con el primer bloque de todas. Primero hay que partir las columnas, "
            "(T, h, d_k), y luego intercambiar los dos primeros ejes."
        ),
    ),
    "comprueba_respuesta_8": Entero(
        variable="respuesta_8",
        correcta=8 * 10 * 10,
        explicacion=(
            "Cada cabeza produce su propio mapa cuadrado de T × T = 100 puntuaciones, y hay 8 "
            "cabezas: el tensor de puntuaciones mide (8, 10, 10), es decir, 800 números. Los "
            "mapas no se reparten la frase: cada uno compara todas las posiciones con todas."
        ),
    ),
}
