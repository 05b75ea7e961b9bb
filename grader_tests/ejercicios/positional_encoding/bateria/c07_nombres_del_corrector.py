# espera: completo
# Correcta, con funciones auxiliares que se llaman como los nombres públicos de grader_tests
# (corregir, casos, especificacion...) y que usa: las pruebas ocultas no deben pisarlas ni
# llamarlas. El resto de nombres apunta a una trampa que falla si alguien la llama.
import numpy as np


def trampa(*args, **kwargs):
    raise RuntimeError("el corrector ha llamado a una función del alumno")


ARGUMENTOS = ArraySubclase = AvisarArchivosModificados = CLAVE = ERRORES = ERRORES_MULTI_HEAD = \
    ERRORES_POSITIONAL_ENCODING = ESPECIFICACIONES = EjecucionAislada = Entero = ErrorConocido = \
    Especificacion = JuzgarEvidencias = KernelAislado = Llamada = MAX_ELEMENTOS = MAX_LONGITUD = \
    MAX_PROFUNDIDAD = MAX_TEXTO = MIME_EVIDENCIA = MODULOS_PUBLICOS = MOTIVOS_ERROR = \
    NOMBRES_ARGUMENTOS = NOTA_CELDA_EDITADA = Opcion = Otro = PAQUETE = PREFIJO_QUIZ = PREGUNTAS = \
    PROPIEDADES = Pregunta = Propiedad = QuitarDuplicados = REFERENCIAS = ReponerPruebasOcultas = \
    RespuestaMalFormada = SinAislamiento = TOLERANCIA = TOLERANCIA_MULTI_HEAD = TOLERANCIA_PE = \
    VERSION = Varias = VerdaderoFalso = Veredicto = aislamiento = archivos_modificados = \
    argumentos_multi_head = argumentos_positional_encoding = carpetas_a_ocultar = celda_editada = \
    cliente = como_array = deserializar = diagnosticar = diagnostico = formatear_puntos = \
    grader_tests = iguales = juez = juzgar = juzgar_llamadas = mensaje_de_tiempo = nbgrader_juez = \
    nota_de_archivos = notebook_de_la_carpeta = paquetes_visibles = preguntas_de = propiedades = \
    puntos_por_defecto = quiz = quiz_atencion_multicabeza = quiz_codificacion_posicional = \
    recoger_evidencia = reconocer = referencia = salidas_del_veredicto = saneamiento = serializacion \
    = serializar = veredicto = veredicto_de_celda = trampa
# módulos del lado del profesorado (nunca llegan al kernel; sus nombres, por si acaso)
archivos_alumno = evidencia = html_seguro = intercambio = limites_kernel = nbgrader_seguro = \
    retroalimentacion = explorables_en_comentarios = ExplorablesComoImagen = trampa
softmax_filas = trampa


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
