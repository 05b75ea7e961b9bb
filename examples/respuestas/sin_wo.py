# Alumno de muestra que olvida la proyección de salida W^O; el resto, bien. En cualquier
# lección nueva comete un error conocido: el primero de la batería de su ejercicio, con el
# cuestionario acertado (`* / error conocido`).

# %% 01_atencion_multicabeza / multi_head
T, d_model = X.shape
d_k = d_model // h
Q = (X @ Wq).reshape(T, h, d_k).transpose(1, 0, 2)    # (h, T, d_k)
K = (X @ Wk).reshape(T, h, d_k).transpose(1, 0, 2)
V = (X @ Wv).reshape(T, h, d_k).transpose(1, 0, 2)
E = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)           # (h, T, T)
A = np.exp(E - np.max(E, axis=-1, keepdims=True))
A /= A.sum(axis=-1, keepdims=True)
concat = (A @ V).transpose(1, 0, 2).reshape(T, d_model)
return concat, A

# %% 01_atencion_multicabeza / quiz = correcto

# %% 02_codificacion_posicional / positional_encoding
PE = np.zeros((T, d_model))
divisor = np.exp(np.arange(0, d_model, 2) * (np.log(10000.0) / d_model))
PE[:, 0::2] = np.sin(np.arange(T)[:, None] / divisor)
PE[:, 1::2] = np.cos(np.arange(T)[:, None] / divisor)
return PE

# %% 02_codificacion_posicional / quiz = correcto

# %% * / error conocido
