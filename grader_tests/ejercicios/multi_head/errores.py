"""The known mistakes of ``multi_head``, with their Spanish diagnoses (trusted side only).

Each one is a faulty implementation (or variants of it) or a detector; the
judge names it when the student's result matches (``grader_tests.juez.diagnostico``).
Every mistake has a battery file ``bateria/e*.py`` that makes it
(``# error: <id>``), and ``seccion`` is the heading of lesson 1 to revisit.
"""
from __future__ import annotations

import numpy as np

from grader_tests.juez.diagnostico import (ErrorConocido, coincide, como_array, devuelve_float32, devuelve_lista,
                                      devuelve_otra_precision, devuelve_subclase, escribe_en_argumentos, iguales,
                                      partes, resultado_constante, sin_ejes_de_tamano_1, con_ejes_de_tamano_1_de_mas, devuelve_complejos)

from .referencia import multi_head as referencia

ECUACIONES = "5. La capa, pieza a pieza"
ANCHURA = "6. Qué cuesta y qué no"
PROMEDIAR = "8. Promediar las cabezas o concatenarlas"
VECTORIZADA = "10. Todas las cabezas de una vez"
MASCARAS = "11. Lotes, máscaras y atención cruzada"
EJERCICIO = "Ejercicio: `multi_head`"


def _mh(X, Wq, Wk, Wv, Wo, h, *, escala="d_k", eje=-1, estable=True, division="bloques",
        fusion="bloques", wo=True, combinar="concatenar", consultas="Wq", claves="Wk",
        transpuesto=False, forma_A=(0, 1, 2), softmax=True, mascara=False):
    """Multi-head attention with one or more deliberate mistakes (keywords)."""
    X = np.asarray(X, dtype=np.float64)
    T, d_model = X.shape
    d_k = d_model // h
    pesos = {"Wq": Wq, "Wk": Wk}
    Q, K, V = X @ pesos[consultas], X @ pesos[claves], X @ Wv

    def separar(M):
        if division == "intercalado":
            return np.stack([M[:, i::h] for i in range(h)])
        if division == "reshape":
            return M.reshape(h, T, d_k)
        return M.reshape(T, h, d_k).transpose(1, 0, 2)

    Qh, Kh, Vh = separar(Q), separar(K), separar(V)
    E = Kh @ Qh.transpose(0, 2, 1) if transpuesto else Qh @ Kh.transpose(0, 2, 1)
    E = E / {"d_k": np.sqrt(d_k), "d_model": np.sqrt(d_model), "ninguna": 1.0}[escala]
    if mascara:                                                     # each position sees itself and the earlier ones
        E = np.where(np.tri(T, dtype=bool), E, -np.inf)
    if not softmax:
        A = E
    else:
        if estable:
            E = E - E.max(axis=eje, keepdims=True)
        Z = np.exp(E)
        A = Z / Z.sum(axis=eje, keepdims=True)
    if combinar == "promedio":
        concat = A.mean(axis=0) @ V
    elif combinar == "suma":
        concat = A.sum(axis=0) @ V
    else:
        cabezas = A @ Vh                                            # (h, T, d_k)
        if combinar == "inverso":
            cabezas = cabezas[::-1]
        if fusion == "reshape":
            concat = cabezas.reshape(T, d_model)
        elif fusion == "intercalado":
            concat = np.empty((T, d_model))
            for i in range(h):
                concat[:, i::h] = cabezas[i]
        else:
            concat = cabezas.transpose(1, 0, 2).reshape(T, d_model)
    salida = concat @ Wo if wo else concat
    return salida, A.transpose(forma_A)


def _sus_columnas(X, Wq, Wk, Wv, Wo, h):
    """Each head reads only its own d_k columns of X: Q_i = X[:, c] @ Wq[c, c] (and K_i, V_i the same)."""
    from .propiedades import _bloques_diagonales

    return _mh(X, _bloques_diagonales(np.asarray(Wq, dtype=np.float64), h),
               _bloques_diagonales(np.asarray(Wk, dtype=np.float64), h),
               _bloques_diagonales(np.asarray(Wv, dtype=np.float64), h), Wo, h)


def _calcula_con_lo_escrito(llamada, parte):
    """Values wrong and the call wrote into its arguments (an affine change: ``X -= X.mean(axis=0)``, ``X /= c``):
    what it computed after the writing used the changed values (issue 22, the seventh student's report B2-1)."""
    from .propiedades import entradas_posibles

    if llamada.excepcion is not None or not llamada.modificados or len(entradas_posibles(llamada)) < 2:
        return None
    nombres = llamada.nombres_modificados()
    lista = " y ".join(", ".join(f"`{n}`" for n in nombres).rsplit(", ", 1))
    M = nombres[0] if nombres else "X"
    return (f"tu función cambia {lista} en su sitio antes de calcular (`{M} -= ...`, `{M} /= ...`): lo que "
            "calcula después (las puntuaciones, V = X @ Wv, la salida) usa los valores cambiados, y quien la "
            f"llama pierde los suyos. Trabaja sobre un array nuevo (`{M} = {M} - ...`) o una copia "
            f"(`{M} = {M}.copy()`); si querías escalar las puntuaciones, divide Q_i @ K_i.T entre √d_k.")


def _variante(**opciones):
    def implementacion(X, Wq, Wk, Wv, Wo, h):
        return _mh(X, Wq, Wk, Wv, Wo, h, **opciones)
    return implementacion


def _softmax_filas(E):
    """Row softmax, as the faulty implementations below write it."""
    P = np.exp(E - np.max(E, axis=-1, keepdims=True))
    return P / np.sum(P, axis=-1, keepdims=True)


def _desplazado(X, Wq, Wk, Wv, Wo, h):
    """Head i takes columns i·d_k+1 … (i+1)·d_k (off by one), wrapping round at the end."""
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    salidas, mapas = [], []
    for i in range(h):
        columnas = (np.arange(i * d_k, (i + 1) * d_k) + 1) % d_model
        A_i = _softmax_filas(Q[:, columnas] @ K[:, columnas].T / np.sqrt(d_k))
        mapas.append(A_i)
        salidas.append(A_i @ V[:, columnas])
    return np.concatenate(salidas, axis=1) @ Wo, np.stack(mapas)


def _desplazado_recortado(X, Wq, Wk, Wv, Wo, h):
    """Head i uses Q[:, i*d_k+1:(i+1)*d_k+1]: the last head gets one column fewer
    and the concatenation, preallocated with zeros, keeps column 0 at zero."""
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    concat = np.zeros((T, d_model))
    mapas = []
    for i in range(h):
        b = slice(i * d_k + 1, (i + 1) * d_k + 1)
        A_i = _softmax_filas(Q[:, b] @ K[:, b].T / np.sqrt(d_k))
        mapas.append(A_i)
        concat[:, b] = A_i @ V[:, b]
    return concat @ Wo, np.stack(mapas)


