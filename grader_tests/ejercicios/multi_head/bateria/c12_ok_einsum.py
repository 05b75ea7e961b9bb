# espera: completo
# Correcta (de las pruebas de alumnado): einsum con ejes nombrados
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = np.einsum("td,dhk->htk", X, Wq.reshape(d_model, h, d_k))
    K = np.einsum("td,dhk->htk", X, Wk.reshape(d_model, h, d_k))
    V = np.einsum("td,dhk->htk", X, Wv.reshape(d_model, h, d_k))
    S = np.einsum("hsk,htk->hst", Q, K) / np.sqrt(d_k)
    S = S - S.max(axis=2, keepdims=True)
    A = np.exp(S)
    A /= A.sum(axis=2, keepdims=True)
    O = np.einsum("hst,htk->shk", A, V).reshape(T, d_model)
    return np.einsum("sd,de->se", O, Wo), A
