# espera: parcial
# error: mapas_juntos
# celdas: contrato=0, mapas=0, robustez=0, generalidad=0
# diagnostico: uno al lado de otro
# Error (del probador del juez): junta los mapas con np.hstack, como junta las cabezas: A llega como (T, h·T).
# La salida está bien; los mapas no tienen una forma que se pueda leer, y las celdas de robustez y
# generalidad juzgan entonces los valores enteros (la regla de control).
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    d_k = X.shape[1] // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    mapas, salidas = [], []
    for j in range(h):
        sl = slice(j * d_k, (j + 1) * d_k)
        z = Q[:, sl] @ K[:, sl].T / np.sqrt(d_k)
        z = np.exp(z - z.max(axis=1, keepdims=True))
        z = z / z.sum(axis=1, keepdims=True)
        mapas.append(z)
        salidas.append(z @ V[:, sl])
    return np.hstack(salidas) @ Wo, np.hstack(mapas)
