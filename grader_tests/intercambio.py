"""nbgrader's exchange steps on the TA's side, with students' folders treated as untrusted.

Registered in ``nbgrader_config.py`` through nbgrader's own ``ExchangeFactory``
(``c.ExchangeFactory.collect``, ``c.ExchangeFactory.release_feedback``), so the
plain ``nbgrader collect`` / ``nbgrader release_feedback`` and formgrader's
buttons use them.

* ``RecogerSeguro`` (collect): the inbound submission is copied into
  ``submitted/`` with ``archivos_alumno.copiar_entrega``: no link, FIFO,
  socket or device is followed or copied (an inbound folder that *is* a link
  is refused), within the submission's budget; each student gets the reasons
  in the log and a broken submission never stops the others.
* ``PublicarComentariosSeguro`` (release_feedback): one student's missing or
  garbled ``timestamp.txt`` / ``submission_secret.txt``, or a feedback file
  that is not a regular file, is that student's reason; the rest of the class
  gets its feedback.  A submission held for the TA's review (``revision``:
  a resubmission whose old manual grades were not reviewed yet) is not
  published, and the step ends with an error that says who and why.
"""
from __future__ import annotations

import glob
import os
import re

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.exchange.default.release_feedback import ExchangeReleaseFeedback
from nbgrader.utils import notebook_hash

from . import archivos_alumno as aa


def _alumno_y_tarea(ruta: str) -> tuple[str, str]:
    partes = os.path.normpath(ruta).split(os.sep)
    return (partes[-2], partes[-1]) if len(partes) >= 2 else ("?", "?")


class RecogerSeguro(ExchangeCollect):
    """``nbgrader collect`` that never follows what students put in the exchange."""

    def do_copy(self, src, dest, log=None):
        alumno, tarea = _alumno_y_tarea(dest)
        presupuesto = aa.PresupuestoEntrega(parent=self)
        try:
            avisos = aa.copiar_entrega(src, dest, presupuesto, ignorar=list(self.coursedir.ignore))
        except OSError as exc:
            self.log.error("%s de '%s' en '%s': no se recoge: %s", aa.MARCA, aa.nombre_legible(alumno),
                           tarea, exc.strerror or exc)
            return
        aa.registrar(dest, avisos, self.log, aa.nombre_legible(alumno), tarea)

    def copy_files(self):
        # one student's broken submission must not stop the collection of the others
        registros = list(self.src_records)
        for registro in registros:
            self.src_records = [registro]
            try:
                super().copy_files()
            except Exception as exc:  # noqa: BLE001
                self.log.error("%s de '%s' en '%s': no se pudo recoger (%s)", aa.MARCA,
                               aa.nombre_legible(str(registro.get("username"))), self.coursedir.assignment_id,
                               exc)
        self.src_records = registros


class PublicarComentariosSeguro(ExchangeReleaseFeedback):
    """``nbgrader release_feedback`` where one student's damaged folder stops nobody else."""

    def copy_files(self):
        excluidos = set(self.coursedir.student_id_exclude.split(",")) if self.coursedir.student_id_exclude else set()
        patron = re.escape(os.path.sep).join([
            self.coursedir.format_path(self.coursedir.feedback_directory, "(?P<student_id>.*)",
                                       self.coursedir.assignment_id, escape=True),
            "(?P<notebook_id>.*).html"])
        fallos = 0
        retenidos = self._retenidos()
        for html in sorted(glob.glob(os.path.join(self.src_path, "*.html"))):
            m = re.match(patron, html)
            if m is None:
                continue
            alumno, cuaderno = m.group("student_id"), m.group("notebook_id")
            if alumno in excluidos:
                continue
            if alumno in retenidos:
                self.log.error("%s de '%s' en '%s': no se publican los comentarios: %s", aa.MARCA,
                               aa.nombre_legible(alumno), self.coursedir.assignment_id, retenidos[alumno])
                continue
            carpeta = os.path.dirname(html)
            try:
                self._publicar(carpeta, html, alumno, cuaderno)
            except Exception as exc:  # noqa: BLE001 - that student's reason, the rest go on
                fallos += 1
                self.log.error("%s de '%s' en '%s': no se publican los comentarios de %s: %s", aa.MARCA,
                               aa.nombre_legible(alumno), self.coursedir.assignment_id,
                               aa.nombre_legible(cuaderno), exc)
        if fallos:
            self.log.warning("Comentarios sin publicar: %d (ver los motivos arriba); el resto se publicó.", fallos)
        if retenidos:
            self.fail(f"Comentarios sin publicar, pendientes de revisión en formgrader: {', '.join(sorted(retenidos))} "
                      "(entregas nuevas con notas a mano de la anterior; el resto se publicó).")

    def _retenidos(self) -> dict[str, str]:
        """Students of this assignment whose submission is held for review (``revision``) → the reason."""
        from nbgrader.api import Gradebook
        from . import revision
        carpeta = os.path.join(self.coursedir.root, revision.CARPETA)
        if not os.path.isdir(os.path.join(carpeta, self.coursedir.assignment_id)):
            return {}
        with Gradebook(self.coursedir.db_url) as gb:
            return {alumno: "; ".join(lineas) for alumno, tarea in revision.con_pendientes(
                        gb, carpeta, self.coursedir.assignment_id)
                    for lineas in [revision.pendientes(gb, carpeta, tarea, alumno)]}

    def _publicar(self, carpeta: str, html: str, alumno: str, cuaderno: str) -> None:
        marca_tiempo = aa.leer_pequeño(os.path.join(carpeta, "timestamp.txt"), 256)
        secreto = aa.leer_pequeño(os.path.join(carpeta, "submission_secret.txt"), 1024)
        if secreto is None or not secreto.strip():
            raise ValueError("falta submission_secret.txt o no es un archivo normal y pequeño")
        if marca_tiempo is None:
            raise ValueError("falta timestamp.txt o no es un archivo normal y pequeño")
        motivo = aa.es_archivo_normal(html, 64 * 1024 ** 2)
        if motivo:
            raise ValueError(f"el archivo de comentarios {motivo}")
        suma = notebook_hash(secret=secreto, notebook_id=cuaderno)
        destino = os.path.join(self.dest_path, f"{suma}.html")
        self.log.info("Releasing feedback for student '%s' on assignment '%s/%s/%s' (%s)", alumno,
                      self.coursedir.course_id, self.coursedir.assignment_id, cuaderno, marca_tiempo.strip())
        aa.copiar_archivo(html, destino, 64 * 1024 ** 2)
        self.log.info("Feedback released to: %s", destino)
