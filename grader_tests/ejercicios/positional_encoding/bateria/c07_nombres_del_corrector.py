# espera: completo
# Correcta, con funciones auxiliares que se llaman como los nombres públicos de grader_tests
# (corregir, casos, especificacion...) y que usa: las pruebas ocultas no deben pisarlas ni
# llamarlas. El resto de nombres apunta a una trampa que falla si alguien la llama.
import numpy as np


def trampa(*args, **kwargs):
    raise RuntimeError("el corrector ha llamado a una función del alumno")


# --- nombres públicos de grader_tests (scripts/autores/nombres_del_corrector.py) ---
ANCHO = aprobado = ARCHIVOS_PUBLICOS_DEL_EJERCICIO = ARGUMENTOS = argumentos = ArraySubclase = caja \
    = CARPETA = CARPETA_EJERCICIOS = casos = CASOS_SIN_PUBLICAR = causa = causa_de_poca_precision = \
    Celda = CELDAS = celdas_de = cliente = como_array = como_lo_recibe_el_corrector = comun = Correccion \
    = corregir = cuestionarios = describir_caso = deserializar = diagnostico = ejercicio_de = ejercicios \
    = en_el_kernel = Entero = envolver = Especificacion = especificacion = especificaciones = \
    extensiones_nbgrader = fallo = funcion_del_cuaderno = grader_tests = juez = LEY_SIN_PUBLICAR = \
    llamar = matriz = MAX_ELEMENTOS = MAX_LONGITUD = MAX_PROFUNDIDAD = MAX_TEXTO = MIME_EVIDENCIA = \
    modulo_de_casos = MODULOS_DE_LA_TAREA = modulos_de_tu_carpeta = modulos_publicos = \
    MODULOS_PUBLICOS_DEL_MOTOR = MUESTRA_DE_LA_LEY = NoAdmitida = nombres_de_argumentos = \
    nombres_de_ejercicios = Opcion = Otro = PAQUETE_RAIZ = PISTAS_DE_EXCEPCIONES = PREFIJO_QUIZ = \
    Pregunta = pregunta_desde_dict = preguntas = pruebas_visibles = PruebaVisibleFallida = \
    publicar_evidencia = recoger_evidencia = respuesta = RespuestaMalFormada = salida_del_alumno = \
    serializacion = serializar = sin_complejos = sin_contestar = sin_ejecutar = T_DE_LA_LEY = TIPOS = \
    Varias = VerdaderoFalso = VERSION = trampa
# --- fin de los nombres públicos ---


def especificacion(d_model):
    """Las frecuencias 1 / 10000^(2i/d_model) de las parejas."""
    return 1.0 / 10000.0 ** (np.arange(0, d_model, 2) / d_model)


def casos(T):
    return np.arange(T, dtype=np.float64)[:, None]


def corregir(angulos):
    PE = np.empty((angulos.shape[0], 2 * angulos.shape[1]))
    PE[:, 0::2], PE[:, 1::2] = np.sin(angulos), np.cos(angulos)
    return PE


def positional_encoding(T, d_model):
    return corregir(casos(T) * especificacion(d_model))