def _softmax_global(X, Wq, Wk, Wv, Wo, h):
    """The softmax normalises each whole (T, T) map at once instead of each row."""
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    salidas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - np.max(E))
        A_i = P / np.sum(P)
        mapas.append(A_i)
        salidas.append(A_i @ V[:, b])
    return np.concatenate(salidas, axis=1) @ Wo, np.stack(mapas)


def _intercambiados(X, Wq, Wk, Wv, Wo, h):
    salida, A = referencia(X, Wq, Wk, Wv, Wo, h)
    return A, salida


def _h_ignorado(llamada, parte):
    X, Wq, Wk, Wv, Wo, h = llamada.argumentos
    d_model = X.shape[1]
    for otro in (2, 1, 3, 4, 8, 6, 5, 10):
        if otro == h or d_model % otro:
            continue
        if coincide(llamada, referencia(X, Wq, Wk, Wv, Wo, otro), parte):
            return (f"tu función no usa el argumento `h`: el resultado es el de h = {otro} cabezas y "
                    f"se pidieron h = {h}. Calcula d_k = d_model // h con el h que recibes (no con un "
                    "número fijo) y repite el bucle h veces.")
    return None


def _puntuaciones(argumentos) -> np.ndarray:
    """The reference's scaled scores Q_i·K_iᵀ/√d_k, (h, T, T)."""
    X, Wq, Wk, Wv, Wo, h = argumentos
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k).transpose(1, 0, 2)
    K = (X @ Wk).reshape(T, h, d_k).transpose(1, 0, 2)
    return Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)


def _puntuaciones_maximas(argumentos) -> float:
    return float(np.max(np.abs(_puntuaciones(argumentos))))


# np.exp overflows to inf past log(float64 max) ≈ 709.78
_DESBORDA = 709.78


def _miles(x: float) -> str:
    """``1736.4`` → ``"1736"``, ``12345`` → ``"12 345"`` (Spanish thousands)."""
    return f"{x:,.0f}".replace(",", " ") if x >= 10_000 else f"{x:.0f}"


def _sin_maximo(llamada, parte):
    """nan at large scores, and every row of A that did not overflow is right (max not subtracted).

    A wrong max (without keepdims, a global max) also gives nan, but its
    finite rows are wrong too: that is not this mistake.
    """
    valores = [como_array(p) for p in partes(llamada, llamada.resultado, parte)]
    if any(p is None for p in valores) or all(np.all(np.isfinite(p)) for p in valores):
        return None
    maxima = _puntuaciones_maximas(llamada.argumentos)
    if maxima < 300:
        return None
    A = como_array(partes(llamada, llamada.resultado, "A")[0])
    A_ref = llamada.referencia()[1]
    if A is None or A.shape != A_ref.shape:
        return None
    finitas = np.all(np.isfinite(A), axis=-1)
    if not np.allclose(A[finitas], A_ref[finitas], rtol=1e-4, atol=1e-6):
        return None
    arreglo = ("Resta E.max(axis=-1, keepdims=True) a las puntuaciones antes de exponenciar: el resultado no "
               "cambia, ninguna exponencial desborda y cada fila conserva un exp(0) = 1.")
    # a finite row whose scores reach past 709.78: something was subtracted, just not that row's max (the
    # whole matrix's, or every head's): the nan rows are rows whose every exp underflows to 0, and 0/0 = nan
    maximos_de_fila = _puntuaciones(llamada.argumentos).max(axis=-1)
    if maximos_de_fila.shape == finitas.shape and np.any(finitas & (maximos_de_fila > _DESBORDA)):
        return (f"la softmax no resta el máximo de cada fila antes de np.exp: resta un máximo que no es el de "
                f"su fila (el de toda la matriz de puntuaciones, o el de todas las cabezas). Aquí hay puntuaciones de hasta {_miles(maxima)}; en "
                "una fila cuyo máximo queda más de 745 por debajo de ese, np.exp da 0 en todas sus columnas "
                f"(subdesbordamiento) y 0/0 da nan. {arreglo}")
    return (f"la softmax no resta el máximo de cada fila antes de np.exp: aquí hay puntuaciones de "
            f"hasta {_miles(maxima)}, np.exp desborda a inf (ya con 710) e inf/inf da nan. {arreglo}")


def _max_sin_keepdims(X, Wq, Wk, Wv, Wo, h):
    """The row max is subtracted without keepdims: column t gets the max of row t."""
    T, d_model = X.shape
    d_k = d_model // h
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    salidas, mapas = [], []
    for i in range(h):
        b = slice(i * d_k, (i + 1) * d_k)
        E = Q[:, b] @ K[:, b].T / np.sqrt(d_k)
        P = np.exp(E - E.max(axis=1))
        A_i = P / P.sum(axis=1, keepdims=True)
        mapas.append(A_i)
        salidas.append(A_i @ V[:, b])
    return np.concatenate(salidas, axis=1) @ Wo, np.stack(mapas)


def _bloque_siguiente(solo_v: bool):
    """Head i uses the block of head (i + 1) % h (for Q, K and V, or only for V)."""
    def implementacion(X, Wq, Wk, Wv, Wo, h):
        T, d_model = X.shape
        d_k = d_model // h
        Q, K, V = X @ Wq, X @ Wk, X @ Wv
        salidas, mapas = [], []
        for i in range(h):
            propio = slice(i * d_k, (i + 1) * d_k)
            siguiente = slice(((i + 1) % h) * d_k, ((i + 1) % h + 1) * d_k)
            b = propio if solo_v else siguiente
            A_i = _softmax_filas(Q[:, b] @ K[:, b].T / np.sqrt(d_k))
            mapas.append(A_i)
            salidas.append(A_i @ V[:, siguiente])
        return np.concatenate(salidas, axis=1) @ Wo, np.stack(mapas)
    return implementacion


def _por_cabezas(X, Wq, Wk, Wv, Wo, h, *, pesos=lambda W: W, valores=None, eje=-1, wo=lambda W: W):
    """The heads' loop with a variation: transposed weights, V = X, softmax over another axis, Wo.T."""
    T, d_model = X.shape
    d_k = d_model // h
    Q, K = X @ pesos(Wq), X @ pesos(Wk)
    V = X @ pesos(Wv) if valores is None else valores(X)
    b = [slice(i * d_k, (i + 1) * d_k) for i in range(h)]
    E = np.stack([Q[:, s] @ K[:, s].T / np.sqrt(d_k) for s in b])          # (h, T, T)
    P = np.exp(E - E.max(axis=eje, keepdims=True))
    A = P / P.sum(axis=eje, keepdims=True)
    concat = np.concatenate([A[i] @ V[:, s] for i, s in enumerate(b)], axis=1)
    return concat @ wo(Wo), A


