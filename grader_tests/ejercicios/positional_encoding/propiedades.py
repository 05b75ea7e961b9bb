"""What the cells of ``positional_encoding`` check, with their tolerance and points (trusted side only).

The contract (lesson 2, exercise): ``positional_encoding(T, d_model)``
returns the table PE, a float64 array (T, d_model), compared with
``np.allclose(rtol=1e-6, atol=1e-6)`` (angles up to ~1000 rad need float64).
Generalidad (T = 1, d_model = 2) is partly checked only at grading time.
"""
from grader_tests.juez.propiedades import contrato, resultado, valores

RESULTADO = resultado(("PE", ("T", "d_model")))
TOLERANCIA = {"rtol": 1e-6, "atol": 1e-6}

PROPIEDADES = {
    "contrato": contrato("forma y dtype"),
    "valores": valores("los valores de PE", 3),
    "robustez": valores("muchas posiciones sin perder precisión", 1, no_repite=True),
    "generalidad": valores("formas poco habituales (T = 1, d_model = 2)", 1, no_repite=True,
                           solo_al_calificar=True),
}
