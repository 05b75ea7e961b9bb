# espera: completo
# Correcta (de las pruebas de alumnado): pero lenta: todo con bucles de Python escalar a escalar (math.exp), listas y np.array al final
import numpy as np


import math


def multi_head(X, Wq, Wk, Wv, Wo, h):
    X = [[float(v) for v in fila] for fila in X]
    T, d_model = len(X), len(X[0])
    d_k = d_model // h

    def matmul(A, B):
        n, m, p = len(A), len(B), len(B[0])
        return [[sum(A[r][j] * B[j][c] for j in range(m)) for c in range(p)] for r in range(n)]

    Wq, Wk, Wv, Wo = ([[float(v) for v in fila] for fila in W] for W in (Wq, Wk, Wv, Wo))
    Q, K, V = matmul(X, Wq), matmul(X, Wk), matmul(X, Wv)
    mapas = []
    concat = [[0.0] * d_model for _ in range(T)]
    for i in range(h):
        A = []
        for s in range(T):
            e = [sum(Q[s][i * d_k + j] * K[t][i * d_k + j] for j in range(d_k)) / math.sqrt(d_k) for t in range(T)]
            m = max(e)
            p = [math.exp(x - m) for x in e]
            z = sum(p)
            A.append([x / z for x in p])
        mapas.append(A)
        for s in range(T):
            for j in range(d_k):
                concat[s][i * d_k + j] = sum(A[s][t] * V[t][i * d_k + j] for t in range(T))
    return np.array(matmul(concat, Wo), dtype=np.float64), np.array(mapas, dtype=np.float64)
