"""Duplicate keys: the notebook's JSON holds the key ``"cells"`` twice, the first with the control's answer, the
last an empty list (a hand-merged file; valid JSON, and Python's reader keeps the last value).

What nbgrader reads has no graded cells: 0, and the table names the repeated key instead of a bare
``KeyError: 'respuesta_1'`` from nbgrader's insides.
"""
import json

from . import PE_INCORRECTA, entrega_normal, ruta

ESPERADO = "cero"
RAZON = "repite la clave «cells»"


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA)
    archivo = ruta(entrega)
    nb = json.loads(archivo.read_text(encoding="utf-8"))
    celdas = json.dumps(nb.pop("cells"), ensure_ascii=False)
    resto = json.dumps(nb, ensure_ascii=False)
    archivo.write_text('{"cells": ' + celdas + ", " + resto[1:-1] + ', "cells": []}', encoding="utf-8")
