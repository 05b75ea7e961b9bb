"""The output budgets of grader_tests/caja/salida_acotada.py, message by message (no kernel).

End to end (a real flood graded by nbgrader, the TA's memory): tests/hostiles/c31_salida_torrencial.py.
"""
from __future__ import annotations

import zmq

from grader_tests.en_el_kernel.cliente import MIME_EVIDENCIA
from grader_tests.caja.salida_acotada import MARCA, ClienteAcotado, Presupuesto, tamaño

MiB = 1024 ** 2


def _flujo(texto: str) -> dict:
    return {"msg_type": "stream", "content": {"name": "stdout", "text": texto}}


def _imagen(n: int) -> dict:
    return {"msg_type": "display_data", "content": {"data": {"image/png": "A" * n}, "metadata": {}}}


def test_un_flujo_conserva_su_principio_y_la_nota_dice_cuanto_se_descarto():
    p = Presupuesto(salida_maxima_celda=1000, salida_maxima_cuaderno=5000)
    p.empezar_celda(False)
    assert p.admitir(_flujo("a" * 600))
    msg = _flujo("b" * 10_000)
    assert p.admitir(msg) and msg["content"]["text"] == "b" * 400
    assert not p.admitir(_flujo("c"))
    assert p.admitir({"msg_type": "status", "content": {"execution_state": "idle"}})
    nota = p.nota()
    assert nota["metadata"][MARCA]["descartado"] == 9_601
    assert "se recortó" in nota["data"]["text/plain"]


def test_el_cuaderno_entero_tiene_tope_y_las_celdas_siguientes_tambien_lo_notan():
    p = Presupuesto(salida_maxima_celda=1000, salida_maxima_cuaderno=1500)
    p.empezar_celda(False)
    assert p.admitir(_flujo("a" * 1000))
    p.empezar_celda(False)
    assert p.admitir(_flujo("a" * 800)) and p.cuaderno == 1500
    assert p.nota() is not None
    p.empezar_celda(False)
    assert p.nota() is None                          # a cell that prints nothing needs no note


def test_lo_que_no_es_texto_entra_entero_o_no_entra():
    p = Presupuesto(salida_maxima_celda=1000, salida_maxima_cuaderno=5000)
    p.empezar_celda(False)
    assert p.admitir(_imagen(500))
    assert not p.admitir(_imagen(600))
    assert not p.admitir({"msg_type": "comm_msg", "content": {"data": {"state": {"v": "x" * 2000}}},
                          "buffers": []})
    assert p.nota()["metadata"][MARCA]["descartado"] >= 2600


def test_la_evidencia_de_las_pruebas_no_la_gasta_una_inundacion_anterior():
    p = Presupuesto(salida_maxima_celda=1000, salida_maxima_cuaderno=1000, evidencia_maxima=10_000)
    p.empezar_celda(False)
    p.admitir(_flujo("x" * 50_000))                  # the answer cell floods
    p.empezar_celda(True)                            # a hidden-test cell
    evidencia = {"msg_type": "display_data",
                 "content": {"data": {MIME_EVIDENCIA: {"v": "e" * 3000}, "text/plain": "ok"}}}
    assert p.admitir(evidencia)
    assert not p.admitir(_flujo("y"))               # its other output shares the notebook's budget
    p.empezar_celda(False)
    assert not p.admitir(evidencia)                  # evidence outside a test cell is ordinary output


def test_el_tamano_cuenta_textos_claves_y_buffers_sin_recursion():
    anidado: dict = {}
    hoja = anidado
    for _ in range(100_000):
        hoja["k"] = {}
        hoja = hoja["k"]
    assert tamaño(anidado) >= 100_000
    assert tamaño({"ab": ["cde", memoryview(b"1234")]}) == 2 + 3 + 4


def test_el_cliente_rechaza_mensajes_gigantes_y_encola_pocos():
    cliente = ClienteAcotado(mensaje_maximo=1234, cola_maxima=3)
    try:
        socket = cliente.context.socket(zmq.SUB)
        assert socket.getsockopt(zmq.MAXMSGSIZE) == 1234 and socket.getsockopt(zmq.RCVHWM) == 3
        socket.close(0)
    finally:
        cliente.context.destroy(0)
