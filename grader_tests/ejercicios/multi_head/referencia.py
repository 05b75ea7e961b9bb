"""The reference implementation of ``multi_head`` (trusted side only).

Never importable from a student's kernel under autograde (the sandbox hides
every file of this folder but ``casos.py``); the judge computes it in the
TA's process.
"""
from __future__ import annotations

import numpy as np


def softmax_filas(puntuaciones: np.ndarray) -> np.ndarray:
    """Row-wise softmax of a (..., T, T) float array, stabilised by the row max."""
    desplazadas = puntuaciones - np.max(puntuaciones, axis=-1, keepdims=True)
    pesos = np.exp(desplazadas)
    return pesos / np.sum(pesos, axis=-1, keepdims=True)


def multi_head(X, Wq, Wk, Wv, Wo, h):
    """Reference multi-head attention (Vaswani et al. 2017, §3.2.2; lesson 1).

    Args:
        X: float (T, d_model).  Wq, Wk, Wv, Wo: float (d_model, d_model).
        h: number of heads, divides d_model; d_k = d_v = d_model // h.

    Returns:
        ``(salida, A)``: float64 (T, d_model) and float64 (h, T, T).
    """
    X = np.asarray(X, dtype=np.float64)
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv                           # (T, d_model) each
    Q, K, V = (M.reshape(T, h, d_k).transpose(1, 0, 2) for M in (Q, K, V))  # (h, T, d_k)
    A = softmax_filas(Q @ K.transpose(0, 2, 1) / np.sqrt(d_k))  # (h, T, T)
    cabezas = A @ V                                            # (h, T, d_k)
    concat = cabezas.transpose(1, 0, 2).reshape(T, d_model)    # (T, h*d_k)
    return concat @ Wo, A
