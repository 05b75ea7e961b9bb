"""nbgrader's own files garbled: an invalid ``timestamp.txt`` and no ``submission_secret.txt``.

Autograde grades it anyway (without a submission date, with a reason);
``release_feedback`` skips only this student, with a reason, and releases
everyone else's feedback.  The answer is the control's wrong one.
"""
from . import PE_INCORRECTA, entrega_normal

ESPERADO = "control"
RAZON = "timestamp.txt no contiene una fecha válida"


def preparar(entrega):
    entrega_normal(entrega, PE_INCORRECTA)
    (entrega / "timestamp.txt").write_text("ayer por la tarde\n")
    (entrega / "submission_secret.txt").unlink(missing_ok=True)
