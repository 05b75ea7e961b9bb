# espera: completo
# Correcta, con funciones auxiliares que se llaman como los nombres públicos de grader_tests
# (corregir, casos, especificacion, softmax_filas...) y que usa: las pruebas ocultas no deben
# pisarlas ni llamarlas. El resto de nombres apunta a una trampa que falla si alguien la llama.
import numpy as np


def trampa(*args, **kwargs):
    raise RuntimeError("el corrector ha llamado a una función del alumno")


# --- nombres públicos de grader_tests (scripts/autores/nombres_del_corrector.py) ---
ANCHO = aprobado = ARCHIVOS_PUBLICOS_DEL_EJERCICIO = ARGUMENTOS = argumentos = ArraySubclase = caja \
    = CARPETA = CARPETA_EJERCICIOS = casos = causa = causa_de_poca_precision = Celda = CELDAS = \
    celdas_de = cliente = como_array = como_lo_recibe_el_corrector = comun = Correccion = corregir = \
    cuestionarios = describir = describir_caso = deserializar = diagnostico = ejercicio_de = ejercicios \
    = en_el_kernel = Entero = envolver = Especificacion = especificacion = especificaciones = \
    extensiones_nbgrader = fallo = funcion_del_cuaderno = grader_tests = juez = llamar = matriz = \
    MAX_ELEMENTOS = MAX_LONGITUD = MAX_PROFUNDIDAD = MAX_TEXTO = MIME_EVIDENCIA = modulo_de_casos = \
    MODULOS_DE_LA_TAREA = modulos_de_tu_carpeta = modulos_publicos = MODULOS_PUBLICOS_DEL_MOTOR = \
    NoAdmitida = nombres_de_argumentos = nombres_de_ejercicios = Opcion = Otro = PAQUETE_RAIZ = \
    PISTAS_DE_EXCEPCIONES = PREFIJO_QUIZ = Pregunta = pregunta_desde_dict = preguntas = pruebas_visibles \
    = PruebaVisibleFallida = publicar_evidencia = recoger_evidencia = respuesta = RespuestaMalFormada = \
    salida_del_alumno = serializacion = serializar = sin_complejos = sin_contestar = sin_ejecutar = \
    TIPOS = Varias = VerdaderoFalso = VERSION = trampa
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
