"""What a student's kernel prints reaches the TA's process within budgets (autograde).

nbclient keeps every output message of a cell in memory and nbgrader writes
them all to ``autograded/``: a cell that prints 800 MB (80 writes of 10 MB)
cost the TA's ``nbgrader autograde`` about 4 GB of memory and an 800 MB
notebook.  nbgrader's ``LimitOutput`` runs after the fact and counts lines, not
characters.  Here output is cut *as it arrives*, in two places:

* **ZeroMQ** (``ClienteAcotado``, the kernel client of ``KernelAislado``): a
  single message larger than ``mensaje_maximo`` (32 MiB) is refused by the
  socket (``ZMQ_MAXMSGSIZE``) before it is read into the TA's process, and at
  most ``cola_maxima`` (4) messages wait in the TA's receive queue
  (``ZMQ_RCVHWM``); the rest wait in the kernel, within its own memory limit.
  A refused message makes ZeroMQ drop and re-open the connection: what the
  cell printed meanwhile is lost, nbclient stops waiting for it after
  ``iopub_timeout`` and the cell says its output arrived incomplete.
* **nbclient** (``Presupuesto``, used by ``EjecucionAislada.process_message``):
  each cell keeps at most ``salida_maxima_celda`` (4 MiB) of output (text
  streams, tracebacks, images, widget state) and the whole notebook at most
  ``salida_maxima_cuaderno`` (16 MiB).  The evidence the hidden tests publish
  (``cliente.MIME_EVIDENCIA`` in a test cell) has its own notebook budget,
  ``evidencia_maxima`` (32 MiB), so a flood in an answer cell never costs a
  later test its evidence.  A stream past the budget keeps its first
  characters; other outputs past it are dropped whole.  The cell then ends
  with one Spanish note (a ``display_data`` marked ``MARCA`` in its metadata)
  saying how much was dropped: the student reads it in the feedback, the TA
  table names the cell (``scripts/calificacion/observaciones.py``).

The budgets count characters received, not characters kept (clearing the
output does not give budget back).  An honest lesson stays far below them:
the largest cell of the course's lessons, an explorable's PNG with its widget
state, is well under 1 MiB.  The notebook then stays under the submission's
64 MiB budget (``archivos_alumno.PresupuestoEntrega``), so it is graded and
gets its feedback like any other.
"""
from __future__ import annotations

import zmq
from jupyter_client.asynchronous import AsyncKernelClient
from nbformat.notebooknode import from_dict
from traitlets import Integer
from traitlets.config import LoggingConfigurable

from .cliente import MIME_EVIDENCIA

MiB = 1024 ** 2
MARCA = "curso_salida_recortada"     # output metadata of the note (scripts/calificacion/observaciones.py)

# messages that carry no student data (the cell's bookkeeping): never counted, never cut
_CONTROL = frozenset({"status", "execute_input", "clear_output"})


def mib(n: int) -> str:
    """``n`` bytes as Spanish MiB with one decimal: ``'763,3 MiB'``."""
    return f"{n / MiB:.1f}".replace(".", ",") + " MiB"


def tamaño(valor) -> int:
    """Characters and bytes of the strings and buffers in ``valor`` (a decoded message).

    Iterative (no recursion limit for deep JSON); keys count too; every other
    scalar counts 8.  ``len`` of a string is O(1): the walk costs the number
    of JSON nodes, which the message already holds in memory.
    """
    total, pendientes = 0, [valor]
    while pendientes:
        v = pendientes.pop()
        if isinstance(v, str):
            total += len(v)
        elif isinstance(v, (bytes, bytearray)):
            total += len(v)
        elif isinstance(v, memoryview):
            total += v.nbytes
        elif isinstance(v, dict):
            pendientes.extend(v.keys())
            pendientes.extend(v.values())
        elif isinstance(v, (list, tuple)):
            pendientes.extend(v)
        else:
            total += 8
    return total


