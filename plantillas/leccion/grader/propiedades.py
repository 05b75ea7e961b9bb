"""What the cells of ``@@FUNCION@@`` check, with their tolerance and points (trusted side only).

The contract (lesson @@NUMERO@@, exercise): ``@@FUNCION@@(Q, K)`` returns S,
a float64 array (T, T), compared with ``np.allclose(rtol=1e-6, atol=1e-6)``.
Generalidad (T = 1, d_k = 1) is partly checked only at grading time.
"""
from grader_tests.juez.propiedades import contrato, resultado, valores

RESULTADO = resultado(("S", ("T", "T")))
TOLERANCIA = {"rtol": 1e-6, "atol": 1e-6}

PROPIEDADES = {
    "contrato": contrato("forma y dtype"),
    "valores": valores("los valores de S", 2),
    "generalidad": valores("formas poco habituales (T = 1, d_k = 1)", 1, no_repite=True,
                           solo_al_calificar=True),
}
