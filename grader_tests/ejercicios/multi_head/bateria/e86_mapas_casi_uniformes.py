# espera: parcial
# puntos: 1
# celdas: contrato=1, mapas=0, salida=0, no_modifica=0, robustez=0, generalidad=0
# diagnostico: Sin trabajo correcto, esta celda no puntúa
# Trampa (issue 19, tercer ataque): los mapas uniformes disfrazados. La softmax de 1e-9·q₀k₀ᵀ (una
# columna de Q y otra de K, encogidas hasta que el mapa vale 1/T salvo en la novena cifra) es, a efectos
# prácticos, el mapa uniforme, y la salida es cero. Una escala mil millones de veces menor que 1/√d_k
# no es un error de escala: no hay trabajo hecho.
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    puntuaciones = 1e-9 * np.outer(X @ Wq[:, 0], X @ Wk[:, 0])
    E = np.exp(puntuaciones - puntuaciones.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    return np.zeros((T, d_model)), np.stack([A] * h)
