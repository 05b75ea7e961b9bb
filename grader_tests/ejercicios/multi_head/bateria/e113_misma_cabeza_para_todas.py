# espera: parcial
# error: misma_cabeza
# celdas: mapas=0, salida=0, no_modifica=0.3333
# Error (dos probadores de la nota, issue 22): todas las cabezas usan el bloque de la cabeza 0 (sus columnas de Q, K
# y V repetidas h veces). Con h = 2 usa la mitad de las columnas de V y cuenta como trabajo; con h = 3 y 4, un tercio
# y un cuarto, y no (una columna repetida no es una capa). La robustez y la generalidad buscan el trabajo en sus
# casos de control (h = 3, 2 y 4) y les basta uno; Validate hace lo mismo (antes decía «tampoco al calificar» y al
# calificar puntuaban). No modificar lo juzga caso a caso: 1 de 3.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h

    def separar(M):
        return (X @ M).reshape(T, h, d_k).transpose(1, 0, 2)
    Q, K, V = (np.repeat(separar(M)[:1], h, axis=0) for M in (Wq, Wk, Wv))
    E = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
    P = np.exp(E - E.max(axis=-1)[..., None])
    A = P / P.sum(axis=-1, keepdims=True)
    return (A @ V).transpose(1, 0, 2).reshape(T, d_model) @ Wo, A
