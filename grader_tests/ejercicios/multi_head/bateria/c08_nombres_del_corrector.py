# espera: completo
# Correcta, con funciones auxiliares que se llaman como los nombres públicos de grader_tests
# (corregir, casos, especificacion, softmax_filas...) y que usa: las pruebas ocultas no deben
# pisarlas ni llamarlas. El resto de nombres apunta a una trampa que falla si alguien la llama.
import numpy as np


def trampa(*args, **kwargs):
    raise RuntimeError("el corrector ha llamado a una función del alumno")


# --- nombres públicos de grader_tests (scripts/autores/nombres_del_corrector.py) ---
aislamiento = archivos_alumno = ARCHIVOS_PUBLICOS_DEL_EJERCICIO = ARGUMENTOS = argumentos = \
    ArraySubclase = bateria = CARPETA_EJERCICIOS = casos = Celda = CELDAS = celdas_de = cliente = \
    corregir = cuestionarios = describir = describir_caso = descubrimiento = deserializar = diagnostico \
    = ejercicio_de = ejercicios = Especificacion = especificacion = especificaciones = evidencia = \
    explorables_en_comentarios = formgrader_seguro = grader_tests = html_seguro = intercambio = juez = \
    lanzador_caja = limites_kernel = MAX_ELEMENTOS = MAX_LONGITUD = MAX_PROFUNDIDAD = MAX_TEXTO = \
    MIME_EVIDENCIA = modulo_de_casos = nbgrader_juez = nbgrader_seguro = nombres_de_argumentos = \
    nombres_de_ejercicios = notas_en_bloque = Otro = plazos = PREFIJO_QUIZ = propiedades = \
    pruebas_visibles = quiz = recoger_evidencia = registro_de_veredictos = retroalimentacion = revision \
    = salida_acotada = salida_limpia = saneamiento = serializacion = serializar = veredicto = VERSION = \
    trampa
# --- fin de los nombres públicos ---


def softmax_filas(E):
    desplazadas = E - np.amax(E, axis=2)[..., None]
    pesos = np.exp(desplazadas)
    return pesos / np.sum(pesos, axis=2)[..., None]


def especificacion(M, h):
    """Separa las cabezas: (T, h·d_k) -> (h, T, d_k)."""
    T, d_model = M.shape
    return M.reshape(T, h, d_model // h).transpose(1, 0, 2)


def casos(cabezas):
    """Junta las cabezas: (h, T, d_k) -> (T, h·d_k)."""
    h, T, d_k = cabezas.shape
    return cabezas.transpose(1, 0, 2).reshape(T, h * d_k)


def corregir(Q, K):
    """Los mapas de todas las cabezas."""
    return softmax_filas(Q @ K.transpose(0, 2, 1) / np.sqrt(Q.shape[-1]))


def multi_head(X, Wq, Wk, Wv, Wo, h):
    Q, K, V = (especificacion(X @ W, h) for W in (Wq, Wk, Wv))
    A = corregir(Q, K)
    return casos(A @ V) @ Wo, A
