"""What a single-user server of the hub pays to learn who owns each new connection (issue 19).

Starts a minimal tornado server twice, without and with
``despliegue/hub/jupyter/comun/conexiones_por_cuenta.limitar_servidores_tornado`` (as a server of the hub
applies it: only root and its owner trusted, nobody else kept), and times ``--conexiones`` requests from this
account, each on a new connection (the worst case: the proxy keeps its connections to a server alive).  Prints the
median and p95 in ms, and the machine's load.  Run as root (root is trusted, like the hub's proxy)::

    .venv/bin/python scripts/mediciones/bench_dueno_de_conexion.py
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMUN = Path(__file__).resolve().parents[2] / "despliegue" / "hub" / "jupyter" / "comun"

SERVIDOR = r"""
import asyncio, sys
sys.path.insert(0, sys.argv[1])
import tornado.httpserver, tornado.web
if sys.argv[2] == "con":
    import conexiones_por_cuenta
    conexiones_por_cuenta.limitar_servidores_tornado(frozenset({0, __import__("os").geteuid()}), 0,
                                                      solo_de_esta_maquina=True)

class Hola(tornado.web.RequestHandler):
    def get(self):
        self.write("hola")

async def principal():
    servidor = tornado.httpserver.HTTPServer(tornado.web.Application([(r"/", Hola)]))
    [s] = tornado.netutil.bind_sockets(0, "127.0.0.1")
    servidor.add_sockets([s])
    print(s.getsockname()[1], flush=True)
    await asyncio.Event().wait()

import tornado.netutil
asyncio.run(principal())
"""


def medir(modo: str, n: int) -> list[float]:
    proceso = subprocess.Popen([sys.executable, "-c", SERVIDOR, str(COMUN), modo], stdout=subprocess.PIPE, text=True)
    try:
        puerto = int(proceso.stdout.readline())
        tiempos = []
        for _ in range(n):
            inicio = time.perf_counter()
            with socket.create_connection(("127.0.0.1", puerto), timeout=10) as s:
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                while s.recv(65536):
                    pass
            tiempos.append((time.perf_counter() - inicio) * 1000)
        return sorted(tiempos)
    finally:
        proceso.kill()
        proceso.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conexiones", type=int, default=200)
    args = parser.parse_args()
    for modo, texto in (("sin", "sin comprobar el dueño"), ("con", "con conexiones_por_cuenta")):
        t = medir(modo, args.conexiones)
        print(f"{texto:28s} mediana {statistics.median(t):6.2f} ms   p95 {t[int(len(t) * 0.95)]:6.2f} ms")
    print(f"carga de la máquina: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
