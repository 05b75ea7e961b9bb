# Alumno de muestra cuyo cuaderno de la lección 1 lanza un error: antes de
# definir multi_head prueba una multiplicación con formas incompatibles, la
# celda se detiene y la función nunca llega a existir. El cuestionario, en
# cambio, está bien y debe puntuar: lo que se puede calificar, se califica.

# %% 01_atencion_multicabeza / multi_head
import numpy as np
prueba = np.ones((2, 3)) @ np.ones((2, 3))   # ValueError: formas (2,3) y (2,3)


def multi_head(X, Wq, Wk, Wv, Wo, h):
    return X @ Wo, np.ones((h, len(X), len(X))) / len(X)

# %% 01_atencion_multicabeza / quiz = correcto