class ClienteAcotado(AsyncKernelClient):
    """The kernel client of ``KernelAislado``: its sockets refuse giant messages and queue few.

    The options are the defaults of the client's own ZeroMQ context, so every
    channel (iopub, shell, stdin, control, heartbeat) gets them before it
    connects.
    """

    mensaje_maximo = Integer(32 * MiB, help="Largest message the TA's process reads from the kernel, bytes "
                                            "(ZMQ_MAXMSGSIZE).").tag(config=True)
    cola_maxima = Integer(4, help="Messages waiting in the TA's receive queue per channel "
                                  "(ZMQ_RCVHWM).").tag(config=True)

    def _context_default(self):
        contexto = super()._context_default()
        contexto.setsockopt(zmq.MAXMSGSIZE, int(self.mensaje_maximo))
        contexto.setsockopt(zmq.RCVHWM, int(self.cola_maxima))
        return contexto


class Presupuesto(LoggingConfigurable):
    """The output budgets of one notebook's run; ``admitir`` decides each message (see module doc)."""

    salida_maxima_celda = Integer(4 * MiB, help="Output one cell keeps (characters).").tag(config=True)
    salida_maxima_cuaderno = Integer(16 * MiB, help="Output the notebook keeps, evidence apart "
                                                    "(characters).").tag(config=True)
    evidencia_maxima = Integer(32 * MiB, help="Hidden-test evidence the notebook keeps "
                                              "(characters).").tag(config=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.cuaderno = 0          # accepted so far, evidence apart
        self.evidencia = 0
        self.empezar_celda(False)

    def empezar_celda(self, es_prueba: bool) -> None:
        self.es_prueba = es_prueba
        self.celda = 0
        self.descartado = 0
        self.incompleta = False

    def admitir(self, msg: dict) -> bool:
        """Account ``msg`` (an iopub message of the current cell); False if it must be dropped.

        A stream that does not fit is shortened in place to what does.
        """
        tipo = msg.get("msg_type")
        if tipo in _CONTROL:
            return True
        contenido = msg.get("content") or {}
        datos = contenido.get("data") if isinstance(contenido, dict) else None
        if self.es_prueba and tipo == "display_data" and isinstance(datos, dict) and MIME_EVIDENCIA in datos:
            libre = self.evidencia_maxima - self.evidencia
            n = tamaño([contenido, msg.get("buffers") or []])
            if n <= libre:
                self.evidencia += n
                return True
            self.descartado += n
            return False
        libre = max(0, min(self.salida_maxima_celda - self.celda, self.salida_maxima_cuaderno - self.cuaderno))
        texto = contenido.get("text") if tipo == "stream" and isinstance(contenido, dict) else None
        if isinstance(texto, str):
            if len(texto) <= libre:
                self._aceptar(len(texto))
                return True
            self.descartado += len(texto) - libre
            if libre == 0:
                return False
            contenido["text"] = texto[:libre]
            self._aceptar(libre)
            return True
        n = tamaño([contenido, msg.get("buffers") or []])
        if n <= libre:
            self._aceptar(n)
            return True
        self.descartado += n
        return False

    def _aceptar(self, n: int) -> None:
        self.celda += n
        self.cuaderno += n

    def nota(self) -> dict | None:
        """The Spanish note that ends the cell when output was dropped or lost, else None."""
        if not self.descartado and not self.incompleta:
            return None
        partes = []
        if self.descartado:
            partes.append(f"La salida de esta celda se recortó: se descartaron {mib(self.descartado)} "
                          f"(cada celda conserva hasta {mib(self.salida_maxima_celda)} y el cuaderno "
                          f"entero hasta {mib(self.salida_maxima_cuaderno)}).")
        if self.incompleta:
            partes.append("Parte de la salida de esta celda no llegó: un solo mensaje superaba el máximo "
                          "que admite la calificación y se descartó.")
        partes.append("El código de la celda se ejecutó entero y el cuaderno se calificó con normalidad.")
        texto = " ".join(partes)
        return from_dict({"output_type": "display_data", "data": {"text/plain": texto},
                          "metadata": {MARCA: {"descartado": int(self.descartado),
                                               "incompleta": bool(self.incompleta)}}})


__all__ = ["ClienteAcotado", "Presupuesto", "MARCA", "tamaño", "mib"]
