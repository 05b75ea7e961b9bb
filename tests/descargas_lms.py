"""Synthetic LMS downloads for the tests, built as Moodle and Canvas build theirs.

The names follow ``lms/formatos.py`` (which cites the LMS source they come
from); the people are made up.
"""
from __future__ import annotations

import csv
import io
import time
import zipfile
from pathlib import Path

T1, T2 = "01_atencion_multicabeza", "02_codificacion_posicional"
NB1, NB2 = "atencion_multicabeza.ipynb", "codificacion_posicional.ipynb"


def _fecha(epoca: float) -> tuple:
    return time.localtime(epoca)[:6]


def zip_de(archivos: dict[str, bytes], epoca: float | None = None) -> bytes:
    """A zip (bytes) holding ``archivos`` (path in zip → content), entry times at ``epoca``."""
    salida = io.BytesIO()
    with zipfile.ZipFile(salida, "w", zipfile.ZIP_DEFLATED) as zf:
        for nombre, datos in archivos.items():
            info = zipfile.ZipInfo(nombre, _fecha(epoca or time.time()))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.flag_bits |= 0x800                        # UTF-8 names, as Moodle and Canvas write them
            zf.writestr(info, datos)
    return salida.getvalue()


def moodle(entregas: list[tuple[str, int, dict[str, bytes]]], carpetas: bool = True) -> dict[str, bytes]:
    """Entries of a Moodle "Download all submissions" zip.

    Args:
        entregas: ``(full name, participant id, {file name: content})``.
        carpetas: "Download submissions in folders" (Moodle's default).
    """
    entradas = {}
    for nombre, participante, archivos in entregas:
        prefijo = f"{nombre.replace('_', ' ')}_{participante}"
        for archivo, datos in archivos.items():
            plugin = "onlinetext" if archivo == "onlinetext.html" else "file"
            if carpetas:
                entradas[f"{prefijo}_assignsubmission_{plugin}/{archivo}"] = datos
            else:
                entradas[f"{prefijo}_assignsubmission_{plugin}_{archivo}"] = datos
    return entradas


def canvas(entregas: list[tuple[str, int, int, str, bytes, bool]]) -> dict[str, bytes]:
    """Entries of a Canvas "Download Submissions" zip.

    Args:
        entregas: ``(sortable name "Last, First", user id, attachment id,
            file name, content, late)``.
    """
    import re
    entradas = {}
    for nombre, usuario, adjunto, archivo, datos, tarde in entregas:
        limpio = re.sub(r"[^\w]", "", nombre.lower())
        partes = [limpio] + (["LATE"] if tarde else []) + [str(usuario), str(adjunto), archivo]
        entradas["_".join(partes)] = datos
    return entradas


def hoja_moodle(participantes: list[tuple[int, str, str]], idioma: str = "es", maximo: str = "10,00") -> bytes:
    """A Moodle grading worksheet as downloaded (no grades yet): (participant, full name, e-mail)."""
    if idioma == "es":
        cabecera = ["Identificador", "Nombre completo", "Dirección de correo", "Estado", "Calificación",
                    "Calificación máxima", "La calificación puede ser cambiada",
                    "Última modificación (entrega)", "Última modificación (calificación)",
                    "Comentarios de retroalimentación"]
        ident = "Participante{}"
    else:
        cabecera = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum grade",
                    "Grade can be changed", "Last modified (submission)", "Last modified (grade)",
                    "Feedback comments"]
        ident = "Participant {}"
    salida = io.StringIO()
    escritor = csv.writer(salida, lineterminator="\n")
    escritor.writerow(cabecera)
    for participante, nombre, correo in participantes:
        escritor.writerow([ident.format(participante), nombre, correo, "Enviado para calificar", "", maximo,
                           "Sí" if idioma == "es" else "Yes", "lunes, 3 de marzo de 2025, 10:00", "-", ""])
    return salida.getvalue().encode("utf-8")


def libro_canvas(alumnos: list[tuple[str, int, str, str, str]], tareas: dict[str, float]) -> bytes:
    """A Canvas gradebook export: (Student, ID, SIS User ID, SIS Login ID, Section); title → points."""
    salida = io.StringIO()
    escritor = csv.writer(salida, lineterminator="\n")
    escritor.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *tareas,
                       "Current Score", "Final Score"])
    escritor.writerow(["    Points Possible", "", "", "", "", *[f"{p:g}" for p in tareas.values()],
                       "(read only)", "(read only)"])
    for alumno in alumnos:
        escritor.writerow([*map(str, alumno), *["" for _ in tareas], "", ""])
    return ("\ufeff" + salida.getvalue()).encode("utf-8")


def escribir(ruta: Path, datos: bytes, epoca: float | None = None) -> Path:
    ruta.parent.mkdir(parents=True, exist_ok=True)
    ruta.write_bytes(datos)
    if epoca is not None:
        import os
        os.utime(ruta, (epoca, epoca))
    return ruta


def cuaderno_comprimible(datos: bytes | None = None, relleno: int = 3 * 512 * 1024) -> bytes:
    """A valid notebook that compresses hundreds of times: ``datos`` (a notebook) plus ``relleno``
    bytes of one repeated character in its metadata, where nbgrader and the feedback ignore them.

    Without ``datos``, a minimal one (one code cell): 1.5 MiB by default, which deflate compresses
    about 900 times, as a real notebook full of repeated output does.
    """
    import json
    nb = json.loads(datos) if datos else {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}, "outputs": [],
                   "source": "print('hola')"}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}
    nb["metadata"]["relleno"] = ""
    base = len(json.dumps(nb).encode())
    nb["metadata"]["relleno"] = "0" * max(relleno - base, 0)
    return json.dumps(nb).encode()
