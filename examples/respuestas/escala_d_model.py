# Alumno de muestra que divide las puntuaciones entre √d_model en lugar de √d_k,
# y falla una pregunta del cuestionario de la lección 1. La lección 2, perfecta.

# %% 01_atencion_multicabeza / multi_head
T, d_model = X.shape
d_k = d_model // h
salidas, mapas = [], []
for i in range(h):
    cols = slice(i * d_k, (i + 1) * d_k)
    E = (X @ Wq[:, cols]) @ (X @ Wk[:, cols]).T / np.sqrt(d_model)
    E -= E.max(axis=1, keepdims=True)
    A_i = np.exp(E) / np.exp(E).sum(axis=1, keepdims=True)
    salidas.append(A_i @ (X @ Wv[:, cols]))
    mapas.append(A_i)
return np.hstack(salidas) @ Wo, np.array(mapas)

# %% 01_atencion_multicabeza / quiz = correcto
# %% 01_atencion_multicabeza / respuesta_2
respuesta_2 = 4 * 512 * 512 + 1

# %% 02_codificacion_posicional / positional_encoding
PE = np.empty((T, d_model))
for pos in range(T):
    for i in range(d_model // 2):
        angulo = pos / 10000 ** (2 * i / d_model)
        PE[pos, 2 * i] = np.sin(angulo)
        PE[pos, 2 * i + 1] = np.cos(angulo)
return PE

# %% 02_codificacion_posicional / quiz = correcto