def _solo_mapas(cambio):
    """The output right, the maps changed (``cambio(A, puntuaciones)``)."""
    def implementacion(X, Wq, Wk, Wv, Wo, h):
        salida, A = referencia(X, Wq, Wk, Wv, Wo, h)
        T, d_model = X.shape
        d_k = d_model // h
        Q = (X @ Wq).reshape(T, h, d_k).transpose(1, 0, 2)
        K = (X @ Wk).reshape(T, h, d_k).transpose(1, 0, 2)
        return salida, cambio(A, Q @ K.transpose(0, 2, 1) / np.sqrt(d_k))
    return implementacion


def _valores_con(nombre: str):
    """V projected with W^Q or W^K instead of W^V (copy and paste); the maps right."""
    def implementacion(X, Wq, Wk, Wv, Wo, h):
        W = {"Wq": Wq, "Wk": Wk}[nombre]
        return _por_cabezas(X, Wq, Wk, Wv, Wo, h, valores=lambda X: X @ W)
    return implementacion


def _valores_escalados(X, Wq, Wk, Wv, Wo, h):
    """V divided by √d_k too (the scale belongs to the scores only): the output √d_k times smaller."""
    d_k = X.shape[1] // h
    return _por_cabezas(X, Wq, Wk, Wv, Wo, h, valores=lambda X: X @ Wv / np.sqrt(d_k))


def _proyectadas(X, Wq, Wk, Wv, Wo, h, *, bloque_fijo: bool, media: bool):
    """Each head projected with rows of W^O and the projections added (the reference when both are False):
    always the rows of block 0 (``bloque_fijo``), or averaged instead of added (``media``)."""
    T, d_model = X.shape
    d_k = d_model // h
    _, A = referencia(X, Wq, Wk, Wv, Wo, h)
    V = X @ Wv
    b = [slice(i * d_k, (i + 1) * d_k) for i in range(h)]
    proyectadas = [A[i] @ V[:, s] @ Wo[b[0] if bloque_fijo else s] for i, s in enumerate(b)]
    return (np.mean(proyectadas, axis=0) if media else np.sum(proyectadas, axis=0)), A


def _con_residual(X, Wq, Wk, Wv, Wo, h):
    """The layer right, with X added to its output (a residual connection)."""
    salida, A = referencia(X, Wq, Wk, Wv, Wo, h)
    return salida + np.asarray(X, dtype=np.float64), A


def _con_X_normalizada(eje: int, epsilon: float):
    """The layer right on X standardised first (mean 0, variance 1, ``epsilon`` added to the variance)
    along ``eje``: -1 for each position, a layer normalisation before the layer (pre-LN); 0 for each
    column.  The usual ε (0, 1e-6, 1e-5) change the result beyond the tolerance: one variant each."""
    def implementacion(X, Wq, Wk, Wv, Wo, h):
        X = np.asarray(X, dtype=np.float64)
        X = (X - X.mean(axis=eje, keepdims=True)) / np.sqrt(X.var(axis=eje, keepdims=True) + epsilon)
        return referencia(X, Wq, Wk, Wv, Wo, h)
    return implementacion


_X_NORMALIZADA = tuple(_con_X_normalizada(eje, epsilon) for eje in (-1, 0) for epsilon in (0.0, 1e-6, 1e-5))
_EXPLICACION_X_NORMALIZADA = (
    "normalizas X antes de proyectarla (media 0 y varianza 1 en cada fila, la normalización de capa, o en cada "
    "columna). Esa normalización es del bloque completo del Transformer, fuera de la atención (la lección la deja "
    "fuera); multi_head proyecta la X tal como llega: Q = X @ Wq, K = X @ Wk, V = X @ Wv.")


def x_normalizada(llamada, parte):
    """Detector: the result is the layer computed on X standardised by rows or by columns (``_X_NORMALIZADA``).

    A detector, not an implementation: the layer on another X is not work with the inputs passed (unlike
    the honest mistakes above, which keep it: tests/test_diagnostico.py), so it is only named; written in
    place, the work is read with X as the call left it (``propiedades.entradas_posibles``).
    """
    for implementacion in _X_NORMALIZADA:
        if coincide(llamada, implementacion(*llamada.argumentos), parte):
            return _EXPLICACION_X_NORMALIZADA
    return None


def _misma_cabeza(X, Wq, Wk, Wv, Wo, h):
    """Every head computed with head 0's columns of Q, K and V (its block repeated h times)."""
    X = np.asarray(X, dtype=np.float64)
    T, d_model = X.shape
    d_k = d_model // h
    b = slice(0, d_k)
    A0 = _softmax_filas((X @ Wq)[:, b] @ (X @ Wk)[:, b].T / np.sqrt(d_k))
    return np.concatenate([A0 @ (X @ Wv)[:, b]] * h, axis=1) @ Wo, np.stack([A0] * h)


def misma_cabeza(llamada, parte):
    """Detector: every head uses head 0's block (``_misma_cabeza``).  A detector, not an implementation: with
    h ≥ 3 its output uses less than half of V's columns, which is no work (``propiedades``), so it is only
    named (tests/test_diagnostico.py keeps the implementations of the honest mistakes, which keep their work)."""
    if coincide(llamada, _misma_cabeza(*llamada.argumentos), parte):
        return ("todas tus cabezas usan el bloque de la cabeza 0 (las mismas columnas de Q, K y V), así que "
                "todas dan el mismo mapa: la cabeza i usa sus propias columnas, Q[:, i*d_k:(i+1)*d_k] (igual "
                "K y V).")
    return None


def _salida_traspuesta(X, Wq, Wk, Wv, Wo, h):
    """The layer right, the output returned transposed, (d_model, T)."""
    salida, A = referencia(X, Wq, Wk, Wv, Wo, h)
    return salida.T.copy(), A


def _salida_con_mapas_traspuestos(X, Wq, Wk, Wv, Wo, h):
    """The maps returned right, the output computed with each map transposed (A_i.T @ V_i)."""
    T, d_model = X.shape
    d_k = d_model // h
    _, A = referencia(X, Wq, Wk, Wv, Wo, h)
    V = (X @ Wv).reshape(T, h, d_k).transpose(1, 0, 2)
    return (A.transpose(0, 2, 1) @ V).transpose(1, 0, 2).reshape(T, d_model) @ Wo, A


_SIN_SOFTMAX = (_variante(softmax=False), _variante(softmax=False, escala="ninguna"))


def _sin_softmax(llamada, parte):
    """No softmax anywhere: the maps are the scores and the output is computed with them (the whole result).

    Looked at on the whole result, not on the cell's part: returning the
    scores as A next to a right output is ``mapas_sin_softmax``.
    """
    if any(coincide(llamada, f(*llamada.argumentos)) for f in _SIN_SOFTMAX):
        return ("no aplicas la softmax: tus mapas son las puntuaciones Q_i K_iᵀ (divididas o no entre √d_k), "
                "con valores negativos y filas que no suman 1, y con ellas calculas la salida. Cada mapa es "
                "softmax(Q_i K_iᵀ / √d_k) fila a fila: resta a cada fila su máximo, aplica np.exp y divide "
                "entre la suma de la fila; ese mapa es el que multiplicas por V_i.")
    return None


