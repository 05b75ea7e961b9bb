# Alumna de muestra que pone la codificación posicional como [senos | cosenos]
# (la disposición de algunas bibliotecas) en lugar de intercalada.
# multi_head con einsum, correcto. Cuestionarios sin contestar.

# %% 01_atencion_multicabeza / multi_head
T, d_model = X.shape
d_k = d_model // h
Q = (X @ Wq).reshape(T, h, d_k)
K = (X @ Wk).reshape(T, h, d_k)
V = (X @ Wv).reshape(T, h, d_k)
E = np.einsum("thd,shd->hts", Q, K) / np.sqrt(d_k)       # (h, T, T)
E = E - E.max(axis=-1, keepdims=True)
A = np.exp(E)
A = A / A.sum(axis=-1, keepdims=True)
cabezas = np.einsum("hts,shd->thd", A, V).reshape(T, d_model)
return cabezas @ Wo, A

# %% 02_codificacion_posicional / positional_encoding
angulos = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2)[None, :] / d_model)
return np.concatenate([np.sin(angulos), np.cos(angulos)], axis=1)
