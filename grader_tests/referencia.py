"""The grader's own reference implementations (trusted side only).

Never importable from a student's kernel under autograde (the sandbox hides
this file); computed in the TA's process by ``juez``.
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


def positional_encoding(T, d_model):
    """Reference sinusoidal PE (Vaswani et al. 2017, §3.5; lesson 2).

    Returns float64 (T, d_model) with PE[pos, 2i] = sin(pos / 10000^(2i/d_model))
    and PE[pos, 2i+1] = cos(same angle); d_model even.
    """
    pos = np.arange(T, dtype=np.float64)[:, None]              # (T, 1)
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)   # (d_model/2,)
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(pos * omega)
    PE[:, 1::2] = np.cos(pos * omega)
    return PE