def _dropout_en_la_salida(llamada, parte):
    """The output is the reference's with some entries set to 0 and the rest scaled by one factor k ≥ 1
    (dropout, or a random mask, applied to the output; cells of the output)."""
    if parte == "A":
        return None
    valores, referencias = partes(llamada, llamada.resultado), partes(llamada, llamada.referencia())
    if len(valores) != 2 or len(referencias) != 2:
        return None
    salida, esperada = como_array(valores[0]), np.asarray(referencias[0], dtype=np.float64)
    if salida is None or salida.shape != esperada.shape or not np.all(np.isfinite(salida)):
        return None
    salida = salida.astype(np.float64)
    vivas = np.abs(esperada) > 1e-6
    apagadas = vivas & (salida == 0)
    quedan = vivas & (salida != 0)
    if not apagadas.any() or quedan.sum() < max(2, apagadas.sum()):
        return None
    k = float(np.median(salida[quedan] / esperada[quedan]))
    if k < 1 - 1e-9 or not iguales(salida[quedan], k * esperada[quedan]):
        return None
    return (f"aplicas dropout (o una máscara al azar) a la salida: {int(apagadas.sum())} de sus {salida.size} "
            f"valores valen 0 y los demás son los esperados multiplicados por {k:.3g}. multi_head calcula la "
            "capa tal cual, sin nada al azar: el dropout se aplica al entrenar, fuera de esta función.")


def _mapas_juntos(llamada, parte):
    """A is the h maps side by side, (T, h·T), or one under another, (h·T, T), each right."""
    valores, referencias = partes(llamada, llamada.resultado), partes(llamada, llamada.referencia())
    if len(valores) != 2 or len(referencias) != 2:
        return None
    A, esperado = como_array(valores[1]), np.asarray(referencias[1], dtype=np.float64)
    h, T, _ = esperado.shape
    if A is None or A.ndim != 2 or h < 2:
        return None
    if A.shape == (T, h * T) and iguales(A.reshape(T, h, T).transpose(1, 0, 2), esperado):
        como = "uno al lado de otro, (T, h·T) (np.hstack o np.concatenate(..., axis=1))"
    elif A.shape == (h * T, T) and iguales(A.reshape(h, T, T), esperado):
        como = "uno debajo de otro, (h·T, T) (np.vstack o np.concatenate)"
    else:
        return None
    return (f"devuelves los mapas de las cabezas {como}: cada mapa está bien, pero A debe tener forma "
            "(h, T, T), un mapa por cabeza en el primer eje: apílalos con np.stack(mapas).")


def _mapas_con_negativos(llamada, parte):
    """Some map has negative entries, and no other mistake about the softmax explains it (cells of A)."""
    if parte == "salida":
        return None
    A = como_array(partes(llamada, llamada.resultado, "A")[0])
    if A is None or A.shape != llamada.referencia()[1].shape or not np.all(np.isfinite(A)) or not np.any(A < -1e-9):
        return None
    if _sin_softmax(llamada, parte) or _mapas_sin_softmax(llamada, parte):
        return None
    return ("tus mapas tienen valores negativos, así que no son los pesos de una softmax: ¿falta la softmax? "
            "Cada mapa es softmax(Q_i K_iᵀ / √d_k) fila a fila: todos sus valores son positivos y cada fila "
            "suma 1.")


def _mapas_sin_softmax(llamada, parte):
    """The maps returned are the scores Q_i·K_iᵀ/√d_k, the output is not computed with them.

    When the output is computed with those same scores too, the mistake is
    ``sin_softmax`` (no softmax anywhere), not this one.
    """
    argumentos = llamada.argumentos
    if any(coincide(llamada, f(*argumentos)) for f in _SIN_SOFTMAX):
        return None
    if coincide(llamada, _solo_mapas(lambda A, E: E)(*argumentos), parte):
        return ("devuelves como A las puntuaciones Q_i K_iᵀ / √d_k, antes de la softmax: A son los pesos "
                "después de la softmax (cada fila suma 1), los mismos que multiplicas por V.")
    return None


def _solo_v(X, Wq, Wk, Wv, Wo, h):
    """Maps with contiguous blocks, values V[:, i::h]."""
    salida, A = referencia(X, Wq, Wk, Wv, Wo, h)
    V = X @ Wv
    concat = np.concatenate([A[i] @ V[:, i::h] for i in range(h)], axis=1)
    return concat @ Wo, A


def _grandes_sin_nan(llamada, parte):
    """Large scores, finite but wrong result, right on ordinary scale: scores clipped or nan replaced.

    Not when the cell's controls fail (``Llamada.controles_fallan``): a function
    already wrong on ordinary inputs is not wrong because of the large scores
    (issue 19, ninth attack: raw scores and a zero output were told «¿recortas
    las puntuaciones?»).  Nor when the maps are not weights (a negative entry,
    a row that sums neither 1 nor 0).
    """
    if getattr(llamada, "controles_fallan", False):
        return None
    valores = [como_array(p) for p in partes(llamada, llamada.resultado, parte)]
    if any(p is None for p in valores) or not all(np.all(np.isfinite(p)) for p in valores):
        return None
    if _puntuaciones_maximas(llamada.argumentos) < 300:
        return None
    A = como_array(partes(llamada, llamada.resultado, "A")[0])
    A_ref = llamada.referencia()[1]
    if A is None or A.shape != A_ref.shape or iguales(A, A_ref):
        return None
    sumas = A.sum(axis=-1)
    if np.any(A < -1e-9) or not np.all(np.isclose(sumas, 1, atol=1e-6) | np.isclose(sumas, 0, atol=1e-6)):
        return None
    return (f"con puntuaciones grandes (aquí hasta {_miles(_puntuaciones_maximas(llamada.argumentos))}) "
            "tus mapas no coinciden aunque no haya nan: ¿recortas las puntuaciones (np.clip) o cambias "
            "los nan por números (np.nan_to_num)? Eso cambia el resultado. Lo que no lo cambia es restar "
            "el máximo de cada fila antes de exponenciar: E - E.max(axis=-1, keepdims=True).")


def _mitades(X, Wq, Wk, Wv, Wo, h):
    """Each head's scores computed as two halves of d_k // 2 columns: with odd d_k one column is lost."""
    T, d_model = X.shape
    d_k = d_model // h
    m = d_k // 2
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    salidas, mapas = [], []
    for i in range(h):
        q, k = Q[:, i * d_k:(i + 1) * d_k], K[:, i * d_k:(i + 1) * d_k]
        E = (q[:, :2 * m] @ k[:, :2 * m].T if m else q @ k.T) / np.sqrt(d_k)
        A_i = _softmax_filas(E)
        mapas.append(A_i)
        salidas.append(A_i @ V[:, i * d_k:(i + 1) * d_k])
    return np.concatenate(salidas, axis=1) @ Wo, np.stack(mapas)


