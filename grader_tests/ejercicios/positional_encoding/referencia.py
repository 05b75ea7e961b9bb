"""The reference implementation of ``positional_encoding`` (trusted side only).

Never importable from a student's kernel under autograde (the sandbox hides
every file of this folder but ``casos.py``); the judge computes it in the
TA's process.
"""
from __future__ import annotations

import numpy as np


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
