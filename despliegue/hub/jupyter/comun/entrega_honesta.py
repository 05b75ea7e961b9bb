"""``nbgrader submit`` (the Assignments tab's Submit button) on the course's hub: a student submits as themselves.

Registered for every server of the hub by ``nbgrader_config.py`` next to this
file (``c.ExchangeFactory.submit``).  nbgrader's own submit lets anyone write
an entry under any name (``--student``), leaves the entry writable by everyone
(0777) and its files readable by everyone (0644): only the random code in its
name hides it, and nbgrader logs that name.  The TA's collect refuses an entry
whose owner is not the student it names (``grader_tests/extensiones_nbgrader/intercambio.py``), so
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
  and when it was submitted and which submission the TA collects;
* links are never followed and never block the submission (TA round 7, P2-2):
  a symbolic link (even a broken one), a FIFO, a socket or a device in the
  assignment folder is left out, named in the log and in the student's own
  copy (:data:`OMITIDOS`, which the Assignments tab shows under the
  submission: ``plazos_assignments``); the rest is submitted.  A file that
  cannot be read ends the submission with a Spanish message that names it and
  says what to do (:class:`EntregaFallida`), and the Submit dialog shows that
  message, not nbgrader's traceback (:func:`aplicar`);
* a folder larger than the course's grading keeps (:data:`MAX_BYTES`, 64 MiB, and
  :data:`MAX_ENTRADAS` files and folders) is refused before anything is written, with
  the size or count and what to remove: grading would leave the rest out.
"""
from __future__ import annotations

import functools
import json
import os
import re
import secrets
import shutil
import stat
import tempfile

from nbgrader.exchange import ExchangeError
from nbgrader.exchange.default.submit import ExchangeSubmit
from nbgrader.utils import get_username, ignore_patterns

PREFIJO_EN_CURSO = ".entregando-"      # grader_tests.extensiones_nbgrader.intercambio.PREFIJO_EN_CURSO: collect skips these
PRIVADO = (0o750, 0o640)               # folders, files: the author and the graders' group
LEGIBLE = (0o755, 0o644)               # nbgrader's, when inbound gives no group to the entries
OMITIDOS = ".omitidos_en_la_entrega.json"   # in the student's cached copy: what was left out, and why
MAX_OMITIDOS = 50                      # named one by one; the rest counted
# the course's grading budget per submission (grader_tests.caja.archivos_alumno.PresupuestoEntrega: what grading
# keeps; tests/test_intercambio.py keeps them equal): Submit refuses more, with the reason, instead of a
# submission that grading trims (nbgrader's own limit, 100 MB, is larger)
MAX_BYTES = 64 * 1024 ** 2
MAX_ENTRADAS = 200


class EntregaFallida(ExchangeError):
    """The submission could not be written; the message (Spanish) says which file and what to do."""


