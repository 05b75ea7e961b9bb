"""Validate when the kernel fails to start: one quiet retry, then a Spanish message instead of a traceback.

On a loaded machine jupyter_client's ports race (it picks free TCP ports, closes them and hands
the numbers to the kernel; another process may take one first: «zmq.error.ZMQError: Address
already in use»), and nbgrader's Validate ends in ``RuntimeError: Kernel died before replying to
kernel_info`` with 40 lines of English traceback (sixth TA report, P3-1).  Nothing in the
student's notebook caused it, and pressing Validate again works.  So:

* :func:`aplicar` wraps ``nbgrader.validator.Validator.validate``: when the kernel dies while
  starting, it waits a moment and validates once more;
* if that fails too, it raises :class:`KernelNoArranco` with a Spanish message, and the Validate
  button's handler (``ValidateAssignmentHandler.validate_notebook``) shows only that message,
  not the traceback.

Loaded by the hub's common configuration: ``nbgrader_config.py`` next to this file (Validate
button and ``nbgrader validate`` in a terminal) and ``jupyter_server_config.py`` (from the
server's start, so the first press is covered too).  Idempotent.  No course code.
"""
from __future__ import annotations

import functools
import time

MENSAJE = ("No se pudo arrancar el núcleo de Python para validar (el servidor está muy ocupado en este "
           "momento). No es un fallo de tu cuaderno: espera unos segundos y vuelve a pulsar Validate.")
SEÑALES = ("Kernel died before replying to kernel_info", "Address already in use",
           "Kernel didn't respond in", "Kernel died")
ESPERA = 2.0         # seconds before the retry


class KernelNoArranco(RuntimeError):
    """The kernel could not start twice in a row (Spanish message, :data:`MENSAJE`)."""


def es_arranque_fallido(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) is a kernel that died or never answered while starting."""
    vistos = set()
    while error is not None and id(error) not in vistos:
        vistos.add(id(error))
        if type(error).__name__ in ("DeadKernelError", "ZMQError") or any(s in str(error) for s in SEÑALES):
            return True
        error = error.__cause__ or error.__context__
    return False


def _con_reintento(validar):
    @functools.wraps(validar)
    def validate(self, *args, **kwargs):
        try:
            return validar(self, *args, **kwargs)
        except Exception as error:  # noqa: BLE001 - only a kernel that did not start is retried
            if not es_arranque_fallido(error):
                raise
            self.log.warning("Validate: el núcleo no arrancó (%s); se intenta otra vez", error)
        time.sleep(ESPERA)
        try:
            return validar(self, *args, **kwargs)
        except Exception as error:  # noqa: BLE001
            if es_arranque_fallido(error):
                raise KernelNoArranco(MENSAJE) from error
            raise
    validate._curso_reintento = True
    return validate


def _solo_el_mensaje(validar_cuaderno):
    @functools.wraps(validar_cuaderno)
    def validate_notebook(self, path):
        respuesta = validar_cuaderno(self, path)
        if isinstance(respuesta, dict) and not respuesta.get("success") and MENSAJE in str(respuesta.get("value")):
            respuesta["value"] = MENSAJE
        return respuesta
    validate_notebook._curso_reintento = True
    return validate_notebook


def aplicar() -> None:
    """Install both wrappers (idempotent; the handler's only where nbgrader's server extension imports)."""
    from nbgrader.validator import Validator
    if not getattr(Validator.validate, "_curso_reintento", False):
        Validator.validate = _con_reintento(Validator.validate)
    try:
        from nbgrader.server_extensions.validate_assignment.handlers import ValidateAssignmentHandler
    except ImportError:           # a terminal without jupyter_server: the message still ends the traceback
        return
    if not getattr(ValidateAssignmentHandler.validate_notebook, "_curso_reintento", False):
        ValidateAssignmentHandler.validate_notebook = _solo_el_mensaje(ValidateAssignmentHandler.validate_notebook)
