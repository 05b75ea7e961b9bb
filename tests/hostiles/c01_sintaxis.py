"""Syntax error in the exercise cell (quiz right): the exercise scores 0."""
from . import entrega_normal

ESPERADO = "cuestionario"
RAZON = "positional_encoding"


def preparar(entrega):
    entrega_normal(entrega, "import numpy as np\n\ndef positional_encoding(T, d_model)\n    return np.zeros((T, d_model))\n")
