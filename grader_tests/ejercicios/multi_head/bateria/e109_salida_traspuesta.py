# espera: parcial
# error: salida_traspuesta
# celdas: contrato=0
# Error: la capa bien, pero devuelve la salida como (d_model, T), Wo.T @ concat.T. Sólo lo descuenta el contrato.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    partes = lambda M: M.reshape(T, h, d_k).swapaxes(0, 1)     # (h, T, d_k)
    Q, K, V = partes(X @ Wq), partes(X @ Wk), partes(X @ Wv)
    E = np.einsum("htk,hsk->hts", Q, K) / d_k ** 0.5
    E = E - E.max(axis=2)[..., None]
    A = np.exp(E)
    A /= A.sum(axis=2)[..., None]
    concat = np.einsum("hts,hsk->thk", A, V).reshape(T, d_model)
    return Wo.T @ concat.T, A
