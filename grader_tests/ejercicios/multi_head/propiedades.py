"""What the cells of ``multi_head`` check, with their tolerance and points (trusted side only).

The contract (lesson 1, exercise): ``multi_head(X, Wq, Wk, Wv, Wo, h)``
returns the pair ``(salida, A)``, float64 arrays of shapes (T, d_model) and
(h, T, T), compared with ``np.allclose(rtol=1e-4, atol=1e-6)`` (float32
arithmetic inside passes).  Generalidad (h = 1, h = d_model, T = 1, odd d_k,
h = 5) is partly checked only at grading time, as the lesson says.
"""
from grader_tests.juez.propiedades import contrato, no_modifica, resultado, valores

RESULTADO = resultado(("salida", ("T", "d_model")), ("A", ("h", "T", "T")))
TOLERANCIA = {"rtol": 1e-4, "atol": 1e-6}

PROPIEDADES = {
    "contrato": contrato("forma y tipo de lo que devuelve"),
    "mapas": valores("los mapas de atención A", 3, parte="A"),
    "salida": valores("la salida final", 3, parte="salida"),
    "no_modifica": no_modifica("no escribir en los argumentos"),
    "robustez": valores("puntuaciones de más de mil sin nan ni inf", 1, no_repite=True),
    "generalidad": valores("formas poco habituales (h = 1, h = d_model, T = 1)", 1, no_repite=True,
                           solo_al_calificar=True),
}
