# espera: completo
# Correcta, con funciones auxiliares que se llaman como los nombres públicos de grader_tests
# (corregir, casos, especificacion, softmax_filas...) y que usa: las pruebas ocultas no deben
# pisarlas ni llamarlas. El resto de nombres apunta a una trampa que falla si alguien la llama.
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
