# espera: parcial
# error: eje_de_lote
# celdas: contrato=0
# puntos: 9
# diagnostico: un eje de tamaño 1 que el contrato no tiene
# Error (del probador del juez): trabaja con un eje de lote como en PyTorch, X[None], y lo deja en lo que
# devuelve: salida (1, T, d_model) y A (1, h, T, T). Los valores están bien: sólo lo descuenta el contrato.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    Xb = np.asarray(X, dtype=np.float64)[None]                     # (1, T, d_model)
    B, T, d_model = Xb.shape
    d_k = d_model // h

    def cabezas(M):                                                # (1, T, d_model) -> (1, h, T, d_k)
        return M.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)

    Q, K, V = cabezas(Xb @ Wq), cabezas(Xb @ Wk), cabezas(Xb @ Wv)
    E = np.einsum("bhtk,bhsk->bhts", Q, K) / np.sqrt(d_k)
    E = E - E.max(axis=-1, keepdims=True)
    A = np.exp(E) / np.exp(E).sum(axis=-1, keepdims=True)          # (1, h, T, T)
    Z = np.einsum("bhts,bhsk->bthk", A, V).reshape(B, T, d_model)
    return Z @ Wo, A
