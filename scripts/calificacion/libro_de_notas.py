"""Where the course's gradebook is: one answer for nbgrader and for every script.

nbgrader keeps grades in a database given by ``c.CourseDirectory.db_url``.
The course's ``nbgrader_config.py`` sets it, in its last block:

* by default, nbgrader's own: SQLite in ``gradebook.db`` at the course root;
* a URL written in ``nbgrader_config.py`` (``c.CourseDirectory.db_url``);
* the environment variable ``CURSO_DB_URL`` over both (a Kubernetes secret, a
  TA's shell), e.g. ``postgresql+psycopg2://usuario:clave@servidor:5432/base``;
* ``postgresql://`` and ``postgres://`` become ``postgresql+psycopg2://``.

That block imports nothing of the course: an exception in nbgrader_config.py
would make nbgrader drop the whole configuration (sandbox included), and
partial copies of the course (the battery's) must keep working.

Scripts never build the URL themselves: :func:`url_del_curso` reads the
course's ``nbgrader_config.py`` the way nbgrader does (same file, same
environment), so ``make grade``, the LMS steps and the tests open the same
gradebook as ``nbgrader autograde`` and formgrader.

PostgreSQL needs the psycopg2 driver (``psycopg2-binary``, pinned in
``despliegue/requirements-calificador.txt``); :func:`comprobar` says, in
Spanish, when the URL cannot work.
"""
from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

VARIABLE = "CURSO_DB_URL"
CONTROLADOR_POSTGRESQL = "postgresql+psycopg2"


class LibroDeNotasInvalido(ValueError):
    """The gradebook URL cannot work (Spanish message for the TA)."""


def url_sqlite(raiz: Path | str) -> str:
    """nbgrader's default: ``sqlite:///<raiz>/gradebook.db`` (absolute path)."""
    return f"sqlite:///{os.path.abspath(os.path.join(raiz, 'gradebook.db'))}"


def comprobar(url: str) -> str:
    """``url`` if nbgrader can open it with this environment; else a Spanish reason.

    Raises:
        LibroDeNotasInvalido: not a URL; a plain ``postgresql://`` (SQLAlchemy 2.1 would
            look for psycopg 3); PostgreSQL without the psycopg2 driver installed.
    """
    esquema, separador, _ = (url or "").partition("://")
    if not separador:
        raise LibroDeNotasInvalido(f"«{ocultar_clave(url)}» no es una URL de base de datos: el libro de notas "
                                   "tiene que ser como sqlite:////ruta/gradebook.db o "
                                   "postgresql+psycopg2://usuario:clave@servidor:5432/base.")
    if esquema in ("postgresql", "postgres"):
        raise LibroDeNotasInvalido(
            f"nbgrader_config.py da al libro de notas la URL «{ocultar_clave(url)}»: con PostgreSQL "
            f"escribe {CONTROLADOR_POSTGRESQL}://… (el controlador psycopg2 que instala el curso).")
    if esquema == CONTROLADOR_POSTGRESQL:
        try:
            import psycopg2  # noqa: F401
        except ImportError:
            raise LibroDeNotasInvalido(
                "El libro de notas es PostgreSQL pero falta su controlador (psycopg2). Instálalo en el "
                "entorno del curso: pip install -r despliegue/requirements-calificador.txt") from None
    return url


def url_del_curso(raiz: Path | str) -> str:
    """The gradebook URL nbgrader uses in the course at ``raiz`` (read from its nbgrader_config.py).

    Runs the course's ``nbgrader_config.py`` like nbgrader does, with this
    process's environment, and returns ``c.CourseDirectory.db_url`` (nbgrader's
    default when the file sets none).

    Raises:
        LibroDeNotasInvalido: see :func:`comprobar`.
    """
    from traitlets.config.loader import PyFileConfigLoader
    raiz = os.path.abspath(raiz)
    configuracion = PyFileConfigLoader("nbgrader_config.py", path=raiz).load_config() \
        if os.path.isfile(os.path.join(raiz, "nbgrader_config.py")) else None
    url = ""
    if configuracion is not None and "CourseDirectory" in configuracion:
        url = configuracion.CourseDirectory.get("db_url", "") or ""
        raiz = configuracion.CourseDirectory.get("root", "") or raiz
    return comprobar(url or url_sqlite(raiz))


def es_sqlite(url: str) -> bool:
    return url.startswith("sqlite:")


def ruta_sqlite(url: str) -> Path | None:
    """The file of a ``sqlite:///`` URL (None for an in-memory or non-SQLite database)."""
    if not url.startswith("sqlite:///") or url in ("sqlite://", "sqlite:///:memory:"):
        return None
    return Path(url[len("sqlite:///"):])


def existe(url: str) -> bool:
    """Whether there is a gradebook to open without creating one (a server database always is)."""
    ruta = ruta_sqlite(url)
    return ruta.is_file() if ruta is not None else not es_sqlite(url)


def ocultar_clave(url: str) -> str:
    """The URL as it may be printed: without its password."""
    try:
        from sqlalchemy.engine import make_url
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - not a URL SQLAlchemy understands: print only its scheme
        return url.split("://", 1)[0] + "://…" if "://" in url else url


@contextlib.contextmanager
def abrir(raiz: Path | str):
    """``nbgrader.api.Gradebook`` of the course at ``raiz`` (its configured URL), as a context manager."""
    from nbgrader.api import Gradebook
    url = url_del_curso(raiz)
    herramientas_en_path()
    with Gradebook(url) as gb:
        yield gb


def herramientas_en_path() -> None:
    """Put this interpreter's ``bin`` on PATH: nbgrader runs ``alembic`` from there on a new gradebook."""
    binarios = os.path.dirname(sys.executable)
    if binarios not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = binarios + os.pathsep + os.environ.get("PATH", "")
