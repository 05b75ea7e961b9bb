"""Lo común de las pruebas visibles: el fallo en español, la lectura del cuestionario y su comprobación.

Este módulo viaja con cada tarea: hay una copia idéntica en cada
``source/<tarea>/`` (``nbgrader generate_assignment`` la publica en
``release/<tarea>/`` junto al cuaderno) y el original es
``grader_tests/en_el_kernel/pruebas_visibles.py``; ``make release`` renueva las copias y
``make comprobar`` avisa si alguna no coincide. Al calificar, nbgrader pone
siempre la copia del curso: editar la tuya no cambia ninguna nota.

Qué hay aquí:

* ``PruebaVisibleFallida``: el error de una prueba visible. JupyterLab y el
  botón *Validate* de nbgrader muestran sólo su texto, en español y en
  líneas de 80 columnas como mucho, sin la traza de Python (IPython llama a
  ``_render_traceback_``).
* ``funcion_del_cuaderno`` y ``llamar``: buscar la función del alumno y
  llamarla; si lanza una excepción, el fallo lo cuenta en español y enseña
  sólo las líneas de tu código (si aún no la has escrito, una sola línea
  lo dice). Lo que tu función escribe en stderr y sus avisos (``warnings``)
  salen como salida normal: nbgrader cuenta como fallo cualquier texto en
  stderr de una celda de prueba, y aquí no lo es (al calificar tampoco resta),
  se abra JupyterLab en la carpeta que se abra.
* ``diagnostico``: cómo nombran las pruebas ocultas un error conocido
  (``diagnosticos.json``, junto a este archivo, lo escribe ``make release``
  desde el catálogo de errores de cada ejercicio), para que una prueba
  visible que lo reconoce lo diga con las mismas palabras que la nota.
* El cuestionario: cada tipo de pregunta (``Opcion``, ``Varias``, ``Entero``,
  ``VerdaderoFalso``) sabe leer lo que escribes (``"b"``, ``"opción b"``,
  ``["b"]``, ``{"a", "c"}``, ``"abd"``, ``2359296``, ``"2 359 296"``,
  ``np.int64(256)``, ``True``…) y explicar la respuesta. ``respuesta``
  comprueba una respuesta en el momento, con las respuestas y explicaciones
  de ``cuestionario.json`` (junto a este archivo). El corrector lee las
  respuestas con estas mismas clases (``grader_tests/juez/quiz.py`` las
  hereda), así que la comprobación inmediata y la nota no discrepan nunca.

Sólo usa la biblioteca estándar y NumPy.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import re
import sys
import textwrap
import traceback
import warnings
from dataclasses import dataclass

import numpy as np

ANCHO = 80            # nbgrader validate corta cada línea a 87 columnas (con 4 de sangría)
_ROJO, _NEGRITA, _FIN = "\033[31m", "\033[1m", "\033[0m"


# ------------------------------------------------------------ el fallo

def envolver(texto: str, ancho: int = ANCHO, sangria: str = "") -> list[str]:
    """``texto`` en líneas de ``ancho`` columnas como mucho; respeta sus saltos de línea."""
    lineas: list[str] = []
    for parrafo in str(texto).split("\n"):
        if len(sangria + parrafo) <= ancho:
            lineas.append(sangria + parrafo)
        else:
            lineas += textwrap.wrap(parrafo, ancho, initial_indent=sangria, subsequent_indent=sangria,
                                    break_long_words=True, break_on_hyphens=False) or [sangria]
    return lineas


class PruebaVisibleFallida(AssertionError):
    """Una prueba visible que no pasa.

    Args:
        mensaje: qué ha fallado y la causa probable, en español (la primera
            línea es el titular; puede tener varias líneas).
        detalle: texto que va después (los valores esperados y obtenidos, las
            líneas de tu código que lanzaron una excepción).

    Es un ``AssertionError``: nbgrader lo cuenta como una prueba fallida. En
    JupyterLab y en Validate se ve sólo ``lineas()``, sin traza de Python.
    """

    def __init__(self, mensaje: str, detalle: str = ""):
        super().__init__(mensaje)
        self.mensaje = str(mensaje)
        self.detalle = str(detalle)

    def lineas(self) -> list[str]:
        """El texto del fallo, en líneas de ``ANCHO`` columnas como mucho."""
        lineas = envolver("✘ " + self.mensaje)
        if self.detalle:
            lineas += envolver(self.detalle)
        return lineas

    def _render_traceback_(self) -> list[str]:
        # IPython muestra estas líneas en lugar de la traza (JupyterLab, nbgrader validate)
        lineas = self.lineas()
        return [_ROJO + _NEGRITA + lineas[0] + _FIN] + lineas[1:]

    def __str__(self) -> str:
        return "\n".join(self.lineas())


def fallo(mensaje: str, detalle: str = "") -> None:
    """Detiene la prueba visible con ``PruebaVisibleFallida(mensaje, detalle)``."""
    raise PruebaVisibleFallida(mensaje, detalle)


def aprobado(texto: str) -> None:
    """Escribe que la prueba visible pasa: ``✔ texto``."""
    print("\n".join(envolver("✔ " + texto)))


# --------------------------------------------------- la función del alumno

def _ultima_celda(espacio: dict, patron: str) -> str | None:
    """El código de la última celda ejecutada que casa con ``patron``, o None.

    IPython guarda en ``In`` (dentro de ``globals()``) el código de cada celda
    ejecutada, también el de las que no compilaron o lanzaron una excepción.
    """
    historia = espacio.get("In")
    if not isinstance(historia, list):
        return None
    busca = re.compile(patron, re.MULTILINE)
    return next((f for f in reversed(historia) if isinstance(f, str) and busca.search(f)), None)


def _error_de_sintaxis(fuente: str) -> str | None:
    """Si ``fuente`` no compila: « en su línea N» (o «» sin línea); si compila, None."""
    try:
        compile(fuente, "<celda>", "exec")
    except (SyntaxError, ValueError) as exc:
        linea = getattr(exc, "lineno", None)
        return f" en su línea {linea}" if linea else ""
    return None


def _ultima_celda_con_error_de_sintaxis(espacio: dict, patron: str) -> str | None:
    """Si la última celda ejecutada que casa con ``patron`` no compila: « en su línea N» (o «»); si no, None.

    Una definición que sí se ejecutó antes sigue en el espacio de nombres: sin
    esto, las pruebas probarían la versión vieja de una celda que el alumno
    acaba de romper.
    """
    fuente = _ultima_celda(espacio, patron)
    return _error_de_sintaxis(fuente) if fuente is not None else None


def _excepcion_de_la_celda(espacio: dict, patron: str) -> BaseException | None:
    """La excepción con que terminó la última celda ejecutada que casa con ``patron``, o None.

    IPython deja en ``sys.last_value`` la última excepción que mostró; es de
    esa celda si alguna línea de su traza es una línea de la celda (un
    ``import`` de algo que no está, por ejemplo, antes del ``def``).
    """
    fuente = _ultima_celda(espacio, patron)
    valor, traza = getattr(sys, "last_value", None), getattr(sys, "last_traceback", None)
    if fuente is None or not isinstance(valor, Exception) or traza is None:
        return None
    lineas = {l.strip() for l in fuente.splitlines() if l.strip()}
    try:
        marcos = traceback.extract_tb(traza)
    except Exception:  # noqa: BLE001 - una traza rara no es de la celda
        return None
    return valor if any(m.line and m.line.strip() in lineas for m in marcos) else None


def _mensaje_corto(excepcion: BaseException) -> str:
    """El mensaje de la excepción en una línea, de 80 caracteres como mucho."""
    texto = " ".join(str(excepcion).split()) or "sin mensaje"
    return texto if len(texto) <= 80 else texto[:77] + "..."


def funcion_del_cuaderno(espacio: dict, nombre: str):
    """La función ``nombre`` definida en el cuaderno (``espacio`` es ``globals()``).

    Raises:
        PruebaVisibleFallida: no está definida o no es una función.
    """
    error = _ultima_celda_con_error_de_sintaxis(espacio, rf"^\s*def\s+{re.escape(nombre)}\s*\(")
    if error:
        fallo(f"La celda donde escribes `{nombre}` tiene un error de sintaxis{error} y no llegó a ejecutarse: "
              "corrígelo y vuelve a ejecutarla (el mensaje SyntaxError de esa celda dice dónde).")
    if nombre not in espacio:
        excepcion = _excepcion_de_la_celda(espacio, rf"^\s*def\s+{re.escape(nombre)}\s*\(")
        if isinstance(excepcion, ImportError):
            modulo = f"«{excepcion.name}»" if getattr(excepcion, "name", None) else "lo que importas"
            fallo(f"La celda donde escribes `{nombre}` terminó con {type(excepcion).__name__} "
                  f"({_mensaje_corto(excepcion)}) y `{nombre}` no llegó a definirse. {modulo[0].upper() + modulo[1:]} "
                  "no está en el entorno del curso ni entre los archivos de la tarea, y al corregir tampoco "
                  "(de tu carpeta sólo cuenta el cuaderno): escribe esa parte en la celda del ejercicio, con NumPy, "
                  "y vuelve a ejecutarla.")
        if excepcion is not None:
            fallo(f"La celda donde escribes `{nombre}` terminó con {type(excepcion).__name__} "
                  f"({_mensaje_corto(excepcion)}) antes de definirla: corrige ese error (su traza, debajo de la "
                  "celda, dice en qué línea) y vuelve a ejecutarla.")
        fallo(f"`{nombre}` no está definida: ejecuta antes la celda donde la escribes y comprueba que "
              "termina sin errores.")
    funcion = espacio[nombre]
    if not callable(funcion):
        fallo(f"`{nombre}` debería ser una función y es un {type(funcion).__name__}.")
    ajenos = modulos_de_tu_carpeta(funcion, de_la_tarea=MODULOS_DE_LA_TAREA | {f"pruebas_{nombre}.py"})
    if ajenos:
        fallo(f"`{nombre}` usa {', '.join(ajenos)}, de tu carpeta. Al corregir sólo cuenta el cuaderno: ese "
              f"archivo no se usa y `{nombre}` fallaría. Copia lo que necesites en la celda del ejercicio, quita "
              "el import y vuelve a ejecutarla.")
    return funcion


# Los módulos que traen las tareas (docs/autores.md): al corregir se usa la copia del curso de cada uno. Además,
# pruebas_<función>.py (el de la función que se comprueba) y el del explorable, explorable_<lección>.py.
MODULOS_DE_LA_TAREA = frozenset({"pruebas_visibles.py", "respaldo_explorable.py", "nbgrader_config.py"})
EXPLORABLE = re.compile(r"^explorable_\w+\.py$")


def modulos_de_tu_carpeta(funcion, carpeta: str | None = None,
                          de_la_tarea: frozenset[str] | set[str] = MODULOS_DE_LA_TAREA) -> list[str]:
    """Los archivos de Python de ``carpeta`` (la del cuaderno: el directorio actual) que usa ``funcion``.

    Sigue los nombres globales que usa la función, y los de las funciones del
    cuaderno a las que llama: un módulo, o un objeto definido en un módulo,
    cuyo archivo está en ``carpeta`` o debajo y no es uno de los que trae la
    tarea (``de_la_tarea`` o ``EXPLORABLE``) ni de un entorno de Python
    (``site-packages``).  Al corregir, la entrega no conserva esos archivos,
    así que la función no llegaría a funcionar.

    Returns:
        ``'«mis_utilidades.py»'``… (ruta relativa a ``carpeta``), ordenados y sin repetir.
    """
    raiz = os.path.realpath(carpeta or os.getcwd())
    vistos: set[int] = set()
    ajenos: set[str] = set()

    def archivo_de(valor) -> str | None:
        modulo = valor if type(valor).__name__ == "module" else sys.modules.get(getattr(valor, "__module__", None) or "")
        ruta = getattr(modulo, "__file__", None) if modulo is not None else None
        return ruta if isinstance(ruta, str) else None

    def codigos(codigo):
        yield codigo
        for constante in codigo.co_consts:
            if hasattr(constante, "co_names"):
                yield from codigos(constante)

    def visitar(f) -> None:
        if id(f) in vistos or not hasattr(f, "__code__") or not isinstance(getattr(f, "__globals__", None), dict):
            return
        vistos.add(id(f))
        for codigo in codigos(f.__code__):
            for nombre in codigo.co_names:
                if nombre not in f.__globals__:
                    continue
                valor = f.__globals__[nombre]
                try:
                    ruta = archivo_de(valor)
                except Exception:          # un objeto raro del alumno: no es un módulo de su carpeta
                    continue
                if ruta is not None:
                    real = os.path.realpath(ruta)
                    base = os.path.basename(real)
                    if (real.startswith(raiz + os.sep) and base not in de_la_tarea and not EXPLORABLE.match(base)
                            and not {"site-packages", "dist-packages"} & set(real.split(os.sep))):
                        ajenos.add(f"«{os.path.relpath(real, raiz)}»")
                        continue
                if getattr(valor, "__globals__", None) is f.__globals__:     # another function of the notebook
                    visitar(valor)

    visitar(funcion)
    return sorted(ajenos)


def _lineas_del_alumno(excepcion: BaseException) -> str:
    """Las líneas de la traza que son del cuaderno del alumno (no de NumPy ni de este módulo)."""
    marcos = traceback.extract_tb(excepcion.__traceback__)
    propios = [m for m in marcos if os.path.abspath(m.filename) != os.path.abspath(__file__)
               and "site-packages" not in m.filename and "/lib/python" not in m.filename]
    lineas = [f"  en {m.name}: {m.line.strip()}" for m in propios if m.line]
    return "\n".join(lineas[-4:])


def _solo_lanza(funcion) -> bool:
    """Si el cuerpo de ``funcion`` es sólo el relleno de la plantilla: ``raise NotImplementedError()``.

    Lo dice su código compilado (no hace falta el texto de la celda): no usa
    más nombre que ``NotImplementedError``, no crea variables y no define
    nada dentro. Un docstring o comentarios no cuentan como código.
    """
    codigo = getattr(funcion, "__code__", None)
    if codigo is None:
        return False
    argumentos = codigo.co_argcount + codigo.co_kwonlyargcount
    return (codigo.co_names == ("NotImplementedError",) and codigo.co_nlocals == argumentos
            and not codigo.co_freevars and not any(hasattr(c, "co_code") for c in codigo.co_consts))


def _sin_escribir(funcion, exc: BaseException) -> str | None:
    """El fallo de una línea si ``exc`` es el ``raise NotImplementedError()`` de la plantilla, o None.

    Sólo si lo lanza la propia función del alumno, sin mensaje: entonces no
    es un error de su código sino el relleno que aún no ha cambiado (la
    plantilla entera, o el ``raise`` que quedó al final de su código).
    """
    if type(exc) is not NotImplementedError or str(exc).strip():
        return None
    marco = exc.__traceback__
    while marco is not None and marco.tb_next is not None:
        marco = marco.tb_next
    if marco is None or marco.tb_frame.f_code is not getattr(funcion, "__code__", None):
        return None
    nombre = getattr(funcion, "__name__", "tu función")
    if _solo_lanza(funcion):
        return f"Aún no has escrito `{nombre}`: cambia su raise por tu código."
    return f"`{nombre}` aún llega al raise NotImplementedError(): bórralo."


_AVISOS_YA_VISTOS: dict = {"celda": None, "avisos": set()}


def _celda_actual() -> object:
    """El número de la celda que se está ejecutando en IPython, o None fuera de IPython."""
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython else None
    return getattr(shell, "execution_count", None)


def _contar_avisos(avisos: list) -> None:
    """Escribe en stdout, en español, los avisos que dio la función del alumno (una vez por celda)."""
    celda = _celda_actual()
    if _AVISOS_YA_VISTOS["celda"] != celda or celda is None:
        _AVISOS_YA_VISTOS.update(celda=celda, avisos=set())
    for aviso in avisos:
        clave = (aviso.category.__name__, str(aviso.message), aviso.filename, aviso.lineno)
        if clave in _AVISOS_YA_VISTOS["avisos"]:
            continue
        _AVISOS_YA_VISTOS["avisos"].add(clave)
        archivo = str(aviso.filename)
        donde = ("" if "site-packages" in archivo or "/lib/python" in archivo or archivo == __file__
                 else f", línea {aviso.lineno} de tu celda")
        print("\n".join(envolver(f"⚠ Aviso de tu función ({clave[0]}{donde}): {clave[1].rstrip('.')}. "
                                  "Un aviso no es un fallo.")))


@contextlib.contextmanager
def _fd_de_stderr_a_stdout():
    """Lo que se escriba en el descriptor 2 (stderr de C, ``os.write(2, ...)``) va al 1 mientras dura."""
    copia = None
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        copia = os.dup(2)
        os.dup2(1, 2)
    except (OSError, ValueError, AttributeError):    # sin descriptores (otro intérprete, 1 o 2 cerrados)
        if copia is not None:
            os.close(copia)
        copia = None
    try:
        yield
    finally:
        if copia is not None:
            try:
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            os.dup2(copia, 2)
            os.close(copia)


@contextlib.contextmanager
def salida_del_alumno():
    """Mientras dura, lo que escribe el código del alumno en stderr sale por stdout.

    nbgrader (Validate y la nota) da por fallida cualquier celda de prueba
    con texto en stderr: un ``print(..., file=sys.stderr)`` o un
    ``warnings.warn`` de depuración en una función correcta la haría fallar.
    Aquí ``sys.stderr`` apunta a ``sys.stdout`` (también el descriptor 2), los
    avisos de ``warnings`` se recogen y se escriben en stdout en español (cada
    uno una vez por celda) y los de NumPy (desbordamientos, divisiones entre
    cero) se callan, como al calificar. No depende del ``nbgrader_config.py``
    de la tarea: funciona se abra JupyterLab donde se abra.
    """
    with warnings.catch_warnings(record=True) as avisos:
        try:
            with contextlib.redirect_stderr(sys.stdout), _fd_de_stderr_a_stdout(), np.errstate(all="ignore"):
                yield
        finally:
            _contar_avisos(avisos)


def llamar(funcion, *argumentos):
    """``funcion(*argumentos)``; si lanza una excepción, un fallo en español con tus líneas.

    Lo que escribe en stderr y sus avisos salen por stdout y no son un fallo
    (``salida_del_alumno``); los avisos de NumPy (desbordamientos, divisiones
    entre cero) se callan: al calificar tampoco restan. La función sin
    escribir (el ``raise NotImplementedError()`` de la plantilla) falla con
    una sola línea que lo dice (``_sin_escribir``).
    """
    try:
        with salida_del_alumno():
            return funcion(*argumentos)
    except (Exception, SystemExit, GeneratorExit) as exc:  # la del alumno (sys.exit() también) se cuenta en español
        sin_escribir = _sin_escribir(funcion, exc)
        if sin_escribir:
            raise PruebaVisibleFallida(sin_escribir) from None
        nombre = getattr(funcion, "__name__", "tu función")
        mensaje = str(exc).strip()
        detalle = _lineas_del_alumno(exc)
        pistas = [pista for patron, pista in PISTAS_DE_EXCEPCIONES.get(nombre, ())
                  if re.search(patron, f"{type(exc).__name__}: {mensaje}")]
        raise PruebaVisibleFallida(
            f"`{nombre}` lanzó {type(exc).__name__}" + (f": {mensaje}" if mensaje else ".")
            + (f"\nCausa probable: {pistas[0]}" if pistas else ""),
            ("Dónde, en tu código:\n" + detalle) if detalle else "") from None


# Pistas de cada lección para las excepciones de su función, {función: [(patrón, pista)]}: el módulo de pruebas
# de la lección las añade; ``llamar`` escribe la primera cuyo patrón casa con «Tipo: mensaje».
PISTAS_DE_EXCEPCIONES: dict[str, list[tuple[str, str]]] = {}


def sin_complejos(valor):
    """``valor`` con su parte real si es un array de complejos sin parte imaginaria; si no, tal cual.

    Como en la nota: esos valores cuentan (el tipo lo descuenta sólo el contrato).
    """
    if isinstance(valor, np.ndarray) and valor.dtype.kind == "c" and not np.any(valor.imag):
        return valor.real
    return valor


def causa_de_poca_precision(obtenidos: list, esperados: list, nombres: list[str], celdas: str) -> str | None:
    """Si algún array llega en float16 con los valores esperados redondeados a esa precisión: la causa, en una frase.

    Como en la nota: float16 guarda unas tres cifras y los valores se comparan
    con la precisión de float64, así que no puntúan (ni la robustez, la
    generalidad o no modificar los argumentos, que piden trabajo bien hecho);
    la celda que falla lo dice en lugar de buscar otra causa en la fórmula.
    ``celdas``: las que no puntúan por eso, en una frase («los valores, la robustez y la generalidad»).
    """
    poca = [n for n, v in zip(nombres, obtenidos)
            if isinstance(v, np.ndarray) and v.dtype.kind == "f" and v.dtype.itemsize < 4]
    if not poca:
        return None
    try:
        with np.errstate(all="ignore"):
            cerca = all(np.shape(v) == np.shape(e) and np.allclose(np.asarray(v, dtype=np.float64), e,
                                                                   rtol=2e-3, atol=2e-3)
                        for v, e in zip(obtenidos, esperados))
    except (TypeError, ValueError):
        return None
    if not cerca:
        return None
    que = " y ".join(f"`{n}`" for n in poca)
    return (f"{que} llega{'n' if len(poca) > 1 else ''} en float16, que guarda unas tres cifras: tus valores son "
            "los de la fórmula redondeados, y aquí (como al calificar) se comparan con la precisión de float64, "
            f"así que {celdas} no puntúan. Se arregla con un solo cambio: calcula y devuelve en float64 (sin "
            "dtype=np.float16).")


def como_array(valor, que: str) -> np.ndarray:
    """``valor`` como array float64 para comparar valores, o un fallo que dice qué ha llegado.

    Un array de complejos sin parte imaginaria cuenta con su parte real (como
    en la nota: el tipo lo descuenta sólo el contrato).
    """
    if isinstance(valor, np.ndarray) and valor.dtype.kind == "c":
        if np.any(valor.imag):
            fallo(f"{que} tiene números complejos con parte imaginaria distinta de 0: deberían ser reales.")
        valor = valor.real
    try:
        array = np.asarray(valor, dtype=np.float64)
    except (TypeError, ValueError):
        fallo(f"{que} debería ser un array de números y es {type(valor).__name__}.")
    return array


def matriz(array, decimales: int = 4) -> str:
    """Un array redondeado, como lo imprime NumPy, para un mensaje."""
    with np.printoptions(precision=decimales, suppress=True, linewidth=ANCHO - 2):
        return str(np.round(np.asarray(array, dtype=np.float64), decimales))


# ------------------------------------------------------ los errores conocidos

def diagnostico(funcion: str, error: str, carpeta: str | None = None) -> str | None:
    """La explicación del error conocido ``error`` de ``funcion``, como la da la nota, o None.

    La lee de ``diagnosticos.json`` (en ``carpeta``; por defecto, la de este
    archivo), que ``make release`` escribe a partir de
    ``grader_tests/ejercicios/<funcion>/errores.py``: la prueba visible y la
    nota nombran el error con las mismas palabras. Sin ese archivo, o sin ese
    error, devuelve None (la prueba visible da entonces su mensaje general).
    """
    ruta = os.path.join(carpeta or os.path.dirname(os.path.abspath(__file__)), "diagnosticos.json")
    try:
        with open(ruta, encoding="utf-8") as f:
            texto = json.load(f).get(funcion, {}).get(error)
    except (OSError, ValueError, AttributeError):
        return None
    return texto if isinstance(texto, str) and texto else None


def causa(funcion: str, error: str, carpeta: str | None = None) -> str | None:
    """«Causa probable: …» con la explicación de ``diagnostico``, o None si no la hay."""
    texto = diagnostico(funcion, error, carpeta)
    return f"Causa probable: {texto}" if texto else None


# ----------------------------------------------------- el cuestionario

class RespuestaMalFormada(ValueError):
    """La respuesta no se puede leer como el tipo de respuesta que pide la pregunta."""


def _como_se_escribe(valor: object) -> str:
    """``valor`` como se escribiría en la celda: un escalar de NumPy como su número (852, no np.int64(852)),
    los textos entre comillas dobles y los conjuntos en orden ({"a", "z"}), como en los ejemplos."""
    if isinstance(valor, np.generic) and valor.dtype.kind in "biufc":
        valor = valor.item()
    if isinstance(valor, str):
        return json.dumps(valor, ensure_ascii=False)
    if isinstance(valor, (set, frozenset)):
        try:
            return "{" + ", ".join(sorted(_como_se_escribe(x) for x in valor)) + "}"
        except Exception:  # noqa: BLE001 - elementos raros: como los escribe Python
            return repr(valor)
    return repr(valor)


def _texto_corto(valor: object) -> str:
    """``_como_se_escribe(valor)`` entre acentos graves, cortado a 80 caracteres: «tu respuesta `2`» no se lee
    como «la respuesta 2» (un alumno)."""
    texto = _como_se_escribe(valor)
    texto = texto if len(texto) <= 78 else texto[:75] + "..."
    return f"`{texto}`"


@dataclass(frozen=True)
class Correccion:
    """Lo que se sabe de una respuesta al leerla.

    Attributes:
        estado: ``"correcta"``, ``"incorrecta"``, ``"sin_contestar"`` o ``"ilegible"``.
        lineas: el texto para el alumno (el veredicto y la explicación).
        leida: la respuesta tal como se ha leído (forma canónica), si se pudo leer.
    """

    estado: str
    lineas: tuple
    leida: object = None

    @property
    def acierta(self) -> bool:
        return self.estado == "correcta"


@dataclass(frozen=True)
class Pregunta:
    """Una pregunta del cuestionario («Comprueba tu intuición»).

    Attributes:
        variable: el nombre que asigna el alumno (``respuesta_1``).
        correcta: la respuesta correcta, en la forma canónica de la pregunta.
        explicacion: por qué es así, en español.
    """

    variable: str
    correcta: object
    explicacion: str

    def leer(self, valor: object) -> object:  # pragma: no cover - cada tipo la define
        raise NotImplementedError

    def formato(self) -> str:  # pragma: no cover - cada tipo la define
        raise NotImplementedError

    def mostrar(self, canonica: object) -> str:
        return repr(canonica)

    def nota_de_formato(self, valor: object, leida: object) -> str | None:
        """Una nota si ``valor`` (leído como ``leida``) no está escrito como pide la pregunta, o None."""
        return None

    def corregir(self, valor: object) -> Correccion:
        """Lee ``valor`` (lo que asignó el alumno) y dice si acierta, con la explicación."""
        if valor is None or valor is Ellipsis:
            return Correccion("sin_contestar", (
                f"No has contestado: `{self.variable}` sigue vacía. {self.formato()}",))
        try:
            leida = self.leer(valor)
        except RespuestaMalFormada as exc:
            return Correccion("ilegible", (
                f"No se puede leer tu respuesta {_texto_corto(valor)}: {exc} {self.formato()}",))
        nota = self.nota_de_formato(valor, leida)
        nota = f" {nota}" if nota else ""
        if leida == self.correcta:
            return Correccion("correcta", (f"Correcto: {self.mostrar(leida)}.{nota}", self.explicacion), leida)
        pista = dict(getattr(self, "pistas", ())).get(leida)
        return Correccion("incorrecta", (
            f"Has respondido {self.mostrar(leida)}; la respuesta correcta es "
            f"{self.mostrar(self.correcta)}.{nota}", *((pista,) if pista else ()), self.explicacion), leida)

    def a_dict(self) -> dict:
        """La pregunta como datos JSON (``cuestionario.json``; ``pregunta_desde_dict`` la reconstruye)."""
        correcta = sorted(self.correcta) if isinstance(self.correcta, frozenset) else self.correcta
        datos = {"tipo": type(self).__name__, "variable": self.variable, "correcta": correcta,
                 "explicacion": self.explicacion}
        if hasattr(self, "opciones"):
            datos["opciones"] = self.opciones
        if getattr(self, "pistas", ()):
            datos["pistas"] = [list(p) for p in self.pistas]
        return datos


_PREFIJOS = ("opción", "opcion", "respuesta", "la")


def _sin_adornos(texto: str) -> str:
    """``" Opción B) "`` → ``"b"``: minúsculas, sin espacios, paréntesis, comillas, puntos ni palabra delante."""
    limpio = texto.strip().lower().strip("()[]{}.'\"«» ")
    palabras = limpio.split()
    while len(palabras) > 1 and palabras[0] in _PREFIJOS:
        palabras = palabras[1:]
    return " ".join(palabras).strip("()[]{}.'\"«» :")


def _letra(valor: object, opciones: str) -> str:
    if isinstance(valor, (list, tuple)) and len(valor) == 1:
        valor = valor[0]
    if not isinstance(valor, str):
        raise RespuestaMalFormada("se esperaba una letra entre comillas.")
    letra = _sin_adornos(valor)
    if len(letra) > 1 and all(c in opciones for c in re.sub(r"[\s,;/+&]+|\by\b", "", letra)):
        raise RespuestaMalFormada(
            f"esta pregunta tiene una sola respuesta y has escrito varias letras ({letra}).")
    if len(letra) != 1 or letra not in opciones:
        raise RespuestaMalFormada(
            f"{json.dumps(letra, ensure_ascii=False)} no es una de las opciones; la letra tiene que ser una de "
            f"{', '.join(opciones)}.")
    return letra


@dataclass(frozen=True)
class Opcion(Pregunta):
    """Una sola opción: el alumno escribe una letra."""

    opciones: str = "abcd"

    def leer(self, valor: object) -> str:
        return _letra(valor, self.opciones)

    def formato(self) -> str:
        return f'Escribe una sola letra entre comillas, por ejemplo `{self.variable} = "a"`.'

    def mostrar(self, canonica: object) -> str:
        return f"«{canonica}»"


@dataclass(frozen=True)
class Varias(Pregunta):
    """Varias opciones, a todo o nada: todas las letras correctas y ninguna más."""

    opciones: str = "abcd"

    def leer(self, valor: object) -> frozenset:
        if isinstance(valor, str):
            texto = _sin_adornos(valor)
            partes = [p for p in re.split(r"[\s,;/+&]+|\by\b", texto) if p]
            if len(partes) == 1 and len(partes[0]) > 1 and all(c in self.opciones for c in partes[0]):
                partes = list(partes[0])            # "abd": letras escritas juntas
        elif isinstance(valor, (set, frozenset, list, tuple)):
            partes = list(valor)
        else:
            raise RespuestaMalFormada("se esperaba un conjunto de letras.")
        if not partes:
            raise RespuestaMalFormada("no has marcado ninguna opción.")
        if not all(isinstance(p, str) for p in partes):
            raise RespuestaMalFormada("cada letra del conjunto va entre comillas.")
        return frozenset(_letra(p, self.opciones) for p in partes)

    def formato(self) -> str:
        return f'Escribe un conjunto de letras, por ejemplo `{self.variable} = {{"a", "c"}}`.'

    def mostrar(self, canonica: object) -> str:
        return "{" + ", ".join(f'"{x}"' for x in sorted(canonica)) + "}"


@dataclass(frozen=True)
class Entero(Pregunta):
    """Un número entero exacto (por ejemplo, un número de parámetros).

    ``pistas``: respuestas equivocadas frecuentes y, para cada una, el despiste que la da (``((valor, texto),
    ...)``); la comprobación la dice antes de la explicación.
    """

    pistas: tuple = ()

    def leer(self, valor: object) -> int:
        if isinstance(valor, (bool, np.bool_)):
            raise RespuestaMalFormada("se esperaba un número entero, no True/False.")
        if isinstance(valor, (int, np.integer)):
            return int(valor)
        if isinstance(valor, np.floating):
            valor = float(valor)
        if isinstance(valor, float):
            if math.isfinite(valor) and valor == int(valor):
                return int(valor)
            raise RespuestaMalFormada("se esperaba un número entero exacto.")
        if isinstance(valor, str):
            texto = valor.strip()
            if len(texto) > 60:
                raise RespuestaMalFormada("el número es demasiado largo.")
            # millares en grupos de tres cifras exactas: "2 359 296", "2.359.296", "2_359_296"
            if re.fullmatch(r"[+-]?[1-9]\d{0,2}(?:[ ._\u00a0\u202f]\d{3})+", texto):
                return (-1 if texto.startswith("-") else 1) * int(re.sub(r"\D", "", texto))
            if re.fullmatch(r"[+-]?\d+", texto):
                return int(texto)
            # un entero escrito con decimales o en notación científica: "256.0", "256,0", "2.56e2"
            decimal = texto.replace(",", ".") if texto.count(",") == 1 and "." not in texto else texto
            if re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", decimal):
                numero = float(decimal)
                if math.isfinite(numero) and numero == int(numero):
                    return int(numero)
                raise RespuestaMalFormada("se esperaba un número entero exacto.")
        raise RespuestaMalFormada("se esperaba un número entero.")

    def formato(self) -> str:
        return f"Escribe el número sin comillas, por ejemplo `{self.variable} = 1234`."

    def nota_de_formato(self, valor: object, leida: object) -> str | None:
        if isinstance(valor, str):
            return (f"(Lo has escrito entre comillas, como texto: se lee igual, pero un número va sin "
                    f"ellas: `{self.variable} = {leida}`.)")
        return None

    def mostrar(self, canonica: object) -> str:
        return f"{canonica:,}".replace(",", " ")


_VERDADERO = {"v", "verdadero", "cierto", "true", "si", "sí"}
_FALSO = {"f", "falso", "false", "no"}


@dataclass(frozen=True)
class VerdaderoFalso(Pregunta):
    """Verdadero o falso."""

    def leer(self, valor: object) -> bool:
        if isinstance(valor, (bool, np.bool_)):
            return bool(valor)
        if isinstance(valor, str):
            palabra = valor.strip().lower()
            if palabra in _VERDADERO:
                return True
            if palabra in _FALSO:
                return False
        raise RespuestaMalFormada("se esperaba True o False.")

    def formato(self) -> str:
        return f"Escribe `{self.variable} = True` o `{self.variable} = False`."

    def nota_de_formato(self, valor: object, leida: object) -> str | None:
        if isinstance(valor, str):
            return (f"(Lo has escrito como texto: se lee igual, pero True y False van sin comillas: "
                    f"`{self.variable} = {bool(leida)}`.)")
        return None

    def mostrar(self, canonica: object) -> str:
        return "verdadero (True)" if canonica else "falso (False)"


TIPOS = {c.__name__: c for c in (Opcion, Varias, Entero, VerdaderoFalso)}


def pregunta_desde_dict(datos: dict) -> Pregunta:
    """La pregunta que describe ``datos`` (lo que escribe ``Pregunta.a_dict``)."""
    clase = TIPOS[datos["tipo"]]
    correcta = frozenset(datos["correcta"]) if clase is Varias else datos["correcta"]
    extra = {"opciones": datos["opciones"]} if "opciones" in datos else {}
    if "pistas" in datos:
        extra["pistas"] = tuple((int(valor), str(texto)) for valor, texto in datos["pistas"])
    return clase(variable=datos["variable"], correcta=correcta, explicacion=datos["explicacion"], **extra)


# Lo que el corrector recibe del kernel: la respuesta viaja como JSON (grader_tests/en_el_kernel/serializacion.py) y
# sólo admite tipos exactos. Aquí se aplica la misma regla, para que la comprobación inmediata lea lo
# mismo que leerá la nota (tests/test_cuestionario.py lo comprueba con cientos de respuestas).
_MAX_TEXTO, _MAX_ELEMENTOS, _MAX_PROFUNDIDAD = 1000, 64, 4


class NoAdmitida:
    """Un valor que no viajaría hasta el corrector (un objeto propio, un ``np.str_``…)."""

    def __init__(self, valor: object):
        self.clase = type(valor).__name__

    def __repr__(self) -> str:
        return f"<{self.clase}>"


def como_lo_recibe_el_corrector(valor: object, profundidad: int = 0) -> object:
    """``valor`` tal como lo recibe el corrector: tipos exactos, textos y listas recortados.

    Lo que no viajaría se convierte en ``NoAdmitida`` (ninguna pregunta lo puede leer).
    """
    if profundidad > _MAX_PROFUNDIDAD:
        return NoAdmitida(valor)
    if valor is None or type(valor) in (bool, int, float):
        return valor
    if type(valor) is np.bool_:
        return bool(valor)
    if type(valor) is str:
        return valor[:_MAX_TEXTO]
    if isinstance(valor, np.generic) and type(valor).__module__ == "numpy":
        dtype = np.dtype(valor.dtype)
        if dtype.kind not in "biufc" or dtype.itemsize > 16:
            return NoAdmitida(valor)
        interior = como_lo_recibe_el_corrector(valor.item(), profundidad + 1)
        return dtype.type(interior) if not isinstance(interior, NoAdmitida) else interior
    if type(valor) in (list, tuple, set, frozenset):
        elementos = list(valor)
        if type(valor) in (set, frozenset):
            try:
                elementos = sorted(elementos, key=repr)
            except Exception:  # noqa: BLE001 - como el corrector: se quedan en su orden
                pass
        recibidos = [como_lo_recibe_el_corrector(x, profundidad + 1) for x in elementos[:_MAX_ELEMENTOS]]
        if len(elementos) > _MAX_ELEMENTOS:
            recibidos.append(NoAdmitida(Ellipsis))
        if type(valor) in (list, tuple):
            return type(valor)(recibidos)
        try:
            return type(valor)(recibidos)
        except TypeError:
            return recibidos
    return NoAdmitida(valor)


def preguntas(carpeta: str | None = None) -> dict[str, Pregunta]:
    """Las preguntas de la lección (``cuestionario.json`` de ``carpeta``; por defecto, la de este archivo).

    Devuelve ``{variable: Pregunta}`` (``{"respuesta_1": Opcion(...)}``).
    """
    ruta = os.path.join(carpeta or os.path.dirname(os.path.abspath(__file__)), "cuestionario.json")
    with open(ruta, encoding="utf-8") as f:
        datos = json.load(f)
    return {d["variable"]: pregunta_desde_dict(d) for d in datos["preguntas"]}


def sin_contestar(variable: str) -> str:
    """El fallo de una pregunta sin contestar: una sola línea (dos si la pregunta pasa de la 9).

    Validate enseña un bloque por celda que falla, en el orden del cuaderno, y el
    cuestionario va antes del ejercicio: con una línea por pregunta pendiente, el
    diagnóstico del ejercicio sigue cerca del principio. El formato de la
    respuesta ya lo dicen el docstring de la celda (que Validate enseña justo
    encima) y el comentario de la celda de respuesta.
    """
    numero = variable.rsplit("_", 1)[-1]
    return f"Pregunta {numero} sin contestar: escribe {variable} arriba y ejecuta las dos celdas."


def sin_ejecutar(variable: str) -> str:
    """El fallo de una pregunta cuya celda de respuesta no se ha ejecutado en este núcleo (tras reiniciarlo, o
    ejecutando sólo la celda de comprobación): puede estar contestada en el cuaderno, así que no dice «sin
    contestar» (el séptimo informe de un alumno, issue 22 B4-2)."""
    numero = variable.rsplit("_", 1)[-1]
    return (f"Pregunta {numero}: {variable} aún no existe en el núcleo. Si ya escribiste tu respuesta, ejecuta su "
            "celda (al reiniciar el núcleo hay que volver a ejecutarla) y después ésta; si no, escríbela arriba y "
            "ejecuta las dos celdas.")


def _vigilar_celdas():
    """La lista ``[(código, terminó con error)]`` de las celdas que IPython ejecuta desde ahora, o None fuera de IPython.

    Un gancho ``post_run_cell`` (uno por núcleo, aunque el módulo se importe otra vez) la llena: así la
    comprobación de una pregunta sabe si la última vez que corrió la celda de su respuesta falló (un alumno:
    `respuesta_3 = np.sqrt(256)` dio NameError y la comprobación dijo «Correcto» con la respuesta anterior).
    """
    try:
        from IPython import get_ipython
        shell = get_ipython()
    except Exception:  # noqa: BLE001 - sin IPython no hay celdas que vigilar
        return None
    if shell is None:
        return None
    ejecuciones = getattr(shell, "_curso_ejecuciones", None)
    if ejecuciones is None:
        ejecuciones = []

        def despues_de_la_celda(resultado) -> None:
            try:
                ejecuciones.append((str(resultado.info.raw_cell), not resultado.success))
                del ejecuciones[:-200]
            except Exception:  # noqa: BLE001 - el gancho nunca rompe una celda del alumno
                pass
        shell.events.register("post_run_cell", despues_de_la_celda)
        shell._curso_ejecuciones = ejecuciones
    return ejecuciones


_vigilar_celdas()


def _respuesta_que_fallo(variable: str) -> bool:
    """Si la última ejecución de la celda que asigna ``variable`` (vista por ``_vigilar_celdas``) falló."""
    ejecuciones = _vigilar_celdas() or []
    asigna = re.compile(rf"^\s*{re.escape(variable)}\s*=(?!=)", re.MULTILINE)
    for codigo, con_error in reversed(ejecuciones):
        if asigna.search(codigo) and ".respuesta(" not in codigo:
            return con_error
    return False


def _letra_sin_comillas(variable: str, espacio: dict, opciones: str) -> str | None:
    """Si la celda de respuesta dice ``variable = b`` o ``{a, c}`` (letras de ``opciones`` sin comillas): lo que
    ha pasado; si no, None.

    Sin comillas, ``b`` es una variable del cuaderno y la respuesta es su valor (un alumno leyó «No se puede
    leer tu respuesta 852»).
    """
    fuente = _ultima_celda(espacio, rf"^\s*{re.escape(variable)}\s*=(?!=)")
    asignada = re.search(rf"^\s*{re.escape(variable)}\s*=\s*(.*?)\s*(#.*)?$", fuente or "", re.MULTILINE)
    letras = re.fullmatch(r"[\[{(]?\s*([A-Za-z](?:\s*,\s*[A-Za-z])*)\s*,?\s*[\]})]?", asignada.group(1)) \
        if asignada else None
    if not letras:
        return None
    nombres = re.findall(r"[A-Za-z]", letras.group(1))
    if not all(n.lower() in opciones for n in nombres):
        return None
    if len(nombres) == 1:
        letra = nombres[0]
        valor = _texto_corto(espacio.get(letra)) if letra in espacio else None
        return (f"Has escrito la letra {letra} sin comillas: así es la variable {letra} del cuaderno"
                + (f" (vale {valor})" if valor else "") + f", no la letra. Escríbela entre comillas: "
                f'`{variable} = "{letra.lower()}"`.')
    escritas = ", ".join(f'"{n.lower()}"' for n in nombres)
    return (f"Has escrito las letras sin comillas: así son variables del cuaderno, no letras. Escribe cada una "
            f"entre comillas: `{variable} = {{{escritas}}}`.")


def _celda_de_respuesta_sin_ejecutar(variable: str, espacio: dict) -> bool:
    """Si en este núcleo no se ha ejecutado ninguna celda que nombre ``variable`` salvo las de comprobación.

    IPython guarda en ``In`` el código de cada celda ejecutada; sin ``In`` (fuera de IPython) no se sabe: False.
    """
    historia = espacio.get("In")
    if not isinstance(historia, list):
        return False
    nombre = re.compile(rf"\b{re.escape(variable)}\b")
    return not any(isinstance(f, str) and nombre.search(f) and ".respuesta(" not in f for f in historia)


def _celda_de_respuesta_con_error(variable: str, espacio: dict, pregunta: Pregunta) -> str | None:
    """Si la celda que asigna ``variable`` se ejecutó y falló: el fallo que lo dice; si no, None.

    Si la última celda que asigna ``variable`` (``_ultima_celda``) no compila,
    o compila pero ``variable`` no llegó a tener valor (una excepción al
    ejecutarla, como ``NameError`` por una letra sin comillas), la pregunta no
    está «sin contestar»: su celda tiene un error.
    """
    fuente = _ultima_celda(espacio, rf"^\s*{re.escape(variable)}\s*=(?!=)")
    if fuente is None:
        return None
    numero = variable.rsplit("_", 1)[-1]
    donde = _error_de_sintaxis(fuente)
    if donde is not None:
        return (f"Pregunta {numero}: la celda donde escribes {variable} tiene un error de sintaxis{donde} "
                f"y no llegó a ejecutarse. {pregunta.formato()}")
    return (f"Pregunta {numero}: la celda donde escribes {variable} dio un error al ejecutarse y "
            f"{variable} se quedó sin valor. {pregunta.formato()}")


_SIN_CONTESTAR_EN_VALIDATE: list[str] = []     # las preguntas sin contestar vistas en esta validación


def _falla_sin_contestar(variable: str) -> None:
    """Falla con ``sin_contestar``; en Validate, sólo la primera pregunta sin contestar.

    Validate (``NBGRADER_EXECUTION=validate``: el botón y ``nbgrader validate``)
    ejecuta el cuaderno entero y enseña un bloque de varias líneas por celda que
    falla, en el orden del cuaderno; el cuestionario va antes del ejercicio. Con
    todo el cuestionario sin contestar, esos bloques empujaban el diagnóstico del
    ejercicio a la línea 40 (una alumna nueva, issue 22). Así que en Validate
    falla la primera y dice que hay más; las siguientes lo escriben en su celda
    sin fallar. Validate sigue sin decir «Success»; al calificar y en JupyterLab,
    cada pregunta sin contestar falla como siempre (no suma su punto).
    """
    if os.environ.get("NBGRADER_EXECUTION") != "validate":
        fallo(sin_contestar(variable))
    _SIN_CONTESTAR_EN_VALIDATE.append(variable)
    if len(_SIN_CONTESTAR_EN_VALIDATE) > 1:
        print(f"✘ {sin_contestar(variable)}")
        return
    fallo(sin_contestar(variable) + " Validate sólo enseña la primera pregunta sin contestar.")


def respuesta(variable: str, espacio: dict) -> None:
    """Comprueba en el momento la respuesta ``variable`` del cuaderno (``espacio`` es ``globals()``).

    Si acierta, escribe «✔ Correcto» y la explicación. Si no (sin contestar,
    ilegible o equivocada), falla: así Validate no dice «Success» a una
    respuesta que no suma el punto. Una respuesta equivocada o ilegible trae
    la explicación; una pregunta sin contestar (la variable sin asignar, o
    ``None``), sólo ``sin_contestar``. La nota cuenta la respuesta que
    entregues; ésta es para aprender.
    """
    pregunta = preguntas()[variable]
    numero = variable.rsplit("_", 1)[-1]
    if variable not in espacio:
        con_error = _celda_de_respuesta_con_error(variable, espacio, pregunta)
        if con_error:
            fallo(con_error)
        # Validate and the grade run the whole notebook: there the answer cell did run (a student: in Validate,
        # a cell left with only its raise was told «aún no existe en el núcleo… ejecuta su celda»)
        if not os.environ.get("NBGRADER_EXECUTION") and _celda_de_respuesta_sin_ejecutar(variable, espacio):
            fallo(sin_ejecutar(variable))
        _falla_sin_contestar(variable)
        return
    error = _ultima_celda_con_error_de_sintaxis(espacio, rf"^\s*{re.escape(variable)}\s*=(?!=)")
    if error is not None:      # the value in the namespace is an older answer's
        fallo(f"Pregunta {numero}: la celda donde escribes {variable} tiene un error de sintaxis{error} y no "
              f"llegó a ejecutarse; {variable} aún tiene tu respuesta anterior. {pregunta.formato()}")
    if _respuesta_que_fallo(variable):     # it raised the last time it ran: the value is an older answer's
        fallo(f"Pregunta {numero}: la celda donde escribes {variable} dio un error la última vez que la "
              f"ejecutaste, así que {variable} aún tiene tu respuesta anterior. Corrígela y ejecútala otra vez. "
              f"{pregunta.formato()}")
    correccion = pregunta.corregir(como_lo_recibe_el_corrector(espacio[variable]))
    if correccion.estado == "sin_contestar":
        _falla_sin_contestar(variable)
        return
    cabecera, *resto = correccion.lineas
    if correccion.estado == "ilegible" and isinstance(pregunta, (Opcion, Varias)):
        cabecera = _letra_sin_comillas(variable, espacio, pregunta.opciones) or cabecera
    if correccion.acierta:
        print("\n".join(envolver(f"✔ Pregunta {numero}. {cabecera}") + [""]
                        + [l for r in resto for l in envolver(r)]))
        return
    if os.environ.get("NBGRADER_EXECUTION") == "validate":
        # Validate shows every failing cell, the quiz before the exercise: the explanation stays in the notebook
        # (the check cell gives it), so the exercise's diagnosis stays within the dialog's first lines (a TA with
        # two students on the hub: two wrong answers pushed it to line 30)
        fallo(f"Pregunta {numero}. {cabecera}", "La explicación sale al ejecutar esta celda en el cuaderno.")
    fallo(f"Pregunta {numero}. {cabecera}", "\n".join(resto) + (
        "\nCambia tu respuesta si quieres: cuenta la que entregues." if correccion.estado == "incorrecta"
        else ""))
