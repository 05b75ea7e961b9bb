# espera: completo
# Correcta: un doble bucle que calcula cada puntuación como un producto escalar.
import math

import numpy as np


def @@FUNCION@@(Q, K):
    T, d_k = len(Q), len(Q[0])
    S = np.zeros((T, len(K)))
    for t in range(T):
        for s in range(len(K)):
            S[t, s] = sum(Q[t][j] * K[s][j] for j in range(d_k)) / math.sqrt(d_k)
    return S