def _tipo(modo: int) -> str | None:
    """Why a folder entry is left out of a submission (Spanish), None for a regular file or a folder."""
    if stat.S_ISLNK(modo):
        return "enlace simbólico"
    if stat.S_ISFIFO(modo):
        return "tubería con nombre (FIFO)"
    if stat.S_ISSOCK(modo):
        return "socket"
    if stat.S_ISCHR(modo) or stat.S_ISBLK(modo):
        return "dispositivo"
    if not (stat.S_ISREG(modo) or stat.S_ISDIR(modo)):
        return "archivo especial"
    return None


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

    def do_copy(self, src, dest, log=None):
        """nbgrader's ``Exchange.do_copy`` (0.9.6: size limit, ignore/include globs, file size limit) that
        never follows a link: links and special files are left out and remembered (``self.omitidos``)."""
        if not hasattr(self, "omitidos"):
            self.omitidos: dict[str, str] = {}
        tamaño, entradas = _medir(src, self.coursedir.ignore)
        maximo = min(MAX_BYTES, 1000 * self.coursedir.max_dir_size)
        if tamaño > maximo:
            raise EntregaFallida(
                f"La carpeta de la tarea ocupa {_mib(tamaño)} y el máximo es {_mib(maximo)}: "
                "quita los archivos grandes que no sean de la tarea (datos, copias, salidas) y vuelve a pulsar "
                "Entregar.")
        if entradas > MAX_ENTRADAS:
            raise EntregaFallida(
                f"La carpeta de la tarea tiene {entradas} archivos y carpetas y el máximo es {MAX_ENTRADAS}: "
                "quita los que no sean de la tarea (datos, copias, imágenes guardadas) y vuelve a pulsar Entregar.")
        de_nbgrader = ignore_patterns(exclude=self.coursedir.ignore, include=self.coursedir.include,
                                      max_file_size=self.coursedir.max_file_size, log=self.log)

        def ignorar(carpeta, nombres):
            fuera = set(de_nbgrader(carpeta, nombres))
            for nombre in nombres:
                if nombre in fuera:
                    continue
                ruta = os.path.join(carpeta, nombre)
                try:
                    motivo = _tipo(os.lstat(ruta).st_mode)
                except OSError:
                    motivo = "desapareció mientras se entregaba"
                if motivo:
                    fuera.add(nombre)
                    relativa = os.path.relpath(ruta, src)
                    if relativa not in self.omitidos:
                        self.omitidos[relativa] = motivo
                        self.log.warning("No se entrega «%s» (%s): los enlaces y los archivos especiales no se "
                                         "entregan ni se siguen; el resto sí se entrega.", relativa, motivo)
            return fuera
        try:
            shutil.copytree(src, dest, symlinks=True, ignore=ignorar)
        except shutil.Error as exc:
            archivos = []
            for origen, _destino, porque in (exc.args[0] if exc.args and isinstance(exc.args[0], list) else []):
                relativa = os.path.relpath(str(origen), src) if str(origen).startswith(str(src)) else "?"
                archivos.append(f"«{relativa}» ({_sin_ruta(porque)})")
            raise EntregaFallida(
                "No se pudo entregar: no se pueden leer " + ", ".join(archivos[:10])
                + (f" y {len(archivos) - 10} más" if len(archivos) > 10 else "")
                + ". Dale permiso de lectura (chmod u+r) o sácalo de la carpeta de la tarea y vuelve a pulsar "
                  "Entregar.") from None

    def copy_files(self):
        """nbgrader's ``ExchangeSubmit.copy_files`` (0.9.6), with the entry built out of sight and private."""
        self.omitidos = {}
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
        except EntregaFallida:
            raise
        except OSError as exc:
            # the path in the error would carry the entry's code: said without it
            quien = ""
            for ruta in (exc.filename, exc.filename2):
                if ruta and str(ruta).startswith(str(self.src_path) + os.sep):
                    quien = f" al copiar «{os.path.relpath(str(ruta), self.src_path)}»"
                    break
            raise EntregaFallida(f"No se pudo escribir la entrega en el intercambio{quien} "
                                 f"({exc.strerror or type(exc).__name__}). No se ha entregado nada: vuelve a pulsar "
                                 "Entregar y, si pasa otra vez, avisa al profesorado con este mensaje.") from None
        finally:
            shutil.rmtree(obra, ignore_errors=True)
        # the student's own copy, as nbgrader keeps it (their home is private)
        os.makedirs(self.cache_path, exist_ok=True)
        self.do_copy(self.src_path, cache)
        for nombre, texto in (("timestamp.txt", self.timestamp), ("submission_secret.txt", secreto)):
            with open(os.path.join(cache, nombre), "w") as f:
                f.write(texto)
        if self.omitidos:
            # what the Assignments tab says under this submission (plazos_assignments.lista)
            nombres = sorted(self.omitidos)
            datos = {"omitidos": [{"ruta": r, "motivo": self.omitidos[r]} for r in nombres[:MAX_OMITIDOS]],
                     "mas": max(0, len(nombres) - MAX_OMITIDOS)}
            with open(os.path.join(cache, OMITIDOS), "w", encoding="utf-8") as f:
                json.dump(datos, f, ensure_ascii=False)
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


def _mib(n: float) -> str:
    """A size for the student, in MiB with a decimal comma: ``'64 MiB'``, ``'70,5 MiB'``."""
    return f"{n / 1024 ** 2:.1f}".rstrip("0").rstrip(".").replace(".", ",") + " MiB"


def _medir(src: str, ignorar=()) -> tuple[int, int]:
    """(bytes of regular files, files and folders) under ``src``, links not followed, as the submit copies it.

    ``ignorar``: nbgrader's ``CourseDirectory.ignore`` globs (``.ipynb_checkpoints``, ``__pycache__``…),
    which the copy leaves out: not counted.
    """
    import fnmatch
    fuera = lambda nombre: any(fnmatch.fnmatch(nombre, patron) for patron in ignorar)  # noqa: E731
    tamaño = entradas = 0
    for carpeta, subcarpetas, archivos in os.walk(src):
        subcarpetas[:] = [d for d in subcarpetas if not fuera(d)]
        for nombre in subcarpetas + [a for a in archivos if not fuera(a)]:
            entradas += 1
            try:
                st = os.lstat(os.path.join(carpeta, nombre))
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                tamaño += st.st_size
    return tamaño, entradas


def _sin_ruta(porque) -> str:
    """The reason of one of shutil.copytree's errors without the paths it carries (they may name the entry)."""
    if isinstance(porque, OSError):
        return porque.strerror or type(porque).__name__
    texto = re.sub(r"^\[Errno \d+\] ", "", str(porque))      # «[Errno 13] Permission denied: '/ruta'»
    return texto.split(": ", 1)[0][:120] if texto else "error"


def _solo_el_mensaje(entregar):
    @functools.wraps(entregar)
    def submit_assignment(self, course_id, assignment_id):
        respuesta = entregar(self, course_id, assignment_id)
        if isinstance(respuesta, dict) and not respuesta.get("success"):
            valor = str(respuesta.get("value") or "")
            marca = f"{EntregaFallida.__name__}: "
            if marca in valor:
                # only the Spanish message (the last lines of the traceback), not nbgrader's whole traceback
                respuesta["value"] = valor.rsplit(marca, 1)[1].strip()
        return respuesta
    submit_assignment._curso_entrega = True
    return submit_assignment


def aplicar() -> None:
    """The Submit button shows an :class:`EntregaFallida`'s Spanish message alone (idempotent)."""
    try:
        from nbgrader.server_extensions.assignment_list.handlers import AssignmentList
    except ImportError:           # a terminal without jupyter_server: the message still ends the traceback
        return
    if not getattr(AssignmentList.submit_assignment, "_curso_entrega", False):
        AssignmentList.submit_assignment = _solo_el_mensaje(AssignmentList.submit_assignment)
