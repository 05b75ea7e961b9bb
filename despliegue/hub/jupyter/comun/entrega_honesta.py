"""``nbgrader submit`` (the Assignments tab's Submit button) on the course's hub: a student submits as themselves.

Registered for every server of the hub by ``nbgrader_config.py`` next to this
file (``c.ExchangeFactory.submit``).  nbgrader's own submit lets anyone write
an entry under any name (``--student``), leaves the entry writable by everyone
(0777) and its files readable by everyone (0644): only the random code in its
name hides it, and nbgrader logs that name.  The TA's collect refuses an entry
whose owner is not the student it names (``grader_tests/intercambio.py``), so
here a student is told so before anything is written, and their entry is
theirs and the graders' alone:

* ``--student <otro>`` is refused with a Spanish reason (the submission would
  never be collected);
* the entry is built inside a private folder of the student's own in
  ``inbound`` (0700) and renamed into place when complete: at no moment can
  another account read or change it;
* ``inbound`` is setgid (the course's release and collect keep it so): the entry
  and its files belong to the graders' group and get modes 0750 / 0640, so
  the formgrader service reads them and no other student can, whatever they
  know of the name.  Where ``inbound`` is not setgid (an exchange set up by
  hand), the entry keeps nbgrader's readable modes (0755 / 0644) and the log
  says why;
* ``inbound`` is sticky (despliegue/README.md): nobody but the author (or the
  TA) can rename or remove the entry;
* the log never carries the entry's random code; it says, in Spanish, as whom
  and when it was submitted and which submission the TA collects.
"""
from __future__ import annotations

import os
import secrets
import shutil
import stat
import tempfile

from nbgrader.exchange.default.submit import ExchangeSubmit
from nbgrader.utils import get_username

PREFIJO_EN_CURSO = ".entregando-"      # grader_tests.intercambio.PREFIJO_EN_CURSO: collect skips these
PRIVADO = (0o750, 0o640)               # folders, files: the author and the graders' group
LEGIBLE = (0o755, 0o644)               # nbgrader's, when inbound gives no group to the entries


class EntregaHonesta(ExchangeSubmit):
    """nbgrader's submit, only as the account that runs it, into an entry nobody else can read or move."""

    def init_dest(self):
        propio = get_username()
        pedido = self.coursedir.student_id
        if pedido not in ("", "*", propio):
            self.fail(f"No se puede entregar como «{pedido}»: el profesorado sólo recoge una entrega hecha "
                      f"desde la cuenta de quien nombra (la tuya es «{propio}»). Entrega sin --student.")
        super().init_dest()

    def _visible(self) -> str:
        """The entry's name without its random code (what the log shows)."""
        if self.add_random_string:
            return self.assignment_filename.rsplit("+", 1)[0] + "+…"
        return self.assignment_filename

    def _modos(self) -> tuple[int, int]:
        if os.stat(self.inbound_path).st_mode & stat.S_ISGID:
            return PRIVADO
        self.log.warning("El intercambio no da las entregas al grupo del profesorado (inbound sin setgid): tu "
                         "entrega queda legible para quien sepa su nombre. Avisa al profesorado "
                         "(despliegue/README.md, «El intercambio»).")
        return LEGIBLE

    def copy_files(self):
        """nbgrader's ``ExchangeSubmit.copy_files`` (0.9.6), with the entry built out of sight and private."""
        self.init_release()
        secreto = secrets.token_hex(64)
        destino = os.path.join(self.inbound_path, self.assignment_filename)
        nombre_cache = (self.assignment_filename.rsplit("+", 1)[0] if self.add_random_string
                        else self.assignment_filename)
        cache = os.path.join(self.cache_path, nombre_cache)
        self.log.info("Source: %s", self.src_path)
        self.log.info("Destination: %s", os.path.join(self.inbound_path, self._visible()))
        self.check_filename_diff()
        modo_carpeta, modo_archivo = self._modos()
        obra = tempfile.mkdtemp(prefix=PREFIJO_EN_CURSO, dir=self.inbound_path)     # 0700, the author's
        try:
            entrega = os.path.join(obra, "entrega")
            self.do_copy(self.src_path, entrega)
            # written next to the copy, in the folder that still has inbound's group (the copy's own folder
            # took the mode of the student's, without setgid), and moved in: they keep that group
            for nombre, texto in (("timestamp.txt", self.timestamp), ("submission_secret.txt", secreto)):
                with open(os.open(os.path.join(obra, nombre), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                                  modo_archivo), "w") as f:
                    f.write(texto)
                os.replace(os.path.join(obra, nombre), os.path.join(entrega, nombre))
            _permisos(entrega, modo_carpeta, modo_archivo)
            os.rename(entrega, destino)
        except OSError as exc:
            # the path in the error would carry the entry's code: said without it
            raise OSError(exc.errno, f"no se pudo escribir la entrega en el intercambio ({exc.strerror})") from None
        finally:
            shutil.rmtree(obra, ignore_errors=True)
        # the student's own copy, as nbgrader keeps it (their home is private)
        os.makedirs(self.cache_path, exist_ok=True)
        self.do_copy(self.src_path, cache)
        for nombre, texto in (("timestamp.txt", self.timestamp), ("submission_secret.txt", secreto)):
            with open(os.path.join(cache, nombre), "w") as f:
                f.write(texto)
        self.log.info("Submitted as: %s %s %s", self.coursedir.course_id, self.coursedir.assignment_id,
                      self.timestamp)
        self.log.info("Entregado como «%s» (%s). El profesorado recoge tu entrega más reciente hecha desde tu "
                      "cuenta; una entrega con el nombre de otra persona o con una fecha inventada no se recoge.",
                      self.assignment_filename.split("+", 1)[0], self.timestamp)


def _permisos(raiz: str, modo_carpeta: int, modo_archivo: int) -> None:
    """Every folder and regular file under ``raiz`` (itself included) to the given modes; links untouched."""
    os.chmod(raiz, modo_carpeta)
    for carpeta, subcarpetas, archivos in os.walk(raiz):
        for nombre in subcarpetas + archivos:
            ruta = os.path.join(carpeta, nombre)
            st = os.lstat(ruta)
            if stat.S_ISDIR(st.st_mode):
                os.chmod(ruta, modo_carpeta)
            elif stat.S_ISREG(st.st_mode):
                os.chmod(ruta, modo_archivo)
