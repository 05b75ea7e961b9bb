"""``nbgrader submit`` (the Assignments tab's Submit button) on the course's hub: a student submits as themselves.

Registered for every server of the hub by ``nbgrader_config.py`` next to this
file (``c.ExchangeFactory.submit``).  nbgrader's own submit lets anyone write
an entry under any name (``--student``) and leaves the entry writable by
everyone (0777).  The TA's collect refuses an entry whose owner is not the
student it names (``grader_tests/extensiones_nbgrader/intercambio.py``), so here a student is told
so before anything is written, and their entry is theirs alone:

* ``--student <otro>`` is refused with a Spanish reason (the submission would
  never be collected);
* the entry in ``inbound`` is made 0755: nobody but its author can add,
  replace or delete a file in it;
* the log says, in Spanish, as whom and when it was submitted and which
  submission the TA collects.
"""
from __future__ import annotations

import os

from nbgrader.exchange.default.submit import ExchangeSubmit
from nbgrader.utils import get_username


class EntregaHonesta(ExchangeSubmit):
    """nbgrader's submit, only as the account that runs it (see the module docstring)."""

    def init_dest(self):
        propio = get_username()
        pedido = self.coursedir.student_id
        if pedido not in ("", "*", propio):
            self.fail(f"No se puede entregar como «{pedido}»: el profesorado sólo recoge una entrega hecha "
                      f"desde la cuenta de quien nombra (la tuya es «{propio}»). Entrega sin --student.")
        super().init_dest()

    def copy_files(self):
        super().copy_files()
        entrada = os.path.join(self.inbound_path, self.assignment_filename)
        os.chmod(entrada, 0o755)          # nbgrader's 0777 would let a classmate change it
        self.log.info("Entregado como «%s» (%s). El profesorado recoge tu entrega más reciente hecha desde tu "
                      "cuenta; una entrega con el nombre de otra persona o con una fecha inventada no se recoge.",
                      self.assignment_filename.split("+", 1)[0], self.timestamp)
