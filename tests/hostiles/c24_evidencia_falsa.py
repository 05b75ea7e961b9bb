"""Forged evidence: the kernel rewrites the grading client so every result claims to be a huge NumPy void scalar.

A 200-byte claim that would make the TA's process allocate 1.5 GB if it were
rebuilt.  It is refused before deserialisation: «Evidencia inválida», 0 for
each exercise cell; the quiz keeps its points.
"""
from . import PE_CORRECTA, entrega_normal

ESPERADO = "cuestionario"
RAZON = "Evidencia inválida"

FALSIFICAR = '''
import grader_tests.en_el_kernel.cliente as _cliente
_recoger = _cliente.recoger_evidencia


def _falsa(grade_id, espacio):
    evidencia = _recoger(grade_id, espacio)
    for _r in evidencia.get("resultados", []):
        _r["resultado"] = {"tipo": "escalar_numpy", "dtype": "V1500000000", "valor": {"tipo": "int", "valor": "0"}}
    return evidencia


_cliente.recoger_evidencia = _falsa
'''


def preparar(entrega):
    entrega_normal(entrega, PE_CORRECTA + FALSIFICAR)
