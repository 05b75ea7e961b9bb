# espera: parcial
# error: complejos
# celdas: contrato=0
# diagnostico: con números complejos
# Error (del probador del juez): reserva los resultados con np.zeros(..., dtype=complex) y los rellena cabeza a
# cabeza; los valores (parte real) están bien y la parte imaginaria es 0. Sólo lo descuenta el contrato.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    A = np.zeros((h, T, T), dtype=complex)
    concat = np.zeros((T, d_model), dtype=complex)
    for i in range(h):
        c = slice(i * d_k, (i + 1) * d_k)
        q, k, v = X @ Wq[:, c], X @ Wk[:, c], X @ Wv[:, c]
        s = q @ k.T / np.sqrt(d_k)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        A[i] = e / e.sum(axis=-1, keepdims=True)
        concat[:, c] = A[i].real @ v
    return concat @ Wo, A