def _divisor_efectivo(llamada):
    """The number the scores are divided by, read off the maps (None if no single one fits).

    log A_i is the row of scores up to a constant: centred per row, the
    student's equals c times the reference's; the divisor is √d_k / c.
    """
    A = como_array(partes(llamada, llamada.resultado, "A")[0])
    X, Wq, Wk, Wv, Wo, h = llamada.argumentos
    A_ref = llamada.referencia()[1]
    if A is None or A.shape != A_ref.shape or not np.all(np.isfinite(A)) or np.any(A <= 0):
        return None
    L, L_ref = np.log(A), np.log(A_ref)
    L, L_ref = L - L.mean(axis=-1, keepdims=True), L_ref - L_ref.mean(axis=-1, keepdims=True)
    norma = float(np.sum(L_ref ** 2))
    if norma < 1e-12:
        return None
    c = float(np.sum(L * L_ref) / norma)
    if c <= 0 or not np.allclose(L, c * L_ref, rtol=1e-4, atol=1e-6) or abs(c - 1) < 1e-6:
        return None
    return np.sqrt(X.shape[1] // h) / c


def _escala_equivocada(llamada, parte):
    X, Wq, Wk, Wv, Wo, h = llamada.argumentos
    T, d_model = X.shape
    d_k = d_model // h
    divisor = _divisor_efectivo(llamada)
    if divisor is None:
        return None
    if abs(divisor - 1) < 1e-3 or abs(divisor - np.sqrt(d_model)) < 1e-3 * np.sqrt(d_model):
        return None                 # «sin escala» and «escala √d_model» say it in their own words
    candidatos = [("√h", np.sqrt(h)), ("d_k sin la raíz", float(d_k)),
                  ("2·d_k: `E / d_k ** 1/2` divide entre d_k y luego entre 2", 2.0 * d_k),
                  ("√(T // 2)", np.sqrt(T // 2)), ("√T", np.sqrt(T)), ("√2, un número fijo", np.sqrt(2)),
                  ("√(d_model // 3), con h = 3 fijo", np.sqrt(d_model // 3)), ("h", float(h))]
    nombres = [n for n, v in candidatos if abs(v - divisor) < 1e-3 * max(1.0, v)]
    que = f"entre {divisor:.4g}" + (f" ({' o '.join(nombres)})" if nombres else "")
    return (f"divides las puntuaciones {que} en lugar de entre √d_k = √{d_k} ≈ {np.sqrt(d_k):.4g} "
            f"(aquí T = {T}, d_model = {d_model}, h = {h}). La escala se calcula con los argumentos: "
            "d_k = d_model // h y np.sqrt(d_k), sin números fijos.")


def _excepcion_d_k(llamada, parte):
    exc = llamada.excepcion or {}
    mensaje = str(exc.get("mensaje", ""))
    claves = ("slice indices must be integers", "cannot be interpreted as an integer",
              "only integers, slices", "must be an integer", "integer argument expected")
    if exc.get("clase") in ("TypeError", "IndexError") and any(c in mensaje for c in claves):
        return ("d_k = d_model / h es un float (p. ej. 4.0) y un float no sirve como índice, como "
                "límite de un slice ni como forma de reshape: usa la división entera d_k = d_model // h.")
    return None


def _excepcion_formas(llamada, parte):
    exc = llamada.excepcion or {}
    mensaje = str(exc.get("mensaje", ""))
    if exc.get("clase") == "ValueError" and ("matmul" in mensaje or "shapes" in mensaje
                                               or "broadcast" in mensaje):
        return ("alguna operación recibe formas que no encajan: imprime el .shape de cada operando. "
                "Q_i, K_i y V_i deben ser (T, d_k); cada mapa (T, T); la concatenación de las h "
                "cabezas (T, d_model) antes de multiplicar por Wo.")
    return None


_INTERCALADAS = ("tomas las columnas de cada cabeza intercaladas (Q[:, i::h]) en lugar de en bloques "
                 "contiguos: la cabeza i usa las columnas [i·d_k, (i+1)·d_k), es decir "
                 "Q[:, i*d_k:(i+1)*d_k].")
_RESHAPE = ("separas las cabezas con un reshape(h, T, d_k) directo: eso reparte las filas "
            "(posiciones) entre cabezas. Haz reshape(T, h, d_k) y después transpose(1, 0, 2); "
            "compruébalo: la cabeza 0 debe ser Q[:, :d_k].")

ERRORES = [
    # a stub that computes nothing: only the contract can score (points only for work done)
    ErrorConocido(id="sin_calcular", nombre="no calcula nada", seccion=EJERCICIO, detector=resultado_constante),
    # only in the cell that checks the arguments (no_modifica)
    ErrorConocido(id="escribe_en_argumentos", nombre="escribe en los argumentos", seccion=EJERCICIO,
                  categoria="argumentos", detector=escribe_en_argumentos, solo_en="argumentos"),
    ErrorConocido(id="calcula_con_argumentos_cambiados", nombre="calcula con los argumentos cambiados",
                  seccion=EJERCICIO, detector=_calcula_con_lo_escrito, solo_en="valores"),
    ErrorConocido(
        id="cabezas_con_sus_columnas", nombre="cada cabeza lee sólo sus columnas de X", seccion=ECUACIONES,
        explicacion="cada cabeza lee sólo sus d_k columnas de X (`X[:, c] @ Wq[c, c]`): es la idea de la opción "
                    "a de la pregunta 3, y no es así. Cada cabeza ve la X entera, con todas sus d_model columnas, "
                    "y toma sus d_k columnas de las proyecciones: Q_i = X @ Wq[:, c] (igual K_i y V_i), con "
                    "c = slice(i*d_k, (i+1)*d_k).",
        implementacion=_sus_columnas),
    ErrorConocido(
        id="escala_d_model", nombre="escala √d_model", seccion=ECUACIONES,
        explicacion="divides las puntuaciones entre √d_model en lugar de entre √d_k (d_k = d_model // h): "
                    "con h > 1 tus mapas salen más planos de lo debido (con h = 1 coinciden).",
        implementacion=_variante(escala="d_model")),
    ErrorConocido(
        id="sin_escala", nombre="sin escala", seccion=ECUACIONES,
        explicacion="no divides las puntuaciones Q_i K_iᵀ entre √d_k: tus mapas salen más picudos "
                    "(más cerca de 0 y de 1) de lo debido.",
        implementacion=_variante(escala="ninguna")),
    ErrorConocido(
        id="softmax_columnas", nombre="softmax por columnas", seccion=ECUACIONES,
        explicacion="aplicas la softmax por columnas en lugar de por filas: cada fila de cada mapa debe "
                    "sumar 1. Compruébalo con A.sum(axis=-1) y usa axis=-1 en el máximo y en la suma.",
        implementacion=_variante(eje=-2)),
    ErrorConocido(
        id="softmax_global", nombre="softmax sobre todo el mapa", seccion=ECUACIONES,
        explicacion="aplicas la softmax sobre todo el mapa (T, T) a la vez en lugar de fila por fila: "
                    "el mapa entero suma 1 y cada fila mucho menos. El máximo y la suma deben ir por "
                    "filas, con axis=-1 y keepdims=True; compruébalo con A.sum(axis=-1), que debe dar "
                    "todo unos.",
        implementacion=_softmax_global),
    ErrorConocido(id="sin_maximo", nombre="sin restar el máximo", seccion=ECUACIONES,
                  categoria="robustez", detector=_sin_maximo),
    ErrorConocido(
        id="maximo_sin_keepdims", nombre="máximo sin keepdims", seccion=ECUACIONES,
        explicacion="restas el máximo de las puntuaciones sin keepdims=True: E.max(axis=1) tiene forma "
                    "(T,) y NumPy la resta por columnas (a la columna t le quita el máximo de la fila t), "
                    "así que cada fila ya no se desplaza por su propio máximo. Usa "
                    "E - E.max(axis=-1, keepdims=True).",
        implementacion=_max_sin_keepdims),
    ErrorConocido(
        id="escala_equivocada", nombre="escala equivocada", seccion=ECUACIONES,
        detector=_escala_equivocada),
    ErrorConocido(
        id="columna_perdida_con_d_k_impar", nombre="una columna perdida con d_k impar", seccion=ANCHURA,
        explicacion="con d_k impar una columna de cada cabeza no entra en sus puntuaciones (¿partes el "
                    "bloque en dos mitades de d_k // 2?): Q_i K_iᵀ usa las d_k columnas del bloque, "
                    "sea d_k par o impar.",
        implementacion=_mitades),
    ErrorConocido(
        id="valores_intercalados", nombre="V con columnas intercaladas", seccion=ECUACIONES,
        explicacion="los mapas están bien, pero cada cabeza toma sus valores con columnas intercaladas "
                    "(V[:, i::h]): la cabeza i usa el mismo bloque contiguo en Q, K y V, "
                    "V[:, i*d_k:(i+1)*d_k].",
        implementacion=lambda X, Wq, Wk, Wv, Wo, h: _solo_v(X, Wq, Wk, Wv, Wo, h)),
    ErrorConocido(id="puntuaciones_recortadas", nombre="puntuaciones recortadas o nan sustituidos",
                  seccion=ECUACIONES, categoria="robustez", detector=_grandes_sin_nan),
    ErrorConocido(
        id="sin_wv", nombre="sin W^V", seccion=ECUACIONES,
        explicacion="cada cabeza lee los valores de X directamente (X[:, bloque]) en lugar de proyectarlos "
                    "con Wv: V = X @ Wv y la cabeza i usa V[:, i*d_k:(i+1)*d_k].",
        implementacion=lambda X, Wq, Wk, Wv, Wo, h: _por_cabezas(X, Wq, Wk, Wv, Wo, h, valores=lambda X: X)),
    ErrorConocido(
        id="valores_con_wq", nombre="V con Wq", seccion=ECUACIONES,
        explicacion="los mapas están bien, pero los valores salen de Wq (V = X @ Wq): cada matriz tiene su "
                    "papel y V se proyecta con la suya, V = X @ Wv.",
        implementacion=_valores_con("Wq")),
    ErrorConocido(
        id="valores_con_wk", nombre="V con Wk", seccion=ECUACIONES,
        explicacion="los mapas están bien, pero los valores salen de Wk (V = X @ Wk): cada matriz tiene su "
                    "papel y V se proyecta con la suya, V = X @ Wv.",
        implementacion=_valores_con("Wk")),
    ErrorConocido(
        id="valores_escalados", nombre="V dividida entre √d_k", seccion=ECUACIONES,
        explicacion="divides entre √d_k también después de la softmax (los valores, los mapas o la salida de "
                    "las cabezas): la escala sólo toca las puntuaciones, Q_i K_iᵀ / √d_k, antes de la softmax; "
                    "V = X @ Wv tal cual.",
        implementacion=_valores_escalados),
    ErrorConocido(
        id="mismo_bloque_de_wo", nombre="el mismo bloque de Wo en todas las cabezas", seccion=ECUACIONES,
        explicacion="proyectas cada cabeza con las mismas filas de Wo (Wo[:d_k]) y sumas: si proyectas por "
                    "cabezas, la cabeza i usa sus propias filas, Wo[i*d_k:(i+1)*d_k] (sumar así es lo mismo "
                    "que concat @ Wo).",
        implementacion=lambda X, Wq, Wk, Wv, Wo, h: _proyectadas(X, Wq, Wk, Wv, Wo, h, bloque_fijo=True,
                                                                 media=False)),
    ErrorConocido(
        id="cabezas_proyectadas_promediadas", nombre="cabezas proyectadas y promediadas", seccion=PROMEDIAR,
        explicacion="proyectas cada cabeza con sus filas de Wo y después las promedias: la salida sale h "
                    "veces menor. Las cabezas proyectadas se suman (es lo mismo que concat @ Wo), no se "
                    "promedian.",
        implementacion=lambda X, Wq, Wk, Wv, Wo, h: _proyectadas(X, Wq, Wk, Wv, Wo, h, bloque_fijo=False,
                                                                 media=True)),
    ErrorConocido(
        id="salida_con_mapas_traspuestos", nombre="salida con los mapas traspuestos", seccion=ECUACIONES,
        explicacion="los mapas que devuelves están bien, pero cada cabeza multiplica V por su mapa traspuesto "
                    "(A_i.T @ V_i): la cabeza i da A_i @ V_i, con la fila t de A_i (la consulta t) "
                    "repartiendo su peso entre las filas de V_i.",
        implementacion=_salida_con_mapas_traspuestos),
    ErrorConocido(
        id="wo_transpuesta", nombre="Wo transpuesta", seccion=ECUACIONES,
        explicacion="multiplicas la concatenación por Wo.T en lugar de por Wo: salida = concat @ Wo.",
        implementacion=lambda X, Wq, Wk, Wv, Wo, h: _por_cabezas(X, Wq, Wk, Wv, Wo, h, wo=lambda W: W.T)),
    ErrorConocido(
        id="pesos_transpuestos", nombre="pesos transpuestos", seccion=ECUACIONES,
        explicacion="proyectas con los pesos transpuestos (X @ Wq.T, X @ Wk.T, X @ Wv.T): las "
                    "proyecciones son Q = X @ Wq, K = X @ Wk y V = X @ Wv (X por la derecha).",
        implementacion=lambda X, Wq, Wk, Wv, Wo, h: _por_cabezas(X, Wq, Wk, Wv, Wo, h, pesos=lambda W: W.T)),
    ErrorConocido(
        id="softmax_entre_cabezas", nombre="softmax entre cabezas", seccion=VECTORIZADA,
        explicacion="aplicas la softmax sobre el eje de las cabezas (axis=0 del array (h, T, T)): cada "
                    "fila de cada mapa debe sumar 1, así que la softmax va sobre el último eje, axis=-1.",
        implementacion=lambda X, Wq, Wk, Wv, Wo, h: _por_cabezas(X, Wq, Wk, Wv, Wo, h, eje=0)),
    ErrorConocido(id="mapas_sin_softmax", nombre="mapas sin softmax", seccion=ECUACIONES,
                  detector=_mapas_sin_softmax),
    ErrorConocido(id="sin_softmax", nombre="sin softmax", seccion=ECUACIONES, detector=_sin_softmax),
    ErrorConocido(id="mapas_juntos", nombre="mapas uno al lado de otro", seccion=EJERCICIO, detector=_mapas_juntos),
    ErrorConocido(id="dropout_en_la_salida", nombre="dropout en la salida", seccion=EJERCICIO,
                  detector=_dropout_en_la_salida),
    ErrorConocido(id="mapas_con_negativos", nombre="mapas con valores negativos", seccion=ECUACIONES,
                  detector=_mapas_con_negativos),
    ErrorConocido(
        id="mapas_devueltos_transpuestos", nombre="mapas devueltos transpuestos", seccion=ECUACIONES,
        explicacion="tu salida está bien, pero devuelves cada mapa transpuesto (A_i.T): la fila t de A_i "
                    "es la consulta t y debe sumar 1; devuelve los mismos mapas que multiplicas por V.",
        implementacion=_solo_mapas(lambda A, E: A.transpose(0, 2, 1))),
    ErrorConocido(
        id="mapas_en_orden_inverso", nombre="mapas en orden inverso", seccion=ECUACIONES,
        explicacion="tu salida está bien, pero devuelves los mapas en orden inverso: A[0] es el mapa de la "
                    "cabeza 0 (la de las columnas 0 … d_k-1), A[1] el de la 1, y así sucesivamente.",
        implementacion=_solo_mapas(lambda A, E: A[::-1])),
    ErrorConocido(id="sin_ejes_de_tamano_1", nombre="sin los ejes de tamaño 1", seccion=EJERCICIO,
                  categoria="generalidad", detector=sin_ejes_de_tamano_1),
    ErrorConocido(id="eje_de_lote", nombre="un eje de tamaño 1 de más", seccion=EJERCICIO,
                  detector=con_ejes_de_tamano_1_de_mas),
    ErrorConocido(id="complejos", nombre="números complejos", seccion=EJERCICIO, detector=devuelve_complejos),
    ErrorConocido(id="otra_precision", nombre="otra precisión", seccion=EJERCICIO,
                  detector=devuelve_otra_precision("convierte al final con .astype(np.float64).")),
    ErrorConocido(
        id="bloque_siguiente", nombre="cada cabeza con el bloque de la siguiente", seccion=ECUACIONES,
        explicacion="cada cabeza usa el bloque de columnas de la cabeza siguiente (la cabeza i el bloque "
                    "(i+1) % h): la cabeza 0 debe usar las columnas 0 … d_k-1, es decir, "
                    "Q[:, i*d_k:(i+1)*d_k] con su propio i.",
        implementacion=_bloque_siguiente(solo_v=False)),
    ErrorConocido(
        id="valores_del_bloque_siguiente", nombre="V del bloque de la siguiente cabeza",
        seccion=ECUACIONES,
        explicacion="los mapas están bien, pero cada cabeza lee los valores del bloque de la cabeza "
                    "siguiente (V[:, (i+1)*d_k:(i+2)*d_k]): la cabeza i multiplica su mapa por su propio "
                    "bloque, V[:, i*d_k:(i+1)*d_k].",
        implementacion=_bloque_siguiente(solo_v=True)),
    ErrorConocido(
        id="cabezas_intercaladas", nombre="cabezas intercaladas", seccion=ECUACIONES,
        explicacion=_INTERCALADAS,
        # the heads joined back in blocks, or interleaved like they were taken
        implementacion=(_variante(division="intercalado"),
                        _variante(division="intercalado", fusion="intercalado"))),
    ErrorConocido(
        id="reshape_sin_transponer", nombre="división con reshape sin transponer", seccion=VECTORIZADA,
        explicacion=_RESHAPE,
        # joined back with the same direct reshape, or with the right transpose
        implementacion=(_variante(division="reshape", fusion="reshape"), _variante(division="reshape"))),
    ErrorConocido(
        id="fusion_sin_transponer", nombre="fusión sin transponer", seccion=VECTORIZADA,
        explicacion="vuelves a juntar las cabezas con reshape(T, d_model) sin transponer antes: de "
                    "(h, T, d_k) hay que pasar a (T, h, d_k) con transpose(1, 0, 2) y sólo entonces hacer "
                    "reshape(T, d_model). Compruébalo: concat[:, :d_k] debe ser la salida de la cabeza 0.",
        implementacion=_variante(fusion="reshape")),
    ErrorConocido(
        id="cabezas_desplazadas", nombre="cabezas desplazadas una columna", seccion=ECUACIONES,
        explicacion="los bloques de columnas de las cabezas están desplazados una columna: la cabeza i "
                    "usa las columnas i·d_k+1 … (i+1)·d_k en lugar de i·d_k … (i+1)·d_k - 1. El slice "
                    "correcto es Q[:, i*d_k:(i+1)*d_k] (empieza en i*d_k y el final no se incluye); "
                    "compruébalo: la cabeza 0 debe empezar en la columna 0.",
        implementacion=_desplazado),
    ErrorConocido(
        id="cabezas_desplazadas_recortadas", nombre="cabezas desplazadas una columna (recortada)",
        seccion=ECUACIONES,
        explicacion="los bloques de columnas de las cabezas están desplazados una columna: la cabeza i "
                    "usa las columnas i·d_k+1 … (i+1)·d_k en lugar de i·d_k … (i+1)·d_k - 1 (la última "
                    "se queda con una columna menos y la columna 0 no se usa). El slice correcto es "
                    "Q[:, i*d_k:(i+1)*d_k]; compruébalo: la cabeza 0 debe empezar en la columna 0.",
        implementacion=_desplazado_recortado),
    ErrorConocido(
        id="sin_wo", nombre="sin W^O", seccion=ECUACIONES,
        explicacion="devuelves la concatenación de las cabezas sin multiplicarla por Wo (la proyección "
                    "final W^O): salida = concat @ Wo.",
        implementacion=_variante(wo=False)),
    ErrorConocido(
        id="wo_antes_de_separar", nombre="W^O aplicada a V antes de separar las cabezas", seccion=ECUACIONES,
        explicacion="multiplicas por Wo antes de tiempo: V = X @ Wv @ Wo y después cada cabeza lee su bloque "
                    "de ese V. Los mapas están bien; Wo mezcla las cabezas y va al final, sobre la "
                    "concatenación de las salidas de todas: salida = concat @ Wo.",
        implementacion=lambda X, Wq, Wk, Wv, Wo, h: _mh(X, Wq, Wk, np.asarray(Wv, dtype=np.float64) @ Wo, Wo, h,
                                                        wo=False)),
    ErrorConocido(
        id="cabezas_promediadas", nombre="cabezas promediadas", seccion=PROMEDIAR,
        explicacion="promedias las cabezas en lugar de concatenarlas: cada cabeza aporta su propio bloque "
                    "de d_k columnas (con su V_i) a la concatenación (T, h·d_k), que luego se multiplica "
                    "por Wo.",
        implementacion=_variante(combinar="promedio")),
    ErrorConocido(
        id="cabezas_sumadas", nombre="cabezas sumadas", seccion=PROMEDIAR,
        explicacion="sumas las cabezas en lugar de concatenarlas: cada cabeza aporta su propio bloque "
                    "de d_k columnas (con su V_i) a la concatenación (T, h·d_k), que luego se multiplica "
                    "por Wo.",
        implementacion=_variante(combinar="suma")),
    ErrorConocido(
        id="orden_inverso", nombre="orden inverso", seccion=ECUACIONES,
        explicacion="concatenas las cabezas en orden inverso: la cabeza 0 va en las primeras d_k "
                    "columnas de la concatenación, la 1 en las siguientes, y así sucesivamente.",
        implementacion=_variante(combinar="inverso")),
    ErrorConocido(
        id="A_TTh", nombre="A (T, T, h)", seccion=VECTORIZADA,
        explicacion="A tiene los ejes en otro orden, (T, T, h) en lugar de (h, T, T): apila los mapas "
                    "con np.stack(mapas) (eje 0), no con axis=-1 ni con np.dstack.",
        implementacion=_variante(forma_A=(1, 2, 0))),
    ErrorConocido(
        id="A_ThT", nombre="A (T, h, T)", seccion=VECTORIZADA,
        explicacion="A tiene forma (T, h, T): el eje de las cabezas debe ir primero, (h, T, T); si "
                    "calculas con forma (T, h, T), transpón con A.transpose(1, 0, 2).",
        implementacion=_variante(forma_A=(1, 0, 2))),
    ErrorConocido(
        id="mascara_causal", nombre="máscara causal", seccion=MASCARAS,
        explicacion="aplicas una máscara causal: tus mapas tienen ceros por encima de la diagonal, así que cada "
                    "posición sólo atiende a sí misma y a las anteriores. Esa máscara es la del decodificador "
                    "(sección 11); `multi_head` es la autoatención sin máscara, en la que cada posición atiende "
                    "a todas: quita la máscara.",
        implementacion=_variante(mascara=True)),
    ErrorConocido(
        id="conexion_residual", nombre="conexión residual", seccion=ECUACIONES,
        explicacion="sumas X a la salida (una conexión residual, X + concat @ Wo). En el artículo esa suma va "
                    "fuera de la atención, en «Add & Norm»; multi_head devuelve concat @ Wo sin sumar X.",
        implementacion=_con_residual),
    ErrorConocido(id="normaliza_X", nombre="X normalizada", seccion=ECUACIONES, detector=x_normalizada),
    ErrorConocido(id="misma_cabeza", nombre="la cabeza 0 en todas", seccion=ECUACIONES, detector=misma_cabeza),
    ErrorConocido(
        id="salida_traspuesta", nombre="salida traspuesta", seccion=EJERCICIO,
        explicacion="devuelves la salida traspuesta, (d_model, T): cada fila es una posición, así que la "
                    "forma es (T, d_model), la de X (concat @ Wo, no Wo.T @ concat.T). Sólo se descuenta en "
                    "el contrato: los valores se juzgan leídos con una fila por posición.",
        implementacion=_salida_traspuesta),
    ErrorConocido(
        id="intercambiados", nombre="valores intercambiados", seccion=EJERCICIO,
        explicacion="devuelves (A, salida) en lugar de (salida, A): el orden de lo que devuelves importa. "
                    "Sólo se descuenta en el contrato: los mapas y la salida se juzgan con el par leído en "
                    "su orden.",
        implementacion=_intercambiados),
    ErrorConocido(
        id="claves_con_wq", nombre="claves con Wq", seccion=ECUACIONES,
        explicacion="calculas las claves con Wq (K = X @ Wq) en lugar de con Wk: así cada mapa sale de "
                    "Q Qᵀ, simétrico antes de la softmax. Usa K = X @ Wk.",
        implementacion=_variante(claves="Wq")),
    ErrorConocido(
        id="consultas_con_wk", nombre="consultas con Wk", seccion=ECUACIONES,
        explicacion="calculas las consultas con Wk (Q = X @ Wk) en lugar de con Wq: así cada mapa sale "
                    "de K Kᵀ, simétrico antes de la softmax. Usa Q = X @ Wq.",
        implementacion=_variante(consultas="Wk")),
    ErrorConocido(
        id="mapa_transpuesto", nombre="mapa transpuesto", seccion=ECUACIONES,
        explicacion="calculas K_i Q_iᵀ en lugar de Q_i K_iᵀ: la fila t del mapa es la consulta t "
                    "comparada con todas las claves, E = Q_i @ K_i.T.",
        implementacion=_variante(transpuesto=True)),
    ErrorConocido(id="h_ignorado", nombre="h ignorado", seccion=ANCHURA, categoria="generalidad",
                  detector=_h_ignorado),
    ErrorConocido(id="salida_float32", nombre="salida float32", seccion=EJERCICIO,
                  detector=devuelve_float32("convierte al final con .astype(np.float64) (calcular en "
                                            "float32 por dentro está permitido).")),
    ErrorConocido(id="lista", nombre="lista en vez de array", seccion=EJERCICIO,
                  detector=devuelve_lista("apila los mapas con np.stack(mapas) para obtener un array "
                                          "(h, T, T).")),
    ErrorConocido(id="subclase_de_ndarray", nombre="subclase de ndarray", seccion=EJERCICIO,
                  detector=devuelve_subclase("no uses np.matrix (ni np.asmatrix / np.mat): trabaja con "
                                             "arrays y el operador @, o convierte al final con "
                                             "np.asarray(...).")),
    ErrorConocido(id="d_k_float", nombre="d_k float", seccion=ANCHURA, categoria="excepcion",
                  detector=_excepcion_d_k),
    ErrorConocido(id="formas_incompatibles", nombre="formas incompatibles", seccion=ECUACIONES,
                  categoria="excepcion", detector=_excepcion_formas),
]
