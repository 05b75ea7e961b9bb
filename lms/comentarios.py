"""Every student's feedback HTML in one zip, laid out as the LMS's bulk upload expects.

* Moodle ("Upload multiple feedback files in a zip", feedback files enabled in
  the assignment): one folder per submission named as in the download,
  ``<Full name>_<participant id>_assignsubmission_file/<cuaderno>.html``, or
  the flat names ``..._assignsubmission_file_<cuaderno>.html`` when the
  download was flat (``mod/assign/feedback/file/importziplib.php`` reads both).
* Canvas ("Re-Upload Submissions"): flat files
  ``<name>[_LATE]_<user id>_<attachment id>_<cuaderno>.html``; Canvas reads
  the user and attachment ids back from the name
  (``Assignment#infer_comment_context_from_filename``) and attaches the file
  as a comment to that submission.

Only the regular ``*.html`` files nbgrader wrote in ``feedback/<alumno>/<tarea>/``
are packed (never a link, never what a student's kernel left there).

From the course root, after ``nbgrader generate_feedback``::

    python -m lms.comentarios 01_atencion_multicabeza
"""
from __future__ import annotations

import os
import stat
import time
import zipfile
from pathlib import Path

from lms import DESCARGAS, INFORME, SUBIR
from lms.recogida import leer_informe

MAX_HTML = 100 * 1024 ** 2


def _htmls(carpeta: Path) -> list[Path]:
    try:
        return sorted(Path(e.path) for e in os.scandir(carpeta)
                      if e.name.endswith(".html") and e.is_file(follow_symlinks=False))
    except OSError:
        return []


def nombre_en_zip(entrega: dict, html: str) -> str | None:
    """Where a feedback file goes in the LMS's zip, None when the LMS cannot take it back."""
    if entrega["lms"] == "moodle":
        separador = "_" if entrega.get("formato") == "plano" else "/"
        return f"{entrega['prefijo']}_assignsubmission_file{separador}{html}"
    if not str(entrega["lms_id"]).isdigit() or entrega.get("adjunto") is None:
        return None
    return f"{entrega['prefijo']}_{html}"


def empaquetar(raiz: Path, tarea: str, destino: Path | None = None) -> tuple[list[Path], list[str]]:
    """Write ``para_subir/<tarea>/comentarios_<lms>.zip`` for each LMS the assignment was collected from.

    Args:
        raiz: the course root.
        tarea: the assignment.
        destino: folder for the zips (default ``para_subir/<tarea>``).

    Returns:
        ``(zips written, Spanish warnings)``; a student without feedback HTML
        is a warning, never an error.
    """
    informe = leer_informe(raiz / DESCARGAS / tarea / INFORME)
    carpeta = destino or raiz / SUBIR / tarea
    escritos, avisos = [], []
    for lms in ("moodle", "canvas"):
        entregas = {a: e for a, e in informe.get("entregas", {}).items() if e.get("lms") == lms}
        if not entregas:
            continue
        carpeta.mkdir(parents=True, exist_ok=True)
        ruta = carpeta / f"comentarios_{lms}.zip"
        temporal = ruta.with_name(f".{ruta.name}.tmp")
        n = 0
        with zipfile.ZipFile(temporal, "w", zipfile.ZIP_DEFLATED) as zf:
            for alumno, entrega in sorted(entregas.items()):
                htmls = _htmls(raiz / "feedback" / alumno / tarea)
                if not htmls:
                    avisos.append(f"{alumno}: no hay comentarios en feedback/{alumno}/{tarea}/ para el zip de {lms}")
                    continue
                for html in htmls:
                    nombre = nombre_en_zip(entrega, html.name)
                    if nombre is None:
                        avisos.append(f"{alumno}: Canvas lo descargó de forma anónima: sus comentarios no se "
                                      "pueden devolver en el zip")
                        break
                    fd = os.open(html, os.O_RDONLY | os.O_NOFOLLOW)
                    with os.fdopen(fd, "rb") as f:
                        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode) or os.fstat(f.fileno()).st_size > MAX_HTML:
                            avisos.append(f"{alumno}: «{html.name}» no es un archivo normal o es demasiado grande")
                            continue
                        zf.writestr(zipfile.ZipInfo(nombre, _fecha()), f.read(), zipfile.ZIP_DEFLATED)
                    n += 1
        os.replace(temporal, ruta)
        escritos.append(ruta)
        if not n:
            avisos.append(f"{ruta.name} está vacío: no hay comentarios que devolver")
    return escritos, avisos


def _fecha() -> tuple:
    return time.localtime()[:6]


def main(argv: list[str] | None = None) -> int:
    import argparse
    parser = argparse.ArgumentParser(description="Empaqueta los comentarios de una tarea para el LMS (para_subir/).")
    parser.add_argument("tareas", nargs="+", help="tareas (carpetas de release/)")
    parser.add_argument("--raiz", type=Path, default=Path.cwd(), help="raíz del curso (por defecto, la actual)")
    args = parser.parse_args(argv)
    for tarea in args.tareas:
        zips, avisos = empaquetar(args.raiz, tarea)
        for aviso in avisos:
            print(f"aviso: {aviso}")
        for ruta in zips:
            print(ruta)
        if not zips:
            print(f"{tarea}: no hay entregas recogidas de un LMS ({DESCARGAS}/{tarea}/{INFORME})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
