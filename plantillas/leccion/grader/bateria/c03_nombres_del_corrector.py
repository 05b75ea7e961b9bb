# espera: completo
# Correcta, con funciones auxiliares que se llaman como los nombres públicos de grader_tests
# (corregir, casos, especificacion...) y que usa: las pruebas ocultas no deben pisarlas ni
# llamarlas. El resto de nombres apunta a una trampa que falla si alguien la llama.
import numpy as np


def trampa(*args, **kwargs):
    raise RuntimeError("el corrector ha llamado a una función del alumno")


# --- nombres públicos de grader_tests (scripts/autores/nombres_del_corrector.py) ---
# --- fin de los nombres públicos ---


def casos(K):
    """La escala 1 / √d_k."""
    return 1.0 / np.sqrt(K.shape[1])


def corregir(Q, K):
    return Q @ K.T


def @@FUNCION@@(Q, K):
    return corregir(Q, K) * casos(K)
