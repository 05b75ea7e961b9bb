"""The reference implementation of ``@@FUNCION@@`` (trusted side only; the sandbox hides it)."""
from __future__ import annotations

import numpy as np


def @@FUNCION@@(Q, K):
    """Scaled attention scores (Vaswani et al. 2017, §3.2.1; lesson @@NUMERO@@).

    Args:
        Q, K: float (T, d_k).

    Returns:
        float64 (T, T): S[t, s] = Q[t] · K[s] / √d_k.
    """
    Q = np.asarray(Q, dtype=np.float64)                        # (T, d_k)
    K = np.asarray(K, dtype=np.float64)                        # (T, d_k)
    return Q @ K.T / np.sqrt(K.shape[1])                       # (T, T)
